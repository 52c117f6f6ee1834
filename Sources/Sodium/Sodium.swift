import CSodium

/// The libsodium library itself: one-time initialisation.
///
/// libsodium must be initialised (`sodium_init`, see
/// <https://doc.libsodium.org/usage>) before use: it picks the fastest implementations for
/// this CPU and opens the system random source. Every function of this module does that for
/// you on first use, so calling ``initialize()`` yourself is only useful to fail fast at
/// start-up (before the server accepts requests) instead of on the first sign-in.
///
/// Functions of this module that cannot throw (``SecureRandom``, ``Digest``, ``ConstantTime``,
/// ``PasswordHasher/verify(_:against:)``, ``PasswordHasher/needsRehash(_:)``) trap if
/// libsodium cannot be initialised: that only happens when the system has no usable random
/// source, and there is no safe way to continue without one.
///
/// ```swift
/// try Sodium.initialize()   // in main, before listening
/// ```
///
/// Note: the module is also named `Sodium`, so write `PasswordHasher`, not
/// `Sodium.PasswordHasher`, in code that imports it.
public enum Sodium {
    /// The result of the one and only `sodium_init` call (0 = initialised now, 1 = was already
    /// initialised, -1 = failed), and the `errno` it left. A `static let` is initialised
    /// exactly once, atomically (`swift_once`), so concurrent first callers wait for it.
    private static let initResult: (status: Int32, errno: Int32) = {
        let errno = SystemErrno.take { sodium_init() }
        return (errno.result, errno.code)
    }()

    /// Initialises libsodium (`sodium_init`). Idempotent and thread-safe: the C call is made
    /// once per process; later calls return (or throw) the remembered outcome. `sodium_init`
    /// returning 1 ("already initialised", e.g. by another library in the process) counts as
    /// success.
    /// - Throws: ``SodiumError`` with operation `"sodium_init"` when libsodium reports
    ///   failure (-1), e.g. when no system random source can be opened.
    public static func initialize() throws(SodiumError) {
        let result = initResult
        guard result.status == 0 || result.status == 1 else {
            throw SodiumError(
                operation: "sodium_init",
                code: result.errno,
                message: "libsodium could not be initialised (no usable random source?)"
            )
        }
    }

    /// Calls ``initialize()`` and traps on failure; for the functions that cannot throw.
    static func ensureInitialized() {
        do {
            try initialize()
        } catch {
            fatalError("\(error)")
        }
    }
}
