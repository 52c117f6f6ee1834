import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// Issue #13, point 5: search that forgives — stems, typos, SKUs and "did you mean" — run on
/// every engine.
@Suite("Search forgiveness contract")
struct SearchForgivenessContractTests {
    /// A shopper's plural finds the merchant's singular, in each language's stemmer.
    @Test(.bug("issue #13", "stemming through Snowball"), arguments: StoreKind.engines(for: .catalog), [
        ("mugs", SearchLocale.english, "Mug"),
        ("lamps", .english, "Desk lamp"),
        ("lambalar", .turkish, "Mermer lamba"),
        ("lambaları", .turkish, "Lamba"),
        ("kitaplar", .turkish, "Kitap rafı"),
        ("sillas", .spanish, "Silla de roble"),
        ("mesas", .spanish, "Mesa"),
        // Two edits from the singular, out of the typo budget: only the stem finds these.
        ("relojes", .spanish, "Reloj de pared"),
        ("manteles", .spanish, "Mantel"),
        ("boxes", .english, "Oak box"),
    ])
    func stemsFindOtherFormsOfAWord(kind: StoreKind, example: (query: String, locale: SearchLocale, title: String)) throws {
        let (query, locale, title) = example
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([draft("wanted", title: title), draft("other", title: "Walnut bench")])
        #expect(try handles(stores, ProductQuery(text: query, locale: locale)) == ["wanted"])
    }

    /// A stem of one or two letters is not matched as a stem: the Turkish stemmer takes "aydı"
    /// (typed on the way to "aydınlatma") to "a", the stem of every English "a" (a fresh tester
    /// found the whole catalog listed).
    @Test(.bug("issue #13", "a one-letter stem found every product"), arguments: StoreKind.engines(for: .catalog))
    func aVeryShortStemFindsNothingByItself(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([draft("light", title: "Aydınlatma rayı"),
                                       draft("desk", title: "Desk", description: "A desk with a drawer.")])
        #expect(ProductSearchStemmer().queryStem(of: "aydı", locale: .turkish) == "aydı")
        #expect(try handles(stores, ProductQuery(text: "aydı", locale: .turkish)) == ["light"])
        #expect(try handles(stores, ProductQuery(text: "aydın", locale: .turkish)) == ["light"])
    }

    @Test(.bug("issue #13", "stems of all three stemmers are indexed"), arguments: StoreKind.engines(for: .catalog))
    func aProductIsIndexedWithEveryLanguagesStems(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([draft("silla", title: "Silla")])
        // An English shopper's "sillas" (English stem "silla") meets the Spanish title.
        #expect(try handles(stores, ProductQuery(text: "sillas", locale: .english)) == ["silla"])
    }

    /// One edit in words of 5–8 letters, two in 9+, one adjacent swap in 4, none below; typo
    /// matches rank after exact ones.
    @Test(.bug("issue #13", "typo tolerance"), arguments: StoreKind.engines(for: .catalog), [
        ("chiar", "chair"),        // transposition
        ("lmap", "lamp"),          // 4 letters: one adjacent swap only
        ("lapm", "lamp"),
        ("lamb", nil),             // 4 letters: no substitution
        ("lmp", nil),              // 3 letters: nothing
        ("lampp", "lamp"),         // 5 letters: one insertion
        ("skilet", "skillet"),     // deletion
        ("wardrope", "wardrobe"),  // substitution
        ("candlestic", "candlestick"),
        ("candelstik", "candlestick"),  // 10 letters: two edits
        ("cahri", nil),            // two edits in five letters: too many
    ] as [(String, String?)])
    func typosWithinTheBudgetFindTheWord(kind: StoreKind, example: (typo: String, expected: String?)) throws {
        let (typo, expected) = example
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(["chair", "lamp", "skillet", "wardrobe", "candlestick"].map {
            draft($0, title: "Oak " + $0)
        })
        let found = try handles(stores, ProductQuery(text: typo))
        #expect(found == (expected.map { [$0] } ?? []))
    }

    @Test(.bug("issue #13", "the one-transposition example"), arguments: StoreKind.engines(for: .catalog))
    func lmapFindsLampThroughItsFiveLetterPlural(kind: StoreKind) throws {
        // "lmap" alone has no budget (4 letters); "lmaps" (5) is one swap from "lamps".
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([draft("lamps", title: "Lamps")])
        #expect(try handles(stores, ProductQuery(text: "lmaps")) == ["lamps"])
    }

    @Test(.bug("issue #13", "typo matches rank below exact matches"), arguments: StoreKind.engines(for: .catalog))
    func typoMatchesRankBelowExactMatchesThenByField(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            ProductDraft.mock(handle: "in-tags", title: "Seat", tags: ["chair"]),
            ProductDraft.mock(handle: "in-title", title: "Walnut chair"),
            ProductDraft.mock(handle: "by-sku", title: "Bench", variants: [.mock(sku: "CHIAR-1")]),
            ProductDraft.mock(handle: "elsewhere", title: "Table"),
        ])
        // "chiar" is a SKU prefix of one product (exact) and one swap from "chair" (a typo).
        #expect(try handles(stores, ProductQuery(text: "chiar", sort: .relevance)) == ["by-sku", "in-title", "in-tags"])
    }

    @Test(.bug("issue #13", "typos only for words that find nothing"), arguments: StoreKind.engines(for: .catalog))
    func aWordThatFindsSomethingIsNotExpanded(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([draft("typo", title: "Sofas"), draft("desc", title: "Rug", description: "sofass")])
        #expect(try handles(stores, ProductQuery(text: "sofass", sort: .relevance)) == ["desc"])
        #expect(try handles(stores, ProductQuery(text: "sofasz", sort: .relevance)) == ["typo"])
        // Every candidate within the budget is searched: "stooll" is one edit from both.
        _ = try stores.catalog.upsert([draft("stoll", title: "Stoll"), draft("stool", title: "Stool")])
        #expect(Set(try handles(stores, ProductQuery(text: "stooll"))) == ["stoll", "stool"])
    }

    @Test(.bug("issue #13", "SKU search, exact and prefix"), arguments: StoreKind.engines(for: .catalog))
    func skusAreFoundExactlyAndByPrefixIgnoringCaseAndPunctuation(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            ProductDraft.mock(handle: "mug", title: "Mug", variants: [.mock(sku: "MUG-001-BLK", options: ["Black"]),
                                                                      .mock(sku: "MUG-001-WHT", options: ["White"])]),
            ProductDraft.mock(handle: "mug-2", title: "Cup", variants: [.mock(sku: "MUG-0012")]),
            ProductDraft.mock(handle: "lamp", title: "Lamp", variants: [.mock(sku: "LMP-9")]),
        ])
        #expect(try handles(stores, ProductQuery(text: "mug-001-blk")) == ["mug"])
        #expect(try handles(stores, ProductQuery(text: " MUG 001 WHT ")) == ["mug"])
        #expect(Set(try handles(stores, ProductQuery(text: "MUG-001"))) == ["mug", "mug-2"])
        #expect(try handles(stores, ProductQuery(text: "lmp9")) == ["lamp"])
        #expect(try handles(stores, ProductQuery(text: "LMP-8")).isEmpty)
        // The exact SKU ranks first, before a prefix match.
        #expect(try handles(stores, ProductQuery(text: "MUG-0012", sort: .relevance)) == ["mug-2"])
        #expect(try handles(stores, ProductQuery(text: "MUG-001", sort: .relevance)).first == "mug")
    }

    @Test(.bug("issue #13", "barcode search, exact and prefix"), arguments: StoreKind.engines(for: .catalog))
    func barcodesAreFoundExactlyAndByAPrefixOfFourDigitsOrMore(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            ProductDraft.mock(handle: "mug", title: "Mug", variants: [.mock(sku: "MUG-1", options: ["Black"], barcode: "4006381333931"),
                                                                      .mock(sku: "MUG-2", options: ["White"], barcode: "4006381333948")]),
            ProductDraft.mock(handle: "cup", title: "Cup", variants: [.mock(barcode: "40063813")]),
            ProductDraft.mock(handle: "book", title: "Book", variants: [.mock(sku: "1234-BOOK", barcode: "0-306-40615-X")]),
            ProductDraft.mock(handle: "lamp", title: "Lamp 4006", variants: [.mock(sku: "LMP-9")]),
        ])
        // Exact, with or without the printed spaces and dashes.
        #expect(try handles(stores, ProductQuery(text: "4006381333948")) == ["mug"])
        #expect(try handles(stores, ProductQuery(text: "4 006381 333931")) == ["mug"])
        #expect(try handles(stores, ProductQuery(text: "030640615x")) == ["book"])
        // A prefix of four digits or more finds every barcode it starts; the exact one ranks first.
        #expect(Set(try handles(stores, ProductQuery(text: "400638"))) == ["mug", "cup"])
        #expect(try handles(stores, ProductQuery(text: "40063813", sort: .relevance)).first == "cup")
        #expect(Set(try handles(stores, ProductQuery(text: "4006"))) == ["mug", "cup", "lamp"])  // lamp by its title word
        // No false hits: fewer than four digits look no barcode up, a barcode is no SKU, a SKU no barcode.
        #expect(try handles(stores, ProductQuery(text: "400")) == ["lamp"])  // the title word only
        #expect(try handles(stores, ProductQuery(text: "4006381333955")).isEmpty)
        #expect(try handles(stores, ProductQuery(text: "0306")) == ["book"])  // the ISBN's start
        #expect(try handles(stores, ProductQuery(text: "1234")) == ["book"])  // a SKU prefix, as before
        // The index marker is no way in ("e4006" is one typo from the lamp's "4006", no more).
        #expect(try handles(stores, ProductQuery(text: "e4006")) == ["lamp"])
        #expect(try handles(stores, ProductQuery(text: "é4006")) == ["lamp"])
    }

    @Test(.bug("issue #13", "did you mean"), arguments: StoreKind.engines(for: .catalog))
    func didYouMeanOffersTheNearestWordsOnlyWhenNothingMatches(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([draft("lamp", title: "Walnut lamp"), draft("hidden", title: "Zebra rug", isPublished: false)])
        let page = try stores.catalog.products(ProductQuery(text: "walnut lpma"))  // 4 letters: no typo budget
        #expect(page.products.isEmpty)
        #expect(page.suggestion == "walnut lamp")
        #expect(try stores.catalog.products(ProductQuery(text: "lamp")).suggestion == nil)
        // The "lmap" finds "lamp" through its one swap; "lpam" (two edits) is offered instead.
        #expect(try stores.catalog.products(ProductQuery(text: "lpam")).suggestion == "lamp")
        #expect(try stores.catalog.products(ProductQuery(text: "qqqqq")).suggestion == nil)
        // Only words that find a published product are offered.
        #expect(try stores.catalog.products(ProductQuery(text: "zebar")).suggestion == nil)
    }

    // MARK: Helpers

    /// A prefix of four letters or more (past the SQLite index's prefix lengths, matched there
    /// as the words it begins: `search_words`) finds every word it begins, in the title, the
    /// description, a tag, the category and the Turkish family's words — also after an edit
    /// brings a new word, and when it begins more words than are written out one by one. Each
    /// prefix begins several words, so one left out of `search_words` would be missed.
    @Test(.bug("issue #14", "long prefixes as the words they begin"), arguments: StoreKind.engines(for: .catalog))
    func aLongPrefixFindsEveryWordItBegins(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var tagged = draft("tagged", title: "Stool")
        tagged.tags = ["Lampwork"]
        var sorted = draft("sorted", title: "Bench")
        sorted.categoryName = "Lampshades"
        _ = try stores.catalog.upsert([
            draft("desk", title: "Desk lamp"), draft("lamps", title: "Two lamps"),
            draft("shade", title: "Shade", description: "Fits any lampholder."), tagged, sorted,
            draft("light", title: "Işık"), draft("turkish", title: "Işıklı ayna"), draft("other", title: "Oak chair", description: "A lamb's wool seat."),
        ])
        let found = { (text: String, locale: SearchLocale) in
            Set(try self.handles(stores, ProductQuery(text: text, locale: locale, limit: 100)))
        }
        #expect(try found("lamp", .english) == ["desk", "lamps", "shade", "tagged", "sorted"])
        #expect(try found("lampho", .english) == ["shade"], "a description word")
        #expect(try found("lampw", .english) == ["tagged"], "a tag")
        #expect(try found("lampsh", .english) == ["sorted"], "a category name")
        #expect(try found("ışık", .turkish) == ["light", "turkish"], "the Turkish family's words")
        #expect(try found("lampxyz", .english).isEmpty)

        _ = try stores.catalog.upsert([draft("other", title: "Oak chair", description: "Lampblack finish.")])
        #expect(try found("lamp", .english).contains("other"), "an edit's new word")

        // More words than one statement writes out: the prefix is matched as a prefix.
        let many = (0..<40).map { draft("many-\($0)", title: "Vasex\(String(UnicodeScalar(UInt8(97 + $0 % 26))))\($0)") }
        _ = try stores.catalog.upsert(many)
        #expect(try found("vasex", .english) == Set(many.map(\.handle)))
    }

    private func draft(_ handle: String, title: String, description: String = "", isPublished: Bool = true) -> ProductDraft {
        var draft = ProductDraft.mock(handle: handle, title: title, isPublished: isPublished)
        draft.descriptionText = description
        draft.descriptionHTML = ""
        draft.vendor = "Acme"
        return draft
    }

    private func handles(_ stores: StoreHarness, _ query: ProductQuery) throws -> [String] {
        try stores.catalog.products(query).products.map(\.handle)
    }
}
