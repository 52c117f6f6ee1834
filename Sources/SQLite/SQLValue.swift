/// A value SQLite stores: one of its five storage classes
/// (<https://www.sqlite.org/datatype3.html>).
///
/// Integers are always 64-bit and bound with `sqlite3_bind_int64`. Literals work directly:
///
/// ```swift
/// try statement.run([42, "Oak chair", nil, 4.5, true])   // integer, text, null, real, integer 1
/// try statement.run([SQLValue(optionalSKU), SQLValue(quantity)])
/// ```
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double. Never used for money.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// `.integer`, or `.null` for nil.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    /// `.integer`, or `.null` for nil.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// `.text`, or `.null` for nil.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    /// `.real`, or `.null` for nil.
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    /// `.integer(1)` for true, `.integer(0)` for false (SQLite has no boolean type).
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    /// `true` for `.null`.
    public var isNull: Bool { if case .null = self { true } else { false } }
}

extension SQLValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
