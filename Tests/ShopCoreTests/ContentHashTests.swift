import Testing
import ShopCore

@Suite("Content hash")
struct ContentHashTests {
    /// FNV-1a 64 reference values (<http://www.isthe.com/chongo/tech/comp/fnv/>).
    @Test(arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func matchesTheFNV1a64ReferenceValues(text: String, hex: String) {
        #expect(ContentHash(of: Array(text.utf8)).hex == hex)
        #expect(ContentHash(of: text.utf8.lazy.map { $0 }).hex == hex, "a sequence that is not one piece of memory")
    }

    @Test func hexHasNoLeadingZerosSoNamesGivenBeforeStayTheSame() throws {
        // The first two-byte content whose hash is below 2^60 (one in 16 is).
        var found: ContentHash?
        for first in UInt8.min...UInt8.max where found == nil {
            for second in UInt8.min...UInt8.max {
                let hash = ContentHash(of: [first, second])
                if hash.value < 1 << 60 { found = hash; break }
            }
        }
        let hash = try #require(found)
        #expect(hash.hex == String(hash.value, radix: 16))
        #expect(hash.hex.count < 16)
    }
}
