/// One result row, copied out of SQLite when the statement stepped (so it stays valid after
/// the next step or reset). Columns are indexed from 0, in the order of the `SELECT` list.
///
/// The typed readers throw instead of converting silently: reading text from an integer column
/// is a bug in the query, not data to coerce.
///
/// ```swift
/// for row in try connection.prepare("SELECT id, sku FROM variants").query() {
///     let id = try row.int64(0)
///     let sku = try row.optionalString(1)
/// }
/// ```
public struct Row: Sendable, Hashable {
    /// The column values, in `SELECT` order.
    public var values: [SQLValue]

    /// Creates a row from values (mostly for tests).
    public init(values: [SQLValue]) { self.values = values }

    /// Number of columns.
    public var count: Int { values.count }

    /// The value of column `index` (0-based); traps when out of range, like an array.
    public subscript(index: Int) -> SQLValue { values[index] }

    /// The integer in column `index`.
    /// - Throws: `SQLiteError` (`SQLITE_MISMATCH`) when it is not an integer (including NULL),
    ///   `SQLITE_RANGE` when there is no such column.
    public func int64(_ index: Int) throws(SQLiteError) -> Int64 {
        guard let value = try optionalInt64(index) else { throw mismatch(index, "INTEGER") }
        return value
    }

    /// The integer in column `index`, or nil for NULL.
    /// - Throws: `SQLiteError` when it is another type or there is no such column.
    public func optionalInt64(_ index: Int) throws(SQLiteError) -> Int64? {
        switch try value(index) {
        case .null: return nil
        case let .integer(value): return value
        default: throw mismatch(index, "INTEGER")
        }
    }

    /// The integer in column `index` as `Int`.
    /// - Throws: `SQLiteError` when it is not an integer.
    public func int(_ index: Int) throws(SQLiteError) -> Int { Int(try int64(index)) }

    /// The integer in column `index` as `Int`, or nil for NULL.
    /// - Throws: `SQLiteError` when it is another type.
    public func optionalInt(_ index: Int) throws(SQLiteError) -> Int? { try optionalInt64(index).map { Int($0) } }

    /// The integer in column `index` read as a boolean: 0 is false, anything else true.
    /// - Throws: `SQLiteError` when it is not an integer.
    public func bool(_ index: Int) throws(SQLiteError) -> Bool { try int64(index) != 0 }

    /// The text in column `index`.
    /// - Throws: `SQLiteError` (`SQLITE_MISMATCH`) when it is not text (including NULL).
    public func string(_ index: Int) throws(SQLiteError) -> String {
        guard let value = try optionalString(index) else { throw mismatch(index, "TEXT") }
        return value
    }

    /// The text in column `index`, or nil for NULL.
    /// - Throws: `SQLiteError` when it is another type.
    public func optionalString(_ index: Int) throws(SQLiteError) -> String? {
        switch try value(index) {
        case .null: return nil
        case let .text(value): return value
        default: throw mismatch(index, "TEXT")
        }
    }

    /// The real number in column `index` (an integer column is widened).
    /// - Throws: `SQLiteError` when it is neither REAL nor INTEGER.
    public func double(_ index: Int) throws(SQLiteError) -> Double {
        switch try value(index) {
        case let .real(value): return value
        case let .integer(value): return Double(value)
        default: throw mismatch(index, "REAL")
        }
    }

    /// The bytes in column `index`.
    /// - Throws: `SQLiteError` when it is not a BLOB.
    public func blob(_ index: Int) throws(SQLiteError) -> [UInt8] {
        guard case let .blob(bytes) = try value(index) else { throw mismatch(index, "BLOB") }
        return bytes
    }

    private func value(_ index: Int) throws(SQLiteError) -> SQLValue {
        guard values.indices.contains(index) else {
            throw SQLiteError(code: SQLiteError.rangeCode, message: "no column \(index) in a row of \(values.count)")
        }
        return values[index]
    }

    private func mismatch(_ index: Int, _ expected: String) -> SQLiteError {
        SQLiteError(code: SQLiteError.mismatchCode, message: "column \(index) is \(values[index]), not \(expected)")
    }
}
