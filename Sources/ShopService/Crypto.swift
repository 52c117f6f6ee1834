public import Foundation

/// Password hashing and secrets, injected so tests can use a cheap hash and the server libsodium
/// (argon2id, `randombytes_buf`, SHA-256) — see `shoppable`'s wiring.
public struct Crypto: Sendable {
    /// Hashes a password into a self-describing encoded string (argon2id in production).
    public var hashPassword: @Sendable (String) throws -> String
    /// `true` when the password matches the encoded hash.
    public var verifyPassword: @Sendable (_ password: String, _ encoded: String) -> Bool
    /// `true` when the hash was made with weaker settings than today's and should be redone.
    public var passwordNeedsRehash: @Sendable (String) -> Bool
    /// A new unguessable token for links and forms: at least 256 random bits, URL-safe text.
    public var randomToken: @Sendable () -> String
    /// A new session token: 128 random bits as 32 lower-case hex digits (the cookie's format).
    public var sessionToken: @Sendable () -> String
    /// Lower-case hex SHA-256, to store tokens without being able to use them.
    public var sha256Hex: @Sendable (String) -> String
    /// Compares two secrets in time independent of where they differ.
    public var constantTimeEquals: @Sendable (String, String) -> Bool
    /// The guest session token for a visitor's CSRF cookie: 32 lower-case hex digits that only
    /// the server can compute (a keyed hash), the same for every request carrying that cookie —
    /// so a visitor's simultaneous first adds create one session, not one each. Nil: every new
    /// guest session gets a random token.
    public var guestSessionToken: (@Sendable (_ csrfCookie: String) -> String)?
    /// The token of a guest's order link for one checkout (`CheckoutService.orderLinkKey`): a
    /// keyed hash only the server can compute, the same for every placement of that checkout —
    /// so a double-submitted "Place order", whose second request finds the order placed, answers
    /// with the same working link. Nil: a random token each time.
    public var orderLinkToken: (@Sendable (_ checkout: String) -> String)?
    /// A keyed hash of a cookie the server sets and reads back unchanged (a one-time message):
    /// 32 lower-case hex digits only the server can compute from the cookie's name and value, so
    /// a cookie planted by someone else (a sibling subdomain, a network on plain HTTP) is told
    /// apart. Nil: such cookies go unsigned.
    public var cookieTag: (@Sendable (_ name: String, _ value: String) -> String)?
    /// `count` random bytes (a TOTP secret); nil where the wiring offers none.
    public var randomBytes: (@Sendable (_ count: Int) -> [UInt8])?
    /// HMAC-SHA1 (RFC 2104), for TOTP; nil where the wiring offers none (no second factor then).
    public var hmacSHA1: (@Sendable (_ key: [UInt8], _ message: [UInt8]) -> [UInt8])?

    /// Creates the value from its operations.
    public init(hashPassword: @escaping @Sendable (String) throws -> String,
                verifyPassword: @escaping @Sendable (String, String) -> Bool,
                passwordNeedsRehash: @escaping @Sendable (String) -> Bool,
                randomToken: @escaping @Sendable () -> String,
                sessionToken: @escaping @Sendable () -> String,
                sha256Hex: @escaping @Sendable (String) -> String,
                constantTimeEquals: @escaping @Sendable (String, String) -> Bool) {
        self.hashPassword = hashPassword
        self.verifyPassword = verifyPassword
        self.passwordNeedsRehash = passwordNeedsRehash
        self.randomToken = randomToken
        self.sessionToken = sessionToken
        self.sha256Hex = sha256Hex
        self.constantTimeEquals = constantTimeEquals
    }
}
