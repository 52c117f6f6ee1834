import Foundation
import ShopCore
import Testing

@Suite("White space trimming without Foundation")
struct WhiteSpaceTrimmingTests {
    /// Every kind of white space Foundation's `.whitespacesAndNewlines` knows, at either end,
    /// around text that keeps its inner blanks and combining marks.
    @Test(.bug(id: "13"), arguments: [
        "", " ", "\t\n\r", "SKU-1", " SKU-1", "SKU-1 ", "  Nw-WSB-S\n", "\u{00A0}Red\u{3000}", "\u{2028}x\u{2029}",
        "\u{0085}a b\u{000B}\u{000C}", "\u{2003}\u{202F}Ceviz Masa\u{205F}\u{1680}", " \u{0301}é ", "Ä\u{0308} ", "🙂 ",
        "\u{200B}zero width is not white space\u{200B}", "\r\n", "a", " a ",
    ])
    func trimsWhatFoundationTrims(text: String) {
        #expect(text.trimmedOfWhiteSpace == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text[...].trimmedOfWhiteSpace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(.bug(id: "13")) func skuKeysStayTrimmedAndLowerCased() {
        #expect(SKUIdentity.key("\u{00A0} Nw-WSB-S \n") == "nw-wsb-s")
        #expect(SKUIdentity.key(" \t ") == nil)
    }
}
