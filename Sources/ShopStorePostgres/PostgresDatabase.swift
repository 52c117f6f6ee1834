public import Postgres
import Sodium

/// A shop's PostgreSQL database: a ``PostgresPool`` sized like the server's worker pool, in one
/// schema, migrated with ``migrate(_:)``.
///
/// ```swift
/// let database = try PostgresDatabase.open(url: "postgresql://shop@db.internal/shop", poolSize: 8)  // migrates
/// let accounts = AccountStore.postgres(database)
/// …
/// database.close()   // at graceful shutdown
/// ```
public final class PostgresDatabase: Sendable {
    /// The connections.
    public let pool: PostgresPool
    /// The schema the shop's tables live in (`search_path`); nil: the server's default (`public`).
    public let schema: String?

    /// Prepares the database; opens no connection. Does not migrate: call `migrate()`, or use
    /// `open(url:poolSize:schema:)`.
    /// - Parameters:
    ///   - url: a `postgresql://` URL or conninfo (TLS options passed through to libpq).
    ///   - poolSize: the most connections open at once (one per worker thread).
    ///   - schema: the schema to use instead of the default; it must exist. Letters, digits and
    ///     `_` only (it becomes part of a connection option).
    /// - Throws: `PostgresStoreError.invalidSchemaName`.
    public init(url: String, poolSize: Int = 4, schema: String? = nil) throws {
        if let schema {
            guard !schema.isEmpty, schema.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                    || (0x61...0x7a).contains($0) }) else { throw PostgresStoreError.invalidSchemaName(schema) }
        }
        self.schema = schema
        pool = PostgresPool(url: url, parameters: schema.map { ["options": "-c search_path=\($0)"] } ?? [:], size: poolSize)
    }

    /// Opens the database and applies pending migrations.
    /// - Returns: the migrated database.
    /// - Throws: `PostgresError` when the server cannot be reached or a migration fails.
    public static func open(url: String, poolSize: Int = 4, schema: String? = nil) throws -> PostgresDatabase {
        let database = try PostgresDatabase(url: url, poolSize: poolSize, schema: schema)
        try database.migrate()
        return database
    }

    /// Runs `body` with a pooled connection (see ``PostgresPool/withConnection(_:)``).
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.withConnection(body)
    }

    /// Runs `body` in a `READ COMMITTED` transaction, run again up to 3 times in all on a
    /// serialization failure or deadlock (see ``PostgresPool/transaction(_:attempts:_:)``).
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.transaction(.readCommitted, attempts: 3, body)
    }

    /// Closes the pool. For graceful shutdown.
    public func close() { pool.close() }
}

/// Errors of the PostgreSQL stores that are not the server's own.
public enum PostgresStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The migration list is not strictly increasing, or names a version ≤ 0.
    case invalidMigrations(String)
    /// A schema name other than lower-case letters, digits and `_`.
    case invalidSchemaName(String)
    /// A stored value could not be decoded (e.g. an unknown role).
    case corruptValue(table: String, column: String, rowID: Int64)
    /// An operation of a store whose PostgreSQL version is not written yet (its tables need
    /// ones not ported, e.g. carts need the catalog's variants).
    case notPorted(String)

    public var description: String {
        switch self {
        case let .invalidMigrations(reason): "invalid migration list: \(reason)"
        case let .invalidSchemaName(name): "invalid schema name \(name.debugDescription)"
        case let .corruptValue(table, column, rowID): "cannot decode \(table).\(column) of row \(rowID)"
        case let .notPorted(operation): "\(operation) is not available on PostgreSQL yet"
        }
    }
}

extension PostgresDatabase {
    /// The 32-byte server secret `name` (`ServerSecrets` names them), made by the first server
    /// that asks — random bytes from libsodium, inserted unless another server's are there — so
    /// every server of the shop reads the same key.
    /// - Throws: `PostgresError`.
    public func serverSecret(_ name: String) throws -> [UInt8] {
        try transaction { connection in
            try connection.run("INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                               [.text(name), .bytes(SecureRandom.bytes(32))])
            guard let row = try connection.first("SELECT value FROM server_secrets WHERE name = $1", [.text(name)]) else {
                throw PostgresStoreError.corruptValue(table: "server_secrets", column: name, rowID: 0)
            }
            return try row.bytes(0)
        }
    }
}
