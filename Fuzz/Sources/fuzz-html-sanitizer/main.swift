// The sanitizer for merchant HTML (product descriptions), and plain-text paragraphs.
//
// Invariant, for any input: the output is a well-nested fragment of allow-listed tags whose
// only attributes are an http(s) `href` with `rel="nofollow noopener"` on `a` and a numeric
// `colspan`/`rowspan` on cells; text holds no raw `<`, `>`, `"`, `'`, and every `&` starts
// one of the five escapes. The plain-text wrapper may only write `p` and `br`.
import FuzzSupport
import ShopImport

let allowed: Set<String> = [
    "p", "br", "hr", "ul", "ol", "li", "strong", "em", "b", "i", "u", "s", "blockquote",
    "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tfoot", "tr", "th", "td",
]
let void: Set<String> = ["br", "hr"]
let escapes = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].map { Array($0.utf8) }

/// Why `html` is not a safe fragment made of `tags`, or nil when it is.
func violation(in html: String, tags: Set<String>) -> String? {
    let bytes = Array(html.utf8)
    var open: [String] = []
    var index = 0
    while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "<"):
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return "unclosed tag" }
            let tag = text(bytes[(index + 1)..<end])
            index = end + 1
            if tag.hasPrefix("/") {
                guard open.popLast() == String(tag.dropFirst()) else { return "misnested </\(tag.dropFirst())>" }
                continue
            }
            let name = String(tag.prefix { $0 != " " })
            guard tags.contains(name) else { return "tag <\(name)>" }
            if let problem = attributeProblem(name: name, attributes: String(tag.dropFirst(name.count))) {
                return problem
            }
            if !void.contains(name) { open.append(name) }
        case UInt8(ascii: "&"):
            guard escapes.contains(where: { bytes[index...].starts(with: $0) }) else { return "bare &" }
            index += 1
        case UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            return "raw \(UnicodeScalar(bytes[index])) in text"
        default:
            index += 1
        }
    }
    return open.isEmpty ? nil : "unclosed <\(open.joined(separator: "><"))>"
}

func attributeProblem(name: String, attributes: String) -> String? {
    switch name {
    case "a":
        let prefix = " href=\"", suffix = "\" rel=\"nofollow noopener\""
        guard attributes.hasPrefix(prefix), attributes.hasSuffix(suffix),
              attributes.count >= prefix.count + suffix.count else { return "a attributes \(attributes)" }
        let href = attributes.dropFirst(prefix.count).dropLast(suffix.count)
        guard !href.contains(where: { "<>\"'".contains($0) }) else { return "unescaped href \(href)" }
        let seen = String(String.UnicodeScalarView(href.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
            .lowercased()
        return seen.hasPrefix("http://") || seen.hasPrefix("https://") ? nil : "href \(href)"
    case "td", "th":
        for attribute in attributes.split(separator: " ") {
            let pair = attribute.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0] == "colspan" || pair[0] == "rowspan",
                  pair[1].hasPrefix("\""), pair[1].hasSuffix("\""), pair[1].count > 2,
                  pair[1].dropFirst().dropLast().allSatisfy(\.isASCII), Int(pair[1].dropFirst().dropLast()) != nil
            else { return "cell attribute \(attribute)" }
        }
        return nil
    default:
        return attributes.isEmpty ? nil : "attributes on <\(name)>: \(attributes)"
    }
}

fuzz { bytes in
    let input = text(bytes)
    let sanitized = HTMLSanitizer.sanitize(input)
    if let problem = violation(in: sanitized.html, tags: allowed) {
        fatalError("sanitize: \(problem) in \(sanitized.html.debugDescription)")
    }
    let wrapped = HTMLSanitizer.paragraphs(fromPlainText: input)
    if let problem = violation(in: wrapped.html, tags: ["p", "br"]) {
        fatalError("paragraphs: \(problem) in \(wrapped.html.debugDescription)")
    }
}
