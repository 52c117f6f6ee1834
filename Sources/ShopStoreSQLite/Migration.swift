public import SQLite

/// One numbered schema change. Versions start at 1 and increase; a migration, once released,
/// is never edited (add a new one instead).
public struct Migration: Sendable {
    /// The schema version this migration brings the database to.
    public var version: Int
    /// The SQL script (several `;`-separated statements allowed).
    public var sql: String
    /// Work SQL cannot express (SQLite has no SHA-256), run right after `sql` in the same
    /// transaction; nil for most migrations.
    public var step: (@Sendable (Connection) throws -> Void)?
    /// Whether the script rebuilds a table other tables' foreign keys name (create the new
    /// table, copy, drop the old one, rename): SQLite's documented way, which needs foreign keys
    /// off — else dropping the old table deletes the rows that name it (`ON DELETE CASCADE`).
    /// `migrate` turns them off around the transaction and runs `PRAGMA foreign_key_check`
    /// before it commits: a row left naming nothing rolls everything back.
    public var rebuildsReferencedTable: Bool

    /// Creates a migration.
    public init(version: Int, sql: String, rebuildsReferencedTable: Bool = false,
                step: (@Sendable (Connection) throws -> Void)? = nil) {
        self.version = version
        self.sql = sql
        self.step = step
        self.rebuildsReferencedTable = rebuildsReferencedTable
    }
}

/// Errors of the SQLite stores that are not SQLite's own.
public enum SQLiteStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The migration list is not strictly increasing from 1.
    case invalidMigrations(String)
    /// A migration that rebuilt a referenced table left rows naming nothing (`PRAGMA
    /// foreign_key_check`): nothing was applied.
    case foreignKeyViolation(table: String, rowID: Int64)
    /// A stored value could not be decoded (e.g. bad JSON or currency code) — the file was
    /// edited by hand or is corrupt.
    case corruptValue(table: String, column: String, rowID: Int64)

    public var description: String {
        switch self {
        case let .invalidMigrations(reason): "invalid migration list: \(reason)"
        case let .foreignKeyViolation(table, rowID): "a migration left row \(rowID) of \(table) naming a row that is gone"
        case let .corruptValue(table, column, rowID): "cannot decode \(table).\(column) of row \(rowID)"
        }
    }
}

extension SQLiteDatabase {
    /// Applies the migrations not yet recorded in `schema_migrations`, in version order, all in
    /// ONE transaction: either every pending one is applied and recorded, or none is.
    /// Running it again applies nothing. Safe while a server runs on the same file: the
    /// `BEGIN IMMEDIATE` lock makes concurrent migrators take turns.
    /// - Parameter migrations: the list to apply (default: the shop schema, `ShopSchema.migrations`).
    /// - Returns: the versions applied now, ascending (empty when the schema was current).
    /// - Throws: `SQLiteStoreError.invalidMigrations`, or the `SQLiteError` of the failing
    ///   statement (nothing is applied then).
    @discardableResult
    public func migrate(_ migrations: [Migration] = ShopSchema.migrations) throws -> [Int] {
        for (index, migration) in migrations.enumerated() where migration.version != index + 1 {
            throw SQLiteStoreError.invalidMigrations("expected version \(index + 1), found \(migration.version)")
        }
        return try withConnection { connection in
            // Foreign keys off for a rebuild of a table others name (`rebuildsReferencedTable`):
            // only outside a transaction can they be, so it is decided from the versions
            // recorded before it (a concurrent migrator's are read again inside).
            let recorded = try connection.prepare("""
                SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'
                """).first() == nil ? [] : Set(try connection.prepare("SELECT version FROM schema_migrations").query().map { try $0.int(0) })
            let rebuilds = migrations.contains { $0.rebuildsReferencedTable && !recorded.contains($0.version) }
            if rebuilds { try connection.execute("PRAGMA foreign_keys = OFF") }
            defer { if rebuilds { try? connection.execute("PRAGMA foreign_keys = ON") } }
            let applied = try connection.transaction {
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version INTEGER PRIMARY KEY,
                        applied_at INTEGER NOT NULL  -- Unix seconds
                    )
                    """)
                let applied = Set(try connection.prepare("SELECT version FROM schema_migrations").query().map { try $0.int(0) })
                var appliedNow: [Int] = []
                for migration in migrations where !applied.contains(migration.version) {
                    try connection.execute(migration.sql)
                    try migration.step?(connection)
                    try connection.prepare("""
                        INSERT INTO schema_migrations (version, applied_at) VALUES (?, CAST(strftime('%s', 'now') AS INTEGER))
                        """).run([SQLValue(migration.version)])
                    appliedNow.append(migration.version)
                }
                if rebuilds, let orphan = try connection.prepare("PRAGMA foreign_key_check").first() {
                    throw SQLiteStoreError.foreignKeyViolation(table: try orphan.string(0), rowID: (try? orphan.int64(1)) ?? 0)
                }
                return appliedNow
            }
            if !applied.isEmpty {
                // What the migrations removed (migration 10: raw session ids) leaves the
                // write-ahead log and reaches the main file now. Best effort: a reader of another
                // process may keep part of the log until its next checkpoint.
                _ = try connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)").first()
            }
            return applied
        }
    }

    /// The versions recorded in `schema_migrations`, ascending; empty for a new file.
    /// - Throws: `SQLiteError`.
    public func appliedMigrations() throws -> [Int] {
        try withConnection { connection in
            let exists = try connection.prepare(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").first() != nil
            guard exists else { return [] }
            return try connection.prepare("SELECT version FROM schema_migrations ORDER BY version").query().map { try $0.int(0) }
        }
    }
}
