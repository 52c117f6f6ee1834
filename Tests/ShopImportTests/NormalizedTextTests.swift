@testable import ShopImport
import Testing

/// Issue #13, point 6: a description's plain text is normalized on UTF-8 bytes when its
/// characters allow it, with the very result the `Character` way gives.
@Suite("Normalized description text")
struct NormalizedTextTests {
    @Test(.bug(id: "13"), arguments: [
        "", " ", "\n\n", "Oak chair", "  Oak \t chair  \n\n  second\u{0B}line \u{0C} end \n",
        "Işıklı masa lambası,\nİstanbul'da ağaç.\n \n Niño año señor - no: only Latin here",
        "a\nb\n\n\nc", "tab\tseparated\twords\t", "\u{01}control\u{1F}bytes\u{7F}kept",
        "Çay Bardağı ŞÖÜ ñ é ſ ž Ÿ", " leading and trailing ",
        // Combining marks right after a letter (lower-cased "İ" is "i" + U+0307), and U+0370–U+037F.
        "e\u{0301} combining", "i\u{0307}stanbul ve i\u{0307}zmir", "x\u{0300}\u{036F}\u{0301} marks\nz\u{0327}",
        "Greek\u{0370}\u{037F} x;\u{037E}", "end\u{0301}\n",
    ])
    func bytesGiveWhatCharactersGive(text: String) {
        #expect(HTMLSanitizer.normalizedBytes(text) == HTMLSanitizer.normalizeTextByCharacters(text))
        #expect(HTMLSanitizer.normalizeText(text) == HTMLSanitizer.normalizeTextByCharacters(text))
    }

    /// Text whose characters the bytes do not show plainly goes the `Character` way.
    @Test(.bug(id: "13"), arguments: [
        "windows\r\nline", "no\u{00A0}break", "line\u{2028}separator", "emoji 🪑 chair",
        "tab \u{0301}mark", "\u{0301}first", "line\n\u{0307}mark", "tab\t\u{0300}b", "greek  \u{0371}after spaces",
        "mark \u{0301}\n", "Ӂ cyrillic",
    ])
    func otherTextGoesByCharacters(text: String) {
        #expect(HTMLSanitizer.normalizedBytes(text) == nil)
        #expect(HTMLSanitizer.normalizeText(text) == HTMLSanitizer.normalizeTextByCharacters(text))
    }
}

/// `trimmingWhitespace` decides most fields on their first and last byte (issue #13, point 6);
/// the result must be the one of trimming `Character`s, on both sides of that shortcut.
@Suite("Trimming a field")
struct TrimmingWhitespaceTests {
    /// The slow rule, written out: drop white-space `Character`s at both ends.
    private static func byCharacters(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    @Test(arguments: [
        ("SKU-1", "SKU-1"),                      // visible ASCII at both ends: the shortcut
        ("a", "a"),
        ("", ""),
        ("   ", ""),
        (" SKU-1\t", "SKU-1"),
        ("\u{00A0}Masa\u{00A0}", "Masa"),        // no-break spaces
        ("\u{3000}lamba", "lamba"),              // ideographic space before, ASCII after
        ("Sandalye ", "Sandalye"),
        ("çiçek", "çiçek"),                      // non-ASCII ends: the slow way, nothing to trim
        ("e\u{0301}", "e\u{0301}"),              // a combining mark at the end
        ("x\r\n", "x"),                          // CR LF is one white-space Character
        ("\u{2028}Red\u{2029}", "Red"),          // line and paragraph separators
        ("A \u{0301}B", "A \u{0301}B"),          // inner white space kept
    ])
    func trimsLikeCharacters(text: String, expected: String) {
        #expect(text.trimmingWhitespace == expected)
        #expect(Self.byCharacters(text) == expected)
        #expect(text[...].trimmingWhitespace == expected, "a Substring the same way")
    }
}
