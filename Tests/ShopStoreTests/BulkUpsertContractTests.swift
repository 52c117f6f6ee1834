import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// Issue #13, point 6: an upsert of many drafts folds them on a second thread ahead of the
/// writer; each product must still be indexed with its own text, and a re-import's unchanged
/// products (skipped by the writer) must not shift any fold onto another product.
@Suite("Bulk upsert contract")
struct BulkUpsertContractTests {
    /// A word unique per number below 1000 and of one length ("title007"): no word is a prefix
    /// of another (the last query word also matches as a prefix), and digits at its end keep
    /// stemmers from making two words one (Snowball strips a letter such as a final "e" or "s").
    private static func word(_ number: Int, _ prefix: String) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    private static func draft(_ number: Int, titleWord: String) -> ProductDraft {
        var draft = ProductDraft.mock(handle: "p\(number)", title: "Lamba \(titleWord)")
        draft.vendor = number.isMultiple(of: 2) ? "Işık Evi" : "Acme"
        draft.descriptionText = "A lamp with \(word(number, "desc")) inside.\nIŞIK\tverir."
        draft.descriptionHTML = ""
        return draft
    }

    private func handles(_ stores: StoreHarness, _ text: String, _ locale: SearchLocale = .english) throws -> [String] {
        try stores.catalog.products(ProductQuery(text: text, locale: locale)).products.map(\.handle)
    }

    @Test(.bug(id: "13"), arguments: StoreKind.engines(for: .catalog))
    func everyProductOfABigUpsertIsIndexedWithItsOwnText(kind: StoreKind) throws {
        let count = 300
        let stores = try StoreHarness(kind)
        let first = (0..<count).map { Self.draft($0, titleWord: Self.word($0, "title")) }
        let created = try stores.catalog.upsert(first)
        #expect(created.productsCreated == count)
        for number in stride(from: 0, to: count, by: 7) {
            #expect(try handles(stores, Self.word(number, "title")) == ["p\(number)"])
            #expect(try handles(stores, Self.word(number, "desc")) == ["p\(number)"])
        }
        // Turkish text in the Turkish family: "ışık" (dotless) is in every description.
        #expect(try stores.catalog.products(ProductQuery(text: "ışık", locale: .turkish)).totalCount == count)

        // Every third product changes its title; the others are left as they are (skipped).
        let second = (0..<count).map { number in
            number.isMultiple(of: 3) ? Self.draft(number, titleWord: Self.word(number, "new")) : first[number]
        }
        let changed = try stores.catalog.upsert(second)
        #expect(changed.productsCreated == 0)
        #expect(changed.productsUpdated == count / 3)
        #expect(changed.productsUnchanged == count - count / 3)
        for number in 0..<30 {
            // (A word that finds nothing may find a neighbour's through typo tolerance: only
            // its own product's absence is checked.)
            let (current, gone) = number.isMultiple(of: 3)
                ? (Self.word(number, "new"), Self.word(number, "title"))
                : (Self.word(number, "title"), Self.word(number, "new"))
            #expect(try handles(stores, current) == ["p\(number)"])
            #expect(try !handles(stores, gone).contains("p\(number)"))
        }

        let again = try stores.catalog.upsert(second)
        #expect(again.productsCreated == 0 && again.productsUpdated == 0 && again.productsUnchanged == count)
    }

    /// Two imports at once (two servers, or two operators): writers take turns, so both
    /// create their products and the category both name is created once, not refused.
    @Test(.bug("issue #15", "catalog writers take turns on every engine"), arguments: StoreKind.engines(for: .catalog))
    func simultaneousImportsIntoANewCategoryBothLand(kind: StoreKind) throws {
        let stores = try StoreHarness(kind, poolSize: 4)
        let catalog = stores.catalog
        let results = try ConcurrentRun.together(4) { index in
            try catalog.upsert((0..<5).map { ProductDraft.mock(handle: "lamp-\(index)-\($0)", category: "Lamps") })
        }
        #expect(results.map(\.productsCreated) == [5, 5, 5, 5])
        #expect(results.map(\.categoriesCreated).reduce(0, +) == 1)
        #expect(try stores.catalog.categories().map(\.productCount) == [20])
    }
}
