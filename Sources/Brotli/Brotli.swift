import CBrotli

/// Brotli (RFC 7932) through Debian's libbrotli: the one thin Swift face of `CBrotli`, so no
/// encoder state or raw result code leaks into the app.
///
/// Used for bodies that are compressed once and then served for a long time (the stylesheet and
/// the script under their versioned URLs): at its best quality brotli makes them 14–15 % smaller
/// than gzip at level 9, at 40 ms of CPU each, once (docs/BENCHMARKS.md, issue #14).
///
/// ```swift
/// let packed = Brotli.compress(Array(css.utf8))     // for `Content-Encoding: br`
/// let bytes = try Brotli.decompress(packed)         // tests and clients
/// ```
public enum Brotli {
    /// How hard to try: `best` (quality 11, for bodies made once and kept) or `fast` (quality 5,
    /// about gzip level 6's speed).
    public enum Quality: Sendable {
        case fast, best

        var value: Int32 {
            switch self {
            case .fast: 5
            case .best: Int32(BROTLI_MAX_QUALITY)
            }
        }
    }

    /// `bytes` as one brotli stream, text mode, the default 4 MiB window (`lgwin` 22).
    public static func compress(_ bytes: [UInt8], quality: Quality = .best) -> [UInt8] {
        var size = BrotliEncoderMaxCompressedSize(bytes.count)
        if size == 0 { size = bytes.count + 1_024 }  // 0 means "too large to say"; not reached here
        var output = [UInt8](repeating: 0, count: size)
        let done = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                BrotliEncoderCompress(quality.value, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                                      input.count, input.baseAddress, &size, out.baseAddress)
            }
        }
        // Fails only when the output buffer is too small, which MaxCompressedSize rules out.
        precondition(done == BROTLI_TRUE, "BrotliEncoderCompress failed")
        output.removeLast(output.count - size)
        return output
    }

    /// A brotli stream's content.
    /// - Parameters:
    ///   - bytes: one brotli stream.
    ///   - limit: the most bytes to produce (a guard against decompression bombs).
    /// - Throws: ``BrotliError`` for data that is not brotli, is cut short, or decodes past `limit`.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws(BrotliError) -> [UInt8] {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .invalidData }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let outcome: BrotliError? = bytes.withUnsafeBufferPointer { input in
            var availableIn = input.count
            var nextIn = input.baseAddress
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { out in
                    var availableOut = out.count
                    var nextOut = out.baseAddress
                    let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return (result, out.count - availableOut)
                }
                output.append(contentsOf: chunk[..<produced])
                if output.count > limit { return .tooLarge }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return availableIn == 0 ? nil : .invalidData
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return .truncated
                default: return .invalidData
                }
            }
        }
        if let outcome { throw outcome }
        return output
    }
}

/// Why ``Brotli/decompress(_:limit:)`` refused its input.
public enum BrotliError: Error, Equatable, Sendable {
    /// Not a brotli stream, corrupt, or followed by other bytes.
    case invalidData
    /// The stream ends before its last meta-block.
    case truncated
    /// It decodes past the limit.
    case tooLarge
}
