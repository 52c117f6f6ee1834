import CZlib
import Synchronization

extension Gzip {
    /// A run of bytes compressed on its own, ready to be joined with other pieces into one gzip
    /// member (``Gzip/join(_:)``) without compressing anything again.
    ///
    /// A page that is the same for every visitor except for a few holes (a CSRF token, the cart
    /// badge) is compressed once, in pieces split at the holes; each request compresses only what
    /// fills the holes and joins. Each piece is raw deflate data from a fresh compressor, ended by
    /// a sync flush (non-final blocks ending on a byte boundary, RFC 1951 §3.2.4), so pieces can be
    /// concatenated; none refers back into another, which also keeps a secret in one piece from
    /// being compressed against text in another (the BREACH length oracle needs both in one window).
    ///
    /// ```swift
    /// let page = Gzip.Piece(Array(html.utf8), level: .best)     // once
    /// let token = Gzip.Piece(Array(field.utf8), level: .fast)   // per request
    /// let body = Gzip.join([page, token, page])                  // a gzip member
    /// ```
    public struct Piece: Sendable, Equatable {
        /// Raw deflate blocks, none of them final.
        public let deflated: [UInt8]
        /// CRC-32 of the uncompressed bytes.
        public let checksum: UInt32
        /// Length of the uncompressed bytes.
        public let count: Int
        /// zlib's operator that appends a CRC-32 over `count` bytes (`crc32_combine_gen`): made
        /// once, so joining costs one multiplication per piece.
        let combine: UInt


        init(deflated: [UInt8], checksum: UInt32, count: Int, combine: UInt? = nil) {
            self.deflated = deflated
            self.checksum = checksum
            self.count = count
            self.combine = combine ?? UInt(crc32_combine_gen(.init(count)))
        }

        /// Compresses `bytes` on their own.
        /// - Parameters:
        ///   - bytes: what to compress (may be empty).
        ///   - level: speed against size; pieces made per request should be `fast`.
        public init(_ bytes: ArraySlice<UInt8>, level: Level = .best) {
            self.init(Array(bytes), level: level)
        }

        /// Compresses `bytes` on their own.
        public init(_ bytes: [UInt8], level: Level = .best) {
            let input = bytes
            count = input.count
            checksum = Gzip.checksum(input)
            combine = UInt(crc32_combine_gen(.init(input.count)))
            guard !input.isEmpty else { deflated = []; return }
            // A small input needs neither a 32 KiB window nor a large hash table: setting them up
            // (and zlib clearing the table) would cost more than compressing a CSRF field.
            let windowBits: Int32 = input.count <= 1 << 9 ? 9 : input.count <= 1 << 12 ? 12 : 15
            let memoryLevel: Int32 = input.count <= 1 << 12 ? 2 : 8
            // Negative window bits: raw deflate, no zlib or gzip frame.
            let (output, result) = Gzip.deflateOnce(input, level: level.zlibLevel, windowBits: -windowBits,
                                                    memoryLevel: memoryLevel, flush: Z_SYNC_FLUSH)
            precondition(result == Z_OK, "deflate did not take the input: \(result)")
            deflated = output
        }

        /// `bytes` as stored (uncompressed) deflate blocks (RFC 1951 §3.2.4): no compressor runs.
        /// For the few bytes a page fills per request — a CSRF field (a random token, which would
        /// not compress anyway) and the two heart buttons: compressing them alone cost ~12 % of
        /// a shopper's page, mostly zlib's fixed cost per call, for a few dozen bytes saved. Each
        /// block is five bytes of header and the bytes as they are; it ends on a byte boundary, as
        /// every piece does.
        public static func stored(_ bytes: [UInt8]) -> Piece {
            var deflated: [UInt8] = []
            deflated.reserveCapacity(bytes.count + 5 * (bytes.count / 65_535 + 1))
            var start = 0
            while start < bytes.count {
                let end = min(start + 65_535, bytes.count)
                deflated += storedBlockHeader(length: UInt16(end - start))
                deflated += bytes[start..<end]
                start = end
            }
            return Piece(deflated: deflated, checksum: Gzip.checksum(bytes), count: bytes.count)
        }

        /// A stored block's header for `length` bytes: BFINAL 0, BTYPE 00, then padding to the
        /// byte boundary (one zero byte in all); LEN and its one's complement NLEN, little-endian.
        static func storedBlockHeader(length: UInt16) -> [UInt8] {
            [0x00, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        }
    }

    /// Compresses a document in pieces through ONE compressor, leaving gaps of known length for
    /// bytes that differ per use (a CSRF field): each ``piece(_:)`` may refer back to the pieces
    /// before it, across the gaps, so the pieces compress as well as the whole document would —
    /// and a gap filled later with a ``Piece`` of exactly its length gives a valid stream.
    ///
    /// A gap is fed to the compressor as NUL bytes and its output thrown away: a later piece can
    /// only refer into a gap by repeating NUL bytes, so text with a NUL starts a fresh window
    /// instead (a full flush: no reference reaches back past it). zlib's sync flush ends each
    /// piece on a byte boundary with nothing pending (RFC 1951 §3.2.4; zlib's `gzjoin` example
    /// splices streams the same way).
    public final class PieceWriter {
        private var stream = z_stream()
        private var scratch = [UInt8](repeating: 0, count: 64 << 10)

        /// A compressor at `level` (zlib's 32 KiB window).
        public init(level: Level = .best) {
            let status = deflateInit2_(&stream, level.zlibLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                                       ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        }

        deinit { deflateEnd(&stream) }

        /// The next `bytes` of the document, compressed after everything before.
        /// - Parameters:
        ///   - bytes: the text.
        ///   - freshWindow: refer to nothing before this piece, so that other text may be inserted
        ///     just before it (the pieces before still join as they are).
        public func piece(_ bytes: [UInt8], freshWindow: Bool = false) -> Piece {
            piece(bytes[...], freshWindow: freshWindow)
        }

        /// The next `bytes` of the document (see the other `piece`).
        public func piece(_ bytes: ArraySlice<UInt8>, freshWindow: Bool = false) -> Piece {
            let input = Array(bytes)
            var output: [UInt8] = []
            if freshWindow || input.contains(0) { output += run([], flush: Z_FULL_FLUSH) }
            output += run(input, flush: Z_SYNC_FLUSH)
            return Piece(deflated: output, checksum: Gzip.checksum(input), count: input.count)
        }

        /// `count` bytes that another piece of exactly that length will fill.
        public func gap(_ count: Int) {
            _ = run([UInt8](repeating: 0, count: count), flush: Z_SYNC_FLUSH)
        }

        private func run(_ input: [UInt8], flush: Int32) -> [UInt8] {
            var output: [UInt8] = []
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                repeat {
                    let produced = scratch.withUnsafeMutableBufferPointer { out -> Int in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        let result = deflate(&stream, flush)
                        precondition(result == Z_OK || result == Z_BUF_ERROR, "deflate failed: \(result)")
                        return out.count - Int(stream.avail_out)
                    }
                    output += scratch[..<produced]
                } while stream.avail_out == 0 || stream.avail_in > 0
            }
            return output
        }
    }

    /// `bytes` (whose piece compressed alone is `piece`) written as a copy of the same bytes
    /// `distance` bytes earlier in the joined stream:
    /// its first byte and one back-reference (about ten bytes) instead of the bytes compressed
    /// again — for a CSRF field that a page repeats in every form. nil when deflate cannot say it
    /// that way (fewer than 4 or more than 259 bytes, a NUL among them, or further back than the
    /// window).
    ///
    /// The caller guarantees that the same bytes do lie exactly `distance` bytes before this piece
    /// in the joined stream. The reference is made by zlib itself: the bytes after a dictionary
    /// holding a copy of them at that distance (the rest NUL, which the bytes do not contain),
    /// made twice with different sample bytes (the same first byte) — both must give the same
    /// output, so it holds no other literal and fits any bytes of that length and first byte.
    /// Kept per first byte, length and distance.
    public static func copy(of piece: Piece, bytes: [UInt8], distance: Int) -> Piece? {
        let count = bytes.count
        guard count == piece.count, let first = bytes.first, !bytes.contains(0),
              let deflated = referenceBlocks(length: count, distance: distance, first: first) else { return nil }
        return Piece(deflated: deflated, checksum: piece.checksum, count: count, combine: piece.combine)
    }

    private static let copies = Mutex<[Int: [UInt8]?]>([:])

    /// The deflate blocks of ``copy(of:bytes:distance:)``: they repeat any `length` bytes that
    /// begin with `first` and hold no NUL, found `distance` bytes back (for a ``Template``).
    /// nil when one reference cannot say it (see there).
    public static func referenceBlocks(length: Int, distance: Int, first: UInt8) -> [UInt8]? {
        // zlib's farthest reference: the window less its look-ahead (MAX_DIST).
        guard (4...259).contains(length), distance >= length, distance <= (1 << 15) - 262 else { return nil }
        let key = Int(first) << 32 | length << 16 | distance
        if let known = copies.withLock({ $0[key] }) { return known }
        func encode(seed: UInt32) -> [UInt8] {
            var state = seed
            // zlib writes the first byte after a dictionary as a literal (it is not found in the
            // hash chains yet), so the samples share it with the bytes; the rest is one reference.
            let sample: [UInt8] = [first] + (1..<length).map { _ in
                state = state &* 1_103_515_245 &+ 12_345
                return UInt8(truncatingIfNeeded: state >> 16) | 1  // never NUL
            }
            let dictionary = sample + [UInt8](repeating: 0, count: distance - length)
            let (output, result) = Gzip.deflateOnce(sample, level: 9, windowBits: -15, flush: Z_SYNC_FLUSH,
                                                    dictionary: dictionary)
            return result == Z_OK ? output : []
        }
        let first = encode(seed: 0x5EED), second = encode(seed: 0xC0FFEE)
        let blocks: [UInt8]? = first == second && !first.isEmpty && first.count < length ? first : nil
        copies.withLock { copies in
            if copies.count > 65_536 { copies.removeAll() }
            copies[key] = blocks
        }
        return blocks
    }

    /// The CRC-32 of `bytes` (gzip's checksum; zlib's `crc32`).
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// One gzip member whose content is the pieces' bytes in order.
    /// - Parameter pieces: pieces made by ``Piece/init(_:level:)``, any number, repeats allowed.
    /// - Returns: header, the pieces' deflate data, an empty final block, CRC-32 and length.
    public static func join(_ pieces: [Piece]) -> [UInt8] {
        // A template without variable bytes: one home for writing a member.
        var template = Template(variableLength: 0)
        for piece in pieces { template.append(piece) }
        return join([template], filling: [])
    }
}
