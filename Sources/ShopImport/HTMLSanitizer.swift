import Foundation

/// Turns merchant-supplied HTML (product descriptions) into a safe fragment to embed in our
/// pages, plus plain text for search.
///
/// Kept (an allow-list): `p br hr ul ol li strong em b i u s blockquote h3 h4 h5 h6 table thead
/// tbody tfoot tr th td` without attributes (except numeric `colspan`/`rowspan` on cells), and
/// `a` with an `http:`/`https:` `href` only, to which `rel="nofollow noopener"` is added.
/// `h1`/`h2` become `h3` (the page owns its top headings). Dropped with their content:
/// `script style iframe object noscript template svg math textarea select title head …`.
/// Every other tag is dropped but its text kept; every attribute not listed (all `on*`
/// handlers, `style`, `class`, `src` …) is dropped; `javascript:` and other schemes are
/// dropped with their `href`. Elements nested deeper than `maximumDepth` are dropped, their text
/// kept. Text is entity-decoded and re-escaped (`& < > " '`), so the output is well-formed: every
/// kept element is closed. Time grows in proportion to the input's length.
///
/// ```swift
/// let (html, text) = HTMLSanitizer.sanitize("<p onclick=x>Hi <script>evil()</script><b>there</b>")
/// // html: "<p>Hi <b>there</b></p>", text: "Hi there"
/// ```
public enum HTMLSanitizer {
    /// How deep kept elements may nest; tags opened deeper are dropped, their text kept.
    public static let maximumDepth = 32

    /// Sanitizes `html`. Line ends are made `\n` first (CRLF and a lone CR, as an HTML parser
    /// reads them): a browser's textarea posts CRLF, and a description stored with it came back
    /// from a CSV export as a change on every import (a fresh tester).
    /// - Returns: `html`, the safe fragment; `text`, its text content with block elements as line
    ///   breaks, whitespace collapsed within lines and empty lines removed.
    public static func sanitize(_ html: String) -> (html: String, text: String) {
        var sanitizer = Sanitizer(normalizedLineEnds(Array(html.utf8)))
        sanitizer.run()
        return (String(decoding: sanitizer.output, as: UTF8.self),
                normalizeText(String(decoding: sanitizer.text, as: UTF8.self)))
    }

    /// `text` with every CRLF and lone CR as LF, as `sanitize` reads line ends (a form's fields
    /// compare in it: browsers send every field's line breaks as CRLF).
    public static func normalizedLineEnds(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        return String(decoding: normalizedLineEnds(Array(text.utf8)), as: UTF8.self)
    }

    /// `bytes` with every CRLF and lone CR as LF.
    static func normalizedLineEnds(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "\r")) else { return bytes }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var afterCR = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), afterCR { afterCR = false; continue }
            afterCR = byte == UInt8(ascii: "\r")
            normalized.append(afterCR ? UInt8(ascii: "\n") : byte)
        }
        return normalized
    }

    /// Wraps plain text (not HTML) into paragraphs: blank lines separate `<p>`s, single line
    /// breaks become `<br>`; every character is escaped.
    /// - Returns: the HTML fragment and the normalized text.
    public static func paragraphs(fromPlainText plain: String) -> (html: String, text: String) {
        let normalized = plain.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var html = ""
        for chunk in splitParagraphs(normalized) {
            let lines = chunk.split(separator: "\n", omittingEmptySubsequences: false)
                .map { escape(String($0).trimmingWhitespace) }
            html += "<p>" + lines.joined(separator: "<br>") + "</p>"
        }
        return (html, normalizeText(normalized))
    }

    /// WordPress-style automatic paragraphs for HTML written with bare line breaks (WooCommerce
    /// descriptions): blank-line-separated chunks that do not start with a block tag are
    /// wrapped in `<p>`, and their single line breaks become `<br>`. Run before `sanitize`.
    static func autoParagraphs(_ html: String) -> String {
        let normalized = html.replacingOccurrences(of: "\r\n", with: "\n")
        guard normalized.contains("\n") else { return normalized }
        let blockStarts = ["<p", "<ul", "<ol", "<h", "<table", "<div", "<blockquote", "<pre", "<li", "<tr", "<hr"]
        return splitParagraphs(normalized).map { chunk -> String in
            let lower = chunk.lowercased()
            if blockStarts.contains(where: { lower.hasPrefix($0) }) { return chunk }
            return "<p>" + chunk.replacingOccurrences(of: "\n", with: "<br>\n") + "</p>"
        }.joined(separator: "\n")
    }

    private static func splitParagraphs(_ text: String) -> [String] {
        var chunks: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                if !current.isEmpty { chunks.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { chunks.append(current.joined(separator: "\n")) }
        return chunks.map(\.trimmingWhitespace)
    }

    /// Escapes `& < > " '` for text and attribute values.
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendEscaped(Array(text.utf8), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendEscaped(_ bytes: [UInt8], to out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&#39;".utf8)
            default: out.append(byte)
            }
        }
    }

    /// Collapses whitespace within lines, trims them and drops empty lines.
    static func normalizeText(_ text: String) -> String {
        normalizedBytes(text) ?? normalizeTextByCharacters(text)
    }

    /// `normalizeTextByCharacters` on UTF-8 bytes, for text whose `Character`s are plain to see
    /// there (issue #13, point 6: 30 000 descriptions split by `Character` were 5 % of an
    /// import): no `\r`, and every non-ASCII character a letter of U+00C0–U+017F (lead byte
    /// C3–C5: no white space, no line separator and no combining mark) or a scalar of
    /// U+0300–U+037F (lead byte CC–CD: combining marks, and Greek letters that are neither
    /// white space nor separators) right after a character that is not white space — a mark
    /// there joins that character, as `i` + U+0307 in lower-cased Turkish text, and changes no
    /// split; after white space or at a line's start it would join the space, so such text goes
    /// the `Character` way. Then the white space is exactly the bytes 09–0D and 20, and lines end
    /// at 0A. nil for any other text.
    static func normalizedBytes(_ text: String) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        var pendingLine = false
        for byte in text.utf8 {
            switch byte {
            case 0x0A:
                pendingLine = true
            case 0x0D:
                return nil
            case 0x09, 0x0B, 0x0C, 0x20:
                pendingSpace = true
            case 0xCC, 0xCD:
                guard !pendingLine, !pendingSpace, !output.isEmpty else { return nil }
                output.append(byte)
            case 0x00...0x7F, 0x80...0xBF, 0xC3...0xC5:
                if pendingLine && !output.isEmpty {
                    output.append(0x0A)
                } else if pendingSpace && !output.isEmpty {
                    output.append(0x20)
                }
                pendingLine = false
                pendingSpace = false
                output.append(byte)
            default:
                return nil
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Lines without empty ones, each line's words joined by one space (by `Character`).
    static func normalizeTextByCharacters(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" })
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (including non-breaking spaces).
    var trimmingWhitespace: String {
        // Most fields start and end with a visible ASCII character: nothing to trim, decided on
        // two bytes. (A `Character` is white space when its first scalar is, and no grapheme
        // cluster joins a white-space scalar to a following visible ASCII one.)
        let bytes = utf8
        if let head = bytes.first, Self.isVisibleASCII(head),
           Self.isVisibleASCII(bytes[bytes.index(bytes.startIndex, offsetBy: bytes.count - 1)]) {
            return String(self)
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        // Nothing to trim (most fields): no new string (a `String`'s storage is shared).
        if first == startIndex, index(after: last) == endIndex { return String(self) }
        return String(self[first...last])
    }

    /// `!` … `~`: printable ASCII other than the space.
    private static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}

private struct Sanitizer {
    static let allowed: Set<String> = [
        "p", "br", "hr", "ul", "ol", "li", "strong", "em", "b", "i", "u", "s", "blockquote",
        "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tfoot", "tr", "th", "td",
    ]
    static let void: Set<String> = [
        "br", "hr", "img", "input", "embed", "link", "meta", "base", "param", "source", "track",
        "wbr", "area", "col", "keygen",
    ]
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "object", "noscript", "template", "svg", "math", "textarea",
        "select", "title", "head", "xmp", "noembed", "noframes", "plaintext", "applet", "frameset",
    ]
    static let blocks: Set<String> = [
        "p", "div", "br", "hr", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table",
        "blockquote", "section", "article", "header", "footer", "pre", "dd", "dt", "dl", "th", "td",
    ]

    let input: [UInt8]
    var index = 0
    var output: [UInt8] = []
    var text: [UInt8] = []
    var open: [String] = []

    init(_ input: [UInt8]) { self.input = input }

    mutating func run() {
        let lt = UInt8(ascii: "<")
        while index < input.count {
            let byte = input[index]
            if byte == lt {
                handleMarkup()
            } else if byte == UInt8(ascii: "&") {
                let decoded = decodeEntity()
                emitText(decoded)
            } else {
                let start = index
                while index < input.count, input[index] != lt, input[index] != UInt8(ascii: "&") { index += 1 }
                emitText(Array(input[start..<index]))
            }
        }
        while let name = open.popLast() { output += Array("</\(name)>".utf8) }
    }

    mutating func emitText(_ bytes: [UInt8]) {
        HTMLSanitizer.appendEscaped(bytes, to: &output)
        text += bytes
    }

    func isLetter(_ i: Int) -> Bool {
        i < input.count && ((input[i] | 0x20) >= UInt8(ascii: "a") && (input[i] | 0x20) <= UInt8(ascii: "z"))
    }

    func find(_ needle: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
        let pattern = Array(needle.utf8)
        guard pattern.count <= input.count else { return nil }
        var i = start
        while i + pattern.count <= input.count {
            var matches = true
            for (offset, p) in pattern.enumerated() {
                let c = input[i + offset]
                if caseInsensitive ? (c | 0x20) != (p | 0x20) : c != p { matches = false; break }
            }
            if matches { return i }
            i += 1
        }
        return nil
    }

    mutating func handleMarkup() {
        let next = index + 1
        if input[index...].starts(with: Array("<!--".utf8)) {
            index = (find("-->", from: index + 4).map { $0 + 3 }) ?? input.count
            return
        }
        if next < input.count, input[next] == UInt8(ascii: "!") || input[next] == UInt8(ascii: "?") {
            index = (find(">", from: next).map { $0 + 1 }) ?? input.count
            return
        }
        if next < input.count, input[next] == UInt8(ascii: "/"), isLetter(next + 1) {
            index = next + 1
            let name = readName()
            index = (find(">", from: index).map { $0 + 1 }) ?? input.count
            endTag(name)
            return
        }
        guard isLetter(next) else {
            emitText([UInt8(ascii: "<")])
            index += 1
            return
        }
        index = next
        let name = readName()
        let attributes = readAttributes()
        startTag(name, attributes: attributes)
    }

    mutating func readName() -> String {
        let start = index
        while index < input.count, !isSpace(input[index]), input[index] != UInt8(ascii: ">"),
              input[index] != UInt8(ascii: "/") {
            index += 1
        }
        return String(decoding: input[start..<index], as: UTF8.self).lowercased()
    }

    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    /// Reads attributes up to and including the closing `>`; values are entity-decoded.
    mutating func readAttributes() -> [(name: String, value: String)] {
        var attributes: [(name: String, value: String)] = []
        while index < input.count {
            while index < input.count, isSpace(input[index]) || input[index] == UInt8(ascii: "/") { index += 1 }
            guard index < input.count else { break }
            if input[index] == UInt8(ascii: ">") { index += 1; break }
            let start = index
            while index < input.count, !isSpace(input[index]), input[index] != UInt8(ascii: "="),
                  input[index] != UInt8(ascii: ">"), !(input[index] == UInt8(ascii: "/") && index > start) {
                index += 1
            }
            if index == start { index += 1; continue }
            let name = String(decoding: input[start..<index], as: UTF8.self).lowercased()
            while index < input.count, isSpace(input[index]) { index += 1 }
            var value: [UInt8] = []
            if index < input.count, input[index] == UInt8(ascii: "=") {
                index += 1
                while index < input.count, isSpace(input[index]) { index += 1 }
                if index < input.count, input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'") {
                    let quote = input[index]
                    let end = input[(index + 1)...].firstIndex(of: quote) ?? input.count
                    value = Array(input[(index + 1)..<end])
                    index = min(end + 1, input.count)
                } else {
                    let valueStart = index
                    while index < input.count, !isSpace(input[index]), input[index] != UInt8(ascii: ">") { index += 1 }
                    value = Array(input[valueStart..<index])
                }
            }
            attributes.append((name, decodeEntities(value)))
        }
        return attributes
    }

    mutating func startTag(_ rawName: String, attributes: [(name: String, value: String)]) {
        if Self.droppedWithContent.contains(rawName) {
            if let close = find("</\(rawName)", from: index, caseInsensitive: true) {
                index = (find(">", from: close).map { $0 + 1 }) ?? input.count
            } else {
                index = input.count
            }
            return
        }
        let name = (rawName == "h1" || rawName == "h2") ? "h3" : rawName
        if Self.blocks.contains(name) { text.append(0x0A) }
        guard Self.allowed.contains(name) else { return }
        closeImplied(by: name)
        // Deeper nesting is dropped (its text kept): it keeps every tag's work bounded, where
        // 64 000 nested `<ul>`s made each new tag search the whole open stack.
        guard Self.void.contains(name) || open.count < HTMLSanitizer.maximumDepth else { return }
        var tag = "<" + name
        switch name {
        case "a":
            guard let href = attributes.first(where: { $0.name == "href" })?.value, Self.isSafeLink(href) else { return }
            tag += " href=\"\(HTMLSanitizer.escape(href))\" rel=\"nofollow noopener\""
        case "td", "th":
            for attribute in attributes where attribute.name == "colspan" || attribute.name == "rowspan" {
                if let number = Int(attribute.value), (1...100).contains(number) {
                    tag += " \(attribute.name)=\"\(number)\""
                }
            }
        default:
            break
        }
        output += Array((tag + ">").utf8)
        if !Self.void.contains(name) { open.append(name) }
    }

    /// HTML's implied end tags: a new `li` closes the open `li` of the same list; a block
    /// element closes an open `p` (when only inline elements are open inside it).
    mutating func closeImplied(by name: String) {
        let inline: Set<String> = ["strong", "em", "b", "i", "u", "s", "a"]
        let closesParagraph: Set<String> = ["p", "ul", "ol", "h3", "h4", "h5", "h6", "table", "blockquote", "hr"]
        var target: String?
        if name == "li" {
            target = "li"
        } else if closesParagraph.contains(name) {
            target = "p"
        } else {
            return
        }
        guard let position = open.lastIndex(of: target!),
              open[(position + 1)...].allSatisfy({ inline.contains($0) }) else { return }
        while open.count > position {
            output += Array("</\(open.removeLast())>".utf8)
        }
    }

    mutating func endTag(_ rawName: String) {
        let name = (rawName == "h1" || rawName == "h2") ? "h3" : rawName
        if Self.blocks.contains(name) { text.append(0x0A) }
        guard let position = open.lastIndex(of: name) else { return }
        while open.count > position {
            output += Array("</\(open.removeLast())>".utf8)
        }
    }

    /// `http:` or `https:` after removing what browsers ignore (control characters, spaces).
    static func isSafeLink(_ href: String) -> Bool {
        let cleaned = String(String.UnicodeScalarView(href.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
            .lowercased()
        return cleaned.hasPrefix("http://") || cleaned.hasPrefix("https://")
    }

    /// Decodes the entity at `index` (which is `&`), or returns `&` when it is not one.
    mutating func decodeEntity() -> [UInt8] {
        let start = index
        var end = index + 1
        while end < input.count, end - start < 40,
              input[end] == UInt8(ascii: "#") || isAlphanumeric(input[end]) { end += 1 }
        let hasSemicolon = end < input.count && input[end] == UInt8(ascii: ";")
        let body = String(decoding: input[(start + 1)..<end], as: UTF8.self)
        if let decoded = Self.decode(entity: body, hasSemicolon: hasSemicolon) {
            index = hasSemicolon ? end + 1 : end
            return Array(decoded.utf8)
        }
        index += 1
        return [UInt8(ascii: "&")]
    }

    func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 122)
    }

    func decodeEntities(_ bytes: [UInt8]) -> String {
        var copy = Sanitizer(bytes)
        var out: [UInt8] = []
        while copy.index < bytes.count {
            if bytes[copy.index] == UInt8(ascii: "&") {
                out += copy.decodeEntity()
            } else {
                out.append(bytes[copy.index])
                copy.index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "copy": "©", "reg": "®", "trade": "™",
        "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "deg": "°", "times": "×",
        "frac12": "½", "frac14": "¼", "frac34": "¾", "middot": "·", "bull": "•", "shy": "\u{AD}",
    ]

    static func decode(entity body: String, hasSemicolon: Bool) -> String? {
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value else { return nil }
            let scalar = (value == 0 ? nil : Unicode.Scalar(value)) ?? "\u{FFFD}"
            return String(Character(scalar))
        }
        guard hasSemicolon else { return nil }
        return named[body]
    }
}
