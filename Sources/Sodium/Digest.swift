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
        Hex.encode(sha256(Array(text.utf8)))
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
}
