import Foundation
import Postgres
import ShopCore
import ShopStore
import ShopStorePostgres
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// Migration 36: tag keys write the Turkish dotless ı as i (`ProductSearchRules.tagKey`). A
/// product tagged "Işık" before it was stored under "işık", which `?tag=ışık` (key "işik") did
/// not find; the migration rewrites the stored keys on both engines.
@Suite("Tag keys of migration 36")
struct TagKeySchemaTests {
    static let lamp = ProductDraft.mock(handle: "lamp", tags: ["Işık", "Oak"])

    @Test func sqliteRewritesTheKeysStoredBefore() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(35))) == Array(1...35))
        let catalog = CatalogStore.sqlite(database)
        _ = try catalog.upsert([Self.lamp])
        // The key as the version before wrote it.
        try database.withConnection { try $0.execute("UPDATE product_tags SET tag_key = 'işık' WHERE tag = 'Işık'") }
        #expect(try catalog.products(ProductQuery(tag: "ışık")).products.isEmpty, "the bug")
        let before = try catalog.version()

        #expect(try database.migrate() == [36])

        #expect(try catalog.products(ProductQuery(tag: "ışık")).products.map(\.handle) == ["lamp"])
        #expect(try catalog.products(ProductQuery(tag: "oak")).products.map(\.handle) == ["lamp"], "other keys kept")
        #expect(try catalog.version() > before, "a key changed: what was kept under the old ones is not answered")
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
    func postgresRewritesTheKeysStoredBefore() throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1, schema: schema)
        defer { database.close() }
        #expect(try database.migrate(PostgresSchema.migrations.filter { $0.version < 36 }).last == 34)
        let catalog = CatalogStore.postgres(database)
        _ = try catalog.upsert([Self.lamp])
        try database.withConnection { try $0.execute("UPDATE product_tags SET tag_key = 'işık' WHERE tag = 'Işık'") }
        #expect(try catalog.products(ProductQuery(tag: "ışık")).products.isEmpty, "the bug")
        let before = try catalog.version()

        #expect(try database.migrate() == [36])

        #expect(try catalog.products(ProductQuery(tag: "ışık")).products.map(\.handle) == ["lamp"])
        #expect(try catalog.products(ProductQuery(tag: "oak")).products.map(\.handle) == ["lamp"], "other keys kept")
        #expect(try catalog.version() > before, "a key changed: what was kept under the old ones is not answered")
    }
}
