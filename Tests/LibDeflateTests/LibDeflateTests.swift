import LibDeflate
import Testing
import Zlib

@Suite("gzip through libdeflate")
struct LibDeflateTests {
    static let samples: [[UInt8]] = [
        [],
        Array("a".utf8),
        Array(String(repeating: "<li class=\"card\">Oak Chair $129.00</li>\n", count: 500).utf8),
        Array("Çalışkan İğde ışık — naïve café 🪑".utf8),
        (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) },  // incompressible
        (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) },  // larger than a kept buffer
    ]

    /// Every level writes one gzip member that zlib reads back as the same bytes.
    @Test(arguments: samples, [LibDeflate.Level.fastest, .balanced, .smallest])
    func zlibReadsBackWhatEveryLevelWrites(bytes: [UInt8], level: LibDeflate.Level) throws {
        let packed = LibDeflate.gzip(bytes, level: level)
        #expect(packed.prefix(3) == [0x1F, 0x8B, 0x08], "a gzip member with deflate")
        #expect(try Gzip.decompress(packed) == bytes)
    }

    /// Compressors are pooled and their buffers reused: a body never carries bytes of an earlier
    /// one, whatever ran in between, on many threads at once.
    @Test func pooledCompressorsGiveTheSameBytesOnEveryThread() async throws {
        let expected = Self.samples.map { LibDeflate.gzip($0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<12 {
                        let index = (task + round) % Self.samples.count
                        #expect(LibDeflate.gzip(Self.samples[index]) == expected[index])
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Where it is used (a page compressed per request), it is smaller than zlib's level 1.
    @Test func aPageIsSmallerThanZlibsFastestLevel() {
        let page = Array(String(repeating: "<article class=\"card\"><a href=\"/products/oak-chair-12\">Oak chair</a>"
                                + "<span class=\"price\">$129.00</span></article>\n", count: 120).utf8)
        #expect(LibDeflate.gzip(page).count <= Gzip.compress(page, level: .fast).count)
    }
}
