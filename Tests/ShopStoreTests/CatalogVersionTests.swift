import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import SQLite
import ShopTestSupport
import Testing

@Suite("Catalog version")
struct CatalogVersionTests {
    @Test(arguments: StoreKind.allCases)
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

    @Test(arguments: StoreKind.allCases)
    func aFailedImportLeavesTheVersionAlone(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "lamp")])
        let before = try stores.catalog.version()
        #expect(throws: (any Error).self) { try stores.catalog.upsert([.mock(handle: "a"), .mock(handle: "a")]) }
        #expect(try stores.catalog.version() == before)
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
        #expect(try catalog.version() != before)
        // Even a hand-written stock change counts.
        let mid = try catalog.version()
        try server.withConnection { try $0.execute("UPDATE variants SET stock = 7") }
        #expect(try catalog.version() != mid)
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
