import ShopService

/// The value of a cookie the server sets and reads back unchanged — the one-time messages of the
/// storefront and the back office — with the server's tag (`Crypto.cookieTag`) after a dot, so a
/// cookie someone else planted (a sibling subdomain, a network on plain HTTP) is ignored instead
/// of shown as the shop's own message.
///
/// ```swift
/// setCookies.append(cookie(name, SignedCookie.seal(encoded, name: name, crypto), maxAge: 60))
/// let encoded = SignedCookie.open(request.cookies[name] ?? "", name: name, crypto)  // nil: not ours
/// ```
enum SignedCookie {
    /// `value` (which may hold dots) followed by `.` and its tag; `value` as is without a key.
    static func seal(_ value: String, name: String, _ crypto: Crypto) -> String {
        guard let tag = crypto.cookieTag else { return value }
        return value + "." + tag(name, value)
    }

    /// The value `sealed` was made from, nil when its tag is missing or is not the server's
    /// (compared in constant time); `sealed` as is without a key.
    static func open(_ sealed: String, name: String, _ crypto: Crypto) -> String? {
        guard let tag = crypto.cookieTag else { return sealed }
        guard let dot = sealed.lastIndex(of: ".") else { return nil }
        let value = String(sealed[..<dot])
        return crypto.constantTimeEquals(String(sealed[sealed.index(after: dot)...]), tag(name, value)) ? value : nil
    }
}
