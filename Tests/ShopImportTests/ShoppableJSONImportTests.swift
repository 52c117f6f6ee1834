import Foundation
import ShopCore
import ShopImport
import Testing

@Suite("shoppable-json catalog")
struct ShoppableJSONImportTests {
    @Test func readsProductsVariantsAndImages() throws {
        let result = try Fixture.read("shoppable.json")
        #expect(result.format == .shoppableJSON)
        #expect(result.products.map(\.handle) == ["oak-dining-chair", "linen-cushion-cover"])
        #expect(result.variantCount == 4)
        #expect(result.imageCount == 2)
        #expect(result.warnings.isEmpty)
    }

    @Test func readsTheChairsFieldsAsDocumented() throws {
        let chair = try Fixture.read("shoppable.json").product("oak-dining-chair")
        #expect(chair.title == "Oak Dining Chair")
        #expect(chair.vendor == "Nordwood")
        #expect(chair.productType == "Chair")
        #expect(chair.categoryName == "Chairs")
        #expect(chair.tags == ["oak", "dining"])
        #expect(chair.publishedAt == Date(timeIntervalSince1970: 1_773_478_800))
        #expect(chair.isPublished)
        #expect(chair.rating == Rating(rateHundredths: 460, count: 128))
        #expect(chair.optionNames == ["Color"])
        #expect(chair.descriptionHTML == "<p>Solid oak, <em>oiled</em>.</p>")
        #expect(chair.images.map(\.altText) == ["Oak dining chair", ""])
        #expect(chair.sourceLine == 6)
    }

    @Test func variantsCarryPricesStockAndBackorders() throws {
        let variants = try Fixture.read("shoppable.json").product("oak-dining-chair").variants
        #expect(variants.map(\.sku) == ["NW-ODC-NAT", "NW-ODC-BLK", nil])
        #expect(variants.map(\.barcode) == [nil, "4006381333931", nil])  // `barcode`, trimmed
        #expect(variants.map(\.optionValues) == [["Natural"], ["Black"], ["White"]])
        #expect(variants.map(\.price) == [usd(14900), usd(15900), usd(14900)])
        // A compare-at price not above the price (99.00 < 149.00) is dropped.
        #expect(variants.map(\.compareAtPrice) == [usd(17900), nil, nil])
        #expect(variants.map(\.inventory) == [
            .tracked(quantity: 12, allowsBackorder: false), .tracked(quantity: 0, allowsBackorder: true), .untracked,
        ])
    }

    @Test func handleDefaultsToTitleAndPublishedFalseHides() throws {
        let cushion = try Fixture.read("shoppable.json").product("linen-cushion-cover")
        #expect(!cushion.isPublished)
        #expect(cushion.optionNames.isEmpty)
        #expect(cushion.variants.map(\.price) == [usd(2450)])
        #expect(cushion.variants.map(\.inventory) == [.untracked])
        #expect(cushion.descriptionText == "Washable linen.")
    }

    private func catalog(_ products: String, version: Int = 1, currency: String = "USD") -> String {
        #"{"format": "shoppable-catalog", "version": \#(version), "currency": "\#(currency)", "products": [\#(products)]}"#
    }

    @Test func unsupportedVersionIsAnError() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: catalog("", version: 2), fileName: "c.json")
        }
        #expect(error?.column == "version")
        #expect(error?.message.contains("version 2") == true)
    }

    @Test func priceWithDecimalCommaIsAnErrorOnItsLine() {
        let json = catalog("""
            {"title": "Lamp",
             "variants": [
               {"price": "12,50"}]}
            """)
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: json, fileName: "c.json") }
        #expect(error?.description == "c.json:3: field “price”: “12,50” is not a price such as 12.50")
    }

    @Test func negativeStockIsAnError() {
        let json = catalog(#"{"title": "Lamp", "variants": [{"price": "10", "stock": -1}]}"#)
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: json, fileName: "c.json") }
        #expect(error?.column == "stock")
    }

    @Test func optionValuesMustMatchOptionNames() {
        let json = catalog(#"{"title": "Lamp", "options": ["Color"], "variants": [{"price": "10", "options": []}]}"#)
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: json, fileName: "c.json") }
        #expect(error?.column == "options")
    }

    @Test func duplicateHandlesAreAnError() {
        let json = catalog(#"{"title": "Lamp", "variants": [{"price": "1"}]}, {"title": "Lamp!", "variants": [{"price": "2"}]}"#)
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: json, fileName: "c.json") }
        #expect(error?.column == "handle")
        #expect(error?.message.contains("lamp") == true)
    }

    /// A file written on one line (minified) names the SKU's twin as "earlier on this line", not
    /// "line 1: … already used on line 1".
    @Test func aRepeatedSKUOnOneLineSaysSo() {
        let json = #"{"format": "shoppable-catalog", "version": 1, "currency": "USD", "products": [{"title": "Lamp", "variants": [{"price": "1", "sku": "L-1"}]}, {"title": "Desk", "variants": [{"price": "2", "sku": "l-1"}]}]}"#
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: json, fileName: "c.json") }
        #expect(error?.problem == .duplicateSKUOnTheSameLine(sku: "l-1"))
        #expect(error?.description == "c.json:1: field “sku”: SKU “l-1” is already used earlier on this line "
                + "(SKUs are compared ignoring case and spaces); give each variant its own SKU", "\(String(describing: error))")
    }

    @Test func otherCatalogCurrencyIsReadAsShopCurrencyWithAWarning() throws {
        let json = catalog(#"{"title": "Lamp", "variants": [{"price": "10"}]}"#, currency: "EUR")
        let result = try Fixture.read(text: json, fileName: "c.json", currency: .usd)
        #expect(result.products[0].variants[0].price == usd(1000))
        #expect(result.warnings.count == 1)
    }

    @Test func malformedJSONNamesTheLine() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: "{\"format\": \"shoppable-catalog\",\n\"version\": 1,\n\"products\": [}", fileName: "c.json")
        }
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix("not valid JSON") == true)
    }

    /// A product naming a field twice (`"title"` and `"\u0074itle"`) was read as its last one;
    /// it is refused at the second, as the API refuses such a body.
    @Test func aFieldNamedTwiceInAnObjectIsRefusedAtItsLine() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: catalog("{\"title\": \"Lamp\",\n\"\\u0074itle\": \"Mug\", \"variants\": [{\"price\": \"10\"}]}"),
                             fileName: "c.json")
        }
        #expect(error?.message.contains("the field “title” is named twice in one object") == true, "\(String(describing: error))")
        #expect(error?.line != nil && error?.line != 1)
    }
}
