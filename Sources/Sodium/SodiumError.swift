public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error from libsodium, or input this wrapper rejects before calling it.
///
/// libsodium functions return only `-1` on failure and leave the reason in `errno`
/// (<https://doc.libsodium.org/usage>); this error carries that `errno` value as ``code``:
/// `EINVAL` (22 on Linux) for invalid input, `ENOMEM` (12) when the memory for a password
/// hash cannot be allocated, `EFBIG` (27) for a limit out of range, `0` when libsodium left no
/// reason. Input rejected by this wrapper (a NUL byte in a password) also uses `EINVAL`.
///
/// ```swift
/// do { encoded = try hasher.hash(password) }
/// catch where error.isInvalidInput { … show "password not allowed" … }
/// ```
public struct SodiumError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The C function that failed (e.g. `"crypto_pwhash_str"`, `"sodium_init"`).
    public var operation: String
    /// The `errno` value after the failing call (POSIX error number), `EINVAL` for input this
    /// wrapper rejects, or 0 when none was set.
    public var code: Int32
    /// A human-readable English explanation.
    public var message: String

    /// Creates an error value.
    /// - Parameters:
    ///   - operation: the C function that failed.
    ///   - code: a POSIX `errno` value (0 if unknown).
    ///   - message: an English explanation.
    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    /// `EINVAL` (22 on Linux): the value for invalid input.
    public static let invalidInputCode: Int32 = EINVAL
    /// `ENOMEM` (12 on Linux): memory for the operation could not be allocated.
    public static let outOfMemoryCode: Int32 = ENOMEM

    /// `true` when the input was rejected (``code`` is `EINVAL`), as opposed to a resource
    /// failure.
    public var isInvalidInput: Bool { code == Self.invalidInputCode }

    /// `"crypto_pwhash_str failed (errno 22): password contains a NUL byte"`.
    public var description: String {
        "\(operation) failed (errno \(code)): \(message)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// Reads the C `errno` around one C call.
enum SystemErrno {
    /// Clears `errno`, runs `body`, and returns its result with the `errno` it left.
    static func take<Result>(_ body: () -> Result) -> (result: Result, code: Int32) {
        errno = 0
        let result = body()
        return (result, errno)
    }
}
