import Dispatch
import Foundation
import SQLite
import Synchronization
import Testing

@Suite("SQLite connection")
struct ConnectionTests {
    let db: Connection

    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE things (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB);
            CREATE TABLE parents (id INTEGER PRIMARY KEY);
            CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parents(id));
            """)
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64(Int32.max) + 1, Int64.max])
    func integersRoundTripAcrossTheFullInt64Range(value: Int64) throws {
        try db.prepare("INSERT INTO things (i) VALUES (?)").run([.integer(value)])
        let row = try #require(try db.prepare("SELECT i FROM things WHERE id = ?").first([.integer(db.lastInsertRowID)]))
        #expect(try row.int64(0) == value)
    }

    @Test(arguments: ["", "plain", "Çalışkan İğde ışık", "naïve café — “quoted” 'single'", "emoji 🪑🛒 and 𝄞",
                      "line\nbreak\ttab"])
    func textRoundTripsAsUTF8(value: String) throws {
        try db.prepare("INSERT INTO things (t) VALUES (?)").run([.text(value)])
        let row = try #require(try db.prepare("SELECT t, length(CAST(t AS BLOB)) FROM things WHERE id = ?")
            .first([.integer(db.lastInsertRowID)]))
        #expect(try row.string(0) == value)
        #expect(try row.int(1) == value.utf8.count)
    }

    /// `forEachRow` reads each row in place as `Row` reads it: the same values, NULLs and
    /// mismatches; the statement is reset after the last row and after a throw, so it runs again.
    @Test func rowsReadInPlaceAreWhatRowsReadAndTheStatementRunsAgain() throws {
        let insert = try db.prepare("INSERT INTO things (i, t) VALUES (?, ?)")
        for (number, text) in [(1, "Çalışkan"), (2, "naïve café 🪑"), (3, "")] { try insert.run([.integer(Int64(number)), .text(text)]) }
        try insert.run([.null, .text("no number")])
        let select = try db.prepare("SELECT i, t, coalesce(i > 1, 0) FROM things WHERE t IS NOT NULL ORDER BY id")
        var read: [String] = []
        try select.forEachRow { row in
            read.append("\(try row.optionalInt64(0).map(String.init) ?? "nil") \(try row.string(1)) \(try row.bool(2))")
        }
        let rows = try select.query().map { row in
            "\(try row.optionalInt64(0).map(String.init) ?? "nil") \(try row.string(1)) \(try row.optionalInt64(2).map { $0 != 0 } ?? false)"
        }
        #expect(read == ["1 Çalışkan false", "2 naïve café 🪑 true", "3  true", "nil no number false"])
        #expect(Array(read.prefix(3)) == Array(rows.prefix(3)))

        #expect(throws: SQLiteError.self) { try select.forEachRow { _ = try $0.int64(1) } }  // text, not an integer
        #expect(throws: SQLiteError.self) { try select.forEachRow { _ = try $0.string(0) } }  // an integer, not text
        var again = 0
        try select.forEachRow([]) { _ in again += 1 }
        #expect(again == 4, "reset after the throw: the statement runs again from its first row")
        try db.execute("INSERT INTO things (i) VALUES (1)")  // the statement's reader was reset: no lock held
    }

    @Test func textWithAnEmbeddedNULKeepsEveryByte() throws {
        let value = "before\u{0}after"
        try db.prepare("INSERT INTO things (t) VALUES (?)").run([.text(value)])
        #expect(try db.prepare("SELECT t FROM things").first()?.string(0) == value)
    }

    @Test func realBlobAndNullRoundTrip() throws {
        let bytes: [UInt8] = [0, 1, 2, 254, 255]
        try db.prepare("INSERT INTO things (i, r, t, b) VALUES (?, ?, ?, ?)").run([nil, 2.5, nil, .blob(bytes)])
        try db.prepare("INSERT INTO things (b) VALUES (?)").run([.blob([])])
        let rows = try db.prepare("SELECT i, r, t, b FROM things ORDER BY id").query()
        #expect(rows.count == 2)
        #expect(try rows[0].optionalInt64(0) == nil)
        #expect(try rows[0].double(1) == 2.5)
        #expect(try rows[0].optionalString(2) == nil)
        #expect(try rows[0].blob(3) == bytes)
        #expect(try rows[1].blob(3) == [])
    }

    @Test func literalsAndConveniencesMapToStorageClasses() {
        let values: [SQLValue] = [42, "x", 1.5, nil, true, SQLValue(Int?.none), SQLValue("y" as String?), SQLValue(7 as Int)]
        #expect(values == [.integer(42), .text("x"), .real(1.5), .null, .integer(1), .null, .text("y"), .integer(7)])
    }

    @Test func readingTheWrongTypeThrowsMismatch() throws {
        try db.prepare("INSERT INTO things (i, t) VALUES (?, ?)").run([1, "one"])
        let row = try #require(try db.prepare("SELECT i, t FROM things").first())
        let error = #expect(throws: SQLiteError.self) { try row.string(0) }
        #expect(error?.code == SQLiteError.mismatchCode)
        #expect(throws: SQLiteError.self) { try row.int64(1) }
        #expect(throws: SQLiteError.self) { try row.int64(5) }
    }

    @Test func namedParametersBind() throws {
        let insert = try db.prepare("INSERT INTO things (i, t) VALUES (:i, :t)")
        try insert.bind("named", named: ":t")
        try insert.bind(9, named: ":i")
        #expect(try insert.step() == nil)
        let row = try #require(try db.prepare("SELECT i, t FROM things").first())
        #expect(row.values == [.integer(9), .text("named")])
        #expect(throws: SQLiteError.self) { try insert.bind(1, named: ":missing") }
    }

    @Test func bindingTheWrongNumberOfValuesThrows() throws {
        let error = #expect(throws: SQLiteError.self) {
            try db.prepare("INSERT INTO things (i, t) VALUES (?, ?)").run([1])
        }
        #expect(error?.code == SQLiteError.rangeCode)
    }

    @Test func transactionCommitsWhenTheBodyReturns() throws {
        let count = try db.transaction {
            try db.prepare("INSERT INTO things (i) VALUES (?)").run([1])
            try db.prepare("INSERT INTO things (i) VALUES (?)").run([2])
            return try db.prepare("SELECT count(*) FROM things").first()?.int(0)
        }
        #expect(count == 2)
        #expect(try db.prepare("SELECT count(*) FROM things").first()?.int(0) == 2)
        #expect(db.isAutocommit)
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.prepare("INSERT INTO things (i) VALUES (?)").run([1])
                throw Boom()
            }
        }
        #expect(try db.prepare("SELECT count(*) FROM things").first()?.int(0) == 0)
        #expect(db.isAutocommit)
    }

    @Test func nestedTransactionFailureUndoesOnlyTheInnerWork() throws {
        struct Boom: Error {}
        try db.transaction {
            try db.prepare("INSERT INTO things (i) VALUES (?)").run([1])
            try? db.transaction {
                try db.prepare("INSERT INTO things (i) VALUES (?)").run([2])
                throw Boom()
            }
        }
        let values = try db.prepare("SELECT i FROM things").query().map { try $0.int64(0) }
        #expect(values == [1])
    }

    /// `BEGIN`, `COMMIT` and savepoints are prepared once and kept, not parsed per transaction.
    @Test func transactionsReuseTheirPreparedBeginAndCommit() throws {
        try db.transaction(.deferred) { try db.transaction { try db.prepare("SELECT 1").run() } }
        try db.transaction(.immediate) {}
        let kept = db.cachedStatementCount
        for index in 0..<50 {
            try db.transaction(index.isMultiple(of: 2) ? .deferred : .immediate) {
                try db.transaction { try db.prepare("SELECT 1").run() }
            }
        }
        #expect(db.cachedStatementCount == kept)
    }

    /// A `COMMIT` that fails (a deferred foreign key) throws, and nothing of the transaction stays.
    @Test func aCommitThatFailsRollsBack() throws {
        try db.execute("PRAGMA defer_foreign_keys = ON")
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction { try db.prepare("INSERT INTO children (parent_id) VALUES (?)").run([99]) }
        }
        #expect(error?.code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY, at COMMIT
        #expect(db.isAutocommit)
        #expect(try db.prepare("SELECT count(*) FROM children").first()?.int(0) == 0)
        try db.transaction { try db.prepare("INSERT INTO parents (id) VALUES (?)").run([99]) }
        #expect(try db.prepare("SELECT count(*) FROM parents").first()?.int(0) == 1)
    }

    /// A transaction that spans calls: what runs in between, `transaction` included (a
    /// savepoint), commits or rolls back with it.
    @Test(arguments: [true, false])
    func aTransactionBegunAndEndedApartCommitsOrRollsBack(committing: Bool) throws {
        try db.beginTransaction(.deferred)
        #expect(throws: SQLiteError.self) { try db.beginTransaction(.deferred) }
        try db.prepare("INSERT INTO things (i) VALUES (?)").run([1])
        try db.transaction { try db.prepare("INSERT INTO things (i) VALUES (?)").run([2]) }
        #expect(!db.isAutocommit)
        try db.endTransaction(committing: committing)
        #expect(db.isAutocommit)
        #expect(try db.prepare("SELECT count(*) FROM things").first()?.int(0) == (committing ? 2 : 0))
        try db.endTransaction(committing: true)  // nothing open: nothing happens
        try db.transaction { try db.prepare("INSERT INTO things (i) VALUES (?)").run([3]) }
    }

    /// SQLite's memory statistics are off: with them on, every allocation inside SQLite took one
    /// process-wide mutex, which concurrent requests queued on (docs/BENCHMARKS.md).
    @Test func memoryStatisticsAreOff() throws {
        _ = try Connection(path: ":memory:")
        #expect(!Connection.keepsMemoryStatistics)
    }

    @Test func constraintErrorsCarryExtendedCodeMessageAndSQL() throws {
        try db.prepare("INSERT INTO things (id) VALUES (?)").run([1])
        let error = try #require(#expect(throws: SQLiteError.self) {
            try db.prepare("INSERT INTO things (id) VALUES (?)").run([1])
        })
        #expect(error.code == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(error.isConstraintViolation)
        #expect(error.message.contains("UNIQUE constraint failed"))
        #expect(error.sql == "INSERT INTO things (id) VALUES (?)")
        #expect(error.description.contains("1555"))
    }

    @Test func foreignKeysAreEnforced() throws {
        let error = #expect(throws: SQLiteError.self) {
            try db.prepare("INSERT INTO children (parent_id) VALUES (?)").run([99])
        }
        #expect(error?.code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
    }

    @Test func invalidSQLThrowsWithTheSQL() throws {
        let error = #expect(throws: SQLiteError.self) { try db.prepare("SELEC nonsense") }
        #expect(error?.sql == "SELEC nonsense")
        #expect(error?.message.contains("syntax error") == true)
        #expect(throws: SQLiteError.self) { try db.execute("CREATE TABLE x (; DROP") }
    }

    @Test func preparedStatementsAreReusedFromTheCache() throws {
        let sql = "SELECT t FROM things WHERE i = ?"
        let first = try db.prepare(sql)
        let countAfterFirst = db.cachedStatementCount
        let second = try db.prepare(sql)
        #expect(first === second)
        #expect(db.cachedStatementCount == countAfterFirst)
        #expect(try db.prepare("SELECT 1") !== first)
    }

    @Test func reusedStatementStartsWithClearedBindings() throws {
        let statement = try db.prepare("SELECT ?")
        try statement.bind(5, at: 1)
        let again = try db.prepare("SELECT ?")
        #expect(try again.step()?[0] == .null)
    }

    @Test func lastInsertRowIDAndChangesReportTheLastStatement() throws {
        try db.prepare("INSERT INTO things (id, i) VALUES (?, ?)").run([41, 0])
        #expect(db.lastInsertRowID == 41)
        try db.prepare("INSERT INTO things (i) VALUES (?)").run([0])
        try db.prepare("UPDATE things SET i = 1").run()
        #expect(db.changes == 2)
    }

    @Test func closedConnectionThrowsMisuse() throws {
        let other = try Connection(path: ":memory:")
        other.close()
        #expect(!other.isOpen)
        let error = #expect(throws: SQLiteError.self) { try other.execute("SELECT 1") }
        #expect(error?.code == SQLiteError.misuseCode)
    }

    @Test func fileDatabaseUsesWALAndForeignKeys() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("sqlite-tests-\(UUID().uuidString).sqlite3").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let file = try Connection(path: path)
        #expect(try file.prepare("PRAGMA journal_mode").first()?.string(0) == "wal")
        #expect(try file.prepare("PRAGMA foreign_keys").first()?.int(0) == 1)
        #expect(try file.prepare("PRAGMA busy_timeout").first()?.int(0) == 5000)
    }

    @Test(.bug(id: 9, "two servers started at once on a fresh file: one failed with database is locked"))
    func connectionsOpenedAtOnceOnANewFileAllSucceed() throws {
        for round in 0..<30 {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("sqlite-race-\(round)-\(UUID().uuidString).sqlite3").path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            let failures = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<6 {
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    do {
                        let connection = try Connection(path: path)
                        try connection.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
                        connection.close()
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            for _ in 0..<6 { start.signal() }
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty, "round \(round)")
        }
    }

    @Test func openingAnImpossiblePathThrows() {
        #expect(throws: SQLiteError.self) { try Connection(path: "/nonexistent-dir/x/y.sqlite3") }
    }
}
