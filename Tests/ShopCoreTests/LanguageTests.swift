import ShopCore
import Testing

@Suite("Language from Accept-Language")
struct LanguageTests {
    @Test(arguments: [
        (nil, Language.english), ("", .english), ("tr", .turkish), ("tr-TR,tr;q=0.9,en;q=0.8", .turkish),
        ("es-419", .spanish), ("ES", .spanish), ("de-DE, es;q=0.5", .spanish), ("en;q=0.9, tr", .turkish),
        ("tr;q=0, es;q=0.1", .spanish), ("tr;q=0", .english), ("fr, de", .english), ("es;q=0.5, tr;q=0.5", .spanish),
        (" tr ; q=0.7 , en ; q=0.2", .turkish), ("tr;q=abc, es;q=0.3", .spanish), ("*", .english),
    ] as [(String?, Language)])
    func theHighestWeightedLanguageTheShopSpeaksWins(header: String?, expected: Language) {
        #expect((Language.accepted(header) ?? .english) == expected)
    }

    @Test func eachLanguageHasItsSearchRulesAndLocale() {
        #expect(Language.allCases.map(\.searchLocale) == [.english, .turkish, .spanish])
        #expect(Language.allCases.map(\.localeIdentifier) == ["en_US", "tr_TR", "es_ES"])
    }
}

@Suite("The shopper's language")
struct ShopperLanguageTests {
    /// The one rule: the choice (cookie) > the account > Accept-Language > the shop's default.
    @Test(arguments: [
        (Language.spanish, Language.turkish, "tr", Language.english, Language.spanish),
        (nil, .turkish, "es", .english, .turkish),
        (nil, nil, "es-ES,es;q=0.9", .turkish, .spanish),
        (nil, nil, "de, fr", .turkish, .turkish),
        (nil, nil, nil, .spanish, .spanish),
        (nil, nil, "tr;q=0", .english, .english),
        (.english, nil, "tr", .spanish, .english),
    ] as [(Language?, Language?, String?, Language, Language)])
    func choiceThenAccountThenBrowserThenShopDefault(chosen: Language?, account: Language?, acceptLanguage: String?,
                                                      shopDefault: Language, expected: Language) {
        #expect(Language.forShopper(chosen: chosen, account: account, acceptLanguage: acceptLanguage,
                                    shopDefault: shopDefault) == expected)
    }

    @Test func acceptedIsNilWhenTheBrowserAsksForNoLanguageTheShopSpeaks() {
        #expect(Language.accepted("de, fr") == nil)
        #expect(Language.accepted(nil) == nil)
        #expect(Language.accepted("fr, tr;q=0.5") == .turkish)
    }
}
