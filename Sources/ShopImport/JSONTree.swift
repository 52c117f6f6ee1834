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

    /// A short name of the value's kind, for messages ("a string", "an object", …).
    var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "true/false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    var object: [String: JSONNode]? {
        if case let .object(fields) = value { fields } else { nil }
    }

    var array: [JSONNode]? {
        if case let .array(items) = value { items } else { nil }
    }
}

/// A JSON syntax error at a line.
struct JSONSyntaxError: Error {
    var line: Int
    var message: String
}

/// An RFC 8259 JSON parser over UTF-8 bytes (a leading byte order mark is skipped).
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var depth = 0
    private static let maxDepth = 200

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Parses one JSON document.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes)
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw JSONSyntaxError(line: parser.line, message: "unexpected text after the JSON value")
        }
        return node
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1
            default: return
            }
        }
    }

    private func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, message: message)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else { throw fail("the JSON ends where a value was expected") }
        let start = line
        switch bytes[index] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw fail("JSON nested too deeply") }
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
                    throw fail("expected a quoted field name")
                }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail("expected “:” after the field name “\(key)”")
                }
                index += 1
                fields[key] = try parseValue()
                skipWhitespace()
                guard index < bytes.count else { throw fail("the JSON ends inside an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw fail("expected “,” or “}” in an object")
            }
            return JSONNode(line: start, value: .object(fields))
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw fail("JSON nested too deeply") }
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
                guard index < bytes.count else { throw fail("the JSON ends inside an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                throw fail("expected “,” or “]” in an array")
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
            throw fail("unexpected character where a JSON value was expected")
        }
    }

    private mutating func expectLiteral(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw fail("unexpected text where a JSON value was expected")
        }
        index += utf8.count
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as written.
    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw fail("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw fail("a number needs digits after “.”") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { throw fail("a number needs digits in its exponent") }
            while isDigit(index) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1 // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("a string is never closed") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw fail("a string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw fail("a string is never closed") }
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
                            throw fail("a \\u escape has a lone surrogate")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("a \\u escape has a lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("a \\u escape has a lone surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail("invalid escape in a string")
                }
            case 0x00..<0x20:
                throw fail("a string contains a raw control character or line break (write it as \\n)")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 65...70: digit = UInt32(byte - 55)
            case 97...102: digit = UInt32(byte - 87)
            default: throw fail("invalid \\u escape")
            }
            value = value * 16 + digit
        }
        index += 4
        return value
    }
}
