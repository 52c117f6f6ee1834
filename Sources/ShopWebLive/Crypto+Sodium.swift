public import ShopWeb
public import ShopService
public import Sodium
import LibCrypto
import QRCode

/// The storefront's live dependencies on C libraries, wired in one place for the server and the
/// tests (ShopWeb itself imports no C wrapper).
extension Crypto {
    /// libsodium: argon2id password hashes (`crypto_pwhash_str`, interactive limits by default),
    /// 256-bit URL-safe tokens from `randombytes_buf`, SHA-256 and constant-time comparison.
    /// - Parameters:
    ///   - strength: argon2id limits.
    ///   - guestSessionKey: the shop's 32-byte `guest-session` server secret; guest session
    ///     tokens are then the first 128 bits of HMAC-SHA-256(key, CSRF cookie), and guest
    ///     order-link tokens HMAC-SHA-256(key, "order-link:" + checkout).
    public static func sodium(strength: PasswordHasher.Strength = .interactive, guestSessionKey: [UInt8]? = nil) -> Crypto {
        let hasher = PasswordHasher(strength: strength)
        var crypto = Crypto(
            hashPassword: { try hasher.hash($0) },
            verifyPassword: { hasher.verify($0, against: $1) },
            passwordNeedsRehash: { hasher.needsRehash($0) },
            randomToken: { SecureRandom.token(byteCount: 32) },
            sessionToken: { SecureRandom.hexToken(byteCount: 16) },  // randombytes_buf, DESIGN.md §3
            sha256Hex: { Digest.sha256Hex($0) },
            constantTimeEquals: { ConstantTime.equals($0, $1) })
        crypto.randomBytes = { SecureRandom.bytes($0) }
        crypto.hmacSHA1 = { HMAC.sha1(key: $0, message: $1) }
        if let guestSessionKey {
            crypto.guestSessionToken = { String(Digest.hmacSHA256Hex(key: guestSessionKey, message: "guest-session:" + $0).prefix(32)) }
            // The same key, another label: 256 bits, as random order-link tokens have.
            crypto.orderLinkToken = { Digest.hmacSHA256Hex(key: guestSessionKey, message: "order-link:" + $0) }
            crypto.cookieTag = { name, value in
                String(Digest.hmacSHA256Hex(key: guestSessionKey, message: "cookie:" + name + "=" + value).prefix(32))
            }
        }
        return crypto
    }
}

extension AppEnvironment {
    /// libqrencode: a text's QR code modules, for the back office's TOTP enrolment (nil when the
    /// text is too long for any QR code).
    public static let liveQRCode: @Sendable (String) -> (size: Int, modules: [Bool])? = { text in
        (try? QRCode(text)).map { (size: $0.size, modules: $0.modules) }
    }
}
