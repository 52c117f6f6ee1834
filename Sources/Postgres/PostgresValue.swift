/// A value bound to a statement parameter or read from a result column.
///
/// Parameters travel in PostgreSQL's text format with a type: integers as `int8`, booleans as
/// `bool`, reals as `float8`, bytes as `bytea`; text and `NULL` are sent untyped, so the server
/// gives them the type the statement needs (a `text`, `timestamptz` or `jsonb` column alike).
/// Literals work directly:
///
/// ```swift
/// try connection.run("INSERT INTO t (id, name, note) VALUES ($1, $2, $3)", [42, "Oak chair", nil])
/// ```
public enum PostgresValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// `boolean`.
    case bool(Bool)
    /// A signed 64-bit integer (`smallint`, `integer`, `bigint` columns are read as this).
    case integer(Int64)
    /// An IEEE 754 double (`real`, `double precision`). Never used for money.
    case double(Double)
    /// UTF-8 text (also every type this wrapper does not decode, in PostgreSQL's text form).
    case text(String)
    /// `bytea`.
    case bytes([UInt8])

    /// `.integer`, or `.null` for nil.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    /// `.integer`, or `.null` for nil.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// `.text`, or `.null` for nil.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    /// `.double`, or `.null` for nil.
    public init(_ value: Double?) { self = value.map { .double($0) } ?? .null }
    /// `.bool`, or `.null` for nil.
    public init(_ value: Bool?) { self = value.map { .bool($0) } ?? .null }

    /// `true` for `.null`.
    public var isNull: Bool { if case .null = self { true } else { false } }
}

extension PostgresValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PostgresValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension PostgresValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PostgresValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension PostgresValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PostgresValue {
    /// Type OIDs (`pg_type.oid`) this wrapper binds and decodes.
    enum TypeOID {
        static let unknown: UInt32 = 0
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let oid: UInt32 = 26
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
    }

    /// The parameter type sent with the value.
    var parameterType: UInt32 {
        switch self {
        case .null, .text: TypeOID.unknown
        case .bool: TypeOID.bool
        case .integer: TypeOID.int8
        case .double: TypeOID.float8
        case .bytes: TypeOID.bytea
        }
    }

    /// The value in PostgreSQL's text format; nil for `NULL`.
    var textFormat: String? {
        switch self {
        case .null: nil
        case let .bool(value): value ? "t" : "f"
        case let .integer(value): String(value)
        case let .double(value): value.isNaN ? "NaN" : value.isInfinite ? (value > 0 ? "Infinity" : "-Infinity") : "\(value)"
        case let .text(value): value
        case let .bytes(bytes): "\\x" + bytes.map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
        }
    }

    /// Decodes a column value from its text format, by the column's type.
    static func decode(_ text: String, type: UInt32) -> PostgresValue {
        switch type {
        case TypeOID.bool: return .bool(text == "t")
        case TypeOID.int2, TypeOID.int4, TypeOID.int8, TypeOID.oid:
            return Int64(text).map(PostgresValue.integer) ?? .text(text)
        case TypeOID.float4, TypeOID.float8:
            return Double(text).map(PostgresValue.double) ?? .text(text)
        case TypeOID.bytea: return decodeHex(text).map(PostgresValue.bytes) ?? .text(text)
        default: return .text(text)
        }
    }

    /// `\x0aff…` (the server's default `bytea_output = hex`) to bytes.
    private static func decodeHex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else {
            return nil
        }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2 - 1)
        var index = 2
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
