public import ShopStore
public import SQLite
import Dispatch
import Synchronization

/// A SQLite database file shared by the server's worker threads through a small pool of
/// connections.
///
/// Each store read checks out one connection, uses it on the calling thread, and returns it.
/// Connections are opened lazily, at most `poolSize` at a time; a caller that finds all of them
/// checked out waits for one. Every write transaction runs on one more connection, the writer
/// (``write(_:)``), in turn with this process's other writes; writers of other processes meet
/// the busy timeout (5 s). In WAL mode readers never block the writer.
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

    /// The connection ``write(_:)`` runs on, opened at the first write; used only while
    /// `writerGate` is held.
    private let writer = Mutex<PooledConnection?>(nil)

    /// The connection ``remembered(_:read:)`` reads on, opened at its first read.
    private let stateReader = Mutex<PooledConnection?>(nil)

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
        connection.onCommit(watching: MemoSource.watchedTables) { commits.increment(changed: $0) }
        return connection
    }

    /// A connection that reads through its page cache only (`mmap_size = 0`); see ``write(_:)``.
    private static func connectUnmapped(_ path: String) throws(SQLiteError) -> Connection {
        let connection = try Connection(path: path)
        try connection.execute("PRAGMA mmap_size = 0")
        return connection
    }

    /// The value `read` returns, remembered until this process commits a change to what it
    /// reads (``MemoSource``) or ``otherWritersSeenWithin`` passes — for values read on every
    /// request that change only with writes, such as the catalog version (its `SELECT` took a
    /// read transaction, file locks and an `fstat`: about 8 % of a cached API read).
    ///
    /// A read that starts before a commit and ends after it is stored under the count before
    /// the commit, so the next caller reads again: a commit of this process is never missed.
    /// - Parameters:
    ///   - memo: where the value is kept (one per kind of value).
    ///   - read: reads the value from the database.
    ///
    /// `read` runs on a connection of its own without a memory map: these reads follow commits,
    /// and a mapped pool connection drops its whole map at a read after a commit and faults it
    /// back (a `munmap` with TLB shootdowns per add to cart, when the catalog version was read
    /// on a pool connection after each add's commit); this one reads the few pages it needs.
    public func remembered<Value: Sendable>(_ memo: Memo<Value>, read: (Connection) throws -> Value) throws -> Value {
        guard otherWritersSeenWithin > .zero else { return try withConnection(read) }
        let count = commits.value(memo.source)
        let now = ContinuousClock.now
        if let kept = memo.stored.withLock({ $0 }), kept.commits == count, now - kept.readAt < otherWritersSeenWithin {
            return kept.value
        }
        let value = try stateReader.withLock { (reader: inout PooledConnection?) throws -> Value in
            guard !pool.withLock({ $0.isClosed }) else {
                throw SQLiteError(code: SQLiteError.misuseCode, message: "the database is closed")
            }
            if reader == nil { reader = PooledConnection(connection: try Self.connectUnmapped(path)) }
            return try read(reader!.connection)
        }
        memo.stored.withLock { kept in
            if kept == nil || kept!.commits <= count { kept = (count, now, value) }
        }
        return value
    }

    /// What a ``Memo``'s value is read from: a commit of this process that changes it makes the
    /// next caller read again.
    public enum MemoSource: Sendable {
        /// Anything: every commit counts.
        case anything
        /// The row of `catalog_state` (the catalog version; bumped by triggers on the
        /// catalog's tables, and by holds).
        case catalogState
        /// The row of `campaign_state` (the campaigns' version).
        case campaignState

        /// The tables the connections watch, in the order of the cases after `anything`.
        static var watchedTables: [String] { ["catalog_state", "campaign_state"] }
    }

    /// A value kept by ``remembered(_:read:)``.
    public final class Memo<Value: Sendable>: Sendable {
        fileprivate let stored = Mutex<(commits: UInt64, readAt: ContinuousClock.Instant, value: Value)?>(nil)
        fileprivate let source: MemoSource

        /// An empty memo of a value read from `source`. Before 2026-12-05 every commit of the
        /// process counted: the catalog version was read again after each add to cart (7.6 %
        /// of an add's samples), although an add changes nothing it reads.
        public init(readFrom source: MemoSource = .anything) { self.source = source }
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

    /// Sets up a one-connection database (`poolSize: 1`) and its writer (``write(_:)``) for one
    /// large write and exit, such as `shoppable import`: reads go through a page cache of
    /// `cacheMegabytes` instead of the 256 MiB memory map, whose pages of a large catalog (a
    /// re-import reads every product) count towards the process's resident memory (issue #13,
    /// point 6: 476 MB → see docs/BENCHMARKS.md),
    /// and statement journals stay in memory (`temp_store = MEMORY`): past 64 KiB SQLite writes
    /// them to a temporary file, which was 12 % of a 100 000-row import.
    /// - Throws: `SQLiteError` when the connection cannot be opened.
    public func configureForBulkWrite(cacheMegabytes: Int = 32) throws {
        let settings = "PRAGMA mmap_size = 0; PRAGMA cache_size = -\(cacheMegabytes * 1024); PRAGMA temp_store = MEMORY"
        try withConnection { connection in try connection.execute(settings) }
        if path != ":memory:" { try withWriter { connection in try connection.execute(settings) } }
    }

    /// The reads of one request on one snapshot (``readingTogether(_:)``): the connection its
    /// first read checked out, in a read transaction, for the thread that opened it — until a
    /// write of that thread (then its reads must see the write, and take connections of their
    /// own again).
    private final class ReadScope: @unchecked Sendable {
        let database: ObjectIdentifier
        var connection: PooledConnection?
        var isStale = false

        init(_ database: ObjectIdentifier) { self.database = database }
    }

    @TaskLocal private static var readScope: ReadScope?

    /// The scope of `readingTogether` this thread is in for this database, if any.
    private var currentScope: ReadScope? {
        guard let scope = Self.readScope, scope.database == ObjectIdentifier(self) else { return nil }
        return scope
    }

    /// Runs `body` with every read it makes on this thread through ``withConnection(_:)`` on one
    /// connection, in one read transaction (`BEGIN DEFERRED`, begun at the first read): one
    /// snapshot, and one begin and end of a read transaction — each takes SQLite's lock on the
    /// WAL index and a `fcntl` lock on the `-shm` file — instead of one per store call (a
    /// shopper's page read its session, cart and favorites in three). A `body` that reads
    /// nothing (a cached page for a visitor without a session) checks nothing out. A write of
    /// this thread (``write(_:)``) ends the sharing: the reads after it take connections of
    /// their own, and see it. Nested calls join the outer one.
    ///
    /// For a request's reads (`AppEnvironment.readingTogether`); not for work that writes on a
    /// pool connection (migrations).
    /// - Throws: what `body` throws; `SQLiteError` when the read transaction cannot end.
    public func readingTogether<T>(_ body: () throws -> T) throws -> T {
        if currentScope != nil { return try body() }
        let scope = ReadScope(ObjectIdentifier(self))
        let result: T
        do {
            result = try Self.$readScope.withValue(scope) { try body() }
        } catch {
            if let shared = scope.connection { checkIn(shared) }
            throw error
        }
        if let shared = scope.connection {
            defer { checkIn(shared) }
            try shared.connection.endTransaction(committing: true)
        }
        return result
    }

    /// Runs `body` with a connection checked out of the pool, waiting when all are in use —
    /// or, inside ``readingTogether(_:)`` on this thread, with its shared one (`body`'s
    /// transactions are then savepoints in its read transaction).
    ///
    /// Do not call `withConnection` again from inside `body`: with every connection checked out
    /// that would wait forever. A transaction `body` leaves open is rolled back.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `SQLiteError` (`SQLITE_MISUSE`) after `close()`, or when a
    ///   new connection cannot be opened.
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        if let scope = currentScope, !scope.isStale {
            if let shared = scope.connection { return try body(shared.connection) }
            let checkedOut = try checkOut()
            do {
                try checkedOut.connection.beginTransaction(.deferred)
            } catch {
                checkIn(checkedOut)
                throw error
            }
            scope.connection = checkedOut
            return try body(checkedOut.connection)
        }
        let checkedOut = try checkOut()
        defer { checkIn(checkedOut) }
        return try body(checkedOut.connection)
    }

    /// A connection of the pool (opened if none is idle), waiting while all are checked out.
    private func checkOut() throws -> PooledConnection {
        available.wait()
        do {
            let idle = try pool.withLock { (pool: inout Pool) throws(SQLiteError) -> PooledConnection? in
                guard !pool.isClosed else {
                    throw SQLiteError(code: SQLiteError.misuseCode, message: "the database is closed")
                }
                return pool.idle.popLast()
            }
            return try idle ?? PooledConnection(connection: Self.connect(path, writerGate, commits))
        } catch {
            available.signal()
            throw error
        }
    }

    /// Gives `checkedOut` back, a transaction left open rolled back; closed instead when the
    /// pool is.
    private func checkIn(_ checkedOut: PooledConnection) {
        let connection = checkedOut.connection
        try? connection.endTransaction(committing: false)
        if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
        pool.withLock { pool in
            if pool.isClosed {
                connection.close()
            } else {
                pool.idle.append(checkedOut)
            }
        }
        available.signal()
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` … `COMMIT`, rolled back when `body`
    /// throws) on the process's writer connection, taking turns with every other write of this
    /// process (`WriterGate`).
    ///
    /// The writer reads without a memory map (`mmap_size = 0`): in WAL mode SQLite drops a
    /// connection's whole map when it begins a transaction after another connection's commit,
    /// so a pool connection that both reads and writes unmapped and faulted its pages back at
    /// almost every write (a `munmap` per add to cart, with TLB shootdowns on every core). The
    /// writer is the only connection of this process that commits, so its own page cache stays
    /// valid between writes; the pool's readers keep their maps while no write comes.
    /// A `:memory:` database has one connection: `body` runs on it.
    ///
    /// Do not call `write` or ``withConnection(_:)`` from inside `body`.
    /// - Parameters:
    ///   - busyTimeoutMilliseconds: how long to wait for another process's write lock instead of
    ///     the usual 5 s (an import waits behind another process's whole import).
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `SQLiteError` from `BEGIN`/`COMMIT`, after `close()`, or
    ///   when the writer cannot be opened.
    public func write<T>(busyTimeoutMilliseconds: Int? = nil, _ body: (Connection) throws -> T) throws -> T {
        guard path != ":memory:" else {
            return try withConnection { connection in try connection.transaction { try body(connection) } }
        }
        // Reads after this write, in a `readingTogether` of this thread, must see it: they take
        // connections of their own, and the shared one goes back (its snapshot is over).
        if let scope = currentScope {
            scope.isStale = true
            if let shared = scope.connection {
                scope.connection = nil
                checkIn(shared)
            }
        }
        return try withWriter { connection in
            if let busyTimeoutMilliseconds {
                try connection.execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
            }
            defer { if busyTimeoutMilliseconds != nil { try? connection.execute("PRAGMA busy_timeout = 5000") } }
            return try connection.transaction { try body(connection) }
        }
    }

    /// Runs `body` with the writer connection (opened at the first call), holding `writerGate`.
    private func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        writerGate.enter()
        defer { writerGate.leave() }
        let connection = try writer.withLock { (writer: inout PooledConnection?) throws(SQLiteError) -> Connection in
            guard !pool.withLock({ $0.isClosed }) else {
                throw SQLiteError(code: SQLiteError.misuseCode, message: "the database is closed")
            }
            if let writer { return writer.connection }
            // Not through the gate: the writer's callers hold it.
            let connection = try Self.connectUnmapped(path)
            connection.onCommit(watching: MemoSource.watchedTables) { [commits] in commits.increment(changed: $0) }
            writer = PooledConnection(connection: connection)
            return connection
        }
        return try body(connection)
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
        // A write under way holds the gate: the writer closes after it.
        writerGate.enter()
        defer { writerGate.leave() }
        writer.withLock { writer in
            writer?.connection.close()
            writer = nil
        }
        stateReader.withLock { reader in
            reader?.connection.close()
            reader = nil
        }
    }
}

/// Counts the commits of one `SQLiteDatabase`'s connections: all of them, and those that
/// changed each watched table (`SQLiteDatabase.MemoSource`).
private final class CommitCounter: Sendable {
    private let all = Atomic<UInt64>(0)
    private let catalogState = Atomic<UInt64>(0)
    private let campaignState = Atomic<UInt64>(0)

    func value(_ source: SQLiteDatabase.MemoSource) -> UInt64 {
        switch source {
        case .anything: all.load(ordering: .acquiring)
        case .catalogState: catalogState.load(ordering: .acquiring)
        case .campaignState: campaignState.load(ordering: .acquiring)
        }
    }

    /// One commit, which changed the watched tables whose bits are set in `changed`.
    func increment(changed: UInt64) {
        // Bits in the order of `MemoSource.watchedTables`.
        if changed & 1 != 0 { catalogState.add(1, ordering: .releasing) }
        if changed & 2 != 0 { campaignState.add(1, ordering: .releasing) }
        all.add(1, ordering: .releasing)
    }
}

extension SQLiteError: TemporaryStoreFailure {
    /// `SQLITE_BUSY`/`SQLITE_LOCKED`: another connection (a long import) held the write lock past
    /// the busy timeout.
    public var isTemporary: Bool { isBusy }
}
