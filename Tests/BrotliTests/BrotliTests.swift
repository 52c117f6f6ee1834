import Brotli
import Testing

@Suite("brotli through libbrotli")
struct BrotliTests {
    static let samples: [[UInt8]] = [
        [],
        Array("a".utf8),
        Array(String(repeating: ".card { color: var(--ink); padding: 0.75rem 1rem; }\n", count: 500).utf8),
        Array("Çalışkan İğde ışık — naïve café 🪑".utf8),
        (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) },  // incompressible
        (0..<200_000).map { UInt8(ascii: "a") + UInt8($0 % 7) },  // longer than one output chunk
    ]

    /// By index: a failure names the sample without printing its bytes.
    @Test(arguments: samples.indices, [Brotli.Quality.fast, .best])
    func roundTripsAtEveryQuality(sample: Int, quality: Brotli.Quality) throws {
        let bytes = Self.samples[sample]
        #expect(try Brotli.decompress(Brotli.compress(bytes, quality: quality)) == bytes)
    }

    @Test func repetitiveTextShrinksAndBestIsNoLargerThanFast() {
        let css = Self.samples[2]
        let fast = Brotli.compress(css, quality: .fast), best = Brotli.compress(css, quality: .best)
        #expect(fast.count < css.count / 10)
        #expect(best.count <= fast.count)
    }

    @Test func brokenStreamsAreRefused() {
        let packed = Brotli.compress(Self.samples[2])
        #expect(throws: BrotliError.truncated) { try Brotli.decompress(Array(packed.prefix(packed.count / 2))) }
        #expect(throws: BrotliError.invalidData) { try Brotli.decompress([0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: BrotliError.invalidData) { try Brotli.decompress(packed + Array("trailing".utf8)) }
        #expect(throws: BrotliError.tooLarge) { try Brotli.decompress(packed, limit: 1_000) }
    }
}
