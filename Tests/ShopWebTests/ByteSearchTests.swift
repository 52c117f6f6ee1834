import Testing
@testable import ShopWeb

/// `ByteSearch`: the marker and tag finder the personalizer, the page joiner and the onboarding
/// insert share — compared with a plain scan over tricky cases.
@Suite struct ByteSearchTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let haystack: String, needle: String, from: Int, first: Int?, last: Int?
        var testDescription: String { "\(needle) in \(haystack) from \(from)" }
    }

    static let cases: [Case] = [
        Case(haystack: "<p><!--x--></p>", needle: "<!--", from: 0, first: 3, last: 3),
        Case(haystack: "<!--a--><!--b-->", needle: "<!--", from: 1, first: 8, last: 8),
        Case(haystack: "<!--a--><!--b-->", needle: "-->", from: 0, first: 5, last: 13),
        // The anchor byte (`!`) appears before a real match and at the very end.
        Case(haystack: "!<!<!--!", needle: "<!--", from: 0, first: 3, last: 3),
        Case(haystack: "<!-", needle: "<!--", from: 0, first: nil, last: nil),
        Case(haystack: "", needle: "<", from: 0, first: nil, last: nil),
        Case(haystack: "ab", needle: "b", from: 0, first: 1, last: 1),
        Case(haystack: "abab", needle: "ab", from: 3, first: nil, last: 2),
        Case(haystack: "x</body></body>", needle: "</body>", from: 0, first: 1, last: 8),
        Case(haystack: "</body>", needle: "</body>", from: 0, first: 0, last: 0),
    ]

    @Test(arguments: cases)
    func findsWhatAPlainScanFinds(_ test: Case) {
        let haystack = Array(test.haystack.utf8), needle = Array(test.needle.utf8)
        #expect(ByteSearch.firstIndex(of: needle, in: haystack, from: test.from) == test.first)
        #expect(ByteSearch.lastIndex(of: needle, in: haystack) == test.last)
        #expect(ByteSearch.firstIndex(of: needle, in: haystack, from: test.from) == Self.plainFirst(needle, haystack, test.from))
    }

    private static func plainFirst(_ needle: [UInt8], _ haystack: [UInt8], _ start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        return (start...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
