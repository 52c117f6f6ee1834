import ShopStore
import Testing

/// The list-column codec must read any JSON array of strings (rows written by hand or by SQLite's
/// JSON functions), not only what it wrote itself.
@Suite("JSON string arrays")
struct JSONStringArrayTests {
    @Test(arguments: [[], [""], ["a", "b"], ["quote \" backslash \\ slash /", "tab\tnew\nline\r\u{1}"],
                      ["ç ı İ ğ", "🪑 𝄞", "\u{7F}\u{0}"]])
    func encodedArraysDecodeToTheSameStrings(strings: [String]) {
        #expect(JSONStringArray.decode(JSONStringArray.encode(strings)) == strings)
    }

    @Test func decodesEscapesAndWhitespaceFromOtherWriters() {
        let text = #" [ "caf\u00e9" , "\ud83e\ude91", "a\/b", "\b\f" ] "#
        #expect(JSONStringArray.decode(text) == ["café", "🪑", "a/b", "\u{8}\u{C}"])
    }

    @Test(arguments: ["", "[", "[\"a\"", "[\"a\",]", "[1]", "{\"a\":1}", "[\"\\x\"]", "[\"\\ud83e\"]",
                      "[\"a\"] x", "[\"raw\ttab\"]"])
    func malformedTextIsRejected(text: String) {
        #expect(JSONStringArray.decode(text) == nil)
    }
}
