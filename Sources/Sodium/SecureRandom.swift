import CSodium

/// Unpredictable bytes and tokens from libsodium's CSPRNG (`randombytes_buf`,
/// <https://doc.libsodium.org/generating_random_data>; on Linux it reads `getrandom(2)`).
/// Use it for session ids, CSRF tokens, email-verification and password-reset links.
///
/// ```swift
/// let resetToken = SecureRandom.token()          // 43 characters, 256 bits, goes in the link
/// let stored = Digest.sha256Hex(resetToken)      // only the digest goes in the database
/// ```
public enum SecureRandom {
    /// `count` random bytes (`randombytes_buf`).
    /// - Parameter count: number of bytes, ≥ 0 (traps when negative).
    /// - Returns: an array of exactly `count` bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: negative count \(count)")
        Sodium.ensureInitialized()
        var buffer = [UInt8](repeating: 0, count: count)
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            randombytes_buf(base, raw.count)
        }
        return buffer
    }

    /// A random token for URLs and cookies: `byteCount` random bytes in URL-safe Base64
    /// without padding (RFC 4648 §5 alphabet `A–Z a–z 0–9 - _`; `sodium_bin2base64` with
    /// `sodium_base64_VARIANT_URLSAFE_NO_PADDING`).
    /// - Parameter byteCount: random bytes of entropy, ≥ 0; the default 32 gives 256 bits.
    /// - Returns: `ceil(byteCount × 4 / 3)` characters (43 for 32 bytes); safe in a URL path,
    ///   query or cookie value without escaping.
    public static func token(byteCount: Int = 32) -> String {
        precondition(byteCount >= 0, "SecureRandom.token: negative byteCount \(byteCount)")
        Sodium.ensureInitialized()
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        // The encoded length includes the terminating NUL.
        let encodedLength = sodium_base64_encoded_len(byteCount, variant)
        // The random bytes on the stack (wiped after), encoded straight into the string's own
        // storage: a first visit mints its CSRF token with this, and the arrays and copies of
        // the general path were a third of its cost (issue #14).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(byteCount, 1)) { random in
            let input = random.baseAddress!
            randombytes_buf(input, byteCount)
            defer { sodium_memzero(input, byteCount) }
            return String(unsafeUninitializedCapacity: encodedLength) { output in
                output.withMemoryRebound(to: CChar.self) { characters in
                    _ = sodium_bin2base64(characters.baseAddress!, characters.count, input, byteCount, variant)
                }
                return encodedLength - 1
            }
        }
    }

    /// A random token in lower-case hexadecimal (`0–9 a–f`, `sodium_bin2hex`).
    /// - Parameter byteCount: random bytes of entropy, ≥ 0; the default 16 gives 128 bits.
    /// - Returns: exactly `2 × byteCount` characters.
    public static func hexToken(byteCount: Int = 16) -> String {
        precondition(byteCount >= 0, "SecureRandom.hexToken: negative byteCount \(byteCount)")
        var random = bytes(byteCount)
        defer { wipe(&random) }
        return Hex.encode(random)
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            sodium_memzero(base, raw.count)
        }
    }
}

/// Lower-case hex through `sodium_bin2hex` (constant-time, so it is safe for secrets).
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(encode)
    }

    /// Lower-case hex written straight into the string's storage (a session's page hashes its
    /// cookie and its form token: three arrays each had been made and dropped).
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // `sodium_bin2hex` ends with a NUL, inside the capacity but outside the string.
        String(unsafeUninitializedCapacity: bytes.count * 2 + 1) { out in
            out.withMemoryRebound(to: CChar.self) { chars in
                _ = sodium_bin2hex(chars.baseAddress!, chars.count, bytes.baseAddress, bytes.count)
            }
            return bytes.count * 2
        }
    }
}

/// Decodes the ASCII characters before the first NUL of a C output buffer.
func string(fromNULTerminated chars: [CChar]) -> String {
    let bytes = chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
