import ShopCore
import Testing

/// Which picture shows a variant (`ProductImage.index(showing:in:)`): the product page, the
/// cart page and the API's cart lines all ask it.
@Suite("The picture of a variant")
struct VariantImageTests {
    static let images = [
        ProductImage(url: "/a.svg", altText: "Oak Dining Chair"),
        ProductImage(url: "/b.svg", altText: "Oak Dining Chair in Smoked Oak"),
        ProductImage(url: "/c.svg", altText: "OAKEN chair, walnut"),
        ProductImage(url: "/d.svg", altText: "Çay bardağı, İnce Belli"),
        ProductImage(url: "/e.svg", altText: "Teakwood stool, teak-oiled"),
    ]

    @Test(arguments: [
        (["Smoked Oak"], 1), (["smoked oak"], 1), (["Walnut"], 2), (["Oaken"], 2), (["Natural", "Walnut"], 2),
        (["Ak"], nil), (["Natural"], nil), ([], nil), ([""], nil), (["İnce Belli"], 3), (["Oak"], 0),
        (["Tea"], nil), (["Teak"], 4), (["Oiled"], 4), (["stool, teak"], 4),  // a later whole "teak" after "Teakwood"
    ] as [([String], Int?)])
    func theFirstPictureNamingAValueAsWholeWords(values: [String], index: Int?) {
        let variant = Variant(id: 1, sku: "X", optionValues: values, price: Money(minorUnits: 1_00, currency: .usd),
                              compareAtPrice: nil, inventory: .untracked)
        #expect(ProductImage.index(showing: variant, in: Self.images) == index)
    }
}
