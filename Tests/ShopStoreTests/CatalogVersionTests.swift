import Dispatch
import Foundation
import ShopCore
import ShopStore
@testable import ShopStorePostgres
import Postgres
@testable import ShopStoreSQLite
import SQLite
import ShopTestSupport
import Synchronization
import Testing

@Suite("Catalog version")
struct CatalogVersionTests {
    @Test(arguments: StoreKind.engines(for: .catalog))
    func everyCatalogWriteChangesTheVersionAndReadsDoNot(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let start = try stores.catalog.version()
        _ = try stores.catalog.products(ProductQuery())
        _ = try stores.catalog.categories()
        #expect(try stores.catalog.version() == start)
        _ = try stores.catalog.upsert([.mock(handle: "lamp", category: "Lamps")])
        let afterImport = try stores.catalog.version()
        #expect(afterImport != start)
        _ = try stores.catalog.upsert([.mock(handle: "lamp", title: "Renamed Lamp", category: "Lamps")])
        #expect(try stores.catalog.version() != afterImport)
    }

    /// Issue #14: a hold bumps the catalog version (cached pages show stock net of holds) but
    /// not the version a listing's kept ids, facets and tags are valid for — those statements
    /// name the held-out products themselves — so a shop with checkouts under way keeps them.
    /// An order that takes the last unit changes the catalog, and the listing with it.
    @Test(.bug("issue #14", "every hold dropped every kept listing"), arguments: StoreKind.engines(for: .orders))
    func aHoldMovesTheCatalogVersionButNotTheListingsOne(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop(chairs: 1)
        func listingVersion() throws -> Int64 {
            if let postgres = stores.postgres {
                return try postgres.database.withConnection { try PGCatalog.listingVersion($0) }
            }
            return try stores.database.withConnection(SQLCatalog.listingVersion)
        }
        let inStock = ProductQuery(sort: .featured, inStockOnly: true, includesFacets: true)
        let chair = try stores.variant("chair").variant
        let holder = try stores.guest("holder")
        let now = Fixtures.start, until = now.addingTimeInterval(900)
        #expect(try stores.catalog.products(inStock).products.map(\.handle) == ["chair", "lamp", "mug", "poster"])
        let (catalogBefore, listingBefore) = (try stores.catalog.version(), try listingVersion())

        #expect(try stores.orders.reserve(holder, [StockRequest(variantID: chair.id, quantity: 1)], until, now)
                == .reserved(until: until))
        #expect(try stores.catalog.version() > catalogBefore, "cached pages show the hold")
        #expect(try listingVersion() == listingBefore, "kept listings outlive it")
        var held = inStock
        held.heldOutProductIDs = try stores.heldOut(at: now)
        #expect(try stores.catalog.products(held).products.map(\.handle) == ["lamp", "mug", "poster"])

        guard case .placed = try stores.orders.placeOrder(OrderFixtures.request(holder, [(chair, 1)]), now) else {
            Issue.record("the holder's order was not placed")
            return
        }
        #expect(try listingVersion() > listingBefore, "the stock changed")
        #expect(try stores.heldOut(at: now).isEmpty)
        #expect(try stores.catalog.products(inStock).products.map(\.handle) == ["lamp", "mug", "poster"],
                "sold out now: not a kept answer from before the order")
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func aFailedImportLeavesTheVersionAlone(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "lamp")])
        let before = try stores.catalog.version()
        #expect(throws: (any Error).self) { try stores.catalog.upsert([.mock(handle: "a"), .mock(handle: "a")]) }
        #expect(try stores.catalog.version() == before)
    }

    @Test(.bug("issue #15", "one bump per writing transaction"), arguments: StoreKind.engines(for: .catalog))
    func anImportChangesTheVersionOnceAndAnUnchangedOneNotAtAll(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let drafts = (1...30).map { ProductDraft.mock(handle: "lamp-\($0)", category: "Lamps \($0 % 3)") }
        let before = try stores.catalog.version()
        _ = try stores.catalog.upsert(drafts)
        #expect(try stores.catalog.version() == before + 1)
        _ = try stores.catalog.upsert(drafts)
        #expect(try stores.catalog.version() == before + 1)
    }

    /// Two app servers on one PostgreSQL: each has its own pool and store, and a write through
    /// one is seen by the other's very next call (issue #15, point 5: page caches compare it).
    @Test(.bug("issue #15", "a catalog change made through the other server"),
          arguments: StoreKind.engines(for: .catalog).filter { $0 == .postgres })
    func aWriteThroughAnotherServerIsSeenAtOnce(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let postgres = try #require(stores.postgres)
        let other = try PostgresDatabase.open(url: try #require(PostgresTestServer.url), poolSize: 1, schema: postgres.schema)
        defer { other.close() }
        let otherCatalog = CatalogStore.postgres(other)
        _ = try stores.catalog.upsert([.mock(handle: "lamp", title: "Lamp")])
        let before = try stores.catalog.version()
        #expect(try otherCatalog.version() == before)
        _ = try otherCatalog.upsert([.mock(handle: "lamp", title: "Brass Lamp")])
        #expect(try stores.catalog.version() != before)
        #expect(try stores.product("lamp").title == "Brass Lamp")
        // A stock change written straight to the table counts too (the variants' triggers).
        let mid = try stores.catalog.version()
        try other.withConnection { _ = try $0.run("UPDATE variants SET stock = 7") }
        #expect(try stores.catalog.version() != mid)
    }

    @Test func writesFromAnotherConnectionOrProcessAreSeen() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let server = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { server.close() }
        let catalog = CatalogStore.sqlite(server)
        let before = try catalog.version()
        // Another process (e.g. `shoppable import`) opens the same file and writes.
        let importer = try SQLiteDatabase.open(path: path.path, poolSize: 1)
        _ = try CatalogStore.sqlite(importer).upsert([.mock(handle: "imported")])
        importer.close()
        // Seen within `otherWritersSeenWithin` (10 ms): the version is remembered between
        // requests, and another process's commit cannot reset it.
        let deadline = ContinuousClock.now + .seconds(2)
        while try catalog.version() == before, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(try catalog.version() != before)
        // Even a hand-written stock change counts — at once, since this process made it.
        let mid = try catalog.version()
        try server.withConnection { try $0.execute("UPDATE variants SET stock = 7") }
        #expect(try catalog.version() != mid)
    }

    /// The version is remembered between calls, yet a commit of this process — through any
    /// connection of the pool, any store — is seen by the very next call.
    @Test func ownCommitsAreSeenAtOnceWhileTheVersionIsRemembered() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let server = try SQLiteDatabase.open(path: path.path, poolSize: 3, otherWritersSeenWithin: .seconds(3600))
        defer { server.close() }
        let catalog = CatalogStore.sqlite(server)
        _ = try catalog.upsert([.mock(handle: "lamp")])
        for round in 0..<20 {
            let before = try catalog.version()
            try server.withConnection { try $0.execute("UPDATE variants SET stock = \(round)") }
            #expect(try catalog.version() != before, "round \(round)")
        }
        // Racing threads: each sees its own commit at once, whatever the others read between.
        let missed = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<100 {
                do {
                    let before = try catalog.version()
                    try server.withConnection { try $0.execute("UPDATE variants SET stock = \(thread * 1000 + round)") }
                    if try catalog.version() == before { missed.withLock { $0 += 1 } }
                } catch {
                    missed.withLock { $0 += 1_000 }
                }
            }
        }
        #expect(missed.withLock { $0 } == 0)
        // Another process's commit waits for the hour to pass: remembered, not read again.
        let before = try catalog.version()
        let importer = try SQLiteDatabase.open(path: path.path, poolSize: 1)
        _ = try CatalogStore.sqlite(importer).upsert([.mock(handle: "imported")])
        importer.close()
        #expect(try catalog.version() == before, "remembered: the read was not repeated")
    }
}

@Suite("Catalog version and reservations")
struct ReservationVersionTests {
    @Test func holdingAndReleasingStockChangesTheCatalogVersion() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        _ = try catalog.upsert([.mock(handle: "chair", variants: [.mock(sku: "C", inventory: .tracked(quantity: 3, allowsBackorder: false))])])
        let variant = try #require(try catalog.productByHandle("chair")).variants[0].id
        let sessions = SessionStore.sqlite(database)
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        try sessions.create(Session(id: "guest", csrfTokenHash: "t", createdAt: now, lastSeenAt: now, expiresAt: now + 3600))
        let orders = OrderStore.sqlite(database)
        let before = try catalog.version()
        _ = try orders.reserve(.guest("guest"), [StockRequest(variantID: variant, quantity: 1)], now + 900, now)
        let held = try catalog.version()
        #expect(held != before, "a hold changes what pages may promise")
        try orders.releaseReservation(.guest("guest"))
        #expect(try catalog.version() != held)
    }
}

/// Issue #13, point 6 (migration 26): an upsert sets the per-row triggers aside, refreshes each
/// product it wrote once and bumps the version once — and puts the triggers back.
@Suite("Catalog version of a bulk upsert")
struct BulkUpsertVersionTests {
    private static func facts(_ database: SQLiteDatabase, _ handle: String) throws -> (minPrice: Int64?, isAvailable: Bool) {
        try database.withConnection { connection in
            let row = try #require(try connection.prepare(
                "SELECT min_price_minor, is_available FROM products WHERE handle = ?").first([.text(handle)]))
            return (try row.optionalInt64(0), try row.bool(1))
        }
    }

    private static func isBulkWriting(_ database: SQLiteDatabase) throws -> Bool {
        try database.withConnection { try $0.prepare("SELECT is_bulk_writing FROM catalog_state").first()?.bool(0) ?? true }
    }

    /// Every trigger of the schema, name and SQL, in name order.
    private static func triggers(_ database: SQLiteDatabase) throws -> [String] {
        try database.withConnection { connection in
            try connection.prepare("SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
                .query().map { try $0.string(0) }
        }
    }

    /// Products that only make an upsert large enough to drop the triggers (`BulkWriteTriggers`).
    private static func fillers(_ count: Int) -> [ProductDraft] {
        (0..<count).map { .mock(handle: "filler-\($0)", variants: [.mock(sku: "F-\($0)")]) }
    }

    /// Both ways an upsert sets the triggers aside: the flag alone (a small upsert), and the flag
    /// with the triggers dropped for the transaction (`SQLCatalog.bulkWriteMinimum` drafts or more).
    static let fillerCounts = [0, SQLCatalog.bulkWriteMinimum]

    @Test(.bug(id: "13"), arguments: fillerCounts)
    func anUpsertBumpsOnceRefreshesEachProductAndPutsTheTriggersBack(fillerCount: Int) throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        let triggers = try Self.triggers(database)
        #expect(triggers.count { $0.contains("is_bulk_writing") } == 15)
        let tracked = { (quantity: Int) in Inventory.tracked(quantity: quantity, allowsBackorder: false) }
        let drafts: [ProductDraft] = Self.fillers(fillerCount) + [
            .mock(handle: "lamp", category: "Lamps", optionNames: ["Size"], variants: [
                .mock(sku: "L-S", options: ["S"], price: .usd(30_00), inventory: tracked(0)),
                .mock(sku: "L-M", options: ["M"], price: .usd(20_00), inventory: tracked(2)),
                .mock(sku: "L-L", options: ["L"], price: .usd(25_00), inventory: tracked(0)),
            ], images: [ProductImage(url: "/a.jpg"), ProductImage(url: "/b.jpg")]),
            .mock(handle: "sold-out", category: "Lamps", variants: [.mock(sku: "S-1", price: .usd(9_00), inventory: tracked(0))]),
            .mock(handle: "chair", category: "Chairs"),
        ]
        let before = try catalog.version()
        _ = try catalog.upsert(drafts)
        #expect(try catalog.version() == before + 1, "one bump for products, variants, images and categories")
        #expect(try Self.isBulkWriting(database) == false)
        #expect(try Self.facts(database, "lamp") == (20_00, true))
        #expect(try Self.facts(database, "sold-out") == (9_00, false))
        #expect(try Self.facts(database, "chair") == (10_00, true))
        #expect(try Self.triggers(database) == triggers, "the same triggers, word for word")

        // The same file again writes nothing, so no cache is told to drop its pages, and the
        // schema is left alone (no connection has to read it again).
        let schemaVersion = { try database.withConnection { try $0.prepare("PRAGMA schema_version").first()?.int(0) } }
        let schemaBefore = try schemaVersion()
        _ = try catalog.upsert(drafts)
        #expect(try catalog.version() == before + 1)
        #expect(try schemaVersion() == schemaBefore)

        // A re-import that drops the cheap variant and prices another lower updates the product
        // through the path for stored products (variants updated and deleted).
        var changed = drafts
        let (lamp, soldOut) = (fillerCount, fillerCount + 1)
        changed[lamp].variants = [drafts[lamp].variants[0], drafts[lamp].variants[2]]
        changed[lamp].variants[1].price = .usd(5_00)
        changed[soldOut].variants[0].inventory = tracked(4)
        _ = try catalog.upsert(changed)
        #expect(try catalog.version() == before + 2)
        #expect(try Self.facts(database, "lamp") == (5_00, false))
        #expect(try Self.facts(database, "sold-out") == (9_00, true))
        #expect(try Self.triggers(database) == triggers)

        // Outside an upsert the triggers are back: a hand-written stock change refreshes the
        // product and bumps the version.
        try database.withConnection { try $0.execute("UPDATE variants SET stock = 1 WHERE sku = 'L-S'") }
        #expect(try Self.facts(database, "lamp") == (5_00, true))
        #expect(try catalog.version() > before + 2)
    }

    @Test(.bug(id: "13"), arguments: fillerCounts)
    func aFailedUpsertPutsTheTriggersBack(fillerCount: Int) throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 1)
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        _ = try catalog.upsert([.mock(handle: "lamp", variants: [.mock(sku: "A")])])
        let before = try catalog.version()
        let triggers = try Self.triggers(database)
        // Two products claiming one SKU: refused by the database inside the upsert, after the
        // fillers were written.
        #expect(throws: (any Error).self) {
            try catalog.upsert(Self.fillers(fillerCount)
                + [.mock(handle: "b", variants: [.mock(sku: "X")]), .mock(handle: "c", variants: [.mock(sku: "x ")])])
        }
        #expect(try Self.triggers(database) == triggers)
        #expect(try catalog.productByHandle("filler-0") == nil, "nothing of the failed upsert is kept")
        #expect(try Self.isBulkWriting(database) == false)
        #expect(try catalog.version() == before)
        try database.withConnection { try $0.execute("UPDATE variants SET price_minor = 1 WHERE sku = 'A'") }
        #expect(try catalog.version() > before)
        #expect(try Self.facts(database, "lamp").minPrice == 1)
    }
}

/// Statements every uncached listing runs, looked at through SQLite's query planner.
@Suite("Query plans of the listing's hold statements")
struct HoldStatementPlanTests {
    /// Found by a benchmark: written as a join ordered by product, `heldProducts` walked every
    /// variant and probed the holds for each — 1 155 → 13 295 µs of CPU per uncached category
    /// page on 100 000 products, with no hold at all. Both statements start from the holds'
    /// `expires_at` index: no step of their plans scans a table.
    @Test(.bug("issue #14", "every uncached listing scanned every variant"))
    func heldProductsAndHoldEndsStartFromTheHolds() throws {
        let stores = try StoreHarness(.sqlite)
        try stores.stockShop(chairs: 1)
        for statement in [SQLOrders.heldProducts, SQLOrders.holdEnds] {
            let plan = try stores.database.withConnection { connection in
                try connection.prepare("EXPLAIN QUERY PLAN " + statement).query([.integer(0)]).map { try $0.string(3) }
            }
            #expect(plan.contains { $0.contains("stock_reservations_expires") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }
}
