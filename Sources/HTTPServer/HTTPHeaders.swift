/// An ordered list of HTTP header fields with case-insensitive name lookup (RFC 9110 §5.1).
///
/// Order and duplicates are kept as sent (or as added): `Set-Cookie` may legitimately appear
/// several times. Lookup compares names ASCII-case-insensitively.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/html; charset=utf-8"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers["content-type"]        // "text/html; charset=utf-8"
/// headers.values(for: "SET-COOKIE")  // ["a=1"]
/// ```
public struct HTTPHeaders: Sendable, Sequence, Equatable, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field: its name as written and its value (leading/trailing whitespace is
    /// trimmed by the engine for incoming requests).
    public typealias Element = (name: String, value: String)

    private var fields: [(name: String, value: String)]

    /// An empty header list.
    public init() { fields = [] }

    /// Headers in the given order.
    public init(_ fields: [(name: String, value: String)]) { self.fields = fields }

    /// Headers from a literal, in literal order: `["Content-Type": "text/plain"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the first field called `name` (any letter case), or `nil`.
    /// Setting replaces every field called `name` by one field at the position of the first
    /// (or appends it); setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            if let newValue {
                replaceOrAdd(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Every value of the fields called `name` (any letter case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field called `name` (any letter case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field called `name` by a single one (at the first one's position), or
    /// appends it when there is none.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[index] = (name: fields[index].name, value: value)
            var later = index + 1
            while later < fields.count {
                if Self.namesMatch(fields[later].name, name) {
                    fields.remove(at: later)
                } else {
                    later += 1
                }
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    /// Removes every field called `name` (any letter case).
    public mutating func remove(name: String) {
        // Looked up first: `removeAll(where:)` copies a shared array even when nothing matches,
        // and a cached response's fields are shared with the cache.
        guard fields.contains(where: { Self.namesMatch($0.name, name) }) else { return }
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Number of fields (duplicates counted).
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Equal when the same fields appear in the same order; names compare case-insensitively,
    /// values exactly.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                namesMatch($0.name, $1.name) && $0.value == $1.value
            }
    }

    /// `Name: value` lines joined by newlines, for debugging.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison of two header names (field names are ASCII tokens).
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        // Names are nearly always written as the lookup writes them: one comparison of bytes.
        if a == b { return true }
        let a = a.utf8
        let b = b.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte + 32 : byte
    }
}
