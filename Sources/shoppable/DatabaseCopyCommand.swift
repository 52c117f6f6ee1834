import Foundation
import Postgres
import ShopStorePostgres
import ShopStoreSQLite
import SQLite

/// `shoppable db copy --from sqlite:PATH --to postgres://… [--replace]` (issue #15, point 6):
/// moves a shop from its SQLite file to PostgreSQL, all or nothing.
///
/// - The target is migrated first, then every table is copied in ONE PostgreSQL transaction, in
///   the order the foreign keys need, reading one SQLite snapshot. Ids are kept, and each
///   identity's sequence is moved past the highest one, so new rows never collide.
/// - What PostgreSQL derives is made there, not copied: the search vectors, tags, vocabulary and
///   sort keys (`PostgresDatabase.reindexCatalog`); the catalog and campaign versions are bumped.
/// - The target is migrated before the copy starts: a failed copy leaves it migrated and empty
///   (or, with `--replace`, as it was).
/// - Each table's row count is compared on both sides before the commit: any difference rolls
///   everything back.
/// - A target that holds a shop (accounts, products, orders, campaigns…) is refused, unless
///   `--replace` says to empty it first (in the same transaction).
enum DatabaseCopyCommand {
    /// Tables copied, in foreign-key order; every column of the PostgreSQL table is read from
    /// the SQLite one (but generated ones).
    static let tables = [
        "categories", "products", "product_images", "variants", "product_creation_keys", "users", "sessions", "cart_lines", "favorites",
        "account_tokens", "throttle_events", "outbox", "campaigns", "cart_vouchers", "stock_reservations", "checkouts",
        "addresses", "orders", "order_lines", "order_idempotency_keys", "order_stock", "order_events", "reservation_trims",
        "server_secrets",
        "api_carts", "api_cart_lines", "api_tokens", "staff_members", "staff_sessions", "audit_events", "import_jobs",
    ]
    /// Emptied with the copied ones by `--replace` (derived from them).
    static let derivedTables = ["product_search", "product_tags", "search_vocabulary"]

    static func run(_ options: Options) throws {
        guard options.arguments.count == 2, options.arguments[1] == "copy" else {
            throw UsageError("db needs a subcommand: copy --from sqlite:PATH --to postgres://…")
        }
        guard let fromText = options.value("from"), let toText = options.value("to") else {
            throw UsageError("db copy needs --from sqlite:PATH and --to postgres://USER@HOST/DB")
        }
        guard case let .sqlite(path) = try DatabaseLocation.parse(fromText) else {
            throw UsageError("db copy: --from must be a SQLite file (a path or a sqlite: URL)")
        }
        let target = try DatabaseLocation.parse(toText)
        guard case let .postgres(url) = target else { throw UsageError("db copy: --to must be a postgres:// URL") }
        guard path != ":memory:", FileManager.default.fileExists(atPath: path) else {
            throw UsageError("db copy: there is no SQLite database at \(path)")
        }
        let source = try SQLiteDatabase(path: path, poolSize: 1)
        defer { source.close() }
        let latest = ShopSchema.migrations.map(\.version).max() ?? 0
        guard try source.appliedMigrations().max() ?? 0 >= latest else {
            throw UsageError("db copy: \(path) needs migrations first: shoppable migrate --database \(path)")
        }
        let destination = try PostgresDatabase(url: url, poolSize: 1)
        defer { destination.close() }
        let applied = try destination.migrate()
        if !applied.isEmpty { printLine("database \(target): applied migrations \(applied.map(String.init).joined(separator: ", "))") }

        let started = ContinuousClock.now
        let counts = try source.withConnection { sqlite in
            try sqlite.transaction(.deferred) {  // one snapshot of the source
                try destination.pool.transaction(.readCommitted, attempts: 1) { postgres in
                    try copy(from: sqlite, to: postgres, replace: options.has("replace"), target: target)
                }
            }
        }
        for (table, count) in counts where count > 0 { print("  \(table.padding(toLength: 24, withPad: " ", startingAt: 0)) \(count)") }
        let rows = counts.filter { !$0.0.hasPrefix("(") }.reduce(0) { $0 + $1.1 }
        let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        print("copied \(rows) rows of \(path) into \(target) in \(String(format: "%.1f", seconds)) s; every table's count checked")
    }

    /// Copies every table inside the caller's transactions; returns each table's row count.
    private static func copy(from sqlite: Connection, to postgres: PostgresConnection, replace: Bool,
                             target: DatabaseLocation) throws -> [(String, Int)] {
        // Refuse a target that already holds a shop (its singletons — versions — do not count).
        let occupied = try tables.filter { table in try postgres.first("SELECT 1 FROM \(table) LIMIT 1") != nil }
        if !occupied.isEmpty {
            guard replace else {
                throw UsageError("db copy: \(target) already holds data (\(occupied.prefix(4).joined(separator: ", "))…); "
                                 + "give --replace to empty it first, in the same transaction")
            }
            try postgres.execute("TRUNCATE " + (tables + derivedTables).joined(separator: ", ") + " RESTART IDENTITY CASCADE")
        }
        var counts: [(String, Int)] = []
        var restarts: [(table: String, next: Int64)] = []
        for table in tables {
            let columns = try postgres.query("""
                SELECT column_name, data_type FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
                  AND NOT (is_identity = 'YES' AND identity_generation = 'ALWAYS')
                ORDER BY ordinal_position
                """, [.text(table)]).map { (name: try $0.string(0), type: try $0.string(1)) }
            // Each column from the SQLite one of its name; an `id` SQLite keeps as its rowid
            // (`throttle_events`) from the rowid.
            let sqliteColumns = Set(try sqlite.prepare("SELECT name FROM pragma_table_info(?)").query([.text(table)])
                .map { try $0.string(0) })
            let selected = try columns.map { column -> String in
                if sqliteColumns.contains(column.name) { return column.name }
                if column.name == "id" { return "rowid" }
                throw UsageError("db copy: the SQLite table \(table) has no column \(column.name); "
                                 + "run `shoppable migrate` on it with this version first")
            }
            let names = columns.map(\.name).joined(separator: ", ")
            let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
            let insert = "INSERT INTO \(table) (\(names)) VALUES (\(placeholders))"
            var copied = 0
            let rows = try sqlite.prepare("SELECT \(selected.joined(separator: ", ")) FROM \(table)").query()
            for row in rows {
                let values = try zip(row.values, columns).map { value, column in try convert(value, to: column.type, table, column.name) }
                try postgres.run(insert, values)
                copied += 1
            }
            let source = try sqlite.prepare("SELECT count(*) FROM \(table)").first()?.int(0) ?? 0
            let copiedHere = try postgres.first("SELECT count(*) FROM \(table)")?.int(0) ?? -1
            guard source == copied, copiedHere == source else {
                throw UsageError("db copy: \(table) has \(source) rows in SQLite but \(copiedHere) in PostgreSQL; nothing was copied")
            }
            counts.append((table, copied))
            // Identities continue after the highest id SQLite ever gave (AUTOINCREMENT remembers
            // deleted ones: a variant id is never reused, carts and order lines keep naming it).
            if columns.contains(where: { $0.name == "id" }),
               try postgres.first("SELECT pg_get_serial_sequence($1, 'id')", [.text(table)])?.optionalString(0) != nil {
                let idColumn = sqliteColumns.contains("id") ? "id" : "rowid"
                let highest = try sqlite.prepare("SELECT max(\(idColumn)) FROM \(table)").first()?.optionalInt64(0) ?? 0
                let given = try sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").first() == nil ? 0
                    : try sqlite.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").first([.text(table)])?.optionalInt64(0) ?? 0
                restarts.append((table, max(highest, given) + 1))
            }
        }
        let indexed = try PostgresDatabase.reindexCatalog(postgres)
        // Servers already running on the target compare this with their cached pages' version.
        try postgres.run("UPDATE campaign_state SET version = version + 1 WHERE id = 1")
        // `RESTART WITH` is transactional, unlike `setval`: a failed copy leaves the identities as
        // they were. A table with deferred trigger events pending (the catalog's version bumps)
        // cannot be altered, so they fire first — the version is bumped once either way.
        try postgres.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for (table, next) in restarts {
            try postgres.execute("ALTER TABLE \(table) ALTER COLUMN id RESTART WITH \(next)")
        }
        counts.append(("(products indexed)", indexed))
        return counts
    }

    /// A SQLite value as the PostgreSQL column takes it: 0/1 as `boolean`, blobs as `bytea`.
    private static func convert(_ value: SQLValue, to type: String, _ table: String, _ column: String) throws -> PostgresValue {
        switch (value, type) {
        case (.null, _): return .null
        case let (.integer(integer), "boolean"): return .bool(integer != 0)
        case let (.integer(integer), _): return .integer(integer)
        case let (.real(real), _): return .double(real)
        case let (.text(text), _): return .text(text)
        case let (.blob(bytes), "bytea"): return .bytes(bytes)
        case (.blob, _): throw UsageError("db copy: \(table).\(column) holds bytes where PostgreSQL expects \(type)")
        }
    }
}
