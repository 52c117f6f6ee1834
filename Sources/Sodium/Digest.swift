import CSodium

/// SHA-256 (FIPS 180-4) through libsodium's `crypto_hash_sha256`
/// (<https://doc.libsodium.org/advanced/sha-2_hash_function>).
///
/// For storing high-entropy tokens (session ids, reset links) hashed, so a leaked database
/// does not hand out live tokens. **Not** for passwords: use ``PasswordHasher``.
///
/// ```swift
/// Digest.sha256Hex("abc")  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
public enum Digest {
    /// The SHA-256 digest of the UTF-8 bytes of `text`, in lower-case hex.
    /// - Parameter text: any string (hashed as UTF-8, no normalisation).
    /// - Returns: 64 characters `0–9 a–f`.
    public static func sha256Hex(_ text: String) -> String {
        Sodium.ensureInitialized()
        var text = text
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(crypto_hash_sha256_bytes())) { digest in
            text.withUTF8 { input in
                _ = crypto_hash_sha256(digest.baseAddress!, input.baseAddress, UInt64(input.count))
            }
            return Hex.encode(UnsafeBufferPointer(digest))
        }
    }

    /// The SHA-256 digest of `bytes`.
    /// - Parameter bytes: the message.
    /// - Returns: 32 bytes.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Sodium.ensureInitialized()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_bytes()))
        digest.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                // `in` may be NULL when `inlen` is 0; the return value is always 0.
                _ = crypto_hash_sha256(out.baseAddress!, input.baseAddress, UInt64(input.count))
            }
        }
        return digest
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under a 32-byte `key`, through libsodium's
    /// `crypto_auth_hmacsha256`: a value anyone can recompute from the message only with the
    /// key (for tokens derived on the server from what the client sent).
    /// - Parameters:
    ///   - key: exactly 32 secret bytes.
    ///   - message: hashed as its UTF-8 bytes.
    /// - Returns: the 32-byte tag in lower-case hex (64 characters).
    /// - Precondition: `key.count == 32`.
    public static func hmacSHA256Hex(key: [UInt8], message: String) -> String {
        precondition(key.count == Int(crypto_auth_hmacsha256_keybytes()), "HMAC-SHA-256 needs a 32-byte key")
        Sodium.ensureInitialized()
        let bytes = Array(message.utf8)
        var tag = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_bytes()))
        tag.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                key.withUnsafeBufferPointer { secret in
                    // Always returns 0.
                    _ = crypto_auth_hmacsha256(out.baseAddress!, input.baseAddress, UInt64(input.count), secret.baseAddress!)
                }
            }
        }
        return Hex.encode(tag)
    }
}
