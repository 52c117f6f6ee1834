import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// What a refused catalog write says: an import's line, or — for one product written through
/// the API or the back office — no line at all (a fresh tester was told "Line 0: …").
@Suite("Catalog store errors in words")
struct CatalogStoreErrorTests {
    @Test(arguments: [
        (CatalogStoreError.priceTooLarge(handle: "lamp", maximum: .usd(VariantDraft.maximumPriceMinorUnits), line: 12),
         "Line 12: product “lamp” has a price above 1000000000.00 USD."),
        (.priceTooLarge(handle: "lamp", maximum: .usd(VariantDraft.maximumPriceMinorUnits), line: 0),
         "Product “lamp” has a price above 1000000000.00 USD."),
        // The highest price is in minor units: its amount follows the currency's decimals.
        (.priceTooLarge(handle: "dinar", maximum: Money(minorUnits: VariantDraft.maximumPriceMinorUnits,
                                                        currency: try! Currency(code: "KWD")), line: 3),
         "Line 3: product “dinar” has a price above 100000000.000 KWD."),
        (.priceTooLarge(handle: "yen", maximum: Money(minorUnits: VariantDraft.maximumPriceMinorUnits,
                                                      currency: try! Currency(code: "JPY")), line: 4),
         "Line 4: product “yen” has a price above 100000000000 JPY."),
        (.emptyHandle(line: 0), "The product has no handle."),
        (.duplicateHandle("lamp", firstLine: 2, line: 9), "Line 9: handle “lamp” is already used by the product on line 2."),
        (.handleTaken("lamp"), "Another product already has the handle “lamp”."),
    ])
    func theLineIsNamedOnlyWhenThereIsOne(error: CatalogStoreError, text: String) {
        #expect(error.errorDescription == text)
    }
}
