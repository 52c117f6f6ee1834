/// A value of type `RawValue` tagged with a phantom `Tag`, so that identifiers of different
/// things cannot be mixed up (`Product.ID` is not a `Variant.ID`, although both wrap `Int64`).
///
/// ```swift
/// let id: Product.ID = 42          // from an integer literal
/// let raw: Int64 = id.rawValue
/// ```
public struct Tagged<Tag, RawValue: Hashable & Sendable>: RawRepresentable, Hashable, Sendable {
    /// The wrapped value.
    public var rawValue: RawValue

    /// Wraps `rawValue`.
    public init(rawValue: RawValue) { self.rawValue = rawValue }

    /// Wraps `rawValue`.
    public init(_ rawValue: RawValue) { self.rawValue = rawValue }
}

extension Tagged: Comparable where RawValue: Comparable {
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Tagged: ExpressibleByIntegerLiteral where RawValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: RawValue.IntegerLiteralType) {
        self.rawValue = RawValue(integerLiteral: value)
    }
}

extension Tagged: ExpressibleByUnicodeScalarLiteral where RawValue: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: RawValue.StringLiteralType) {
        self.rawValue = RawValue(stringLiteral: value)
    }
}

extension Tagged: ExpressibleByExtendedGraphemeClusterLiteral where RawValue: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: RawValue.StringLiteralType) {
        self.rawValue = RawValue(stringLiteral: value)
    }
}

extension Tagged: ExpressibleByStringLiteral where RawValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: RawValue.StringLiteralType) {
        self.rawValue = RawValue(stringLiteral: value)
    }
}

extension Tagged: CustomStringConvertible {
    public var description: String { String(describing: rawValue) }
}

extension Tagged: Codable where RawValue: Codable {
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(RawValue.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
