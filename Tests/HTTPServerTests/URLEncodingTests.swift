import HTTPServer
import Testing

@Suite("Percent-decoding and form decoding")
struct URLEncodingTests {
    @Test func percentEscapesDecodeToUTF8() throws {
        #expect(try URLEncoding.percentDecode("/products/oak%20chair") == "/products/oak chair")
        #expect(try URLEncoding.percentDecode("/%C3%A7ay%C4%B1r") == "/çayır")
        #expect(try URLEncoding.percentDecode("%2f%2F") == "//")
    }

    @Test func plusStaysPlusInPathsButIsSpaceInForms() throws {
        #expect(try URLEncoding.percentDecode("a+b") == "a+b")
        #expect(try URLEncoding.percentDecode("a+b", plusAsSpace: true) == "a b")
        #expect(try URLEncoding.percentDecode("a%2Bb", plusAsSpace: true) == "a+b")
    }

    @Test(arguments: ["%", "%2", "abc%", "%zz", "%G1", "%1g", "100%off"])
    func malformedEscapeIsRejected(_ input: String) {
        #expect(throws: RequestDecodingError.invalidPercentEncoding(.query)) {
            try URLEncoding.percentDecode(input, component: .query)
        }
    }

    @Test(arguments: ["%FF", "%C3", "%C3%28", "%ED%A0%80"])
    func decodedBytesMustBeUTF8(_ input: String) {
        #expect(throws: RequestDecodingError.invalidUTF8(.path)) {
            try URLEncoding.percentDecode(input)
        }
    }

    /// No text of the shop holds a NUL, and PostgreSQL's text cannot store one: `%00` (or a raw
    /// NUL) anywhere is a 400, not a 500 from the database.
    @Test func aNULIsRejectedInEveryPart() {
        #expect(throws: RequestDecodingError.nulCharacter(.path)) { try URLEncoding.percentDecode("/products/a%00b") }
        #expect(throws: RequestDecodingError.nulCharacter(.path)) { try URLEncoding.percentDecode("/a\u{0}b") }
        #expect(throws: RequestDecodingError.nulCharacter(.query)) { try URLEncoding.decodeQuery("vendor=a%00b") }
        #expect(throws: RequestDecodingError.nulCharacter(.query)) { try URLEncoding.decodeQuery("a%00=1") }
        #expect(throws: RequestDecodingError.nulCharacter(.form)) { try URLEncoding.decodeForm(Array("q=a\u{0}b".utf8)) }
        #expect(throws: RequestDecodingError.nulCharacter(.form)) { try URLEncoding.decodeForm("name=Bob%00") }
        #expect((try? URLEncoding.decodeQuery("a=%2500"))?.map(\.value) == ["%00"], "an escaped percent sign is text")
    }

    @Test func queryKeepsOrderAndDuplicates() throws {
        let pairs = try URLEncoding.decodeQuery("tag=a&q=oak+chair&tag=b%26c")
        #expect(pairs.map(\.name) == ["tag", "q", "tag"])
        #expect(pairs.map(\.value) == ["a", "oak chair", "b&c"])
    }

    @Test func queryPiecesWithoutEqualsHaveEmptyValueAndEmptyPiecesAreSkipped() throws {
        let pairs = try URLEncoding.decodeQuery("&flag&&x=1=2&=v&")
        #expect(pairs.map(\.name) == ["flag", "x", ""])
        #expect(pairs.map(\.value) == ["", "1=2", "v"])
    }

    /// The query decoder works on bytes (for speed); these pin it to the same rules as
    /// `percentDecode`: escapes at the very end, in names, non-UTF-8 results.
    @Test(arguments: [("a=%", RequestDecodingError.invalidPercentEncoding(.query)), ("a=%2", .invalidPercentEncoding(.query)),
                      ("%zz=1", .invalidPercentEncoding(.query)), ("a=1&b=%G1", .invalidPercentEncoding(.query)),
                      ("a=%C3", .invalidUTF8(.query)), ("%FF=1", .invalidUTF8(.query)), ("a=%C3%28&b=1", .invalidUTF8(.query))])
    func malformedQueriesAreRejected(query: String, error: RequestDecodingError) {
        #expect(throws: error) { try URLEncoding.decodeQuery(query) }
    }

    @Test(arguments: [("q=%C3%A7ay+%C4%B1%2B1", ["q"], ["çay ı+1"]), ("ç=ü", ["ç"], ["ü"]), ("a=%41%42", ["a"], ["AB"]),
                      ("a=b%3D&%26=x", ["a", "&"], ["b=", "x"]), ("", [], []), ("&&", [], []), ("x=", ["x"], [""])])
    func queriesDecode(query: String, names: [String], values: [String]) throws {
        let pairs = try URLEncoding.decodeQuery(query)
        #expect(pairs.map(\.name) == names && pairs.map(\.value) == values)
    }

    @Test func formBodyDecodesPlusAndUTF8() throws {
        let pairs = try URLEncoding.decodeForm(Array("name=J%C3%BCrgen+M%C3%BCller&note=a%0D%0Ab".utf8))
        #expect(pairs.map(\.value) == ["Jürgen Müller", "a\r\nb"])
    }

    @Test func malformedFormReportsTheFormComponent() {
        #expect(throws: RequestDecodingError.invalidPercentEncoding(.form)) {
            try URLEncoding.decodeForm(Array("a=%E".utf8))
        }
        #expect(throws: RequestDecodingError.invalidUTF8(.form)) {
            try URLEncoding.decodeForm([0x61, 0x3D, 0xFF])
        }
    }

    @Test func pathEncodingRoundTrips() throws {
        let path = "/products/oak chair/100%/ç?#"
        let encoded = URLEncoding.percentEncodePath(path)
        #expect(encoded == "/products/oak%20chair/100%25/%C3%A7%3F%23")
        #expect(try URLEncoding.percentDecode(encoded) == path)
    }

    @Test func formEncodingRoundTrips() throws {
        let value = "a b&c=d+é"
        let encoded = URLEncoding.formEncode(value)
        #expect(encoded == "a+b%26c%3Dd%2B%C3%A9")
        #expect(try URLEncoding.percentDecode(encoded, plusAsSpace: true) == value)
    }

    @Test(arguments: [("Added to cart.", "Added%20to%20cart%2E"), ("Sepete eklendi: Çay", "Sepete%20eklendi%3A%20%C3%87ay"),
                      ("a-b_c~d", "a%2Db%5Fc%7Ed"), ("", "")])
    func alphanumericEncodingLeavesOnlyASCIILettersAndDigits(text: String, encoded: String) throws {
        #expect(URLEncoding.percentEncodeAlphanumerics(text) == encoded)
        #expect(try URLEncoding.percentDecode(encoded) == text)
    }
}
