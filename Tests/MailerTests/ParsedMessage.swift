import Foundation

/// A test-side reader of rendered messages, written from the RFCs independently of the
/// renderer: splits header and body, unfolds headers (RFC 5322 §2.2.3), decodes `B`
/// encoded-words (RFC 2047) and quoted-printable (RFC 2045 §6.7).
struct ParsedMessage {
    /// The physical header lines, without CRLF.
    var headerLines: [String]
    /// Unfolded fields in order: (name, value without the leading space).
    var fields: [(name: String, value: String)]
    /// Everything after the blank line.
    var body: String

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        let head = String(parts[0])
        body = parts.count > 1 ? String(parts[1]) : ""
        headerLines = head.components(separatedBy: "\r\n")
        fields = []
        for line in headerLines {
            if line.first == " " || line.first == "\t", let last = fields.indices.last {
                fields[last].value += line
            } else if let colon = line.firstIndex(of: ":") {
                var value = String(line[line.index(after: colon)...])
                if value.first == " " { value.removeFirst() }
                fields.append((String(line[..<colon]), value))
            }
        }
    }

    /// The unfolded value of the first field with this name (case-insensitive).
    func field(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The unfolded value with `=?UTF-8?B?…?=` words decoded; whitespace between two adjacent
    /// encoded-words is dropped (RFC 2047 §6.2).
    func decodedField(_ name: String) -> String? {
        field(name).map(decodeEncodedWords)
    }
}

func decodeEncodedWords(_ value: String) -> String {
    let prefix = "=?UTF-8?B?"
    var result = ""
    var previousWasEncoded: Bool?
    for token in value.split(separator: " ", omittingEmptySubsequences: false) {
        var decoded: String?
        if token.uppercased().hasPrefix(prefix), token.hasSuffix("?="),
           let data = Data(base64Encoded: String(token.dropFirst(prefix.count).dropLast(2))) {
            decoded = String(decoding: data, as: UTF8.self)
        }
        let isEncoded = decoded != nil
        if let previousWasEncoded, !(previousWasEncoded && isEncoded) { result += " " }
        result += decoded ?? String(token)
        previousWasEncoded = isEncoded
    }
    return result
}

/// Quoted-printable to bytes: `=XX` → byte, `=` CRLF (soft break) → nothing.
func decodeQuotedPrintable(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    var index = 0
    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count {
            if bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
                index += 3
                continue
            }
            if let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
                continue
            }
        }
        result.append(bytes[index])
        index += 1
    }
    return result
}
