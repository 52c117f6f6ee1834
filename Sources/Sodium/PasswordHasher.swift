import CSodium

/// Password hashing with Argon2id, libsodium's `crypto_pwhash_str` family
/// (<https://doc.libsodium.org/password_hashing/default_phf>), stored in the standard PHC
/// encoding `$argon2id$v=19$m=<KiB>,t=<passes>,p=1$<salt>$<hash>` (ASCII, at most 127
/// characters), which holds the algorithm, its cost parameters and a random 16-byte salt, so
/// a stored string alone is enough to verify a password later even after the strength changes.
///
/// Hashing is deliberately slow and memory-hungry: at ``Strength/interactive`` one call takes
/// 64 MiB and on the order of 0.1 s of one core. Servers should bound how many run at once.
///
/// ```swift
/// let hasher = PasswordHasher()                       // .interactive
/// let stored = try hasher.hash("correct horse")      // save in the users table
/// hasher.verify("correct horse", against: stored)    // true
/// if hasher.needsRehash(stored) { /* after a successful sign-in: store hasher.hash(password) */ }
/// ```
public struct PasswordHasher: Sendable {
    /// How expensive a hash is: libsodium's named limit pairs for Argon2id.
    public enum Strength: Sendable, Hashable, CaseIterable {
        /// `crypto_pwhash_OPSLIMIT_INTERACTIVE` / `MEMLIMIT_INTERACTIVE`: 2 passes, 64 MiB.
        /// libsodium's recommendation for online sign-in.
        case interactive
        /// `crypto_pwhash_OPSLIMIT_MODERATE` / `MEMLIMIT_MODERATE`: 3 passes, 256 MiB.
        case moderate
        /// `crypto_pwhash_OPSLIMIT_MIN` / `MEMLIMIT_MIN`: 1 pass, 8 KiB. **Tests only**: it
        /// makes hashing fast and offers no real protection.
        case minimum
    }

    /// The strength new hashes are made with and ``needsRehash(_:)`` compares against.
    public let strength: Strength
    /// The Argon2id number of passes (`opslimit`) for ``strength``.
    public let operationsLimit: UInt64
    /// The Argon2id memory cost (`memlimit`) for ``strength``, in bytes.
    public let memoryLimitBytes: Int

    /// Creates a hasher.
    /// - Parameter strength: cost of new hashes; `.interactive` unless a test needs speed.
    public init(strength: Strength = .interactive) {
        self.strength = strength
        switch strength {
        case .interactive:
            operationsLimit = UInt64(crypto_pwhash_argon2id_opslimit_interactive())
            memoryLimitBytes = crypto_pwhash_argon2id_memlimit_interactive()
        case .moderate:
            operationsLimit = UInt64(crypto_pwhash_argon2id_opslimit_moderate())
            memoryLimitBytes = crypto_pwhash_argon2id_memlimit_moderate()
        case .minimum:
            operationsLimit = UInt64(crypto_pwhash_argon2id_opslimit_min())
            memoryLimitBytes = crypto_pwhash_argon2id_memlimit_min()
        }
    }

    /// Hashes a password with Argon2id and a fresh random salt (`crypto_pwhash_str_alg` with
    /// `crypto_pwhash_ALG_ARGON2ID13`), so two hashes of the same password differ.
    ///
    /// The password's UTF-8 bytes are hashed as they are (no Unicode normalisation: `"é"` as
    /// one code point and as `e` + combining accent are different passwords). The wrapper's
    /// copy of the bytes is wiped (`sodium_memzero`) afterwards. An empty password is hashed
    /// like any other; length rules are the caller's policy.
    /// - Parameter password: the password as typed.
    /// - Returns: the encoded `$argon2id$v=19$m=…,t=…,p=1$…$…` string.
    /// - Throws: ``SodiumError`` (`EINVAL`, ``SodiumError/isInvalidInput``) when the password
    ///   contains a NUL byte: NUL ends a C string, and other tools that check these hashes
    ///   take C strings, so it could not be typed back in; (`ENOMEM`) when the memory for the
    ///   hash cannot be allocated; or a failure of ``Sodium/initialize()``.
    public func hash(_ password: String) throws(SodiumError) -> String {
        try Sodium.initialize()
        guard var passwordChars = Self.passwordBuffer(password) else {
            throw SodiumError(
                operation: "crypto_pwhash_str",
                code: SodiumError.invalidInputCode,
                message: "password contains a NUL byte"
            )
        }
        defer { Self.wipe(&passwordChars) }
        var output = [CChar](repeating: 0, count: crypto_pwhash_argon2id_strbytes())
        let (status, code) = passwordChars.withUnsafeBufferPointer { passwordBuffer in
            output.withUnsafeMutableBufferPointer { out in
                SystemErrno.take {
                    // Both buffers are non-empty, so their base addresses are non-nil; the
                    // password length excludes the terminating NUL.
                    crypto_pwhash_str_alg(
                        out.baseAddress!,
                        passwordBuffer.baseAddress!,
                        UInt64(passwordBuffer.count - 1),
                        operationsLimit,
                        memoryLimitBytes,
                        crypto_pwhash_alg_argon2id13()
                    )
                }
            }
        }
        guard status == 0 else {
            throw SodiumError(
                operation: "crypto_pwhash_str",
                code: code,
                message: code == SodiumError.outOfMemoryCode
                    ? "not enough memory for the password hash (\(memoryLimitBytes) bytes)"
                    : "password hashing failed"
            )
        }
        return string(fromNULTerminated: output)
    }

    /// Checks a password against a stored encoded hash (`crypto_pwhash_str_verify`), in time
    /// that depends on the hash's cost parameters, not on where the password differs.
    ///
    /// Accepts any Argon2 string libsodium can check (`$argon2id$…` and the older
    /// `$argon2i$…`), whatever strength it was made with.
    /// - Parameters:
    ///   - password: the password as typed.
    ///   - encoded: a string produced by ``hash(_:)``, read from your own storage: its `m=`
    ///     parameter decides how much memory verification allocates, so never verify against
    ///     an encoded string that came from a request.
    /// - Returns: `true` only when the password matches. `false` for a wrong password, a
    ///   password with a NUL byte, and a malformed, truncated or over-long `encoded` string
    ///   (never a crash), and when verifying would need more memory than can be allocated.
    public func verify(_ password: String, against encoded: String) -> Bool {
        Sodium.ensureInitialized()
        guard let stored = Self.encodedBuffer(encoded) else { return false }
        guard var passwordChars = Self.passwordBuffer(password) else { return false }
        defer { Self.wipe(&passwordChars) }
        let status = passwordChars.withUnsafeBufferPointer { passwordBuffer in
            stored.withUnsafeBufferPointer { storedBuffer in
                crypto_pwhash_str_verify(
                    storedBuffer.baseAddress!,
                    passwordBuffer.baseAddress!,
                    UInt64(passwordBuffer.count - 1)
                )
            }
        }
        return status == 0
    }

    /// Whether a stored hash should be replaced by a new ``hash(_:)`` of the same password
    /// (which the server knows right after a successful ``verify(_:against:)``):
    /// `crypto_pwhash_argon2id_str_needs_rehash` against this hasher's limits.
    /// - Parameter encoded: a stored encoded hash.
    /// - Returns: `false` when `encoded` is Argon2id made with exactly this hasher's
    ///   ``operationsLimit`` and ``memoryLimitBytes``; `true` when its parameters differ, when it
    ///   is another algorithm (e.g. `$argon2i$`), and when it is malformed.
    public func needsRehash(_ encoded: String) -> Bool {
        Sodium.ensureInitialized()
        guard let stored = Self.encodedBuffer(encoded) else { return true }
        let status = stored.withUnsafeBufferPointer { storedBuffer in
            crypto_pwhash_argon2id_str_needs_rehash(storedBuffer.baseAddress!, operationsLimit, memoryLimitBytes)
        }
        return status != 0
    }

    /// The encoded string as a NUL-terminated buffer of exactly `crypto_pwhash_STRBYTES`
    /// (128) bytes, the size the C functions may read; nil when it cannot be a valid hash
    /// (too long, or containing NUL).
    private static func encodedBuffer(_ encoded: String) -> [CChar]? {
        let capacity = crypto_pwhash_argon2id_strbytes()
        let utf8 = encoded.utf8
        guard utf8.count < capacity, !utf8.contains(0) else { return nil }
        var buffer = [CChar](repeating: 0, count: capacity)
        for (index, byte) in utf8.enumerated() {
            buffer[index] = CChar(bitPattern: byte)
        }
        return buffer
    }

    /// The password's UTF-8 bytes followed by one NUL (so the buffer is never empty), or nil
    /// when the password itself contains a NUL byte.
    private static func passwordBuffer(_ password: String) -> [CChar]? {
        var chars = [CChar]()
        chars.reserveCapacity(password.utf8.count + 1)
        for byte in password.utf8 {
            guard byte != 0 else {
                wipe(&chars)
                return nil
            }
            chars.append(CChar(bitPattern: byte))
        }
        chars.append(0)
        return chars
    }

    /// Overwrites a password copy with zeros (`sodium_memzero`, which the compiler may not
    /// optimise away).
    private static func wipe(_ bytes: inout [CChar]) {
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            sodium_memzero(base, raw.count)
        }
    }
}
