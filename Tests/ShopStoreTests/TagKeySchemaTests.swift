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
        try BeforeMigration.sqlite(36) { stage in
            try rewritesTheKeysStoredBefore(stage.catalog, writeOldKey: { try stage.execute(Self.oldKey) }, migrate: stage.migrate)
        }
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
    func postgresRewritesTheKeysStoredBefore() throws {
        try BeforeMigration.postgres(36) { stage in
            try rewritesTheKeysStoredBefore(stage.catalog, writeOldKey: { try stage.execute(Self.oldKey) }, migrate: stage.migrate)
        }
    }
}

/// A database of one engine migrated up to just before `version`: its catalog store, a way to
/// run SQL on it (to write rows as an older version did), and a way to run the rest.
struct BeforeMigration {
    var catalog: CatalogStore
    var execute: (String) throws -> Void
    var migrate: () throws -> [Int]

    static func sqlite(_ version: Int, _ body: (BeforeMigration) throws -> Void) throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(ShopSchema.migrations.filter { $0.version < version }) == Array(1..<version))
        // Today's index writes fill search_words (migration 38): stood in for until `migrate`,
        // which then fills it from the index as an older database's upgrade does.
        let execute = { (sql: String) in try database.withConnection { try $0.execute(sql) } }
        let standsIn = version <= 38
        if standsIn { try execute("CREATE TABLE search_words (word TEXT PRIMARY KEY) WITHOUT ROWID") }
        try body(BeforeMigration(catalog: .sqlite(database), execute: execute, migrate: {
            if standsIn { try execute("DROP TABLE search_words") }
            return try database.migrate()
        }))
    }

    static func postgres(_ version: Int, _ body: (BeforeMigration) throws -> Void) throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1, schema: schema)
        defer { database.close() }
        let earlier = PostgresSchema.migrations.filter { $0.version < version }
        #expect(try database.migrate(earlier) == earlier.map(\.version))
        try body(BeforeMigration(catalog: .postgres(database), execute: { sql in try database.withConnection { try $0.execute(sql) } },
                                 migrate: { try database.migrate() }))
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
        #expect(try migrate().first == 37)
        let variants = try #require(try catalog.productByHandle("stool")).variants.map(\.inventory)
        #expect(variants == [.tracked(quantity: VariantDraft.maximumStock, allowsBackorder: false),
                             .tracked(quantity: -VariantDraft.maximumStock, allowsBackorder: false)])
        #expect(try catalog.findProducts(CatalogListQuery()).rows.count == 1, "the back office's list reads again")
    }

    @Test func sqlite() throws {
        try BeforeMigration.sqlite(37) { try bringsStockWithinTheLimit($0.catalog, execute: $0.execute, migrate: $0.migrate) }
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
    func postgres() throws {
        try BeforeMigration.postgres(37) { try bringsStockWithinTheLimit($0.catalog, execute: $0.execute, migrate: $0.migrate) }
    }
}
