import CZlib
import Synchronization

/// gzip (RFC 1952) through zlib: the one thin Swift face of `CZlib`, so no `z_stream` or raw
/// return code leaks into the app.
///
/// ```swift
/// let packed = Gzip.compress(Array(html.utf8))        // for `Content-Encoding: gzip`
/// let bytes = try Gzip.decompress(packed)             // tests and clients
/// ```
public enum Gzip {
    /// How hard to try: `fast` (zlib level 1) for bodies compressed per request, `best` (level 9)
    /// for bodies compressed once and kept (static files, cached answers).
    public enum Level: Sendable {
        case fast, balanced, best

        var zlibLevel: Int32 {
            switch self {
            case .fast: 1
            case .balanced: 6
            case .best: 9
            }
        }
    }

    /// `bytes` as one gzip member.
    /// - Parameters:
    ///   - bytes: what to compress.
    ///   - level: speed against size.
    /// - Returns: the gzip stream (header, deflate data, CRC-32 and length trailer).
    public static func compress(_ bytes: [UInt8], level: Level = .balanced) -> [UInt8] {
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        let (output, result) = deflateOnce(bytes, level: level.zlibLevel, windowBits: 15 + 16, flush: Z_FINISH)
        precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
        return output
    }

    /// `input` through one new deflate stream in a single call — the one home of zlib's setup for
    /// the one-shot compressions here (a gzip member, a raw piece, a sample for ``copy(of:bytes:distance:)``).
    /// - Parameters:
    ///   - windowBits: zlib's: 8–15 raw deflate when negative, plus 16 for a gzip frame.
    ///   - dictionary: bytes the stream may refer back to, as if they came before `input`.
    /// - Returns: the output (room for deflateBound's worst case plus a flush marker, so one call
    ///   takes all the input) and deflate's result; the result is `Z_BUF_ERROR` if input was left.
    static func deflateOnce(_ input: [UInt8], level: Int32, windowBits: Int32, memoryLevel: Int32 = 8,
                            flush: Int32, dictionary: [UInt8] = []) -> (bytes: [UInt8], result: Int32) {
        let stream = DeflateStream.take(level: level, windowBits: windowBits, memoryLevel: memoryLevel)
        defer { DeflateStream.give(back: stream) }
        let z = stream.pointer
        if !dictionary.isEmpty {
            dictionary.withUnsafeBufferPointer { _ = deflateSetDictionary(z, $0.baseAddress, uInt($0.count)) }
        }
        // deflateBound plus room for a sync flush's empty stored block; deflate writes every byte
        // it reports, so the buffer need not be zeroed first.
        let capacity = Int(deflateBound(z, uLong(input.count))) + 16
        var result = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
            input.withUnsafeBufferPointer { source in
                z.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                z.pointee.avail_in = uInt(source.count)
                z.pointee.next_out = out.baseAddress
                z.pointee.avail_out = uInt(out.count)
                let status = deflate(z, flush)
                written = out.count - Int(z.pointee.avail_out)
                result = z.pointee.avail_in == 0 ? status : Z_BUF_ERROR
            }
        }
        return (output, result)
    }

    /// A deflate stream kept for reuse: `deflateInit2` allocates ~270 KB (window, hash chains)
    /// and zeroes part of it, and the allocator handed those pages back on every free — 10 % of
    /// an uncached cart page went to page faults and `madvise` (issue #14). A stream is reset,
    /// not ended, after use and kept, a few per setting; one request uses it at a time.
    final class DeflateStream: @unchecked Sendable {
        struct Setting: Hashable {
            var level: Int32
            var windowBits: Int32
            var memoryLevel: Int32
        }

        /// zlib keeps a pointer back to its `z_stream`, so the stream never moves.
        let pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        let setting: Setting

        private init(_ setting: Setting) {
            self.setting = setting
            pointer.initialize(to: z_stream())
            let status = deflateInit2_(pointer, setting.level, Z_DEFLATED, setting.windowBits, setting.memoryLevel,
                                       Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "deflateInit2 failed: \(status)")  // only out of memory
        }

        deinit {
            deflateEnd(pointer)
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        }

        /// How many idle streams are kept per setting (one per server thread is plenty).
        static let keptPerSetting = 8
        private static let idle = Mutex<[Setting: [DeflateStream]]>([:])

        /// An idle stream of this setting, or a new one.
        static func take(level: Int32, windowBits: Int32, memoryLevel: Int32) -> DeflateStream {
            let setting = Setting(level: level, windowBits: windowBits, memoryLevel: memoryLevel)
            return idle.withLock { $0[setting]?.popLast() } ?? DeflateStream(setting)
        }

        /// Resets `stream` and keeps it, unless enough of its setting are idle.
        static func give(back stream: DeflateStream) {
            guard deflateReset(stream.pointer) == Z_OK else { return }  // dropped (ended by deinit)
            idle.withLock { idle in
                if idle[stream.setting, default: []].count < keptPerSetting { idle[stream.setting, default: []].append(stream) }
            }
        }
    }

    /// A gzip stream's content.
    /// - Parameters:
    ///   - bytes: one or more gzip members.
    ///   - limit: the most bytes to produce (a guard against decompression bombs).
    /// - Throws: ``GzipError`` for data that is not gzip, is cut short, or inflates past `limit`.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .invalidData
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let outcome: GzipError? = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                if output.count > limit { return .tooLarge }
                switch result {
                case Z_STREAM_END: return nil
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0: return .truncated
                default: return .invalidData
                }
            }
        }
        if let outcome { throw outcome }
        return output
    }
}

/// Why ``Gzip/decompress(_:limit:)`` refused its input.
public enum GzipError: Error, Equatable, Sendable {
    /// Not a gzip stream, or corrupt.
    case invalidData
    /// The stream ends before its trailer.
    case truncated
    /// It inflates past the limit.
    case tooLarge
}
