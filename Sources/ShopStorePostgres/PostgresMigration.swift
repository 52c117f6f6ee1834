import Postgres

/// One numbered schema change of the PostgreSQL schema. Its number is the SQLite migration's
/// (`ShopSchema`) that brought the same tables, so both engines speak of one sequence; numbers
/// whose tables are not on PostgreSQL yet are absent. Once released, a migration is never edited.
public struct PostgresMigration: Sendable {
    /// The schema version this migration brings the database to.
    public var version: Int
    /// The SQL script (several `;`-separated statements allowed).
    public var sql: String

    /// Creates a migration.
    public init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
    }
}

extension PostgresDatabase {
    /// `pg_advisory_xact_lock`'s first key: "Shop" in ASCII. The second is the schema's hash, so
    /// shops in different schemas of one server migrate without waiting for each other.
    static let migrationLockKey: Int64 = 0x5368_6F70

    /// Applies the migrations not yet recorded in `schema_migrations`, in version order, in ONE
    /// transaction that first takes a transaction-level advisory lock: several servers starting
    /// at once take turns, the first applies everything, the others find it recorded and apply
    /// nothing. Either every pending migration is applied and recorded, or none is.
    /// - Parameter migrations: the list (default `PostgresSchema.migrations`).
    /// - Returns: the versions applied now, ascending (empty when the schema was current).
    /// - Throws: `PostgresStoreError.invalidMigrations`, or the `PostgresError` of the failing
    ///   statement (nothing is applied then).
    @discardableResult
    public func migrate(_ migrations: [PostgresMigration] = PostgresSchema.migrations) throws -> [Int] {
        var previous = 0
        for migration in migrations {
            guard migration.version > previous else {
                throw PostgresStoreError.invalidMigrations("version \(migration.version) after \(previous)")
            }
            previous = migration.version
        }
        return try pool.withConnection { connection in
            try connection.transaction {
                try connection.query("SELECT pg_advisory_xact_lock($1::int, hashtext(current_schema()))",
                                     [.integer(Self.migrationLockKey)])
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version integer PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
                let applied = Set(try connection.query("SELECT version FROM schema_migrations").map { try $0.int(0) })
                var appliedNow: [Int] = []
                for migration in migrations where !applied.contains(migration.version) {
                    try connection.execute(migration.sql)
                    try connection.run("INSERT INTO schema_migrations (version) VALUES ($1)", [PostgresValue(migration.version)])
                    appliedNow.append(migration.version)
                }
                return appliedNow
            }
        }
    }

    /// The versions recorded in `schema_migrations`, ascending; empty for a new schema.
    /// - Throws: `PostgresError`.
    public func appliedMigrations() throws -> [Int] {
        try pool.withConnection { connection in
            guard try connection.first("SELECT to_regclass('schema_migrations') IS NOT NULL")?.bool(0) == true else { return [] }
            return try connection.query("SELECT version FROM schema_migrations ORDER BY version").map { try $0.int(0) }
        }
    }
}
