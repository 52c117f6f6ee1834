import ShopCore
import ShopStore
import Testing

/// What a refused catalog write says: an import's line, or — for one product written through
/// the API or the back office — no line at all (a fresh tester was told "Line 0: …").
@Suite("Catalog store errors in words")
struct CatalogStoreErrorTests {
    @Test(arguments: [
        (CatalogStoreError.priceTooLarge(handle: "lamp", line: 12),
         "Line 12: product “lamp” has a price above 1000000000.00 (100000000000 minor units)."),
        (.priceTooLarge(handle: "lamp", line: 0),
         "Product “lamp” has a price above 1000000000.00 (100000000000 minor units)."),
        (.emptyHandle(line: 0), "The product has no handle."),
        (.duplicateHandle("lamp", firstLine: 2, line: 9), "Line 9: handle “lamp” is already used by the product on line 2."),
        (.handleTaken("lamp"), "Another product already has the handle “lamp”."),
    ])
    func theLineIsNamedOnlyWhenThereIsOne(error: CatalogStoreError, text: String) {
        #expect(error.errorDescription == text)
    }
}
