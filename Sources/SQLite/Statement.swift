import CSQLite

/// A prepared statement, obtained from `Connection.prepare(_:)`.
///
/// Parameters (`?`, `?NNN`, `:name`) are numbered from 1, as in SQLite. `query` and `run`
/// reset, bind, and step to the end in one call:
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO t (id, name) VALUES (?, ?)")
/// try insert.run([1, "chair"])
/// let rows = try db.prepare("SELECT name FROM t WHERE id = ?").query([1])
/// ```
public final class Statement {
    private var handle: OpaquePointer?
    /// The SQL text the statement was prepared from.
    public let sql: String

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { finalize() }

    func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }

    /// Number of parameters the SQL declares.
    public var parameterCount: Int { handle.map { Int(sqlite3_bind_parameter_count($0)) } ?? 0 }

    /// Column names of the result, in order.
    public var columnNames: [String] {
        guard let handle else { return [] }
        return (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// Clears the bindings, then binds `values` to parameters 1...n.
    /// - Throws: `SQLiteError` (`SQLITE_RANGE`) when the count differs from `parameterCount`,
    ///   or when SQLite refuses a value.
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        guard values.count == parameterCount else {
            throw SQLiteError(code: SQLiteError.rangeCode,
                              message: "\(values.count) values for \(parameterCount) parameters", sql: sql)
        }
        clearBindings()
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }

    /// Binds one value to parameter `index` (1-based).
    /// - Throws: `SQLiteError` when the index is out of range or the statement is finalized.
    public func bind(_ value: SQLValue, at index: Int) throws(SQLiteError) {
        let statement = try live()
        let position = Int32(index)
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(statement, position)
        case let .integer(integer):
            status = sqlite3_bind_int64(statement, position, integer)
        case let .real(real):
            status = sqlite3_bind_double(statement, position, real)
        case let .text(text):
            let byteCount = Int32(text.utf8.count)
            status = text.withCString { shoppable_sqlite3_bind_text_transient(statement, position, $0, byteCount) }
        case let .blob(bytes):
            if bytes.isEmpty {
                status = sqlite3_bind_zeroblob(statement, position, 0)
            } else {
                status = bytes.withUnsafeBytes {
                    shoppable_sqlite3_bind_blob_transient(statement, position, $0.baseAddress, Int32($0.count))
                }
            }
        }
        try check(status)
    }

    /// Binds `value` to the named parameter (`:name`, `@name` or `$name`, prefix included).
    /// - Throws: `SQLiteError` (`SQLITE_RANGE`) when the statement has no such parameter.
    public func bind(_ value: SQLValue, named name: String) throws(SQLiteError) {
        let index = sqlite3_bind_parameter_index(try live(), name)
        guard index > 0 else {
            throw SQLiteError(code: SQLiteError.rangeCode, message: "no parameter named \(name)", sql: sql)
        }
        try bind(value, at: Int(index))
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        if let handle { sqlite3_clear_bindings(handle) }
    }

    /// Resets the statement so it can run again; bindings are kept.
    /// - Throws: `SQLiteError` when the statement is finalized.
    public func reset() throws(SQLiteError) {
        sqlite3_reset(try live())  // its return code repeats the last step's error, already reported
    }

    /// Advances to the next row.
    /// - Returns: the row, or nil when the statement has finished.
    /// - Throws: `SQLiteError` from SQLite (constraint violations, busy timeout, …).
    public func step() throws(SQLiteError) -> Row? {
        let statement = try live()
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW:
            let count = sqlite3_column_count(statement)
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count { values.append(Statement.value(statement, column)) }
            return Row(values: values)
        case SQLITE_DONE:
            return nil
        default:
            let error = stepError(statement)
            sqlite3_reset(statement)
            throw error
        }
    }

    /// Resets, binds `values`, and returns every row; the statement is reset afterwards.
    /// - Throws: `SQLiteError`.
    public func query(_ values: [SQLValue] = []) throws(SQLiteError) -> [Row] {
        try reset()
        try bind(values)
        var rows: [Row] = []
        while let row = try step() { rows.append(row) }
        try reset()
        return rows
    }

    /// Resets, binds `values`, and hands `body` each row in turn as a ``Columns`` reader, which
    /// reads the values straight from SQLite: no ``Row`` is made (an array and its values per
    /// row), for statements that read many rows and keep a few numbers of each. The reader is
    /// valid only during its call. The statement is reset afterwards, also when `body` throws.
    /// - Throws: `SQLiteError`, or what `body` throws.
    public func forEachRow(_ values: [SQLValue] = [], _ body: (Columns) throws -> Void) throws {
        try reset()
        try bind(values)
        let statement = try live()
        defer { sqlite3_reset(statement) }
        while true {
            let status = sqlite3_step(statement)
            guard status == SQLITE_ROW else {
                guard status == SQLITE_DONE else { throw stepError(statement) }
                return
            }
            try body(Columns(statement: statement, sql: sql))
        }
    }

    /// The current row's columns while ``forEachRow(_:_:)`` is at it, read as ``Row``'s typed
    /// readers read them (the same mismatches throw).
    public struct Columns {
        fileprivate let statement: OpaquePointer
        fileprivate let sql: String

        /// The integer in column `index`, or nil for NULL.
        public func optionalInt64(_ index: Int) throws(SQLiteError) -> Int64? {
            switch sqlite3_column_type(statement, Int32(index)) {
            case SQLITE_NULL: return nil
            case SQLITE_INTEGER: return sqlite3_column_int64(statement, Int32(index))
            default: throw mismatch(index, "INTEGER")
            }
        }

        /// The integer in column `index`.
        public func int64(_ index: Int) throws(SQLiteError) -> Int64 {
            guard let value = try optionalInt64(index) else { throw mismatch(index, "INTEGER") }
            return value
        }

        /// The integer in column `index` as `Int`.
        public func int(_ index: Int) throws(SQLiteError) -> Int { Int(try int64(index)) }

        /// The integer in column `index` read as a boolean: 0 is false, anything else true.
        public func bool(_ index: Int) throws(SQLiteError) -> Bool { try int64(index) != 0 }

        /// The text in column `index`.
        public func string(_ index: Int) throws(SQLiteError) -> String {
            guard sqlite3_column_type(statement, Int32(index)) == SQLITE_TEXT,
                  let text = sqlite3_column_text(statement, Int32(index)) else { throw mismatch(index, "TEXT") }
            let count = Int(sqlite3_column_bytes(statement, Int32(index)))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        private func mismatch(_ index: Int, _ expected: String) -> SQLiteError {
            SQLiteError(code: SQLiteError.mismatchCode, message: "column \(index) is not \(expected)", sql: sql)
        }
    }

    /// Resets, binds `values`, and returns the first row (or nil); the statement is reset
    /// afterwards.
    /// - Throws: `SQLiteError`.
    public func first(_ values: [SQLValue] = []) throws(SQLiteError) -> Row? {
        try reset()
        try bind(values)
        let row = try step()
        try reset()
        return row
    }

    /// Resets, binds `values`, and runs the statement to completion, ignoring rows.
    /// - Throws: `SQLiteError`.
    public func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try reset()
        try bind(values)
        while try step() != nil {}
        try reset()
    }

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    private func live() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLiteError.misuseCode, message: "the statement is finalized", sql: sql)
        }
        return handle
    }

    /// What a failed `sqlite3_step` of `statement` says: its extended code and message.
    private func stepError(_ statement: OpaquePointer) -> SQLiteError {
        let db = sqlite3_db_handle(statement)
        return SQLiteError(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)), sql: sql)
    }

    private func check(_ status: Int32) throws(SQLiteError) {
        guard status != SQLITE_OK else { return }
        let message = handle.map { String(cString: sqlite3_errmsg(sqlite3_db_handle($0))) } ?? "error"
        throw SQLiteError(code: status, message: message, sql: sql)
    }
}
