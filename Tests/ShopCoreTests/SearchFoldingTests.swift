import ShopCore
import Testing

@Suite("Search folding")
struct SearchFoldingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var locale: SearchLocale
        var folded: String
        var testDescription: String { "\(locale.rawValue): \(text) → \(folded)" }
    }

    @Test(arguments: [
        // Turkish: İ/i and I/ı are two letter pairs; other diacritics fold away.
        Case(text: "İstanbul", locale: .turkish, folded: "istanbul"),
        Case(text: "istanbul", locale: .turkish, folded: "istanbul"),
        Case(text: "IŞIK", locale: .turkish, folded: "ısık"),
        Case(text: "ışık", locale: .turkish, folded: "ısık"),
        Case(text: "ISPARTA", locale: .turkish, folded: "ısparta"),
        Case(text: "Çiğ Köfte ÜRÜN", locale: .turkish, folded: "cig kofte urun"),
        Case(text: "I\u{0307}zmir", locale: .turkish, folded: "izmir"),  // İ written decomposed
        // English and Spanish: I/i, İ → i, ı → i, accents and ñ fold, ß → ss.
        Case(text: "İstanbul", locale: .english, folded: "istanbul"),
        Case(text: "IŞIK", locale: .english, folded: "isik"),
        Case(text: "ışık", locale: .english, folded: "isik"),
        Case(text: "Café", locale: .english, folded: "cafe"),
        Case(text: "CAFE", locale: .english, folded: "cafe"),
        Case(text: "Cafe\u{0301}", locale: .english, folded: "cafe"),  // é written decomposed
        Case(text: "Straße", locale: .english, folded: "strasse"),
        Case(text: "STRAẞE", locale: .english, folded: "strasse"),
        Case(text: "Año Niño", locale: .spanish, folded: "ano nino"),
        Case(text: "ÉPOCA Ñandú", locale: .spanish, folded: "epoca nandu"),
        Case(text: "İ", locale: .spanish, folded: "i"),
        Case(text: "Ærø Œuvre", locale: .english, folded: "aero oeuvre"),
        // Punctuation, symbols and runs of spaces separate words; digits stay.
        Case(text: "  Oak,  dining-chair!! (2 pcs) ", locale: .english, folded: "oak dining chair 2 pcs"),
        Case(text: "L'Oréal — 50% off 🪑", locale: .english, folded: "l oreal 50 off"),
        Case(text: "ﬁne Ａ²", locale: .english, folded: "fine a2"),
        Case(text: "¡¿…?!", locale: .spanish, folded: ""),
        Case(text: "", locale: .turkish, folded: ""),
    ])
    func foldsCaseDiacriticsAndPunctuation(_ example: Case) {
        #expect(SearchFolding.fold(example.text, locale: example.locale) == example.folded)
    }

    @Test(arguments: [
        ("istanbul", "İstanbul"), ("ısık", "IŞIK"), ("ışık", "IŞIK"), ("cig", "ÇİĞ"), ("KÖFTE", "köfte"),
    ])
    func turkishQueriesMatchTurkishText(query: String, text: String) {
        #expect(SearchFolding.fold(query, locale: .turkish) == SearchFolding.fold(text, locale: .turkish))
    }

    @Test(arguments: [("isik", "IŞIK"), ("ısık", "İSİK"), ("istanbul", "ISTANBUL")])
    func turkishKeepsDottedAndDotlessIApart(query: String, text: String) {
        #expect(SearchFolding.fold(query, locale: .turkish) != SearchFolding.fold(text, locale: .turkish))
    }

    @Test(arguments: [SearchLocale.english, .spanish], [
        ("istanbul", "İSTANBUL"), ("isik", "IŞIK"), ("cafe", "CAFÉ"), ("nino", "Niño"), ("strasse", "straße"),
    ])
    func englishAndSpanishFoldEveryIAndAccent(locale: SearchLocale, pair: (String, String)) {
        #expect(SearchFolding.fold(pair.0, locale: locale) == SearchFolding.fold(pair.1, locale: locale))
    }

    @Test func termsSplitOnAnythingButLettersAndDigits() {
        #expect(SearchFolding.terms("Oak/Walnut chair, 2×", locale: .english) == ["oak", "walnut", "chair", "2"])
        #expect(SearchFolding.terms("IŞIK ışık", locale: .turkish) == ["ısık", "ısık"])
        #expect(SearchFolding.terms(" - ", locale: .spanish).isEmpty)
    }

    @Test(arguments: SearchLocale.allCases)
    func foldingIsIdempotent(locale: SearchLocale) {
        for text in ["İstanbul IŞIK", "Café Straße", "Año — ¡Niño!", "ﬁne Ａ²"] {
            let once = SearchFolding.fold(text, locale: locale)
            #expect(SearchFolding.fold(once, locale: locale) == once)
        }
    }

    /// Both families at once agree with one fold per family, whether or not the text has a
    /// letter the families fold apart (`I`, `İ`, `ı`, and letters that decompose to `I`).
    @Test(.bug(id: "13"), arguments: [
        "", "Ceviz masa", "IŞIK Lamba", "İstanbul", "ılık süt", "Íñigo's ÏRON", "ⅠⅠ Ｉnch", "Café — Straße!", "lamba ışık",
    ])
    func bothFamiliesFoldAsEachFamilyDoes(text: String) {
        let both = SearchFolding.foldBothFamilies(text)
        #expect(both.standard == SearchFolding.fold(text, locale: .english))
        #expect(both.turkish == SearchFolding.fold(text, locale: .turkish))
    }
}
