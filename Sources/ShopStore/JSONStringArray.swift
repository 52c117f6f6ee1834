import Foundation

/// Encodes and decodes a JSON array of strings (RFC 8259) — the form list columns are stored in,
/// on every engine.
/// Hand-written because it runs for every product read on a hot path; Foundation's JSON coders
/// are far slower for such small values.
public enum JSONStringArray {
    /// `["a","b\"c"]`. Non-ASCII is written as UTF-8; `"`, `\` and control characters are escaped.
    public static func encode(_ strings: [String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out += [92, 34]
                case UInt8(ascii: "\\"): out += [92, 92]
                case 0x0A: out += [92, UInt8(ascii: "n")]
                case 0x0D: out += [92, UInt8(ascii: "r")]
                case 0x09: out += [92, UInt8(ascii: "t")]
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The strings of a JSON array of strings, or nil when `text` is anything else.
    public static func decode(_ text: String) -> [String]? {
        var parser = Parser(bytes: Array(text.utf8))
        return parser.array()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func array() -> [String]? {
            skipSpace()
            guard take(UInt8(ascii: "[")) else { return nil }
            var result: [String] = []
            skipSpace()
            if take(UInt8(ascii: "]")) { return finished(result) }
            while true {
                skipSpace()
                guard let string = string() else { return nil }
                result.append(string)
                skipSpace()
                if take(UInt8(ascii: "]")) { return finished(result) }
                guard take(UInt8(ascii: ",")) else { return nil }
            }
        }

        private mutating func finished(_ result: [String]) -> [String]? {
            skipSpace()
            return index == bytes.count ? result : nil
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code) {  // high surrogate: expect the low one
                            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                                  (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { return nil }
                        out += Array(String(Character(scalar)).utf8)
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    out.append(byte)
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
    }
}
