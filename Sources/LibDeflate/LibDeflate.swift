import CLibDeflate
import Synchronization

/// Whole-buffer gzip through Debian's libdeflate: the one thin Swift face of `CLibDeflate`, so
/// no compressor pointer or raw result leaks into the app.
///
/// For bodies compressed on every request (a cart page, a JSON answer): at its level 1 it is
/// about three times as fast as zlib's level 1 on this shop's pages, and its output is a little
/// smaller (22 KB of cart page: 35 µs and 3 990 bytes against 107 µs and 4 196; docs/BENCHMARKS.md,
/// issue #14). It compresses a whole buffer at once; what must be compressed in pieces and
/// joined (``Zlib``'s `Gzip.Piece`) stays with zlib.
///
/// ```swift
/// let packed = LibDeflate.gzip(Array(html.utf8))   // one gzip member, for `Content-Encoding: gzip`
/// ```
public enum LibDeflate {
    /// How hard to try: libdeflate's levels run from 1 (fastest) to 12 (smallest).
    public enum Level: Int32, Sendable {
        case fastest = 1
        case balanced = 6
        case high = 9
        case smallest = 12
    }

    /// `bytes` as one gzip member (RFC 1952).
    public static func gzip(_ bytes: [UInt8], level: Level = .fastest) -> [UInt8] {
        let compressor = Compressors.take(level)
        defer { Compressors.giveBack(compressor, level) }
        return compressor.gzip(bytes)
    }
}

/// One libdeflate compressor: not safe to use from two threads at once, so each is taken from
/// the pool for one call (allocating one costs ~2 µs and some 100 KB).
private final class Compressor: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ level: LibDeflate.Level) {
        guard let pointer = libdeflate_alloc_compressor(level.rawValue) else {
            preconditionFailure("libdeflate_alloc_compressor: out of memory")
        }
        self.pointer = pointer
    }

    /// Where the output is written before it is copied out at its size (kept between calls).
    private var scratch: [UInt8] = []

    /// `bytes` as one gzip member.
    func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let bound = libdeflate_gzip_compress_bound(pointer, bytes.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let size = bytes.withUnsafeBytes { input in
            scratch.withUnsafeMutableBytes { output in
                libdeflate_gzip_compress(pointer, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        // 0 means the output did not fit, which the bound rules out.
        precondition(size > 0, "libdeflate_gzip_compress: output over its own bound")
        let output = Array(scratch[..<size])
        if scratch.count > Self.largestKeptScratch { scratch = [] }  // a rare large body's buffer is not held
        return output
    }

    static let largestKeptScratch = 1 << 20

    deinit { libdeflate_free_compressor(pointer) }
}

/// Idle compressors by level; at most `kept` each (one per server thread is the most in use).
private enum Compressors {
    static let kept = 8
    static let idle = Mutex<[LibDeflate.Level: [Compressor]]>([:])

    static func take(_ level: LibDeflate.Level) -> Compressor {
        idle.withLock { $0[level]?.popLast() } ?? Compressor(level)
    }

    static func giveBack(_ compressor: Compressor, _ level: LibDeflate.Level) {
        idle.withLock { idle in
            if idle[level, default: []].count < kept { idle[level, default: []].append(compressor) }
        }
    }
}
