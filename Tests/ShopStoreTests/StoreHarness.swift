import Foundation
import ShopCore
import SQLite
import ShopStore
import ShopStoreSQLite
import ShopStorePostgres
import Postgres
import ShopTestSupport
import Sodium
import Testing

/// The engine a contract test runs against. A contract suite takes `StoreKind.engines(for:)` of
/// its store, so each store's contract runs on every engine that implements it.
///
/// There are no in-memory stores to test: SQL behaviour (FTS ranking, Turkish folding, stock
/// holds, order placement) lives in one engine, and a fake that re-implements it drifts from it.
/// Unit tests of services use `.failing` stores from `ShopTestSupport` instead; anything needing
/// real behaviour runs on SQLite `:memory:` (docs/ARCHITECTURE.md, "Testing").
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// SQLite `:memory:`, migrated: one private connection, as the storefront tests use it.
    case sqlite
    /// A migrated SQLite file in WAL mode behind a pool of connections, as `shoppable serve`
    /// uses it: reads and writes on different connections, threads racing for the write lock.
    case sqliteFile
    /// PostgreSQL (issue #15): the server `SHOPPABLE_TEST_POSTGRES_URL` names (`make test`
    /// starts a private one), a schema of the harness's own, migrated, dropped when the harness
    /// goes. Only for the stores in `postgresStores`; without the variable (a developer's plain
    /// `swift test`) it is left out.
    case postgres

    /// The engines every store runs on: SQLite's two. PostgreSQL joins store by store through
    /// ``engines(for:)``.
    static var allCases: [StoreKind] { [.sqlite, .sqliteFile] }

    /// The store contracts, one per contract suite's store.
    enum Store: Sendable { case accounts, sessions, catalog, campaigns, orders, addresses, apiTokens, savedCarts, staff }

    /// The stores ported to PostgreSQL, whose contract suites run on it too
    /// (docs/ARCHITECTURE.md §9 keeps this list).
    static let postgresStores: Set<Store> = [.accounts, .addresses, .campaigns, .apiTokens, .catalog, .sessions, .orders, .savedCarts,
                                             .staff]

    /// The engines the contract of `store` runs on: SQLite's two, and PostgreSQL once the store
    /// is ported and a test server is set.
    static func engines(for store: Store) -> [StoreKind] {
        engines(for: [store])
    }

    /// The engines a test of several stores together runs on: PostgreSQL once all are ported.
    static func engines(for stores: Set<Store>) -> [StoreKind] {
        allCases + (stores.isSubset(of: postgresStores) && PostgresTestServer.url != nil ? [.postgres] : [])
    }

    var testDescription: String { rawValue }
}

/// The one harness of the store contract tests: every store of one engine — catalog, sessions,
/// accounts, campaigns, orders, addresses — sharing one migrated database (`:memory:`, or a
/// temporary file deleted when the harness goes away).
final class StoreHarness {
    let catalog: CatalogStore
    let sessions: SessionStore
    let accounts: AccountStore
    let campaigns: CampaignStore
    let orders: OrderStore
    let addresses: AddressStore
    let apiTokens: APITokenStore
    let savedCarts: SavedCartStore
    let staff: StaffStore
    let audit: AuditStore
    let dashboard: DashboardStore
    let importJobs: ImportJobStore
    /// The SQLite database (SQLite engines only), for tests that look at what it holds.
    var database: SQLiteDatabase {
        get throws { try #require(sqliteDatabase, "a SQLite store harness") }
    }
    private let sqliteDatabase: SQLiteDatabase?
    /// The PostgreSQL database and its schema (`.postgres` only).
    let postgres: (database: PostgresDatabase, schema: String)?
    private let path: TemporaryDatabasePath?

    /// - Parameters:
    ///   - kind: the engine.
    ///   - poolSize: connections of a `.sqliteFile` pool (more than 2 for tests that race
    ///     threads); `:memory:` always has one.
    ///   - searchCountLimit: how many matches a search counts (`ProductPage.searchCountLimit`).
    /// - Throws: `SQLiteError`; `PostgresError`.
    init(_ kind: StoreKind, poolSize: Int = 2, searchCountLimit: Int = ProductPage.searchCountLimit) throws {
        let database: SQLiteDatabase
        switch kind {
        case .sqlite:
            database = try SQLiteDatabase.open(path: ":memory:")
            path = nil
        case .sqliteFile:
            let path = TemporaryDatabasePath()
            database = try SQLiteDatabase.open(path: path.path, poolSize: poolSize)
            self.path = path
        case .postgres:
            let schema = try PostgresTestServer.createSchema()
            let database: PostgresDatabase
            do {
                database = try PostgresDatabase.open(url: try #require(PostgresTestServer.url), poolSize: poolSize, schema: schema)
            } catch {
                PostgresTestServer.drop(schema)
                throw error
            }
            postgres = (database, schema)
            // The stores not ported (StoreKind.postgresStores) fail if a test calls them.
            sqliteDatabase = nil
            path = nil
            catalog = .postgres(database, searchCountLimit: searchCountLimit)
            sessions = .postgres(database)
            accounts = .postgres(database)
            campaigns = .postgres(database)
            orders = .postgres(database)
            addresses = .postgres(database)
            apiTokens = .postgres(database)
            savedCarts = .postgres(database)
            staff = .postgres(database)
            audit = .postgres(database)
            importJobs = .postgres(database)
            dashboard = .postgres(database)
            return
        }
        sqliteDatabase = database
        postgres = nil
        catalog = .sqlite(database, searchCountLimit: searchCountLimit)
        sessions = .sqlite(database)
        accounts = .sqlite(database)
        campaigns = .sqlite(database)
        orders = .sqlite(database)
        addresses = .sqlite(database)
        apiTokens = .sqlite(database)
        savedCarts = .sqlite(database)
        staff = .sqlite(database)
        audit = .sqlite(database)
        importJobs = .sqlite(database)
        dashboard = .sqlite(database)
    }

    deinit {
        sqliteDatabase?.close()
        path?.remove()
        if let postgres {
            postgres.database.close()
            PostgresTestServer.drop(postgres.schema)
        }
    }

    /// The published product with `handle`, or a test failure.
    func product(_ handle: String) throws -> Product {
        guard let product = try catalog.productByHandle(handle) else { throw MissingProduct(handle: handle) }
        return product
    }

    struct MissingProduct: Error { var handle: String }

    /// A new account (`ana@example.com` unless told), created verified.
    func account(_ email: String = "ana@example.com", name: String = "Ana Lima",
                 at date: Date = Fixtures.start) throws -> User {
        try accounts.createUser(NewAccount(email: email, name: name, passwordHash: "hash-of-\(email)", createdAt: date), true)
    }

    /// A new session: a guest's, or signed in to `user`.
    @discardableResult
    func session(_ id: Session.ID, user: User.ID? = nil, at date: Date = Fixtures.start,
                 expiresAt: Date? = nil) throws -> Session {
        let session = Fixtures.session(id, user: user, at: date, expiresAt: expiresAt)
        try sessions.create(session)
        return session
    }
}

/// Values the store tests share.
enum Fixtures {
    /// 2025-06-15T15:06:40Z, a whole second.
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    /// A session value created at `date`, expiring 30 days later unless told.
    static func session(_ id: Session.ID, user: User.ID? = nil, at date: Date = start, expiresAt: Date? = nil,
                        isPersistent: Bool = true) -> Session {
        Session(id: id, userID: user, csrfTokenHash: "csrf-hash-\(id.rawValue)-0123456789abcdef0123456789", createdAt: date,
                lastSeenAt: date, expiresAt: expiresAt ?? date.addingTimeInterval(30 * 86_400), isPersistent: isPersistent)
    }

    /// What a session stored before migration 10 is called after it: the SHA-256 of its old id.
    static func upgradedSessionID(_ old: String) -> Session.ID { Session.ID(rawValue: Digest.sha256Hex(old)) }

    /// Products written by today's `CatalogStore` into a database at an older schema version, for
    /// migration tests: the product columns added since (migration 17's per-language sort keys) are
    /// added for the write and dropped again, and migration 20's search table stands in for the
    /// write, so the schema is the old one afterwards.
    @discardableResult
    static func upsertIntoOldSchema(_ database: SQLiteDatabase, _ drafts: [ProductDraft]) throws -> CatalogUpsertResult {
        try withLaterColumns(database) { try CatalogStore.sqlite(database).upsert(drafts) }
    }

    /// Runs `body` — today's stores on a database of an older schema version — with what later
    /// migrations add that today's stores read and write, added for the while (`sku_key` filled
    /// in as migration 19 does; migration 20's search table standing in for the old one, whose
    /// rows are copied back) and dropped again, so the later migrations still run.
    static func withLaterColumns<Result>(_ database: SQLiteDatabase, _ body: () throws -> Result) throws -> Result {
        // (table, column, definition) of columns later migrations add that today's store uses.
        let later = [("products", "sort_title_tr", "TEXT NOT NULL DEFAULT ''"), ("products", "sort_title_es", "TEXT NOT NULL DEFAULT ''"),
                     ("products", "visibility", "TEXT NOT NULL DEFAULT 'visible'"), ("variants", "sku_key", "TEXT"),
                     ("product_images", "width", "INTEGER"), ("product_images", "height", "INTEGER"),
                     ("product_images", "has_alpha", "INTEGER NOT NULL DEFAULT 0"), ("variants", "barcode", "TEXT"),
                     ("variants", "option_choices", "TEXT"), ("cart_lines", "chosen_values", "TEXT NOT NULL DEFAULT ''"),
                     ("order_lines", "chosen_values", "TEXT NOT NULL DEFAULT ''"),
                     ("orders", "carrier", "TEXT"), ("orders", "tracking_number", "TEXT"),
                     ("orders", "language", "TEXT NOT NULL DEFAULT 'en'"),
                     ("order_lines", "refunded_quantity", "INTEGER NOT NULL DEFAULT 0"),
                     ("catalog_state", "is_bulk_writing", "INTEGER NOT NULL DEFAULT 0"),
                     ("catalog_state", "holds", "INTEGER NOT NULL DEFAULT 0")]
        let missing = try database.withConnection { connection in
            try later.filter { table, column, _ in
                // A table a later migration creates (order_lines before 6) is left alone.
                try connection.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").first([.text(table)]) != nil
                    && connection.prepare("SELECT 1 FROM pragma_table_info('\(table)') WHERE name = ?").first([.text(column)]) == nil
            }
        }
        // Before migration 20, `product_search` has no stem or SKU columns: today's store writes
        // into migration 20's table, whose rows are then copied into the old one.
        // (Before migration 4 there is no search table at all: nothing to stand in for.)
        let oldSearch = try database.withConnection { connection in
            try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'product_search'").first() != nil
                && connection.prepare("SELECT 1 FROM pragma_table_info('product_search') WHERE name = 'title_stems'").first() == nil
        }
        let migration20 = try #require(ShopSchema.migrations.first { $0.version == 20 }).sql
        let start = try #require(migration20.range(of: "CREATE VIRTUAL TABLE product_search"))
        let end = try #require(migration20.range(of: ");", range: start.upperBound..<migration20.endIndex))
        let newSearch = String(migration20[start.lowerBound..<end.upperBound])
        // Before migration 26 there is no product_variant_facts view, which today's upsert reads.
        let migration26 = try #require(ShopSchema.migrations.first { $0.version == 26 }).sql
        let viewStart = try #require(migration26.range(of: "CREATE VIEW product_variant_facts"))
        let viewEnd = try #require(migration26.range(of: ";", range: viewStart.upperBound..<migration26.endIndex))
        let facts = String(migration26[viewStart.lowerBound..<viewEnd.upperBound])
        let noFacts = try database.withConnection { connection in
            try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'product_variant_facts'").first() == nil
        }
        // Before migration 27 there is no order_stock table, which today's placement writes.
        let noOrderStock = try database.withConnection { connection in
            try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'orders'").first() != nil
                && connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'order_stock'").first() == nil
        }
        // Before migration 29 there is no audit_events table, which today's stock and order writes fill.
        let noAudit = try database.withConnection { connection in
            try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'audit_events'").first() == nil
        }
        // Before migration 6 there is no stock_reservations table, whose live holds today's
        // catalog writes trim to the stock.
        let noHolds = try database.withConnection { connection in
            try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'stock_reservations'").first() == nil
        }
        // Before migration 38 there is no search_words table, which today's index writes fill.
        let noSearchWords = try database.withConnection { connection in
            try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_words'").first() == nil
        }
        try database.withConnection { connection in
            if noSearchWords { try connection.execute("CREATE TABLE search_words (word TEXT PRIMARY KEY) WITHOUT ROWID") }
            if noOrderStock {
                try connection.execute("CREATE TABLE order_stock (order_id INTEGER, variant_id INTEGER, quantity INTEGER)")
            }
            if noHolds {
                try connection.execute("CREATE TABLE stock_reservations (id INTEGER PRIMARY KEY, variant_id INTEGER, quantity INTEGER, expires_at INTEGER)")
            }
            if noAudit {
                try connection.execute("""
                    CREATE TABLE audit_events (id INTEGER PRIMARY KEY, at, actor, source, subject, subject_id, action, changes)
                    """)
            }
            for (table, column, definition) in missing {
                try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) \(definition)")
            }
            try connection.execute("UPDATE variants SET sku_key = lower(trim(sku)) WHERE sku IS NOT NULL AND sku_key IS NULL")
            if noFacts { try connection.execute(facts) }
            if oldSearch {
                try connection.execute("""
                    ALTER TABLE product_search RENAME TO product_search_old; \(newSearch)
                    CREATE TABLE search_vocabulary (term TEXT PRIMARY KEY) WITHOUT ROWID;
                    """)
            }
        }
        let result = try body()
        try database.withConnection { connection in
            for (table, column, _) in missing { try connection.execute("ALTER TABLE \(table) DROP COLUMN \(column)") }
            if noSearchWords { try connection.execute("DROP TABLE search_words") }
            if noOrderStock { try connection.execute("DROP TABLE order_stock") }
            if noHolds { try connection.execute("DROP TABLE stock_reservations") }
            if noAudit { try connection.execute("DROP TABLE audit_events") }
            if noFacts { try connection.execute("DROP VIEW product_variant_facts") }
            if oldSearch {
                try connection.execute("""
                    INSERT INTO product_search_old (rowid, title, meta, body, title_tr, meta_tr, body_tr)
                        SELECT rowid, title, meta, body, title_tr, meta_tr, body_tr FROM product_search;
                    DROP TABLE product_search; DROP TABLE search_vocabulary;
                    ALTER TABLE product_search_old RENAME TO product_search;
                    """)
            }
        }
        return result
    }

    /// An email to `address` created at `date`.
    static func message(to address: String = "ana@example.com", subject: String = "Confirm your email",
                        at date: Date = start, html: String? = "<p>Hi</p>") -> OutboxDraft {
        OutboxDraft(toAddress: address, toName: "Ana Lima", subject: subject, textBody: "Hi Ana", htmlBody: html,
                    createdAt: date)
    }

    /// A token of `purpose` with hash `hash`, expiring at `expiresAt`.
    static func token(_ hash: String, _ purpose: TokenPurpose = .emailVerification,
                      expiresAt: Date = start.addingTimeInterval(86_400)) -> TokenDraft {
        TokenDraft(purpose: purpose, tokenHash: hash, expiresAt: expiresAt)
    }

    /// A registration form's account for `email`.
    static func newAccount(_ email: String = "ana@example.com", name: String = "Ana Lima", at date: Date = start) -> NewAccount {
        NewAccount(email: email, name: name, passwordHash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA", createdAt: date)
    }
}

