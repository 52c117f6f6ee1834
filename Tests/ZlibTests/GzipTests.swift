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
