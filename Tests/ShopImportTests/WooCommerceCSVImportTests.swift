import Foundation
import ShopCore
import ShopImport
import Testing

@Suite("WooCommerce product CSV")
struct WooCommerceCSVImportTests {
    @Test func importsSimpleVirtualDownloadableAndVariableProducts() throws {
        let result = try Fixture.read("woocommerce.csv")
        #expect(result.format == .wooCommerceCSV)
        #expect(result.products.map(\.title)
            == ["Canvas Tote", "Styling Session", "Knitting Pattern PDF", "Hoodie", "Canvas Tote", "Enamel Pin", "Wool Socks"])
        #expect(result.products.map(\.handle) == [
            "canvas-tote", "styling-session", "knitting-pattern-pdf", "hoodie", "canvas-tote-112", "enamel-pin", "wool-socks",
        ])
        #expect(result.variantCount == 9)
        #expect(result.imageCount == 4)
    }

    @Test func skipsGroupedExternalPricelessAndDisabledRecordsWithReasons() throws {
        let result = try Fixture.read("woocommerce.csv")
        #expect(result.skipped.map(\.line).sorted() == [9, 10, 11, 14])
        let reasons = Dictionary(uniqueKeysWithValues: result.skipped.map { ($0.line, $0.reason.description) })
        #expect(reasons[10] == "grouped product: its children are imported on their own")
        #expect(reasons[11] == "external/affiliate product: sold on another site")
        #expect(reasons[9]?.contains("disabled variation") == true)
        #expect(reasons[14]?.contains("no price") == true)
    }

    @Test func salePriceIsThePriceAndRegularTheCompareAt() throws {
        let tote = try Fixture.read("woocommerce.csv").product("canvas-tote")
        #expect(tote.variants.map(\.price) == [usd(1800)])
        #expect(tote.variants.map(\.compareAtPrice) == [usd(2400)])
        #expect(tote.variants.map(\.inventory) == [.untracked])
        #expect(tote.categoryName == "Bags")
        #expect(tote.tags == ["canvas", "eco"])
        #expect(tote.images.map(\.url) == ["https://shop.example.com/tote.jpg", "https://shop.example.com/tote-2.jpg"])
        #expect(tote.descriptionHTML == "<p>A sturdy tote.</p>\n<p>Holds <em>everything</em>.</p>")
        #expect(tote.descriptionText == "A sturdy tote.\nHolds everything.")
    }

    @Test func variationsBecomeVariantsOfTheirParent() throws {
        let hoodie = try Fixture.read("woocommerce.csv").product("hoodie")
        #expect(hoodie.optionNames == ["Color", "Size"])
        #expect(hoodie.categoryName == "Hoodies")
        #expect(hoodie.variants.map(\.optionValues) == [["Blue", "S"], ["Blue", "M"], ["Red", ""]])
        #expect(hoodie.variants.map(\.optionChoices) == [[], [], [[], ["S", "M"]]])
        #expect(hoodie.variants.map(\.sku) == ["HOOD-BLU-S", "HOOD-BLU-M", "HOOD-RED"])
        #expect(hoodie.variants.map(\.price) == [usd(4500), usd(3900), usd(4700)])
        #expect(hoodie.variants.map(\.compareAtPrice) == [nil, usd(4500), nil])
        #expect(hoodie.variants.map(\.inventory) == [
            .tracked(quantity: 3, allowsBackorder: false), .tracked(quantity: 0, allowsBackorder: true), .untracked,
        ])
        #expect(hoodie.images.map(\.url) == ["https://shop.example.com/hoodie.jpg", "https://shop.example.com/hoodie-blue.jpg"])
    }

    @Test(.bug(id: "13"))
    func anyVariationIsOneVariantKeepingItsSKUAndStock() throws {
        let result = try Fixture.read("woocommerce-any.csv")
        let tee = try result.product("plain-tee")
        #expect(tee.optionNames == ["Size"])
        #expect(tee.variants.count == 1)
        #expect(tee.variants[0].sku == "TEE-ANY")
        #expect(tee.variants[0].optionValues == [""])
        #expect(tee.variants[0].optionChoices == [["S", "M", "L"]])
        #expect(tee.variants[0].inventory == .tracked(quantity: 5, allowsBackorder: false))
        #expect(result.variantCount == 1)
        #expect(result.warnings.isEmpty && result.skipped.isEmpty)
    }

    @Test(.bug(id: "13"))
    func anAnyVariationOffersTheValuesNoOtherVariationSells() throws {
        let csv = """
            ID,Type,SKU,Name,Stock,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)
            1,variable,MUG,Mug,,,,Size,"S, M, L"
            2,variation,MUG-S,Mug S,2,9,id:1,Size,S
            3,variation,MUG-ANY,Mug any,7,8,id:1,Size,
            """
        let mug = try Fixture.read(text: csv, fileName: "woo.csv").product("mug")
        #expect(mug.variants.map(\.sku) == ["MUG-S", "MUG-ANY"])
        #expect(mug.variants.map(\.optionChoices) == [[], [["M", "L"]]])
        #expect(mug.variants.map(\.inventory) == [.tracked(quantity: 2, allowsBackorder: false),
                                                   .tracked(quantity: 7, allowsBackorder: false)])
    }

    @Test(.bug(id: "13"))
    func twoAnyVariationsLeavingTheSameOptionsOpenAreRefused() {
        let csv = """
            ID,Type,SKU,Name,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)
            1,variable,MUG,Mug,,,Size,"S, M"
            2,variation,MUG-A,Mug any,9,id:1,Size,
            3,variation,MUG-B,Mug any again,9,id:1,Size,
            """
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: csv, fileName: "woo.csv") }
        #expect(error?.line == 4)
        #expect(error?.message.contains("line 3 already leaves the same options open") == true)
    }

    @Test func publishedZeroOrMinusOneImportsHidden() throws {
        let result = try Fixture.read("woocommerce.csv")
        #expect(result.products.map(\.isPublished) == [true, true, true, true, false, false, true])
    }

    @Test func stockColumnsMapToInventory() throws {
        let result = try Fixture.read("woocommerce.csv")
        #expect(try result.product("canvas-tote-112").variants[0].inventory == .tracked(quantity: 0, allowsBackorder: false))
        #expect(try result.product("enamel-pin").variants[0].inventory == .tracked(quantity: 25, allowsBackorder: false))
        #expect(try result.product("styling-session").variants[0].inventory == .untracked)
        let socks = try result.product("wool-socks")
        #expect(socks.variants[0].inventory == .tracked(quantity: 0, allowsBackorder: true))
        #expect(result.warnings.contains { $0.line == 15 && $0.message.contains("-2") })
    }

    @Test func scheduledSaleThatHasNotStartedUsesRegularPrice() throws {
        let result = try Fixture.read("woocommerce.csv")
        let socks = try result.product("wool-socks")
        #expect(socks.variants[0].price == usd(1200))
        #expect(socks.variants[0].compareAtPrice == nil)
        #expect(result.warnings.contains { $0.line == 15 && $0.message.contains("starts later") })
    }

    @Test func scientificSKUsAreWarned() throws {
        let result = try Fixture.read("woocommerce.csv")
        #expect(try result.product("canvas-tote-112").variants[0].sku == "TOTE-02")
        #expect(try result.product("enamel-pin").variants[0].sku == "4006010000000")
        #expect(result.warnings.contains { $0.line == 13 && $0.message.contains("4.00601E+12") })
        #expect(result.warnings.contains { $0.line == 12 && $0.message.contains("canvas-tote-112") })
        #expect(result.warnings.count == 4)
    }

    @Test(.bug(id: "13")) func aSKUOfAnEarlierRowIsRefusedNamingBothLines() {
        let csv = """
            ID,Type,SKU,Name,Regular price
            1,simple,TOTE-01,Canvas Tote,24
            2,simple,Tote-01 ,Canvas Tote Large,28
            """
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: csv, fileName: "woo.csv") }
        #expect(error?.line == 3)
        #expect(error?.column == "SKU")
        #expect(error?.message.contains("is already used on line 2") == true)
    }

    @Test(.bug("issue #13", "barcode search: the barcode column")) func gtinColumnIsTheVariantsBarcode() throws {
        let csv = """
            ID,Type,SKU,"GTIN, UPC, EAN, or ISBN",Name,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)
            1,simple,TOTE-01, 4006381333931 ,Canvas Tote,24,,,
            2,variable,MUG,,Mug,,,Size,"S, L"
            3,variation,MUG-S,0012345678905,Mug S,9,id:2,Size,S
            4,variation,MUG-L,,Mug L,9,id:2,Size,L
            """
        let result = try Fixture.read(text: csv, fileName: "woo.csv")
        #expect(try result.product("canvas-tote").variants.map(\.barcode) == ["4006381333931"])
        #expect(try result.product("mug").variants.map(\.barcode) == ["0012345678905", nil])
    }

    @Test(.bug(id: "13")) func visibilityInCatalogIsRead() throws {
        let result = try Fixture.read("woocommerce.csv")
        #expect(try result.product("canvas-tote").visibility == .visible)
        #expect(try result.product("enamel-pin").visibility == .hidden)
        #expect(try result.product("styling-session").visibility == .catalog)
        #expect(try result.product("wool-socks").visibility == .search)
    }

    @Test func anUnknownVisibilityNamesLineAndColumn() {
        let csv = """
            ID,Type,SKU,Name,Regular price,Visibility in catalog
            1,simple,TOTE-01,Canvas Tote,24,secret
            """
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: csv, fileName: "woo.csv") }
        #expect(error?.description == "woo.csv:2: column “Visibility in catalog”: “secret” is not a catalog visibility "
            + "(visible, catalog, search or hidden)")
    }

    @Test func negativeStockWithoutBackordersNamesThePhysicalLine() throws {
        let data = try Fixture.data("woocommerce-negative-stock.csv")
        let error = Fixture.importError { () throws(ImportError) in
            try CatalogImporter(currency: .usd).read(data, fileName: "woocommerce-negative-stock.csv")
        }
        #expect(error?.line == 3)
        #expect(error?.column == "Stock")
        #expect(error?.columnIndex == 7)
    }

    private let header = "ID,Type,SKU,Name,Published,In stock?,Stock,Backorders allowed?,Sale price,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)\n"

    @Test func variationWithUnknownParentIsAnError() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: header + "5,variation,V1,V,1,1,,0,,10,id:99,Size,S\n", fileName: "w.csv")
        }
        #expect(error?.column == "Parent")
        #expect(error?.line == 2)
    }

    @Test func unparseablePriceIsAnError() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: header + "5,simple,S1,Mug,1,1,,0,,ten,,,\n", fileName: "w.csv")
        }
        #expect(error?.description == "w.csv:2: column “Regular price”: “ten” is not a price such as 12.50")
    }

    @Test func escapedCommasInListsAndParentBySKU() throws {
        let text = header
            + "1,variable,MUG,Mug,1,1,,0,,,,Size,\"Small\\, 250 ml, Large\"\n"
            + "2,variation,,Mug small,1,1,4,1,,9,MUG,Size,\"Small\\, 250 ml\"\n"
        let result = try Fixture.read(text: text, fileName: "w.csv")
        #expect(result.products.map(\.variants.count) == [1])
        #expect(result.products[0].variants[0].optionValues == ["Small, 250 ml"])
        #expect(result.products[0].variants[0].inventory == .tracked(quantity: 4, allowsBackorder: true))
    }

    @Test func missingNameIsAnError() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: header + "5,simple,S1,,1,1,,0,,10,,,\n", fileName: "w.csv")
        }
        #expect(error?.column == "Name")
    }
}
