import ShopCore
import Testing

@Suite("Bulk changes")
struct BulkChangeTests {
    static let draft = ProductDraft(handle: "p", title: "P", descriptionHTML: "", descriptionText: "", vendor: "", productType: "",
                                    categoryName: nil, tags: [], publishedAt: nil, isPublished: true, images: [], optionNames: ["Size"],
                                    variants: [VariantDraft(sku: "A", optionValues: ["S"], price: Money(minorUnits: 19_99, currency: .usd),
                                                            compareAtPrice: Money(minorUnits: 25_00, currency: .usd),
                                                            inventory: .tracked(quantity: 3, allowsBackorder: true)),
                                               VariantDraft(sku: "B", optionValues: ["L"], price: Money(minorUnits: 5, currency: .usd),
                                                            inventory: .untracked)],
                                    sourceLine: 0)

    /// Half-up once per variant: 19.99 × 0.9 = 17.991 → 17.99; 0.05 × 0.9 = 0.045 → 0.05.
    @Test(arguments: [(-10, [17_99, 5] as [Int64]), (10, [21_99, 6]), (0, [19_99, 5]), (-99, [20, 0]), (100, [39_98, 10])])
    func pricesChangeByAPercentRoundedHalfUpOnce(percent: Int, prices: [Int64]) throws {
        let next = try BulkChange.adjustPrice(percent: percent).applied(to: Self.draft)
        #expect(next.variants.map(\.price.minorUnits) == prices)
        #expect(next.variants[0].compareAtPrice == Self.draft.variants[0].compareAtPrice, "“was” prices stay")
    }

    @Test func setPriceAndStockApplyToEveryVariant() throws {
        let priced = try BulkChange.setPrice(Money(minorUnits: 9_99, currency: .usd)).applied(to: Self.draft)
        #expect(priced.variants.map(\.price.minorUnits) == [9_99, 9_99])
        let stocked = try BulkChange.setStock(7).applied(to: Self.draft)
        #expect(stocked.variants.map(\.inventory) == [.tracked(quantity: 7, allowsBackorder: true), .tracked(quantity: 7, allowsBackorder: false)])
    }

    /// Only a change that compounds is held to the lowest price shown (5 here).
    @Test(arguments: [(BulkChange.adjustPrice(percent: 10), Int64?(5), true), (.adjustPrice(percent: 10), 6, false),
                      (.adjustPrice(percent: 10), nil, true), (.setPrice(Money(minorUnits: 1, currency: .usd)), 6, true),
                      (.setStock(1), 6, true)] as [(BulkChange, Int64?, Bool)])
    func aCompoundingChangeNeedsThePriceAsShown(change: BulkChange, shown: Int64?, applies: Bool) throws {
        if applies {
            #expect(try change.applied(to: Self.draft, shownLowestPriceMinor: shown) == change.applied(to: Self.draft))
        } else {
            #expect(throws: BulkChange.Problem.changedSinceShown) {
                try change.applied(to: Self.draft, shownLowestPriceMinor: shown)
            }
        }
    }

    @Test func outOfRangeChangesAreRefused() throws {
        #expect(throws: BulkChange.Problem.percentOutOfRange(-100)) { try BulkChange.adjustPrice(percent: -100).applied(to: Self.draft) }
        #expect(throws: BulkChange.Problem.percentOutOfRange(1001)) { try BulkChange.adjustPrice(percent: 1001).applied(to: Self.draft) }
        #expect(throws: BulkChange.Problem.negativeStock) { try BulkChange.setStock(-1).applied(to: Self.draft) }
        #expect(throws: BulkChange.Problem.overflow) { try BulkChange.setStock(VariantDraft.maximumStock + 1).applied(to: Self.draft) }
        #expect(try BulkChange.setStock(VariantDraft.maximumStock).applied(to: Self.draft).variants[0].inventory
                == .tracked(quantity: VariantDraft.maximumStock, allowsBackorder: true))
        #expect(throws: BulkChange.Problem.negativePrice) {
            try BulkChange.setPrice(Money(minorUnits: -1, currency: .usd)).applied(to: Self.draft)
        }
        var huge = Self.draft
        huge.variants[0].price = Money(minorUnits: .max / 2, currency: .usd)
        #expect(throws: BulkChange.Problem.overflow) { try BulkChange.adjustPrice(percent: 1000).applied(to: huge) }
    }
}
