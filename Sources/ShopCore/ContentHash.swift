/// A short name for a content: the 64-bit FNV-1a hash of its bytes. It names imported media files
/// (`<hash>.png`), static files' versioned URLs (`/static/app.css?v=<hash>`) and their ETags.
/// Not a security hash: it tells contents apart, it does not stop anyone forging a collision.
///
/// ```swift
/// ContentHash(of: Array("a".utf8)).hex   // "af63dc4c8601ec8c"
/// ContentHash(of: []).value               // 0xcbf2_9ce4_8422_2325, the offset basis
/// ```
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash.
    public let value: UInt64

    /// Hashes `bytes` with FNV-1a, 64-bit (<http://www.isthe.com/chongo/tech/comp/fnv/>).
    ///
    /// Bytes in one piece of memory (an array, `Data`'s buffer) are read in a tight loop: through
    /// the generic sequence, hashing the 200 KB the server ships took 7 ms of every start
    /// (34 ns a byte; issue #14, cold start).
    public init(of bytes: some Sequence<UInt8>) {
        if let hash = bytes.withContiguousStorageIfAvailable(Self.fnv1a) {
            value = hash
            return
        }
        var hash = Self.offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* Self.prime
        }
        value = hash
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    private static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    /// The hash in lower-case hex without leading zeros (1 to 16 digits) — the form media file
    /// names and ETags have always had, so files imported before keep their names.
    public var hex: String { String(value, radix: 16) }

    /// `hex`.
    public var description: String { hex }
}
