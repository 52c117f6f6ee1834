/// One result row, decoded when the result arrived. Columns are indexed from 0, in the order of
/// the `SELECT` list.
///
/// The typed readers throw instead of converting silently: reading text from an integer column
/// is a bug in the query, not data to coerce.
///
/// ```swift
/// for row in try connection.query("SELECT id, email FROM users WHERE id > $1", [10]) {
///     let id = try row.int64(0)
///     let email = try row.string(1)
/// }
/// ```
public struct PostgresRow: Sendable, Hashable {
    /// The column values, in `SELECT` order.
    public var values: [PostgresValue]

    /// Creates a row from values (mostly for tests).
    public init(values: [PostgresValue]) { self.values = values }

    /// Number of columns.
    public var count: Int { values.count }

    /// The value of column `index` (0-based); traps when out of range, like an array.
    public subscript(index: Int) -> PostgresValue { values[index] }

    /// The integer in column `index`.
    /// - Throws: `PostgresError` (`.wrapperMisuse`) when it is not an integer (including NULL)
    ///   or there is no such column.
    public func int64(_ index: Int) throws(PostgresError) -> Int64 {
        guard let value = try optionalInt64(index) else { throw mismatch(index, "integer") }
        return value
    }

    /// The integer in column `index`, or nil for NULL.
    /// - Throws: `PostgresError` when it is another type or there is no such column.
    public func optionalInt64(_ index: Int) throws(PostgresError) -> Int64? {
        switch try value(index) {
        case .null: return nil
        case let .integer(value): return value
        default: throw mismatch(index, "integer")
        }
    }

    /// The integer in column `index` as `Int`.
    /// - Throws: `PostgresError` when it is not an integer.
    public func int(_ index: Int) throws(PostgresError) -> Int { Int(try int64(index)) }

    /// The integer in column `index` as `Int`, or nil for NULL.
    /// - Throws: `PostgresError` when it is another type.
    public func optionalInt(_ index: Int) throws(PostgresError) -> Int? { try optionalInt64(index).map { Int($0) } }

    /// The boolean in column `index`.
    /// - Throws: `PostgresError` when it is not a boolean (including NULL).
    public func bool(_ index: Int) throws(PostgresError) -> Bool {
        guard case let .bool(value) = try value(index) else { throw mismatch(index, "boolean") }
        return value
    }

    /// The text in column `index`.
    /// - Throws: `PostgresError` when it is not text (including NULL).
    public func string(_ index: Int) throws(PostgresError) -> String {
        guard let value = try optionalString(index) else { throw mismatch(index, "text") }
        return value
    }

    /// The text in column `index`, or nil for NULL.
    /// - Throws: `PostgresError` when it is another type.
    public func optionalString(_ index: Int) throws(PostgresError) -> String? {
        switch try value(index) {
        case .null: return nil
        case let .text(value): return value
        default: throw mismatch(index, "text")
        }
    }

    /// The real number in column `index` (an integer column is widened).
    /// - Throws: `PostgresError` when it is neither.
    public func double(_ index: Int) throws(PostgresError) -> Double {
        switch try value(index) {
        case let .double(value): return value
        case let .integer(value): return Double(value)
        default: throw mismatch(index, "double precision")
        }
    }

    /// The bytes in column `index`.
    /// - Throws: `PostgresError` when it is not `bytea`.
    public func bytes(_ index: Int) throws(PostgresError) -> [UInt8] {
        guard case let .bytes(bytes) = try value(index) else { throw mismatch(index, "bytea") }
        return bytes
    }

    private func value(_ index: Int) throws(PostgresError) -> PostgresValue {
        guard values.indices.contains(index) else {
            throw PostgresError(sqlState: .wrapperMisuse, message: "no column \(index) in a row of \(values.count)")
        }
        return values[index]
    }

    private func mismatch(_ index: Int, _ expected: String) -> PostgresError {
        PostgresError(sqlState: .wrapperMisuse, message: "column \(index) is \(values[index]), not \(expected)")
    }
}
