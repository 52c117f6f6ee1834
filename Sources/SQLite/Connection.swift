import CSQLite
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open SQLite database connection, with a cache of prepared statements.
///
/// Not `Sendable`: a connection is used by one thread at a time (it is opened with
/// `SQLITE_OPEN_NOMUTEX`). Servers keep one per worker or check connections out of a pool.
///
/// Every connection is configured for a web server on one machine:
/// `journal_mode=WAL` (readers never block the writer), `foreign_keys=ON`,
/// `busy_timeout=5000` (ms), `synchronous=NORMAL`, reads through a memory map (`mmap_size`
/// 256 MiB: no `pread` call per page) with a 16 MiB page cache, and extended result codes.
///
/// ```swift
/// let db = try Connection(path: ":memory:")
/// try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// try db.prepare("INSERT INTO t (name) VALUES (?)").run(["chair"])
/// let names = try db.prepare("SELECT name FROM t").query().map { try $0.string(0) }
/// ```
public final class Connection {
    private var handle: OpaquePointer?
    private var statements: [String: Statement] = [:]
    private var savepointDepth = 0
    private var commitObserver: Unmanaged<CommitObserver>?

    /// The path the connection was opened with.
    public let path: String

    /// How many distinct SQL texts the statement cache keeps; statements prepared beyond this
    /// are not cached (they are finalized when released).
    public static let statementCacheLimit = 256

    /// Whether SQLite keeps memory statistics: set once, before the first connection opens
    /// (`shoppable_sqlite3_disable_memory_statistics`). With them on, every allocation inside
    /// SQLite takes one process-wide mutex, and requests on different threads queue on it
    /// (docs/BENCHMARKS.md, twenty-first session). Nothing here reads the statistics.
    public static let keepsMemoryStatistics: Bool = shoppable_sqlite3_disable_memory_statistics() != SQLITE_OK

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private
    /// in-memory database.
    /// - Throws: `SQLiteError` when the file cannot be opened or configured.
    public init(path: String) throws(SQLiteError) {
        self.path = path
        _ = Self.keepsMemoryStatistics  // configures SQLite before its first open
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw SQLiteError(code: status, message: "\(message) (\(path))")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        do {
            // The busy timeout first: switching a new file to WAL takes an exclusive lock, and a
            // second process opening the same new file at that moment must wait, not fail.
            try execute("PRAGMA busy_timeout = 5000")
            try enableWriteAheadLog()
            try execute("""
                PRAGMA foreign_keys = ON;
                PRAGMA synchronous = NORMAL;
                PRAGMA mmap_size = 268435456;
                PRAGMA cache_size = -16000;
                """)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// `PRAGMA journal_mode = WAL`, retried for up to five seconds while another connection (in
    /// this process or another) holds the lock the switch needs: SQLite answers `SQLITE_BUSY`
    /// there without always consulting the busy handler. Once a file is in WAL mode the pragma
    /// needs no lock.
    private func enableWriteAheadLog() throws(SQLiteError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch where error.isBusy {
                if clock.now >= deadline { throw error }
                usleep(2_000)
            }
        }
    }

    /// Finalizes the cached statements and closes the connection. Later calls throw
    /// `SQLITE_MISUSE`. Calling `close()` twice is harmless.
    public func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
        commitObserver?.release()
        commitObserver = nil
    }

    /// Calls `body` after each transaction this connection commits to the write-ahead log —
    /// after the commit, so a read that follows sees it. A `:memory:` database has no log and
    /// never calls it. SQLite's automatic checkpoint (at 1000 log pages), which this hook
    /// replaces, is kept. One observer per connection: a second call replaces the first.
    /// - Parameters:
    ///   - tables: tables whose rows the caller wants to know were changed (at most 64).
    ///   - body: runs on the committing thread with the set of `tables` (bit `i` for
    ///     `tables[i]`) whose rows the transaction inserted, updated or deleted — triggers'
    ///     changes included (SQLite's update hook); keep it short (it delays the commit's return).
    ///
    /// A change undone by `ROLLBACK TO` a savepoint still counts: a table may be reported
    /// changed when it is not, never the other way.
    public func onCommit(watching tables: [String] = [], _ body: @escaping @Sendable (_ changed: UInt64) -> Void) {
        guard let handle else { return }
        precondition(tables.count <= 64, "at most 64 watched tables")
        let observer = Unmanaged.passRetained(CommitObserver(tables, body))
        let context = observer.toOpaque()
        sqlite3_wal_hook(handle, { context, db, name, pages in
            guard let context else { return SQLITE_OK }
            let observer = Unmanaged<CommitObserver>.fromOpaque(context).takeUnretainedValue()
            let changed = observer.changed
            observer.changed = 0
            observer.body(changed)
            if pages >= 1000 { sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
            return SQLITE_OK
        }, context)
        if tables.isEmpty {
            sqlite3_update_hook(handle, nil, nil)
            sqlite3_rollback_hook(handle, nil, nil)
        } else {
            sqlite3_update_hook(handle, { context, _, _, table, _ in
                guard let context, let table else { return }
                let observer = Unmanaged<CommitObserver>.fromOpaque(context).takeUnretainedValue()
                for (index, name) in observer.tables.enumerated() where strcmp(name, table) == 0 {
                    observer.changed |= 1 << UInt64(index)
                }
            }, context)
            sqlite3_rollback_hook(handle, { context in
                guard let context else { return }
                Unmanaged<CommitObserver>.fromOpaque(context).takeUnretainedValue().changed = 0
            }, context)
        }
        commitObserver?.release()
        commitObserver = observer
    }

    /// `false` after `close()`.
    public var isOpen: Bool { handle != nil }

    /// Runs one or more `;`-separated statements that return no rows of interest (schema
    /// scripts, pragmas). Nothing is cached.
    /// - Throws: `SQLiteError` from the first statement that fails.
    public func execute(_ sql: String) throws(SQLiteError) {
        let db = try open()
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        guard status == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(db), message: message, sql: sql)
        }
    }

    /// A prepared statement for one SQL statement, from the cache when this exact text was
    /// prepared before (reset, with its bindings cleared).
    ///
    /// A cached statement is shared: do not interleave two uses of the same SQL text (e.g.
    /// stepping it inside a loop over its own rows).
    /// - Throws: `SQLiteError` for invalid SQL.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] {
            try cached.reset()
            cached.clearBindings()
            return cached
        }
        let db = try open()
        var statementHandle: OpaquePointer?
        let status = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statementHandle, nil)
        guard status == SQLITE_OK, let statementHandle else {
            throw SQLiteError(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)), sql: sql)
        }
        let statement = Statement(handle: statementHandle, sql: sql)
        if statements.count < Connection.statementCacheLimit { statements[sql] = statement }
        return statement
    }

    /// Number of statements in the cache.
    public var cachedStatementCount: Int { statements.count }

    /// How a top-level transaction starts (<https://www.sqlite.org/lang_transaction.html>).
    public enum TransactionKind: Sendable {
        /// `BEGIN IMMEDIATE`: takes the write lock up front, so two writers wait on the busy
        /// timeout instead of failing with `SQLITE_BUSY` halfway. For writes.
        case immediate
        /// `BEGIN DEFERRED`: in WAL mode, a consistent snapshot for several reads that never
        /// blocks or is blocked by the writer. For reads.
        case deferred
    }

    /// Runs `body` in a transaction: `BEGIN` … `COMMIT`, or `ROLLBACK` when `body` throws (the
    /// error is rethrown). Nested calls use a `SAVEPOINT`, so an inner failure undoes only the
    /// inner work when the outer body catches it — except a nested `.deferred` one: a read
    /// snapshot inside a transaction already has one (the enclosing transaction's) and has
    /// nothing to undo, so `body` just runs (a savepoint and its release were ~1.5 % of a
    /// shopper's page, whose reads share one transaction).
    /// - Parameters:
    ///   - kind: `.immediate` (default) for writes, `.deferred` for read snapshots (reads only).
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: the error `body` threw, or `SQLiteError` from `BEGIN`/`COMMIT`.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        let nested = savepointDepth > 0
        if kind == .deferred, nested { return try body() }
        if kind == .immediate, !nested, let writerGate {
            writerGate.enter()
            defer { writerGate.leave() }
            return try run(kind, nested: false, body)
        }
        return try run(kind, nested: nested, body)
    }

    /// Shared by the connections of one process so that their write transactions take turns
    /// in memory instead of colliding in SQLite, whose busy handler sleeps (1 ms, 2 ms, …) and
    /// so turns every collision into milliseconds of latency. Writers in other processes still
    /// meet the busy timeout.
    public var writerGate: WriterGate?

    private func run<T>(_ kind: TransactionKind, nested: Bool, _ body: () throws -> T) throws -> T {
        guard nested else {
            try beginTransaction(kind)
            do {
                let result = try body()
                try endTransaction(committing: true)
                return result
            } catch {
                try? endTransaction(committing: false)  // nothing left when the commit itself failed
                throw error
            }
        }
        let name = "sp\(savepointDepth)"
        try prepare("SAVEPOINT \(name)").run()
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let result = try body()
            try prepare("RELEASE \(name)").run()
            return result
        } catch {
            try? execute("ROLLBACK TO \(name)")
            try? execute("RELEASE \(name)")
            throw error
        }
    }

    /// Begins a top-level transaction that ends with ``endTransaction(committing:)``, for one
    /// that spans calls rather than one closure (`SQLiteDatabase.readingTogether` begins its read
    /// transaction only at the first read). ``transaction(_:_:)`` calls in between are savepoints
    /// in it. Prefer ``transaction(_:_:)``.
    /// - Throws: `SQLiteError` from `BEGIN` (nothing begun), or misuse when a transaction is open.
    public func beginTransaction(_ kind: TransactionKind) throws(SQLiteError) {
        guard savepointDepth == 0 else {
            throw SQLiteError(code: SQLiteError.misuseCode, message: "a transaction is already open")
        }
        // Prepared once and kept (the statement cache), not parsed again by `sqlite3_exec` for
        // every transaction: a shopper's page ran three.
        try prepare(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED").run()
        savepointDepth = 1
    }

    /// Ends the transaction ``beginTransaction(_:)`` began: `COMMIT`, or `ROLLBACK` when not
    /// `committing` or when the commit fails (its error is thrown). Nothing when none is open.
    public func endTransaction(committing: Bool) throws(SQLiteError) {
        guard savepointDepth == 1 else { return }
        savepointDepth = 0
        if committing {
            do {
                try prepare("COMMIT").run()
                return
            } catch {
                if !isAutocommit { try? execute("ROLLBACK") }
                throw error
            }
        }
        if !isAutocommit { try? execute("ROLLBACK") }
    }

    /// `false` while a transaction is open.
    public var isAutocommit: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? true }

    /// The rowid of the most recent successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` on this connection.
    public var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

    private func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLiteError.misuseCode, message: "the connection is closed")
        }
        return handle
    }
}

/// The closure `Connection.onCommit` installed, kept alive while SQLite may call it.
/// What `Connection.onCommit(watching:_:)` keeps: used only by the thread that runs the
/// connection's statements (the hooks run inside them).
private final class CommitObserver {
    let tables: [[CChar]]
    let body: @Sendable (UInt64) -> Void
    /// The watched tables changed since the last commit or rollback.
    var changed: UInt64 = 0

    init(_ tables: [String], _ body: @escaping @Sendable (UInt64) -> Void) {
        self.tables = tables.map { Array($0.utf8CString) }
        self.body = body
    }
}

/// A lock for the write transactions (`BEGIN IMMEDIATE`) of several connections to one database
/// file in one process; see `Connection.writerGate`. Waiting threads sleep, they do not spin.
public final class WriterGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 1)

    /// Creates an open gate.
    public init() {}

    /// Waits until no other connection of this gate is writing, then holds the gate.
    public func enter() { semaphore.wait() }

    /// Releases the gate.
    public func leave() { semaphore.signal() }
}
