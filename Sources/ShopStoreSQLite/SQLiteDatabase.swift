public import ShopStore
public import SQLite
import Dispatch
import Synchronization

/// A SQLite database file shared by the server's worker threads through a small pool of
/// connections.
///
/// Each store call checks out one connection, uses it on the calling thread, and returns it.
/// Connections are opened lazily, at most `poolSize` at a time; a caller that finds all of them
/// checked out waits for one. In WAL mode readers never block the single writer, and writers
/// serialize on the busy timeout (5 s).
///
/// ```swift
/// let database = try SQLiteDatabase.open(path: "var/shoppable.sqlite3", poolSize: 8)  // migrates
/// let catalog = CatalogStore.sqlite(database)
/// …
/// database.close()   // at graceful shutdown
/// ```
public final class SQLiteDatabase: Sendable {
    /// The database file path.
    public let path: String
    /// The most connections open at once.
    public let poolSize: Int

    private let pool = Mutex(Pool())
    private let available: DispatchSemaphore

    private struct Pool {
        var idle: [PooledConnection] = []
        var isClosed = false
    }

    /// Lets a connection cross the mutex; it is only ever used by the thread that checked it out.
    private struct PooledConnection: @unchecked Sendable {
        let connection: Connection
    }

    /// Prepares a pool for the database at `path`, opening one connection to check that the
    /// file can be opened (it is created when missing). Does not migrate: call `migrate()`,
    /// or use `open(path:poolSize:)`.
    /// - Parameters:
    ///   - path: a file path. `":memory:"` gives a private in-memory database and forces a pool
    ///     of one (every connection would otherwise see a different empty database).
    ///   - poolSize: the most connections open at once, ≥ 1 (size it like the worker pool).
    /// - Throws: `SQLiteError` when the file cannot be opened.
    /// Makes this process's write transactions take turns (see `WriterGate`).
    private let writerGate = WriterGate()

    public init(path: String, poolSize: Int = 4) throws(SQLiteError) {
        self.path = path
        self.poolSize = path == ":memory:" ? 1 : max(poolSize, 1)
        self.available = DispatchSemaphore(value: self.poolSize)
        let first = try Connection(path: path)
        first.writerGate = writerGate
        pool.withLock { $0.idle.append(PooledConnection(connection: first)) }
    }

    /// Opens the database and applies pending migrations.
    /// - Parameters:
    ///   - path: the file path (created when missing).
    ///   - poolSize: the most connections open at once.
    /// - Returns: the migrated database.
    /// - Throws: `SQLiteError` when the file cannot be opened or a migration fails.
    public static func open(path: String, poolSize: Int = 4) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, poolSize: poolSize)
        try database.migrate()
        return database
    }

    /// Runs `body` with a connection checked out of the pool, waiting when all are in use.
    ///
    /// Do not call `withConnection` again from inside `body`: with every connection checked out
    /// that would wait forever. A transaction `body` leaves open is rolled back.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `SQLiteError` (`SQLITE_MISUSE`) after `close()`, or when a
    ///   new connection cannot be opened.
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        available.wait()
        defer { available.signal() }
        let idle = try pool.withLock { (pool: inout Pool) throws(SQLiteError) -> PooledConnection? in
            guard !pool.isClosed else {
                throw SQLiteError(code: SQLiteError.misuseCode, message: "the database is closed")
            }
            return pool.idle.popLast()
        }
        let checkedOut = try idle ?? PooledConnection(connection: {
            let connection = try Connection(path: path)
            connection.writerGate = writerGate
            return connection
        }())
        defer {
            if !checkedOut.connection.isAutocommit { try? checkedOut.connection.execute("ROLLBACK") }
            pool.withLock { pool in
                if pool.isClosed {
                    checkedOut.connection.close()
                } else {
                    pool.idle.append(checkedOut)
                }
            }
        }
        return try body(checkedOut.connection)
    }

    /// Closes idle connections now and checked-out ones when they come back; later calls throw.
    /// For graceful shutdown. Calling it twice is harmless.
    public func close() {
        let idle = pool.withLock { pool in
            pool.isClosed = true
            defer { pool.idle.removeAll() }
            return pool.idle
        }
        for pooled in idle { pooled.connection.close() }
    }
}

extension SQLiteError: TemporaryStoreFailure {
    /// `SQLITE_BUSY`/`SQLITE_LOCKED`: another connection (a long import) held the write lock past
    /// the busy timeout.
    public var isTemporary: Bool { isBusy }
}
