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
