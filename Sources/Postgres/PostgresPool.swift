import Dispatch
import Synchronization

/// Connections to one PostgreSQL database shared by a server's worker threads.
///
/// Each call checks out one connection, uses it on the calling thread, and returns it.
/// Connections are opened lazily, at most `size` at a time (size it like the worker pool: one
/// per thread); a caller that finds all of them checked out waits for one. A connection whose
/// server went away — a restart, a failover, a terminated backend — is noticed at checkout (or
/// when a statement fails with a lost connection) and replaced by a new one, so the pool
/// recovers by itself once the server is back.
///
/// ```swift
/// let pool = PostgresPool(url: "postgresql://shop@db.internal/shop?sslmode=verify-full", size: 8)
/// let count = try pool.withConnection { try $0.first("SELECT count(*) FROM users")?.int(0) }
/// try pool.transaction { connection in
///     try connection.run("UPDATE variants SET stock = stock - $1 WHERE id = $2 AND stock >= $1", [2, 7])
/// }
/// ```
public final class PostgresPool: Sendable {
    /// The URL (or conninfo) connections are opened with.
    public let url: String
    /// Keywords added to every connection's (see ``PostgresConnection/init(url:parameters:)``).
    public let parameters: [String: String]
    /// The most connections open at once.
    public let size: Int

    private let pool = Mutex(Pool())
    private let available: DispatchSemaphore

    private struct Pool {
        var idle: [Pooled] = []
        var isClosed = false
    }

    /// Lets a connection cross the mutex; it is only ever used by the thread that checked it out.
    private struct Pooled: @unchecked Sendable {
        let connection: PostgresConnection
    }

    /// Prepares a pool; no connection is opened until the first call.
    /// - Parameters:
    ///   - url: a `postgresql://` URL or conninfo string (TLS options passed through to libpq).
    ///   - parameters: keywords added to every connection, e.g. `["options": "-c search_path=shop"]`.
    ///   - size: the most connections open at once, ≥ 1.
    public init(url: String, parameters: [String: String] = [:], size: Int) {
        self.url = url
        self.parameters = parameters
        self.size = max(size, 1)
        self.available = DispatchSemaphore(value: self.size)
    }

    /// Runs `body` with a connection checked out of the pool, waiting when all are in use.
    ///
    /// Do not call `withConnection` again from inside `body`: with every connection checked out
    /// that would wait forever. A transaction `body` leaves open is rolled back.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `PostgresError` when the pool is closed or no connection
    ///   can be opened (the server is down: `.cannotEstablishConnection`).
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        available.wait()
        defer { available.signal() }
        let idle = try pool.withLock { (pool: inout Pool) throws(PostgresError) -> Pooled? in
            guard !pool.isClosed else { throw PostgresError(sqlState: .wrapperMisuse, message: "the pool is closed") }
            return pool.idle.popLast()
        }
        let checkedOut: Pooled
        if let idle, idle.connection.isReady {
            checkedOut = idle
        } else {
            idle?.connection.close()
            checkedOut = Pooled(connection: try PostgresConnection(url: url, parameters: parameters))
        }
        defer {
            let connection = checkedOut.connection
            if connection.isOpen, connection.isInTransaction { try? connection.execute("ROLLBACK") }
            let keep = connection.isOpen && pool.withLock { pool in
                guard !pool.isClosed else { return false }
                pool.idle.append(checkedOut)
                return true
            }
            if !keep { connection.close() }
        }
        return try body(checkedOut.connection)
    }

    /// Runs `body` in a transaction on a pooled connection, running it again (on a connection
    /// checked out anew) when it fails with a serialization failure or a deadlock, at most
    /// `attempts` times in all. `body` must be safe to run again: it only reads and writes the
    /// database through the connection it is given.
    /// - Parameters:
    ///   - isolation: the transaction's isolation level.
    ///   - attempts: how many times it may run, ≥ 1.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: the last attempt's error, or the first error that is not retryable.
    public func transaction<T>(_ isolation: PostgresConnection.IsolationLevel = .readCommitted, attempts: Int = 3,
                               _ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try withConnection { connection in try connection.transaction(isolation) { try body(connection) } }
            } catch let error as PostgresError where error.isRetryable && attempt < attempts {
                attempt += 1
            }
        }
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
