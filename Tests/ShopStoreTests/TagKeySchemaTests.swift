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

        #expect(try migrate().first == 36)

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

/// Migration 37: stock counts within ±`VariantDraft.maximumStock`, as every write path checks
/// now; a count the bulk change had let in overflowed the back office's list (a 500).
@Suite("Stock counts of migration 37")
struct StockLimitSchemaTests {
    private func bringsStockWithinTheLimit(_ catalog: CatalogStore, execute: (String) throws -> Void,
                                           migrate: () throws -> [Int]) throws {
        _ = try catalog.upsert([.mock(handle: "stool", variants: [
            .mock(sku: "S", options: ["S"], inventory: .tracked(quantity: 5, allowsBackorder: false)),
            .mock(sku: "M", options: ["M"], inventory: .tracked(quantity: 5, allowsBackorder: false)),
        ])])
        try execute("UPDATE variants SET stock = 9223372036854775807 WHERE sku = 'S'")
        try execute("UPDATE variants SET stock = -9223372036854775807 WHERE sku = 'M'")
        #expect(try migrate() == [37])
        let variants = try #require(try catalog.productByHandle("stool")).variants.map(\.inventory)
        #expect(variants == [.tracked(quantity: VariantDraft.maximumStock, allowsBackorder: false),
                             .tracked(quantity: -VariantDraft.maximumStock, allowsBackorder: false)])
        #expect(try catalog.findProducts(CatalogListQuery()).rows.count == 1, "the back office's list reads again")
    }

    @Test func sqlite() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(36))).last == 36)
        try bringsStockWithinTheLimit(.sqlite(database), execute: { sql in try database.withConnection { try $0.execute(sql) } },
                                      migrate: { try database.migrate() })
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
    func postgres() throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1, schema: schema)
        defer { database.close() }
        #expect(try database.migrate(PostgresSchema.migrations.filter { $0.version < 37 }).last == 36)
        try bringsStockWithinTheLimit(.postgres(database), execute: { sql in try database.withConnection { try $0.execute(sql) } },
                                      migrate: { try database.migrate() })
    }
}
