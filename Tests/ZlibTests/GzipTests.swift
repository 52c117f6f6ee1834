import Testing
import Zlib

@Suite("gzip through zlib")
struct GzipTests {
    static let samples: [[UInt8]] = [
        [],
        Array("a".utf8),
        Array(String(repeating: "<li class=\"card\">Oak Chair $129.00</li>\n", count: 500).utf8),
        Array("Çalışkan İğde ışık — naïve café 🪑".utf8),
        (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) },  // incompressible
    ]

    @Test(arguments: samples, [Gzip.Level.fast, .balanced, .best])
    func roundTripsAtEveryLevel(bytes: [UInt8], level: Gzip.Level) throws {
        let packed = Gzip.compress(bytes, level: level)
        #expect(packed.prefix(3) == [0x1F, 0x8B, 0x08], "a gzip member with deflate")
        #expect(try Gzip.decompress(packed) == bytes)
    }

    /// Streams are reset and reused (issue #14): a body never refers to an earlier one, and the
    /// bytes are those of the first compression, whatever ran in between — on many threads.
    @Test func reusedStreamsGiveTheSameBytesOnEveryThread() async throws {
        let expected = Self.samples.map { Gzip.compress($0, level: .fast) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<25 {
                        let index = (task + round) % Self.samples.count
                        let packed = Gzip.compress(Self.samples[index], level: .fast)
                        guard packed == expected[index], try Gzip.decompress(packed) == Self.samples[index] else {
                            throw GzipError.truncated
                        }
                        // A piece on the same kind of stream, with a dictionary, between bodies.
                        _ = Gzip.Piece(Self.samples[2], level: .fast)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func repetitiveTextShrinksAndBestIsNoLargerThanFast() {
        let html = Self.samples[2]
        let fast = Gzip.compress(html, level: .fast), best = Gzip.compress(html, level: .best)
        #expect(fast.count < html.count / 10)
        #expect(best.count <= fast.count)
    }

    @Test func brokenStreamsAreRefused() {
        let packed = Gzip.compress(Self.samples[2])
        #expect(throws: GzipError.truncated) { try Gzip.decompress(Array(packed.dropLast(20))) }
        #expect(throws: GzipError.invalidData) { try Gzip.decompress(Array("not gzip at all".utf8)) }
        #expect(throws: GzipError.tooLarge) { try Gzip.decompress(packed, limit: 1_000) }
    }
}

@Suite("gzip pieces joined into one member")
struct GzipPieceTests {
    static let page = Array(String(repeating: "<li class=\"card\">Oak Chair $129.00 <!--p:csrf--></li>\n", count: 400).utf8)

    /// Splits of `page` at various points, including empty pieces and a repeat.
    static let splits: [[Int]] = [[], [0], [1], [100, 101], [5_000, 5_000, 9_999], [GzipPieceTests.page.count - 1]]

    @Test(arguments: splits, [Gzip.Level.fast, .best])
    func joinedPiecesInflateToTheConcatenation(cuts: [Int], level: Gzip.Level) throws {
        var pieces: [Gzip.Piece] = [], start = 0
        for cut in cuts + [Self.page.count] {
            pieces.append(Gzip.Piece(Self.page[start..<cut], level: level))
            start = cut
        }
        let joined = Gzip.join(pieces)
        #expect(try Gzip.decompress(joined) == Self.page)
        // The trailer matches zlib's own one-shot member: same CRC-32 and length.
        let oneShot = Gzip.compress(Self.page, level: level)
        #expect(joined.suffix(8) == oneShot.suffix(8))
    }

    @Test func aPieceMayRepeatAndSmallPiecesCompress() throws {
        let field = Gzip.Piece(Array("<input type=\"hidden\" name=\"csrf_token\" value=\"abc.0123\">".utf8), level: .fast)
        let text = Gzip.Piece(Array(String(repeating: "walnut chair ", count: 300).utf8))
        let joined = Gzip.join([text, field, text, field, Gzip.Piece([UInt8]())])
        let expected = Array((String(repeating: "walnut chair ", count: 300) + "<input type=\"hidden\" name=\"csrf_token\" value=\"abc.0123\">").utf8)
        #expect(try Gzip.decompress(joined) == expected + expected)
        #expect(text.deflated.count < text.count / 10)
        #expect(try Gzip.decompress(Gzip.join([])) == [])
    }

    /// Stored pieces (no compressor) between compressed ones, and filling a gap of a stream:
    /// empty, short, non-ASCII, and longer than one stored block holds (65 535 bytes).
    @Test(arguments: GzipTests.samples)
    func storedPiecesJoinWithCompressedOnes(bytes: [UInt8]) throws {
        let stored = Gzip.Piece.stored(bytes)
        #expect(stored.count == bytes.count)
        let blocks = (bytes.count + 65_534) / 65_535
        #expect(stored.deflated.count == bytes.count + 5 * blocks, "five bytes of header per block")
        let text = Gzip.Piece(Self.page)
        let joined = Gzip.join([text, stored, text, stored])
        #expect(try Gzip.decompress(joined) == Self.page + bytes + Self.page + bytes)
        #expect(joined.suffix(8) == Gzip.compress(Self.page + bytes + Self.page + bytes).suffix(8), "CRC-32 and length")

        let writer = Gzip.PieceWriter()
        let before = writer.piece(Self.page)
        writer.gap(bytes.count)
        let after = writer.piece(Self.page)
        #expect(try Gzip.decompress(Gzip.join([before, stored, after])) == Self.page + bytes + Self.page)
    }

    @Test func incompressibleAndLargePiecesStillJoin() throws {
        let noise = GzipTests.samples[4]
        let joined = Gzip.join([Gzip.Piece(noise, level: .fast), Gzip.Piece(noise.prefix(300), level: .best)])
        #expect(try Gzip.decompress(joined) == noise + noise.prefix(300))
    }
}

@Suite("one stream in pieces with gaps filled later")
struct GzipPieceWriterTests {
    static let card = Array("<article class=\"card\"><form method=\"post\" action=\"/favorites/12\">".utf8)
    static let tail = Array("</form><h2 class=\"card-title\">Oak Chair</h2><p class=\"price\">$129.00</p></article>".utf8)

    @Test(arguments: [Gzip.Level.fast, .best])
    func gapsFilledWithPiecesOfTheirLengthInflateToTheDocument(level: Gzip.Level) throws {
        let fillers = [Array("<input name=\"csrf_token\" value=\"aaaa.0101\">".utf8),
                       Array("<input name=\"csrf_token\" value=\"zzzz.9f9f\">".utf8)]
        let writer = Gzip.PieceWriter(level: level)
        var fixed: [Gzip.Piece] = []
        for _ in 0..<20 {
            fixed.append(writer.piece(Self.card))
            writer.gap(fillers[0].count)
            fixed.append(writer.piece(Self.tail))
        }
        for filler in fillers {
            let gap = Gzip.Piece(filler, level: .fast)
            var pieces: [Gzip.Piece] = []
            for index in 0..<20 { pieces += [fixed[2 * index], gap, fixed[2 * index + 1]] }
            let expected = Array((0..<20).map { _ in Self.card + filler + Self.tail }.joined())
            #expect(try Gzip.decompress(Gzip.join(pieces)) == expected)
        }
        // The later cards refer back to the first: far smaller than compressed alone.
        let alone = Gzip.Piece(Self.card, level: level).deflated.count
        #expect(fixed[2].deflated.count * 3 < alone, "\(fixed[2].deflated.count) vs \(alone)")
    }

    @Test func textWithANulByteNeverReachesIntoAGap() throws {
        let writer = Gzip.PieceWriter()
        let before = writer.piece(Array("abc".utf8) + [0, 0, 0, 0])
        writer.gap(8)
        let after = writer.piece([0, 0, 0, 0, 0, 0, 0, 0] + Array("abc".utf8))
        let filler = Gzip.Piece(Array("12345678".utf8))
        let inflated = try Gzip.decompress(Gzip.join([before, filler, after]))
        #expect(inflated == Array("abc".utf8) + [0, 0, 0, 0] + Array("12345678".utf8) + [0, 0, 0, 0, 0, 0, 0, 0] + Array("abc".utf8))
    }
}

extension GzipPieceWriterTests {
    @Test func aPieceWithAFreshWindowTakesTextInsertedBeforeIt() throws {
        let writer = Gzip.PieceWriter()
        let page = writer.piece(Self.card + Self.tail + Self.card)
        let end = writer.piece(Self.tail + Array("</body></html>".utf8), freshWindow: true)
        let overlay = Gzip.Piece(Array("<div class=\"welcome\">Hello</div>".utf8))
        #expect(try Gzip.decompress(Gzip.join([page, overlay, end]))
                == Self.card + Self.tail + Self.card + Array("<div class=\"welcome\">Hello</div>".utf8) + Self.tail
                + Array("</body></html>".utf8))
    }
}

@Suite("a repeated run written as one back-reference")
struct GzipCopyTests {
    func copy(_ bytes: [UInt8], distance: Int) -> Gzip.Piece? {
        Gzip.copy(of: Gzip.Piece(bytes), bytes: bytes, distance: distance)
    }

    @Test(arguments: [16, 130, 259], [130, 1_000, 32_000])
    func aCopyInflatesToTheBytesItRepeats(length: Int, gap: Int) throws {
        let token = Array((0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let between = Array(String(repeating: "<p>text</p>", count: gap / 11 + 1).utf8.prefix(gap))
        let first = Gzip.Piece(token, level: .fast), middle = Gzip.Piece(between)
        let repeated = try #require(copy(token, distance: token.count + between.count))
        #expect(repeated.deflated.count < 12, "one reference, not the bytes: \(repeated.deflated.count)")
        #expect(try Gzip.decompress(Gzip.join([first, middle, repeated])) == token + between + token)
        let other: [UInt8] = [token[0]] + token.dropFirst().map { $0 == UInt8(ascii: "b") ? UInt8(ascii: "Z") : $0 }
        #expect(copy(other, distance: token.count + between.count)?.deflated == repeated.deflated,
                "the reference does not depend on the bytes")
    }

    @Test func whatOneReferenceCannotSayIsRefused() {
        #expect(copy([1, 2, 3], distance: 10) == nil)
        #expect(copy([1, 0, 3, 4], distance: 10) == nil, "a NUL could match a gap")
        #expect(copy([UInt8](repeating: 7, count: 260), distance: 1_000) == nil)
        #expect(copy([1, 2, 3, 4], distance: 40_000) == nil)
        #expect(copy([1, 2, 3, 4], distance: 2) == nil)
    }
}

/// Issue #14: a page laid out once around one run of bytes that changes per use (a CSRF field).
@Suite("a template filled with the bytes of each use")
struct GzipTemplateTests {
    static let card = GzipPieceWriterTests.card, tail = GzipPieceWriterTests.tail

    /// A run as a page has it: fixed text compressed in one stream with gaps, the variable bytes
    /// stored where they first appear and repeated by reference after, a constant fill in between.
    static func template(tokenLength: Int, cards: Int, first: UInt8) throws -> (Gzip.Template, ([UInt8]) -> [UInt8]) {
        let writer = Gzip.PieceWriter()
        var template = Gzip.Template(variableLength: tokenLength)
        let heart = Array("<button class=\"heart\">".utf8)
        let storedHeart = Gzip.Piece.stored(heart)
        var position = 0, lastToken: Int?, lastHeart: Int?
        for _ in 0..<cards {
            template.append(writer.piece(card))
            position += card.count
            writer.gap(tokenLength)
            if let lastToken, let blocks = Gzip.referenceBlocks(length: tokenLength, distance: position - lastToken, first: first) {
                template.appendVariable(reference: blocks)
            } else {
                template.appendVariable()
            }
            lastToken = position
            position += tokenLength
            writer.gap(heart.count)
            template.append(lastHeart.flatMap { Gzip.copy(of: storedHeart, bytes: heart, distance: position - $0) } ?? storedHeart)
            lastHeart = position
            position += heart.count
            template.append(writer.piece(tail))
            position += tail.count
        }
        #expect(template.count == position)
        return (template, { token in (0..<cards).flatMap { _ in card + token + heart + tail } })
    }

    @Test(arguments: [1, 2, 24], [16, 110])
    func everyUseInflatesToItsOwnBytes(cards: Int, tokenLength: Int) throws {
        let (template, text) = try Self.template(tokenLength: tokenLength, cards: cards, first: UInt8(ascii: "<"))
        for seed in 1...4 {
            let token = [UInt8(ascii: "<")] + (1..<tokenLength).map { UInt8(ascii: "a") + UInt8(($0 * seed * 7) % 26) }
            // decompress checks the CRC-32 and the length the trailer gives.
            #expect(try Gzip.decompress(Gzip.join([template], filling: token)) == text(token))
        }
    }

    @Test func templatesJoinInOrderAndOneWithoutTheBytesTakesNone() throws {
        let (first, text) = try Self.template(tokenLength: 40, cards: 3, first: UInt8(ascii: "x"))
        var plain = Gzip.Template(variableLength: 40)
        plain.append(Gzip.Piece(Array("<footer>no form here</footer>".utf8)))
        let (second, _) = try Self.template(tokenLength: 40, cards: 2, first: UInt8(ascii: "x"))
        let token = Array("x" + String(repeating: "y", count: 39)).map { $0.asciiValue! }
        let member = Gzip.join([first, plain, second, Gzip.Template(variableLength: 0)], filling: token)
        let expected = text(token) + Array("<footer>no form here</footer>".utf8)
            + (0..<2).flatMap { _ in Self.card + token + Array("<button class=\"heart\">".utf8) + Self.tail }
        #expect(try Gzip.decompress(member) == expected)
    }

    @Test func aTemplateWithoutVariableBytesIsItsText() throws {
        var template = Gzip.Template(variableLength: 0)
        template.append(Gzip.Piece(Self.card))
        template.appendVariable()  // nothing: no bytes vary
        template.append(Gzip.Piece(Self.tail))
        #expect(try Gzip.decompress(Gzip.join([template], filling: [])) == Self.card + Self.tail)
    }
}
