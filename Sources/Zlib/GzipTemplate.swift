import CZlib

extension Gzip {
    /// Deflate data made once around holes for one run of bytes that changes with every use (a
    /// page's CSRF field, the same bytes wherever it appears), for ``join(_:filling:)``.
    ///
    /// Joining pieces (``join(_:)``) costs a CRC-32 combination per piece, and a page fills
    /// dozens of holes. Here everything that does not change — the fixed text, the replacements
    /// that are the same for every use (a heart button), and the back-references that repeat
    /// the variable bytes (``referenceBlocks(length:distance:first:)``) — is laid out once, with
    /// the checksum of the text as if the variable bytes were zeros. CRC-32 is linear, so a use
    /// adds the variable bytes' part with one multiplication, however many times they appear:
    /// `crc(text) = crc(text with zeros) ⊕ (crc(bytes) ⊕ crc(zeros)) · Σ x^(8·after)`, where
    /// `after` is the number of bytes after each appearance (zlib's `crc32_combine_op` multiplies).
    ///
    /// ```swift
    /// var template = Gzip.Template(variableLength: token.count)
    /// template.append(header)                       // a Piece
    /// template.appendVariable()                     // the token, stored where it first appears
    /// template.append(card)
    /// template.appendVariable(reference: Gzip.referenceBlocks(length: token.count, distance: …, first: token[0])!)
    /// let member = Gzip.join([template], filling: token)
    /// ```
    public struct Template: Sendable {
        /// Deflate blocks, none final, with ``variableLength`` bytes to splice in at each of `holes`.
        private var deflated: [UInt8] = []
        /// Offsets in `deflated` where the variable bytes go (their stored block's header is in `deflated`).
        private var holes: [Int] = []
        /// CRC-32 of the text with every appearance of the variable bytes as zeros.
        private var checksumWithZeros: UInt32 = 0
        /// Σ x^(8·after) over the variable bytes' appearances, in zlib's operator form.
        private var shift: UInt
        /// Whether the variable bytes appear at all.
        fileprivate private(set) var hasVariable = false
        /// Length of the variable bytes.
        public let variableLength: Int
        /// CRC-32 of `variableLength` zero bytes.
        private let zerosChecksum: UInt32
        /// zlib's operator for `variableLength` bytes.
        private let variableCombine: UInt
        /// Length of the text (the variable bytes counted where they appear).
        public private(set) var count = 0
        /// zlib's operator for `count` bytes (x^(8·count)), for joining this after other text.
        fileprivate private(set) var combine = Template.one

        /// An empty template for variable bytes of `variableLength` (at most 65 535: one stored block).
        public init(variableLength: Int) {
            precondition((0...65_535).contains(variableLength), "variable bytes longer than one stored block")
            self.variableLength = variableLength
            zerosChecksum = Gzip.checksum([UInt8](repeating: 0, count: variableLength))
            variableCombine = UInt(crc32_combine_gen(.init(variableLength)))
            shift = 0
        }

        /// Appends fixed text.
        public mutating func append(_ piece: Piece) {
            guard piece.count > 0 else { return }
            deflated += piece.deflated
            add(checksum: piece.checksum, count: piece.count, combine: piece.combine)
        }

        /// Appends the variable bytes as a stored block, spliced in at each use.
        public mutating func appendVariable() {
            guard variableLength > 0 else { return }
            deflated += Piece.storedBlockHeader(length: UInt16(variableLength))
            holes.append(deflated.count)
            addVariable()
        }

        /// Appends the variable bytes as `blocks` that repeat them from earlier in the member
        /// (``referenceBlocks(length:distance:first:)`` for `variableLength`); nothing is spliced
        /// in, but they count in the checksum.
        public mutating func appendVariable(reference blocks: [UInt8]) {
            guard variableLength > 0 else { return }
            deflated += blocks
            addVariable()
        }

        private mutating func addVariable() {
            hasVariable = true
            add(checksum: zerosChecksum, count: variableLength, combine: variableCombine)
            // This appearance has nothing after it yet: x^0.
            shift ^= Self.one
        }

        private mutating func add(checksum: UInt32, count: Int, combine: UInt) {
            checksumWithZeros = UInt32(crc32_combine_op(uLong(checksumWithZeros), uLong(checksum), uLong(combine)))
            // Every appearance so far now has `count` more bytes after it (zlib's multiplication
            // never ends for a zero operator).
            if shift != 0 { shift = UInt(crc32_combine_op(uLong(shift), 0, uLong(combine))) }
            self.combine = UInt(crc32_combine_op(uLong(self.combine), 0, uLong(combine)))
            self.count += count
        }

        private static let one = UInt(crc32_combine_gen(0))

        /// The checksum of the text with `bytes` in every appearance.
        fileprivate func checksum(filling bytesChecksum: UInt32) -> UInt32 {
            // zlib's multiplication never ends for a zero operator: Σ x^k can be zero in principle.
            guard hasVariable, shift != 0 else { return checksumWithZeros }
            let linear = uLong(bytesChecksum ^ zerosChecksum)
            return checksumWithZeros ^ UInt32(crc32_combine_op(linear, 0, uLong(shift)))
        }

        /// Appends the deflate data with `bytes` spliced in.
        fileprivate func write(filling bytes: [UInt8], into output: inout [UInt8]) {
            var start = 0
            for hole in holes {
                output += deflated[start..<hole]
                output += bytes
                start = hole
            }
            output += deflated[start...]
        }

        fileprivate var outputCount: Int { deflated.count + holes.count * variableLength }
    }

    /// One gzip member: the templates in order, each with `bytes` in its variable places.
    /// - Parameters:
    ///   - templates: made for variable bytes of `bytes.count` (or with none).
    ///   - bytes: the variable bytes of this use.
    public static func join(_ templates: [Template], filling bytes: [UInt8]) -> [UInt8] {
        precondition(templates.allSatisfy { $0.variableLength == bytes.count || !$0.hasVariable },
                     "a template filled with bytes of another length")
        var output: [UInt8] = []
        output.reserveCapacity(templates.reduce(18) { $0 + $1.outputCount })
        output.append(contentsOf: memberHeader)
        let bytesChecksum = Gzip.checksum(bytes)
        var checksum: uLong = 0
        var total = 0
        for template in templates where template.count > 0 {
            template.write(filling: bytes, into: &output)
            checksum = crc32_combine_op(checksum, uLong(template.checksum(filling: bytesChecksum)), uLong(template.combine))
            total += template.count
        }
        appendTrailer(checksum: UInt32(checksum), count: total, to: &output)
        return output
    }

    /// A gzip member's header: ID1 ID2, deflate, no flags, no modification time, no extra flags,
    /// OS unknown (255).
    static let memberHeader: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF]

    /// The final block (fixed Huffman codes, BFINAL 1, only end-of-block), CRC-32 and ISIZE.
    static func appendTrailer(checksum: UInt32, count: Int, to output: inout [UInt8]) {
        output.append(contentsOf: [0x03, 0x00])
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
        // ISIZE: the length modulo 2^32 (RFC 1952 §2.3.1).
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: count) >> shift)) }
    }
}
