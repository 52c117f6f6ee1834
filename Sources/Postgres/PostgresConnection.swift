import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open connection to a PostgreSQL server, with a cache of prepared statements.
///
/// Not `Sendable`: a connection is used by one thread at a time; servers check connections out
/// of a ``PostgresPool``. Every statement with parameters is prepared once per connection
/// (`PQprepare`, cached by its SQL text and parameter types) and run with `PQexecPrepared`,
/// its values always bound, never spliced into the SQL.
///
/// ```swift
/// let db = try PostgresConnection(url: "postgresql://shop@127.0.0.1:5432/shop?sslmode=require")
/// try db.execute("CREATE TABLE t (id bigserial PRIMARY KEY, name text NOT NULL)")
/// try db.run("INSERT INTO t (name) VALUES ($1)", ["chair"])
/// let names = try db.query("SELECT name FROM t").map { try $0.string(0) }
/// ```
public final class PostgresConnection {
    private var handle: OpaquePointer?
    private var statements: [StatementKey: String] = [:]
    private var savepointDepth = 0

    /// How many distinct statements the cache keeps; beyond this statements run unnamed
    /// (`PQexecParams`: parsed and planned on each call).
    public static let statementCacheLimit = 256

    /// Connects.
    /// - Parameters:
    ///   - url: a `postgresql://` URL or a `key=value` conninfo string — everything libpq
    ///     accepts, TLS options (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`, …) included,
    ///     passed through unchanged.
    ///   - parameters: connection keywords that override the URL's, e.g.
    ///     `["options": "-c search_path=shop"]`.
    /// - Throws: `PostgresError` (`.cannotEstablishConnection`) with libpq's message.
    public init(url: String, parameters: [String: String] = [:]) throws(PostgresError) {
        // Later keywords override earlier ones; `dbname` is expanded as a URL/conninfo (expand_dbname).
        let pairs = [("dbname", url), ("client_encoding", "UTF8")] + parameters.sorted { $0.key < $1.key }
        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let connection = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 1)
            }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            throw PostgresError(sqlState: .cannotEstablishConnection, message: message)
        }
        // NOTICEs ("relation already exists, skipping") are not errors: not printed to stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { close() }

    /// Closes the connection (the server drops its prepared statements). Later calls throw.
    /// Calling `close()` twice is harmless.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        statements.removeAll()
    }

    /// `false` after `close()` or once the connection to the server was lost.
    public var isOpen: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Whether the connection can take a statement now: open, not lost, and no transaction left
    /// open. Reads whatever the server sent meanwhile without waiting, so a connection whose
    /// server restarted (it sent "terminating connection" and closed) shows as lost here, before
    /// a statement fails on it. A pool checks this at every checkout.
    public var isReady: Bool {
        guard let handle else { return false }
        // Twice: a read that returns the server's goodbye ("terminating connection") stops
        // there; the next one meets the closed socket and marks the connection bad. Neither
        // waits (libpq's socket is non-blocking).
        for _ in 0..<2 where PQconsumeInput(handle) == 1 {}
        return PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// `true` while a transaction is open (also one that failed and awaits `ROLLBACK`).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server's process id for this connection (`pg_backend_pid()`), 0 when closed.
    public var backendPID: Int { handle.map { Int(PQbackendPID($0)) } ?? 0 }

    /// Number of statements in the cache.
    public var cachedStatementCount: Int { statements.count }

    /// Runs one or more `;`-separated statements without parameters (schema scripts); nothing
    /// is prepared or cached.
    /// - Throws: `PostgresError` from the first statement that fails (a script not in a
    ///   transaction keeps what ran before it).
    public func execute(_ sql: String) throws(PostgresError) {
        let handle = try open()
        try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs a statement with bound parameters and returns its rows.
    /// - Parameters:
    ///   - sql: one statement with `$1`, `$2`, … placeholders.
    ///   - parameters: their values, in order.
    /// - Returns: every row (none for statements that return none).
    /// - Throws: `PostgresError`.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> [PostgresRow] {
        try execute(sql, parameters).rows
    }

    /// The first row of a statement's result, or nil.
    /// - Throws: `PostgresError`.
    public func first(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRow? {
        try execute(sql, parameters).rows.first
    }

    /// Runs an `INSERT`, `UPDATE` or `DELETE` and returns how many rows it changed (for a
    /// conditional update: 0 when its condition did not hold).
    /// - Throws: `PostgresError`.
    @discardableResult
    public func run(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> Int {
        try execute(sql, parameters).changes
    }

    /// Isolation levels (<https://www.postgresql.org/docs/15/transaction-iso.html>).
    public enum IsolationLevel: String, Sendable {
        /// Each statement sees what was committed before it started. The default: conditional
        /// updates (`UPDATE … WHERE stock >= $1`) re-check their condition on the newest row.
        case readCommitted = "READ COMMITTED"
        /// One snapshot for the whole transaction; a write to a row changed since fails with a
        /// serialization failure.
        case repeatableRead = "REPEATABLE READ"
        /// As if the transactions ran one after the other; may fail with a serialization failure.
        case serializable = "SERIALIZABLE"
    }

    /// Runs `body` in a transaction: `BEGIN` … `COMMIT`, or `ROLLBACK` when `body` throws (the
    /// error is rethrown). Nested calls use a `SAVEPOINT`, so an inner failure undoes only the
    /// inner work when the outer body catches it (the isolation level is the outer one's).
    /// - Parameters:
    ///   - isolation: the level of a top-level transaction.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: the error `body` threw, or `PostgresError` from `BEGIN`/`COMMIT` (a
    ///   serialization failure can come at `COMMIT`).
    public func transaction<T>(_ isolation: IsolationLevel = .readCommitted, _ body: () throws -> T) throws -> T {
        let nested = savepointDepth > 0
        let name = "sp\(savepointDepth)"
        try execute(nested ? "SAVEPOINT \(name)" : "BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let result = try body()
            try execute(nested ? "RELEASE SAVEPOINT \(name)" : "COMMIT")
            return result
        } catch {
            if nested {
                try? execute("ROLLBACK TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
            } else if isInTransaction {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    // MARK: - libpq calls

    private struct StatementKey: Hashable {
        var sql: String
        var types: [UInt32]
    }

    private struct Outcome {
        var rows: [PostgresRow]
        var changes: Int
    }

    private func execute(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> Outcome {
        let handle = try open()
        let types = parameters.map(\.parameterType)
        let texts = parameters.map(\.textFormat)
        if texts.contains(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresError(sqlState: .characterNotInRepertoire, message: "a text parameter contains a NUL character", sql: sql)
        }
        let key = StatementKey(sql: sql, types: types)
        var name = statements[key]
        if name == nil, statements.count < Self.statementCacheLimit {
            let newName = "shoppable_\(statements.count)"
            try check(PQprepare(handle, newName, sql, Int32(types.count), types), sql: sql)
            statements[key] = newName
            name = newName
        }
        let cStrings = texts.map { $0.map { strdup($0) } ?? nil }
        defer { cStrings.forEach { free($0) } }
        let result = cStrings.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
            if let name {
                PQexecPrepared(handle, name, Int32(values.count), values.baseAddress, nil, nil, 0)
            } else {
                PQexecParams(handle, sql, Int32(values.count), types, values.baseAddress, nil, nil, 0)
            }
        }
        return try check(result, sql: sql)
    }

    /// Decodes a result and frees it; throws for an error result.
    @discardableResult
    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> Outcome {
        defer { PQclear(result) }
        guard let result else { throw lostOrFailed(sql: sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return Outcome(rows: [], changes: Int(String(cString: PQcmdTuples(result))) ?? 0)
        case PGRES_TUPLES_OK:
            let columns = Int(PQnfields(result))
            let types = (0..<columns).map { PQftype(result, Int32($0)) }
            let rows = (0..<Int(PQntuples(result))).map { row in
                PostgresRow(values: (0..<columns).map { column in
                    let (r, c) = (Int32(row), Int32(column))
                    if PQgetisnull(result, r, c) != 0 { return .null }
                    let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, r, c), count: Int(PQgetlength(result, r, c)))
                    return PostgresValue.decode(String(decoding: bytes, as: UTF8.self), type: types[column])
                })
            }
            return Outcome(rows: rows, changes: rows.count)
        default:
            let field = { (code: UInt8) in PQresultErrorField(result, Int32(code)).map { String(cString: $0) } }
            guard let state = field(UInt8(ascii: "C")) else { throw lostOrFailed(sql: sql) }
            throw PostgresError(sqlState: SQLState(rawValue: state),
                                message: field(UInt8(ascii: "M")) ?? Self.trimmed(PQresultErrorMessage(result)),
                                detail: field(UInt8(ascii: "D")), sql: sql)
        }
    }

    /// An error libpq reported without a SQLSTATE: the connection broke (08006) or another failure.
    private func lostOrFailed(sql: String) -> PostgresError {
        guard let handle else { return PostgresError(sqlState: .wrapperMisuse, message: "the connection is closed", sql: sql) }
        let message = Self.trimmed(PQerrorMessage(handle))
        if PQstatus(handle) != CONNECTION_OK {
            statements.removeAll()
            return PostgresError(sqlState: .connectionFailure, message: message, sql: sql)
        }
        return PostgresError(sqlState: .connectionException, message: message, sql: sql)
    }

    private func open() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw PostgresError(sqlState: .wrapperMisuse, message: "the connection is closed") }
        return handle
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        var text = String(cString: message)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
