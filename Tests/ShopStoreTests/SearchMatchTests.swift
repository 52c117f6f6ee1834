import ShopStore
@testable import ShopStoreSQLite
import Testing

/// How SQLite's FTS5 expression writes the last word's prefix (`SearchMatch.expression`): as
/// the words it begins when the index has no prefix index of its length and there are few
/// enough of them, else as `"word" *`.
@Suite("FTS5 prefix expressions")
struct SearchMatchTests {
    @Test(.bug("issue #14", "long prefixes as the words they begin"), arguments: [
        // (typed, the words search_words holds beginning with it, the title-field alternative written)
        ("lam", ["lamp", "lamps"], #"{title meta body} : "lam" *"#),  // 3 letters: the prefix index answers
        ("lamp", ["lamp", "lampara", "lamps"], #"{title meta body} : ("lamp" OR "lampara" OR "lamps")"#),
        ("ışık", ["ışık", "ışıklı"], #"{title meta body} : ("ışık" OR "ışıklı")"#),  // 4 letters, 8 bytes
        ("lampx", [], #"{title meta body} : "lampx" *"#),  // none known: as typed
        ("vase", (0...SearchMatch.prefixWordLimit).map { "vase\($0)" }, #"{title meta body} : "vase" *"#),  // too many
    ] as [(String, [String], String)])
    func aLongPrefixIsWrittenAsTheWordsItBegins(typed: String, known: [String], expected: String) throws {
        let terms = try SearchTerms(ProductQuery(text: "oak " + typed), matchesAny: { _ in true }, vocabulary: { _, _ in [] })
        var asked: [String] = []
        let expression = SearchMatch.expression(terms.all) { prefix in
            asked.append(prefix)
            return known
        }
        #expect(expression.contains(expected))
        #expect(expression.contains(#"{title meta body} : "oak" OR"#), "a word before the last is never a prefix")
        let folded = try #require(terms.all.terms.last).word  // "ışık" folds to "isik" in English
        #expect(asked == (typed.count > SearchMatch.indexedPrefixLength ? [folded] : []))
    }
}
