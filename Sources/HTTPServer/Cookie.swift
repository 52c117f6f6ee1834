/// A cookie to set on the client with a `Set-Cookie` response header (RFC 6265 §4.1).
///
/// ```swift
/// var response = Response.redirect(to: "/")
/// response.setCookie(Cookie(name: "session", value: token, maxAge: 30 * 24 * 3600))
/// // Set-Cookie: session=…; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax
/// ```
public struct Cookie: Hashable, Sendable {
    /// The `SameSite` attribute (RFC 6265bis §4.1.2.7).
    public enum SameSite: String, Sendable {
        /// Sent only on same-site requests.
        case strict = "Strict"
        /// Sent on same-site requests and top-level cross-site navigations (the default here).
        case lax = "Lax"
        /// Sent on all requests; browsers require `Secure` with it.
        case none = "None"
    }

    /// Cookie name: an RFC 9110 token. Bytes outside the token set are percent-encoded.
    public var name: String
    /// Cookie value: RFC 6265 `cookie-octet`s (`%x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E`).
    /// Other bytes (space, `"`, `,`, `;`, `\`, controls, non-ASCII) are percent-encoded on
    /// serialization, so a value can never break the header.
    public var value: String
    /// Lifetime in seconds (`Max-Age`); `0` deletes the cookie; `nil` makes a session cookie.
    public var maxAge: Int?
    /// `Path` attribute; `nil` omits it.
    public var path: String?
    /// `Domain` attribute; `nil` (host-only cookie) is the safe default.
    public var domain: String?
    /// `HttpOnly`: hidden from scripts.
    public var httpOnly: Bool
    /// `Secure`: sent over HTTPS only.
    public var secure: Bool
    /// `SameSite` attribute; `nil` omits it.
    public var sameSite: SameSite?

    /// A cookie with this project's defaults: `Path=/`, `HttpOnly`, `SameSite=Lax`, not `Secure`
    /// (turn that on behind TLS), session lifetime unless `maxAge` (seconds) is given.
    public init(
        name: String,
        value: String,
        maxAge: Int? = nil,
        path: String? = "/",
        domain: String? = nil,
        httpOnly: Bool = true,
        secure: Bool = false,
        sameSite: SameSite? = .lax
    ) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.path = path
        self.domain = domain
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// A cookie that deletes `name` on the client (`Max-Age=0`, empty value). Pass the same
    /// `path`/`domain` the cookie was set with.
    public static func expired(name: String, path: String? = "/", domain: String? = nil) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: path, domain: domain)
    }

    /// The `Set-Cookie` header value, e.g. `id=a3f; Max-Age=60; Path=/; HttpOnly; SameSite=Lax`.
    public var headerValue: String {
        // Appended to one string (a first visit sets a cookie on every answer; building it from
        // parts and joining them was 3 % of its CPU).
        var header = ""
        header.reserveCapacity(name.utf8.count + value.utf8.count + 64)
        header += Self.sanitize(name, keeping: .token)
        header += "="
        header += Self.sanitize(value, keeping: .cookieOctet)
        if let maxAge {
            header += "; Max-Age="
            header += String(max(0, maxAge))
        }
        if let domain {
            header += "; Domain="
            header += Self.sanitize(domain, keeping: .attributeOctet)
        }
        if let path {
            header += "; Path="
            header += Self.sanitize(path, keeping: .attributeOctet)
        }
        if secure { header += "; Secure" }
        if httpOnly { header += "; HttpOnly" }
        if let sameSite {
            header += "; SameSite="
            header += sameSite.rawValue
        }
        return header
    }

    /// Parses `Cookie` request header values (RFC 6265 §4.2 / §5.4) into a name → value map.
    ///
    /// Pairs are split on `;`, surrounding spaces and tabs trimmed, a value wrapped in double
    /// quotes is unwrapped. Pieces without `=` or with an empty name are skipped. Several
    /// `Cookie` headers are read in order; for a repeated name the first value wins (browsers
    /// send the most specific path first). Values are returned as sent (no percent-decoding).
    ///
    /// Read on UTF-8 bytes (every separator is ASCII): every request of a visitor with a session
    /// parses its cookies, and going by `Character` was 3 % of a shopper's page (issue #14).
    public static func parse(headerValues: some Sequence<String>) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headerValues {
            var header = header
            // On the header's contiguous bytes, without an array of slices (`split`): 2.3 % of a
            // shopper's page went to splitting two cookies.
            header.withUTF8 { bytes in
                var start = 0
                while start < bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
                    if end > start { add(bytes[start..<end], to: &cookies) }
                    start = end + 1
                }
            }
        }
        return cookies
    }

    /// Adds one `name=value` piece, unless its name is empty or already there.
    private static func add(_ piece: Slice<UnsafeBufferPointer<UInt8>>, to cookies: inout [String: String]) {
        guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { return }
        let name = piece[..<equals].trimmingOptionalWhiteSpace
        guard !name.isEmpty else { return }
        let key = String(decoding: name, as: UTF8.self)
        guard cookies[key] == nil else { return }
        var value = piece[piece.index(after: equals)...].trimmingOptionalWhiteSpace
        let quote = UInt8(ascii: "\"")
        if value.count >= 2, value.first == quote, value.last == quote {
            value = value.dropFirst().dropLast()
        }
        cookies[key] = String(decoding: value, as: UTF8.self)
    }

    // MARK: - Internals

    /// `text`, with every byte outside `kept` written as `%XX`.
    private static func sanitize(_ text: String, keeping kept: ASCIIByteSet) -> String {
        // Checked on the string's contiguous bytes (its `UTF8View`'s iterator was 1 % of a first
        // visit, whose CSRF cookie is 43 characters).
        let clean = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(kept.contains) }
            ?? text.utf8.allSatisfy(kept.contains)
        guard !clean else { return text }
        return URLEncoding.percentEncode(text, keeping: kept.contains)
    }
}
