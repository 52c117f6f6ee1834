import ShopCore

/// A JSON value that keeps numbers as their exact source text (so prices never pass through
/// `Double`) and remembers the line each value starts on, for error messages.
struct JSONNode {
    indirect enum Value {
        case null
        case bool(Bool)
        /// The number exactly as written, e.g. `"109.95"` or `"1e2"`.
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([String: JSONNode])
    }

    /// 1-based line where the value starts.
    var line: Int
    var value: Value

    /// The value's kind, for messages.
    var kind: JSONKind {
        switch value {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// A short English name of the value's kind ("a string", "an object", …), for the messages
    /// of the campaign and shop configuration files.
    var kindName: String { kind.message(in: .english) }

    var object: [String: JSONNode]? {
        if case let .object(fields) = value { fields } else { nil }
    }

    var array: [JSONNode]? {
        if case let .array(items) = value { items } else { nil }
    }
}

/// A JSON syntax error at a line and column.
struct JSONSyntaxError: Error {
    var line: Int
    /// The 1-based character (not byte) of the line where the parser stopped: a file written on
    /// one line is otherwise hard to read an error of (a fresh tester's).
    var column: Int = 1
    var problem: JSONSyntaxProblem
    /// The problem in English.
    var message: String { problem.description }
}

/// An RFC 8259 JSON parser over UTF-8 bytes (a leading byte order mark is skipped).
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// Where the current line starts.
    private var lineStart = 0
    private var depth = 0
    private static let maxDepth = 200

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3; lineStart = 3 }
    }

    /// Parses one JSON document.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes)
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw parser.fail(.textAfterValue)
        }
        return node
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private func fail(_ problem: JSONSyntaxProblem) -> JSONSyntaxError {
        // Characters, not bytes: UTF-8 continuation bytes (10xxxxxx) start none.
        let column = bytes[lineStart..<min(index, bytes.count)].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return JSONSyntaxError(line: line, column: column, problem: problem)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else { throw fail(.endsWhereValueExpected) }
        let start = line
        switch bytes[index] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw fail(.nestedTooDeeply) }
            index += 1
            var fields: [String: JSONNode] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(line: start, value: .object(fields))
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw fail(.expectedFieldName)
                }
                let keyStart = (index, line, lineStart)
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail(.expectedColon(field: key))
                }
                // One object naming a field twice (also spelled `"\u0061"` for `"a"`): readers
                // disagree on which one counts, so none is guessed at.
                guard fields[key] == nil else {
                    (index, line, lineStart) = keyStart
                    throw fail(.repeatedField(field: key))
                }
                index += 1
                fields[key] = try parseValue()
                skipWhitespace()
                guard index < bytes.count else { throw fail(.endsInsideObject) }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw fail(.expectedCommaOrBrace)
            }
            return JSONNode(line: start, value: .object(fields))
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw fail(.nestedTooDeeply) }
            index += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(line: start, value: .array(items))
            }
            while true {
                items.append(try parseValue())
                skipWhitespace()
                guard index < bytes.count else { throw fail(.endsInsideArray) }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                throw fail(.expectedCommaOrBracket)
            }
            return JSONNode(line: start, value: .array(items))
        case UInt8(ascii: "\""):
            return JSONNode(line: start, value: .string(try parseString()))
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(line: start, value: .bool(true))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(line: start, value: .bool(false))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(line: start, value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(line: start, value: .number(try parseNumber()))
        default:
            throw fail(.unexpectedCharacter)
        }
    }

    private mutating func expectLiteral(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw fail(.unexpectedText)
        }
        index += utf8.count
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as written.
    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw fail(.numberNeedsDigits) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw fail(.numberNeedsFractionDigits) }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { throw fail(.numberNeedsExponentDigits) }
            while isDigit(index) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1 // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail(.unclosedString) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw fail(.stringNotUTF8)
                }
                return text
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw fail(.unclosedString) }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail(.loneSurrogate)
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail(.loneSurrogate) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail(.loneSurrogate)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail(.invalidUnicodeEscape) }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail(.invalidEscape)
                }
            case 0x00..<0x20:
                throw fail(.controlCharacter)
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail(.invalidUnicodeEscape) }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 65...70: digit = UInt32(byte - 55)
            case 97...102: digit = UInt32(byte - 87)
            default: throw fail(.invalidUnicodeEscape)
            }
            value = value * 16 + digit
        }
        index += 4
        return value
    }
}

/// Checks on JSON text outside the importers (the API's request bodies).
public enum JSONFields {
    /// The first field an object of `bytes` names twice (compared as decoded: `"a"` and
    /// `"\u0061"` are one field), or nil — also for text that is not JSON, which the caller's
    /// own decoder refuses.
    public static func repeatedField(in bytes: [UInt8]) -> String? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            if case let .repeatedField(field) = error.problem { return field }
            return nil
        }
    }
}
