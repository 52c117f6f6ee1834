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

    /// Makes this process's write transactions take turns (see `WriterGate`).
    private let writerGate = WriterGate()

    /// Commits made through this pool's connections (counted after each commit).
    private let commits = CommitCounter()

    /// How long a value read through ``remembered(_:read:)`` may miss a commit made by another
    /// process (or another `SQLiteDatabase` on the same file); this process's own commits are
    /// seen at once.
    public let otherWritersSeenWithin: Duration

    /// Prepares a pool for the database at `path`, opening one connection to check that the
    /// file can be opened (it is created when missing). Does not migrate: call `migrate()`,
    /// or use `open(path:poolSize:)`.
    /// - Parameters:
    ///   - path: a file path. `":memory:"` gives a private in-memory database and forces a pool
    ///     of one (every connection would otherwise see a different empty database).
    ///   - poolSize: the most connections open at once, ≥ 1 (size it like the worker pool).
    ///   - otherWritersSeenWithin: see ``otherWritersSeenWithin``; default 10 ms.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    public init(path: String, poolSize: Int = 4,
                otherWritersSeenWithin: Duration = .milliseconds(10)) throws(SQLiteError) {
        self.path = path
        self.poolSize = path == ":memory:" ? 1 : max(poolSize, 1)
        self.available = DispatchSemaphore(value: self.poolSize)
        // A `:memory:` database has no write-ahead log to observe commits in: nothing is remembered.
        self.otherWritersSeenWithin = path == ":memory:" ? .zero : otherWritersSeenWithin
        let first = try Self.connect(path, writerGate, commits)
        pool.withLock { $0.idle.append(PooledConnection(connection: first)) }
    }

    /// A new connection of this database: its writes take turns at `gate` and count in `commits`.
    private static func connect(_ path: String, _ gate: WriterGate, _ commits: CommitCounter) throws(SQLiteError) -> Connection {
        let connection = try Connection(path: path)
        connection.writerGate = gate
        connection.onCommit { commits.increment() }
        return connection
    }

    /// The value `read` returns, remembered until this process commits anything or
    /// ``otherWritersSeenWithin`` passes — for values read on every request that change only
    /// with writes, such as the catalog version (its `SELECT` took a read transaction, file
    /// locks and an `fstat`: about 8 % of a cached API read).
    ///
    /// A read that starts before a commit and ends after it is stored under the count before
    /// the commit, so the next caller reads again: a commit of this process is never missed.
    /// - Parameters:
    ///   - memo: where the value is kept (one per kind of value).
    ///   - read: reads the value from the database.
    public func remembered<Value: Sendable>(_ memo: Memo<Value>, read: () throws -> Value) throws -> Value {
        guard otherWritersSeenWithin > .zero else { return try read() }
        let count = commits.value
        let now = ContinuousClock.now
        if let kept = memo.stored.withLock({ $0 }), kept.commits == count, now - kept.readAt < otherWritersSeenWithin {
            return kept.value
        }
        let value = try read()
        memo.stored.withLock { kept in
            if kept == nil || kept!.commits <= count { kept = (count, now, value) }
        }
        return value
    }

    /// A value kept by ``remembered(_:read:)``.
    public final class Memo<Value: Sendable>: Sendable {
        fileprivate let stored = Mutex<(commits: UInt64, readAt: ContinuousClock.Instant, value: Value)?>(nil)
        /// An empty memo.
        public init() {}
    }

    /// Opens the database and applies pending migrations.
    /// - Parameters:
    ///   - path: the file path (created when missing).
    ///   - poolSize: the most connections open at once.
    /// - Returns: the migrated database.
    /// - Throws: `SQLiteError` when the file cannot be opened or a migration fails.
    ///   - otherWritersSeenWithin: see ``otherWritersSeenWithin``.
    public static func open(path: String, poolSize: Int = 4,
                            otherWritersSeenWithin: Duration = .milliseconds(10)) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, poolSize: poolSize, otherWritersSeenWithin: otherWritersSeenWithin)
        try database.migrate()
        return database
    }

    /// Sets up a one-connection database (`poolSize: 1`) for one large write and exit, such as
    /// `shoppable import`: reads go through a page cache of `cacheMegabytes` instead of the
    /// 256 MiB memory map, whose pages of a large catalog (a re-import reads every product) count
    /// towards the process's resident memory (issue #13, point 6: 476 MB → see docs/BENCHMARKS.md),
    /// and statement journals stay in memory (`temp_store = MEMORY`): past 64 KiB SQLite writes
    /// them to a temporary file, which was 12 % of a 100 000-row import.
    /// - Throws: `SQLiteError` when the connection cannot be opened.
    public func configureForBulkWrite(cacheMegabytes: Int = 32) throws {
        try withConnection { connection in
            try connection.execute("PRAGMA mmap_size = 0; PRAGMA cache_size = -\(cacheMegabytes * 1024); PRAGMA temp_store = MEMORY")
        }
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
        let checkedOut = try idle ?? PooledConnection(connection: Self.connect(path, writerGate, commits))
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

/// Counts the commits of one `SQLiteDatabase`'s connections.
private final class CommitCounter: Sendable {
    private let count = Atomic<UInt64>(0)
    var value: UInt64 { count.load(ordering: .acquiring) }
    func increment() { count.add(1, ordering: .releasing) }
}

extension SQLiteError: TemporaryStoreFailure {
    /// `SQLITE_BUSY`/`SQLITE_LOCKED`: another connection (a long import) held the write lock past
    /// the busy timeout.
    public var isTemporary: Bool { isBusy }
}
