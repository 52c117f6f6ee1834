/// Percent-decoding and `application/x-www-form-urlencoded` decoding, as pure functions.
///
/// Sources: RFC 3986 §2.1 (percent-encoding: `%` followed by exactly two hex digits) and the
/// WHATWG URL Standard §5 (`application/x-www-form-urlencoded`: `&`-separated `name=value`
/// pairs, `+` means space). Decoded bytes must be UTF-8 without NUL (no text of the shop holds
/// one, and PostgreSQL's text cannot); anything else is a ``RequestDecodingError``, which the
/// server answers with 400 Bad Request.
///
/// ```swift
/// try URLEncoding.percentDecode("/products/oak%20chair")   // "/products/oak chair"
/// try URLEncoding.decodeForm("q=oak+chair&page=2")           // [("q", "oak chair"), ("page", "2")]
/// try URLEncoding.percentDecode("%zz")                       // throws .invalidPercentEncoding
/// ```
public enum URLEncoding {
    /// Decodes `%XY` escapes in `text`. With `plusAsSpace`, `+` becomes a space (form rules);
    /// otherwise `+` stays `+` (path rules).
    /// - Throws: ``RequestDecodingError/invalidPercentEncoding(_:)`` for a `%` not followed by
    ///   two hex digits; ``RequestDecodingError/invalidUTF8(_:)`` when the decoded bytes are not
    ///   UTF-8. `component` names the part of the request in the error.
    public static func percentDecode(
        _ text: some StringProtocol,
        plusAsSpace: Bool = false,
        component: RequestDecodingError.Component = .path
    ) throws(RequestDecodingError) -> String {
        let utf8 = text.utf8
        // Fast path: nothing to decode.
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == 0 || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex, let high = hexValue(utf8[first]) else {
                    throw .invalidPercentEncoding(component)
                }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex, let low = hexValue(utf8[second]) else {
                    throw .invalidPercentEncoding(component)
                }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
            if bytes.last == 0 { throw .nulCharacter(component) }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidUTF8(component)
        }
        return decoded
    }

    /// Decodes a URL query string (the part after `?`, without the `?`) by the form rules:
    /// pairs split on `&`, name and value on the first `=`, `+` is space, empty pieces skipped,
    /// a piece without `=` has value `""`. Order and duplicates are kept.
    /// - Throws: ``RequestDecodingError`` with component `.query` on bad escapes or non-UTF-8.
    public static func decodeQuery(_ query: some StringProtocol) throws(RequestDecodingError)
        -> [(name: String, value: String)]
    {
        try decodePairs(query, component: .query)
    }

    /// Decodes an `application/x-www-form-urlencoded` body (same rules as ``decodeQuery(_:)``).
    /// - Throws: ``RequestDecodingError`` with component `.form` on bad escapes or non-UTF-8.
    public static func decodeForm(_ body: [UInt8]) throws(RequestDecodingError)
        -> [(name: String, value: String)]
    {
        guard let text = String(validating: body, as: UTF8.self) else { throw .invalidUTF8(.form) }
        return try decodePairs(text, component: .form)
    }

    /// Decodes an `application/x-www-form-urlencoded` string (same rules as ``decodeQuery(_:)``).
    /// - Throws: ``RequestDecodingError`` with component `.form` on bad escapes or non-UTF-8.
    public static func decodeForm(_ body: some StringProtocol) throws(RequestDecodingError)
        -> [(name: String, value: String)]
    {
        try decodePairs(body, component: .form)
    }

    /// Percent-encodes a decoded path for use on the wire: keeps RFC 3986 `pchar`s and `/`
    /// (unreserved, sub-delims, `:`, `@`), encodes every other byte of the UTF-8 form as `%XX`
    /// (upper-case hex). `"/products/oak chair"` → `"/products/oak%20chair"`.
    public static func percentEncodePath(_ path: some StringProtocol) -> String {
        percentEncode(path, keeping: isPathByte)
    }

    /// Percent-encodes a query/form component: keeps unreserved bytes (`A-Z a-z 0-9 - . _ ~`),
    /// writes space as `+`, everything else as `%XX`. Inverse of the decoding above.
    public static func formEncode(_ text: some StringProtocol) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else if byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                appendEscape(byte, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-encodes every byte of the UTF-8 form except ASCII letters and digits: safe inside
    /// a cookie value and next to any separator. `"Added to cart."` → `"Added%20to%20cart%2E"`.
    public static func percentEncodeAlphanumerics(_ text: some StringProtocol) -> String {
        percentEncode(text, keeping: isAlphanumeric)
    }

    /// Percent-encodes the bytes outside ASCII and keeps every ASCII byte: a local address
    /// decoded from a form or query (`/search?q=çay`) made fit for a `Location` header, which
    /// is a URI reference (RFC 9110 §10.2.2) — its delimiters left as they are.
    public static func percentEncodeNonASCII(_ text: some StringProtocol) -> String {
        percentEncode(text, keeping: { $0 < 0x80 })
    }

    // MARK: - Internals

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func decodePairs(
        _ text: some StringProtocol, component: RequestDecodingError.Component
    ) throws(RequestDecodingError) -> [(name: String, value: String)] {
        // One pass over the UTF-8 bytes: every request with a query comes through here, and the
        // `Substring` splitting this replaced was 5 % of a cached API read (issue #10).
        var pairs: [(name: String, value: String)] = []
        var bytes = Array(text.utf8)
        var pieceStart = 0
        bytes.append(UInt8(ascii: "&"))  // a sentinel that ends the last piece
        for index in bytes.indices where bytes[index] == UInt8(ascii: "&") {
            defer { pieceStart = index + 1 }
            guard index > pieceStart else { continue }  // empty pieces are skipped
            let piece = bytes[pieceStart..<index]
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            pairs.append((
                name: try decodeComponent(piece[..<(equals ?? index)], component: component),
                value: try equals.map { equals throws(RequestDecodingError) in
                    try decodeComponent(piece[(equals + 1)...], component: component)
                } ?? ""
            ))
        }
        return pairs
    }

    /// One query or form component's bytes, decoded: `%XX` escapes, `+` as space, UTF-8.
    private static func decodeComponent(_ bytes: ArraySlice<UInt8>, component: RequestDecodingError.Component)
        throws(RequestDecodingError) -> String
    {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || $0 == 0 }) else {
            // Split at ASCII bytes out of a valid string: still valid UTF-8.
            return String(decoding: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.endIndex - index > 2,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw .invalidPercentEncoding(component)
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
            if decoded.last == 0 { throw .nulCharacter(component) }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8(component) }
        return text
    }

    /// `text` with every byte of its UTF-8 form outside `keep` written as `%XX` (upper-case
    /// hex): the one percent-encoder of the module (cookies' `Cookie.headerValue` too).
    static func percentEncode(_ text: some StringProtocol, keeping keep: (UInt8) -> Bool)
        -> String
    {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) { out.append(byte) } else { appendEscape(byte, to: &out) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return "!$&'()*+,;=:@/".utf8.contains(byte)
    }
}

/// A request that cannot be decoded: the server answers it with 400 Bad Request and never
/// calls the handler.
public enum RequestDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which part of the request was malformed.
    public enum Component: String, Sendable {
        /// The path of the request target.
        case path
        /// The query string of the request target.
        case query
        /// An `application/x-www-form-urlencoded` body.
        case form
    }

    /// A `%` not followed by two hex digits (RFC 3986 §2.1).
    case invalidPercentEncoding(Component)
    /// The decoded bytes are not valid UTF-8.
    case invalidUTF8(Component)
    /// The decoded bytes hold a NUL (`%00`).
    case nulCharacter(Component)
    /// The request target is neither origin-form (`/path?query`), absolute-form nor `*`.
    case invalidTarget

    /// A one-line, client-safe explanation, used as the 400 response body.
    public var description: String {
        switch self {
        case .invalidPercentEncoding(let component): "invalid percent-encoding in \(component.rawValue)"
        case .invalidUTF8(let component): "\(component.rawValue) is not valid UTF-8"
        case .nulCharacter(let component): "\(component.rawValue) holds a NUL character"
        case .invalidTarget: "invalid request target"
        }
    }
}
