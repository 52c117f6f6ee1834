import Foundation

/// Any JSON value, written as a literal: the OpenAPI document and the JSON Schemas of the wire
/// types are built from these.
///
/// ```swift
/// let schema: JSONValue = ["type": "object", "required": ["token"],
///                          "properties": ["token": ["type": "string"]]]
/// ```
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, or nil.
    public subscript(_ key: String) -> JSONValue? {
        if case let .object(members) = self { members[key] } else { nil }
    }

    /// The string, or nil.
    public var stringValue: String? { if case let .string(text) = self { text } else { nil } }
    /// The elements of an array, or nil.
    public var arrayValue: [JSONValue]? { if case let .array(elements) = self { elements } else { nil } }
    /// The members of an object, or nil.
    public var objectValue: [String: JSONValue]? { if case let .object(members) = self { members } else { nil } }

    /// `other`'s members added to this object's (`other` wins); a non-object stays as it is.
    public func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case let .object(members) = self else { return self }
        return .object(members.merging(other) { _, new in new })
    }

    /// UTF-8 JSON with sorted keys, so equal values give equal bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case is a plain JSON value (a non-finite
        // number is written as null, see `encode(to:)`).
        return Array((try? encoder.encode(self)) ?? Data("null".utf8))
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(bool): try container.encode(bool)
        case let .integer(integer): try container.encode(integer)
        case let .number(number):
            if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
        case let .string(string): try container.encode(string)
        case let .array(array): try container.encode(array)
        case let .object(object): try container.encode(object)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
