import CSodium

/// Comparisons whose running time does not depend on the contents compared, so an attacker
/// timing responses cannot learn a secret byte by byte (`sodium_memcmp`,
/// <https://doc.libsodium.org/helpers#constant-time-test-for-equality>).
///
/// ```swift
/// guard ConstantTime.equals(submittedCSRFToken, cookieCSRFToken) else { … 403 … }
/// ```
public enum ConstantTime {
    /// Whether two strings have the same UTF-8 bytes, compared in constant time for a given
    /// length (`sodium_memcmp`).
    ///
    /// Strings of different UTF-8 byte length return `false` at once, so the *length* of a
    /// secret can leak through timing. That is acceptable for the intended use: tokens of a
    /// fixed, public length (CSRF tokens, hex digests). No Unicode normalisation is applied.
    /// - Returns: `true` when the byte sequences are identical (two empty strings are equal).
    public static func equals(_ a: String, _ b: String) -> Bool {
        Sodium.ensureInitialized()
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        guard left.count == right.count else { return false }
        guard !left.isEmpty else { return true }
        return left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in
                sodium_memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0
            }
        }
    }
}
