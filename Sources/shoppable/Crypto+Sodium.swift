import Foundation
import ShopWeb
import Sodium

extension Crypto {
    /// libsodium: argon2id password hashes (`crypto_pwhash_str`, interactive limits by default),
    /// 256-bit URL-safe tokens from `randombytes_buf`, SHA-256 and constant-time comparison.
    static func sodium(strength: PasswordHasher.Strength = .interactive) -> Crypto {
        let hasher = PasswordHasher(strength: strength)
        return Crypto(
            hashPassword: { try hasher.hash($0) },
            verifyPassword: { hasher.verify($0, against: $1) },
            passwordNeedsRehash: { hasher.needsRehash($0) },
            randomToken: { SecureRandom.token(byteCount: 32) },
            sha256Hex: { Digest.sha256Hex($0) },
            constantTimeEquals: { ConstantTime.equals($0, $1) })
    }
}
