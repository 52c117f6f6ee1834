import Dispatch
import Foundation
import ShopCore
import ShopStore
@testable import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Synchronization
import Testing

/// What only the SQLite store has: migrations, files, the connection pool, cascades.
@Suite("SQLite database")
struct SQLiteDatabaseTests {
    @Test func migrationsAreRecordedAndApplyOnlyOnce() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close() }
        #expect(try database.appliedMigrations() == [])
        #expect(try database.migrate() == ShopSchema.migrations.map(\.version))
        #expect(try database.migrate() == [])
        #expect(try database.appliedMigrations() == ShopSchema.migrations.map(\.version))
        let recordedAt = try database.withConnection { try $0.prepare("SELECT applied_at FROM schema_migrations").first()?.int64(0) }
        #expect((recordedAt ?? 0) > 1_700_000_000)
    }

    @Test func failingMigrationAppliesNothing() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close() }
        let migrations = [Migration(version: 1, sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)"),
                          Migration(version: 2, sql: "CREATE TABLE b (id INTEGER PRIMARY KEY"),  // syntax error
        ]
        #expect(throws: SQLiteError.self) { try database.migrate(migrations) }
        #expect(try database.appliedMigrations() == [])
        let tables = try database.withConnection { connection in
            try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'a'").query()
        }
        #expect(tables.isEmpty)
    }

    @Test func migrationListMustCountUpFromOne() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        defer { database.close() }
        #expect(throws: SQLiteStoreError.invalidMigrations("expected version 1, found 2")) {
            try database.migrate([Migration(version: 2, sql: "SELECT 1")])
        }
    }

    @Test func dataSurvivesClosingAndReopeningTheFile() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let first = try SQLiteDatabase.open(path: path.path)
        _ = try CatalogStore.sqlite(first).upsert([.mockFull])
        try SessionStore.sqlite(first).create(Session(id: "s", csrfTokenHash: "csrf", createdAt: Date(timeIntervalSince1970: 1),
                                                      lastSeenAt: Date(timeIntervalSince1970: 2),
                                                      expiresAt: Date(timeIntervalSince1970: 3)))
        let stored = try #require(try CatalogStore.sqlite(first).productByHandle(ProductDraft.mockFull.handle))
        first.close()

        let second = try SQLiteDatabase.open(path: path.path)
        defer { second.close() }
        #expect(try CatalogStore.sqlite(second).productByHandle(ProductDraft.mockFull.handle) == stored)
        #expect(try SessionStore.sqlite(second).find("s")?.lastSeenAt == Date(timeIntervalSince1970: 2))
        #expect(try second.migrate() == [])
    }

    @Test func closedDatabaseRefusesCalls() throws {
        let database = try SQLiteDatabase.open(path: ":memory:")
        database.close()
        let error = #expect(throws: SQLiteError.self) { try CatalogStore.sqlite(database).productCount() }
        #expect(error?.code == SQLiteError.misuseCode)
    }

    /// Issue #13: the line stays, so the cart tells the shopper the item is no longer sold.
    @Test func removingAVariantLeavesItsCartLinesForTheCartToReport() throws {
        let database = try SQLiteDatabase.open(path: ":memory:")
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        let sessions = SessionStore.sqlite(database)
        var draft = ProductDraft.mock(handle: "a", optionNames: ["Size"], variants: [.mock(options: ["S"]), .mock(options: ["M"])])
        _ = try catalog.upsert([draft])
        let product = try #require(try catalog.productByHandle("a"))
        try sessions.create(Fixtures.session("s"))
        try sessions.saveCart(.guest("s"), Cart(lines: product.variants.map { LineItem(productID: product.id, variantID: $0.id, quantity: 1) }))

        draft.variants = [.mock(options: ["M"])]
        _ = try catalog.upsert([draft])
        #expect(try sessions.loadCart(.guest("s")).lines.map(\.variantID) == product.variants.map(\.id))

        // A line for a variant that no longer exists is left out when saving.
        try sessions.saveCart(.guest("s"), Cart(lines: [LineItem(productID: product.id, variantID: product.variants[0].id, quantity: 1),
                                                LineItem(productID: product.id, variantID: product.variants[1].id, quantity: 3)]))
        #expect(try sessions.loadCart(.guest("s")).lines.map(\.quantity) == [3])
    }

    /// Issue #14: a remembered catalog version is read again after a commit of this process
    /// that changed `catalog_state` — by a trigger too (a stock change) — and not after one
    /// that did not (an add to cart), however long ago it was read.
    @Test func aRememberedVersionIsReadAgainOnlyAfterACommitThatChangedIt() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 2, otherWritersSeenWithin: .seconds(3_600))
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database), sessions = SessionStore.sqlite(database)
        _ = try catalog.upsert([.mock(handle: "lamp")])
        let product = try #require(try catalog.productByHandle("lamp"))
        let variant = try #require(product.variants.first)
        let reads = Mutex(0)
        let memo = SQLiteDatabase.Memo<Int64>(readFrom: .catalogState)
        func version() throws -> Int64 {
            try database.remembered(memo) { connection in
                reads.withLock { $0 += 1 }
                return try SQLCatalog.catalogVersion(connection)
            }
        }
        let start = try version()
        try sessions.create(Session(id: "s", userID: nil, csrfTokenHash: "h", createdAt: Fixtures.start, lastSeenAt: Fixtures.start,
                                    expiresAt: Fixtures.start.addingTimeInterval(3_600), isPersistent: false))
        try sessions.changeCart(.guest("s"), [.add(productID: product.id, variantID: variant.id, quantity: 1, limit: 10)])
        #expect(try version() == start && reads.withLock { $0 } == 1, "no catalog change: not read again")
        try database.write { try $0.execute("UPDATE variants SET stock = stock + 1 WHERE id = \(variant.id.rawValue)") }
        #expect(try version() > start, "a trigger's bump is seen at once")
        #expect(reads.withLock { $0 } == 2)
        let anything = SQLiteDatabase.Memo<Int64>()
        _ = try database.remembered(anything) { _ in 0 }
        try sessions.changeCart(.guest("s"), [.add(productID: product.id, variantID: variant.id, quantity: 1, limit: 10)])
        var readAgain = false
        _ = try database.remembered(anything) { _ in readAgain = true; return 0 }
        #expect(readAgain, "a memo of anything is read again after every commit")
    }

    /// Issue #14: every write runs on one writer connection that reads without a memory map
    /// (SQLite drops a mapped connection's whole map at its first transaction after another
    /// connection's commit); the pool's readers keep theirs, and remembered values are read
    /// on a connection without one.
    @Test func writesRunOnAnUnmappedWriterAndReadsOnMappedConnections() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { database.close() }
        func mapSize(_ connection: Connection) throws -> Int { try connection.prepare("PRAGMA mmap_size").first()?.int(0) ?? -1 }
        #expect(try database.write(mapSize) == 0)
        #expect(try database.withConnection(mapSize) == 268_435_456)
        #expect(try database.remembered(SQLiteDatabase.Memo<Int>(), read: mapSize) == 0)
        #expect(try database.write { connection in connection.isAutocommit } == false, "inside a transaction")

        // A write that throws leaves nothing behind, and the writer takes the next one.
        try database.write { try $0.execute("CREATE TABLE t (n INTEGER NOT NULL)") }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try database.write { connection in
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Refused()
            }
        }
        try database.write { try $0.execute("INSERT INTO t VALUES (2)") }
        // Committed before `write` returns: any reader sees it at once.
        #expect(try database.withConnection { try $0.prepare("SELECT group_concat(n) FROM t").first()?.string(0) } == "2")

        database.close()
        let error = #expect(throws: SQLiteError.self) { try database.write { _ in } }
        #expect(error?.code == SQLiteError.misuseCode)
    }

    /// Issue #14: a request's reads share one connection and one snapshot (`readingTogether`) —
    /// another thread's commit in the middle is not seen — until a write of its own, which the
    /// reads after it see. Other threads, and other databases, read as before.
    @Test func readsTogetherShareOneSnapshotUntilTheirOwnWrite() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { database.close() }
        try database.write { try $0.execute("CREATE TABLE t (n INTEGER NOT NULL); INSERT INTO t VALUES (1)") }
        func sum() throws -> Int {
            try database.withConnection { connection in
                try connection.transaction(.deferred) { try connection.prepare("SELECT sum(n) FROM t").first()?.int(0) ?? 0 }
            }
        }
        func anotherThreadWrites(_ n: Int) {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = try? database.write { try $0.prepare("INSERT INTO t VALUES (?)").run([SQLValue(n)]) }
                done.signal()
            }
            done.wait()
        }
        let otherPath = TemporaryDatabasePath()
        defer { otherPath.remove() }
        let other = try SQLiteDatabase.open(path: otherPath.path, poolSize: 1)
        defer { other.close() }
        var seen: [Int] = []
        var connections: Set<ObjectIdentifier> = []
        try database.readingTogether {
            seen.append(try sum())
            try database.withConnection { connections.insert(ObjectIdentifier($0)) }
            anotherThreadWrites(10)
            seen.append(try sum())                  // the same snapshot: not seen
            try database.readingTogether { seen.append(try sum()) }  // nested: joins it
            try database.withConnection { connections.insert(ObjectIdentifier($0)) }
            #expect(try other.withConnection { $0.isAutocommit }, "another database reads as before")
            try database.write { try $0.prepare("INSERT INTO t VALUES (100)").run() }
            seen.append(try sum())                  // its own write (and the other's) seen
        }
        #expect(seen == [1, 1, 1, 111])
        #expect(connections.count == 1, "one connection for the reads before the write")
        #expect(try sum() == 111)
        #expect(try database.withConnection { $0.isAutocommit }, "the shared transaction ended")
    }

    /// Writes through the writer and write transactions on a pool connection (a search-index
    /// rebuild) take turns: read-modify-write increments from eight threads lose none.
    @Test func writerAndPoolWritesTakeTurnsAndLoseNoIncrement() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 4)
        defer { database.close() }
        try database.write { try $0.execute("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)") }
        @Sendable func increment(_ connection: Connection) throws {
            let n = try connection.prepare("SELECT n FROM counter").first()?.int(0) ?? 0
            try connection.prepare("UPDATE counter SET n = ?").run([SQLValue(n + 1)])
        }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<50 {
                do {
                    if worker.isMultiple(of: 2) {
                        try database.write(increment)
                    } else {
                        try database.withConnection { connection in try connection.transaction { try increment(connection) } }
                    }
                    _ = try database.withConnection { try $0.prepare("SELECT n FROM counter").first() }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try database.withConnection { try $0.prepare("SELECT n FROM counter").first()?.int(0) } == 400)
    }

    @Test func poolServesMoreThreadsThanConnections() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        _ = try catalog.upsert((1...10).map { ProductDraft.mock(handle: "p\($0)") })

        let failures = Mutex(0)
        let totals = Mutex<Set<Int>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<20 {
                do {
                    if worker == 0 && round % 5 == 0 {
                        _ = try catalog.upsert([ProductDraft.mock(handle: "p1", title: "Round \(round)")])
                    }
                    let page = try catalog.products(ProductQuery(limit: 5))
                    totals.withLock { _ = $0.insert(page.totalCount) }
                    if page.products.count != 5 || page.products.contains(where: { $0.variants.isEmpty }) {
                        failures.withLock { $0 += 1 }
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(totals.withLock { $0 } == [10])
    }

    /// Found by a fresh tester: a web import and `shoppable import` (or two servers) on one file —
    /// two processes, each with its own writer gate — and one import failed with "database is
    /// locked" after SQLite's 5 s busy timeout while the other wrote 100 000 rows. A catalog
    /// upsert now waits for the other process's write. Two databases on one file stand for the
    /// two processes here; the first holds its write lock for 6 s.
    @Test func anUpsertWaitsForAnotherProcesssLongWrite() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let first = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        let second = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer {
            first.close()
            second.close()
        }
        let holding = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        Thread {
            try? first.withConnection { connection in
                try connection.transaction {
                    try connection.execute("UPDATE catalog_state SET version = version WHERE id = 1")
                    holding.signal()
                    Thread.sleep(forTimeInterval: 6)
                }
            }
            released.signal()
        }.start()
        holding.wait()
        let result = try CatalogStore.sqlite(second).upsert([ProductDraft.mock(handle: "lamp", title: "Lamp")], by: .cli)
        #expect(result.productsCreated == 1)
        released.wait()
        #expect(try CatalogStore.sqlite(first).productCount() == 1)
    }
}

