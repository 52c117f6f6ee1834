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

    /// A catalog whose tag rows the version before wrote (`writeOldKey`), migrated (`migrate`
    /// answers the versions it applied), finds the product under every spelling of Işık.
    private func rewritesTheKeysStoredBefore(_ catalog: CatalogStore, writeOldKey: () throws -> Void,
                                             migrate: () throws -> [Int]) throws {
        _ = try catalog.upsert([Self.lamp])
        try writeOldKey()
        #expect(try catalog.products(ProductQuery(tag: "ışık")).products.isEmpty, "the bug")
        let before = try catalog.version()

        #expect(try migrate() == [36])

        #expect(try catalog.products(ProductQuery(tag: "ışık")).products.map(\.handle) == ["lamp"])
        #expect(try catalog.products(ProductQuery(tag: "oak")).products.map(\.handle) == ["lamp"], "other keys kept")
        #expect(try catalog.version() > before, "a key changed: what was kept under the old ones is not answered")
    }

    /// The key as the version before wrote it.
    static let oldKey = "UPDATE product_tags SET tag_key = 'işık' WHERE tag = 'Işık'"

    @Test func sqliteRewritesTheKeysStoredBefore() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(35))) == Array(1...35))
        try rewritesTheKeysStoredBefore(.sqlite(database), writeOldKey: { try database.withConnection { try $0.execute(Self.oldKey) } },
                                        migrate: { try database.migrate() })
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
    func postgresRewritesTheKeysStoredBefore() throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1, schema: schema)
        defer { database.close() }
        #expect(try database.migrate(PostgresSchema.migrations.filter { $0.version < 36 }).last == 34)
        try rewritesTheKeysStoredBefore(.postgres(database), writeOldKey: { try database.withConnection { try $0.execute(Self.oldKey) } },
                                        migrate: { try database.migrate() })
    }
}
