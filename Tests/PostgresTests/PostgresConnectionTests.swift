import Foundation
import Postgres
import Testing

@Suite("PostgreSQL connection", .enabled(if: TestServer.isAvailable, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
struct PostgresConnectionTests {
    let db: PostgresConnection

    init() throws {
        db = try TestServer.connect()
        try db.execute("""
            CREATE TEMPORARY TABLE things (id bigserial PRIMARY KEY, i bigint, small integer, d double precision,
                                           t text, b bytea, f boolean);
            CREATE TEMPORARY TABLE parents (id bigint PRIMARY KEY);
            CREATE TEMPORARY TABLE children (id bigint PRIMARY KEY, parent_id bigint NOT NULL REFERENCES parents(id),
                                             quantity integer NOT NULL CHECK (quantity > 0));
            """)
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64(Int32.max) + 1, Int64.max])
    func integersRoundTripAcrossTheFullInt64Range(value: Int64) throws {
        let id = try #require(try db.first("INSERT INTO things (i) VALUES ($1) RETURNING id", [.integer(value)])).int64(0)
        let row = try #require(try db.first("SELECT i FROM things WHERE id = $1", [.integer(id)]))
        #expect(try row.int64(0) == value)
    }

    @Test(arguments: ["", "plain", "Çalışkan İğde ışık", "naïve café — “quoted” 'single'", "emoji 🪑🛒 and 𝄞",
                      "line\nbreak\ttab", "'); DROP TABLE things; --", "$1 and \\x00"])
    func textRoundTripsAsUTF8AndIsNeverSplicedIntoTheSQL(value: String) throws {
        try db.run("INSERT INTO things (t) VALUES ($1)", [.text(value)])
        let row = try #require(try db.first("SELECT t, octet_length(t) FROM things WHERE t = $1", [.text(value)]))
        #expect(try row.string(0) == value)
        #expect(try row.int(1) == value.utf8.count)
        #expect(try db.first("SELECT count(*) FROM things")?.int(0) == 1)
    }

    @Test func textWithANULCharacterIsRefusedNotTruncated() throws {
        #expect(throws: PostgresError.self) { try db.run("INSERT INTO things (t) VALUES ($1)", ["before\u{0}after"]) }
        do {
            try db.run("INSERT INTO things (t) VALUES ($1)", ["before\u{0}after"])
        } catch {
            #expect(error.sqlState == .characterNotInRepertoire)
        }
        #expect(try db.first("SELECT count(*) FROM things")?.int(0) == 0)
    }

    @Test func realsBytesBooleansSmallIntegersAndNullsRoundTrip() throws {
        let bytes: [UInt8] = [0, 1, 2, 0x7f, 0x80, 254, 255]
        try db.run("INSERT INTO things (i, small, d, t, b, f) VALUES ($1, $2, $3, $4, $5, $6)",
                   [nil, 7, 2.5, nil, .bytes(bytes), true])
        try db.run("INSERT INTO things (b, f) VALUES ($1, $2)", [.bytes([]), false])
        let rows = try db.query("SELECT i, small, d, t, b, f FROM things ORDER BY id")
        #expect(rows.count == 2)
        #expect(try rows[0].optionalInt64(0) == nil)
        #expect(try rows[0].int(1) == 7)
        #expect(try rows[0].double(2) == 2.5)
        #expect(try rows[0].optionalString(3) == nil)
        #expect(try rows[0].bytes(4) == bytes)
        #expect(try rows[0].bool(5))
        #expect(try rows[1].bytes(4) == [])
        #expect(try !rows[1].bool(5))
    }

    @Test func readingAColumnAsTheWrongTypeThrows() throws {
        let row = try #require(try db.first("SELECT 1::bigint, 'x'::text, NULL::text"))
        #expect(throws: PostgresError.self) { try row.string(0) }
        #expect(throws: PostgresError.self) { try row.int64(1) }
        #expect(throws: PostgresError.self) { try row.string(2) }
        #expect(throws: PostgresError.self) { try row.int64(3) }
        #expect(try row.optionalString(2) == nil)
    }

    @Test func aStatementIsPreparedOncePerConnectionAndReused() throws {
        for value in 1...5 { try db.run("INSERT INTO things (i) VALUES ($1)", [.integer(Int64(value))]) }
        #expect(try db.first("SELECT sum(i)::bigint FROM things WHERE i > $1", [0])?.int(0) == 15)
        #expect(db.cachedStatementCount == 2)
        let list = "SELECT statement FROM pg_prepared_statements ORDER BY statement"
        let prepared = try db.query(list).map { try $0.string(0) }
        #expect(prepared == ["INSERT INTO things (i) VALUES ($1)", list, "SELECT sum(i)::bigint FROM things WHERE i > $1"])
    }

    /// (setup, failing statement, its SQLSTATE)
    static let failures: [(String, String, SQLState)] = [
        ("INSERT INTO parents VALUES (1)", "INSERT INTO parents VALUES (1)", .uniqueViolation),
        ("", "INSERT INTO children VALUES (1, 99, 1)", .foreignKeyViolation),
        ("INSERT INTO parents VALUES (1)", "INSERT INTO children VALUES (1, 1, 0)", .checkViolation),
        ("", "INSERT INTO children (id, quantity) VALUES (1, 1)", .notNullViolation),
        ("", "SELEC 1", .syntaxError),
        ("", "SELECT * FROM no_such_table", .undefinedTable),
        ("", "SELECT 'x'::bigint", .invalidTextRepresentation),
    ]

    @Test(arguments: failures)
    func errorsCarryTheirSQLState(setup: String, statement: String, state: SQLState) throws {
        if !setup.isEmpty { try db.execute(setup) }
        do {
            try db.run(statement)
            Issue.record("\(statement) did not fail")
        } catch {
            #expect(error.sqlState == state)
            #expect(error.sql == statement)
            #expect(error.isConstraintViolation == (state.errorClass == "23"))
            #expect(!error.isConnectionLost)
        }
        #expect(db.isReady)  // the connection goes on
    }

    @Test func aTransactionCommitsOrRollsBackWhole() throws {
        struct Refused: Error {}
        try db.transaction { _ = try db.run("INSERT INTO parents VALUES (1)") }
        #expect(throws: Refused.self) {
            try db.transaction {
                try db.run("INSERT INTO parents VALUES (2)")
                throw Refused()
            }
        }
        #expect(throws: PostgresError.self) {
            try db.transaction {
                try db.run("INSERT INTO parents VALUES (3)")
                try db.run("INSERT INTO parents VALUES (1)")  // unique violation: the whole transaction goes
            }
        }
        #expect(try db.query("SELECT id FROM parents ORDER BY id").map { try $0.int(0) } == [1])
        #expect(!db.isInTransaction)
    }

    @Test func aNestedTransactionUndoesOnlyItsOwnWork() throws {
        try db.transaction {
            try db.run("INSERT INTO parents VALUES (1)")
            _ = try? db.transaction {
                try db.run("INSERT INTO parents VALUES (2)")
                try db.run("INSERT INTO parents VALUES (1)")
            }
            try db.run("INSERT INTO parents VALUES (3)")
        }
        #expect(try db.query("SELECT id FROM parents ORDER BY id").map { try $0.int(0) } == [1, 3])
    }

    @Test func connectionKeywordsOverrideTheURLs() throws {
        let schema = try TestSchema()
        let connection = try schema.connect()
        #expect(try connection.first("SELECT current_schema()")?.string(0) == schema.name)
    }

    @Test func tlsOptionsInTheURLReachLibpq() throws {
        // The test server has no TLS: a URL that requires it must be refused by libpq, which
        // shows the option was passed through, not dropped.
        let url = try #require(TestServer.url)
        let separator = url.contains("?") ? "&" : "?"
        do {
            _ = try PostgresConnection(url: url + separator + "sslmode=require")
            Issue.record("connected without TLS although sslmode=require")
        } catch {
            #expect(error.sqlState == .cannotEstablishConnection)
            #expect(error.message.contains("SSL"))
            #expect(error.isConnectionLost)
        }
        _ = try PostgresConnection(url: url + separator + "sslmode=disable")
    }

    @Test func aTerminatedBackendIsReportedAsALostConnection() throws {
        let victim = try TestServer.connect()
        try db.query("SELECT pg_terminate_backend($1::int)", [.integer(Int64(victim.backendPID))])
        do {
            try victim.query("SELECT 1")
            Issue.record("a terminated connection answered")
        } catch {
            #expect(error.isConnectionLost)
        }
        #expect(!victim.isReady)
        #expect(!victim.isOpen)
    }
}
