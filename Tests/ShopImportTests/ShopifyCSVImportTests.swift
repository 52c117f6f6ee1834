import Foundation
import ShopCore
import ShopImport
import Testing

/// `shopify-2023.csv`: UTF-8 BOM, CRLF, a quoted body with CRLF, `""` and U+2028, a padded
/// handle on a continuation row, a padded SKU, an Excel-mangled SKU, a short
/// row and a row with extra empty columns, an image-only row, a draft, an unpublished product
/// and a gift card.
@Suite("Shopify product CSV")
struct ShopifyCSVImportTests {
    /// Two columns for one field are refused at the second, naming both (a fresh tester's second
    /// `Variant Price` was ignored without a word); two columns nobody reads are fine.
    @Test(arguments: [
        ("shopify.csv", "Handle,Title,Variant Price,Notes,Variant Price\nmug,Mug,1.00,a,2.00\n",
         "shopify.csv:1: column “Variant Price”: the header has two columns for this (columns 3 and 5); keep one"),
        ("shopify.csv", "Handle,Title,Notes,Variant Price,Price\nmug,Mug,a,1.00,2.00\n",
         "shopify.csv:1: column “Price”: the header has two columns for this (columns 4 and 5); keep one"),
        ("woo.csv", "Type,SKU,Name,Regular price,sku\nsimple,M1,Mug,1.00,M2\n",
         "woo.csv:1: column “sku”: the header has two columns for this (columns 2 and 5); keep one"),
    ])
    func twoColumnsForOneFieldAreRefused(file: String, csv: String, message: String) {
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: csv, fileName: file) }
        #expect(error?.description == message)
        #expect(error?.message(in: .turkish).contains("(4. ve 5. sütunlar)") == (message.contains("columns 4 and 5")))
    }

    /// A spreadsheet set to a European locale saves `;`: the file said it had no “Handle” column
    /// (or no known format), though `Handle;Title;…` was right there (a fresh tester).
    @Test(arguments: [
        ("Handle;Title;Variant Price\nmug;Mug;1,00\n", nil as CatalogFormat?, "“;”"),
        ("Handle;Title;Variant Price\nmug;Mug;1,00\n", .shopifyCSV, "“;”"),
        ("SKU;Name;Regular price\nM1;Mug;1,00\n", .wooCommerceCSV, "“;”"),
        ("Handle\tTitle\tVariant Price\nmug\tMug\t1.00\n", nil, "tabs"),
    ])
    func aCSVWithAnotherSeparatorSaysSo(csv: String, format: CatalogFormat?, separator: String) {
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: csv, fileName: "s.csv", format: format) }
        #expect(error?.description == "s.csv:1: the columns are separated by \(separator), not commas; "
            + "save the file as CSV with commas (in Excel: CSV UTF-8 (Comma delimited))")
    }

    /// A price written with another currency's sign is read as the shop currency, as before, but
    /// no longer silently (a fresh tester's `€139.00` in a USD shop): once per sign.
    @Test(arguments: [
        ("€139.00", "€149.00", Currency.usd, ["line 2: price “€139.00” is written with “€”, which is not a sign of the shop "
                                              + "currency USD; read as USD without conversion"]),
        ("$12.00", "$13.00", .usd, []),
        ("12.00", "13.00", .eur, []),
        ("€12.00", " € 1.00 ", .eur, []),
        ("$12.00", "£13.00", .eur, ["line 2: price “$12.00” is written with “$”, which is not a sign of the shop currency EUR; "
                                    + "read as EUR without conversion",
                                    "line 3: price “£13.00” is written with “£”, which is not a sign of the shop currency EUR; "
                                    + "read as EUR without conversion"]),
    ])
    func aPriceWithAnotherCurrencysSignIsReadWithAWarning(first: String, second: String, currency: Currency,
                                                            warnings: [String]) throws {
        let csv = "Handle,Title,Variant Price\na,A,\(first)\nb,B,\(second)\n"
        let read = try Fixture.read(text: csv, fileName: "p.csv", currency: currency)
        #expect(read.warnings.map(\.description) == warnings)
        #expect(read.products.first?.variants.first?.price == Money(minorUnits: 12_00, currency: currency)
                || first.contains("139"))
    }

    @Test func columnsNobodyReadsMayRepeat() throws {
        let read = try Fixture.read(text: "Handle,Title,Variant Price,Notes,Notes\nmug,Mug,1.00,a,b\n", fileName: "s.csv")
        #expect(read.products.map(\.handle) == ["mug"])
    }

    @Test func countsProductsVariantsImagesAndSkippedGiftCard() throws {
        let result = try Fixture.read("shopify-2023.csv")
        #expect(result.format == .shopifyCSV)
        #expect(result.products.map(\.handle) == ["classic-tee", "oak-stool", "winter-scarf", "linen-napkins"])
        #expect(result.products.map(\.sourceLine) == [2, 7, 10, 11])
        #expect(result.variantCount == 8)
        #expect(result.imageCount == 5)
        #expect(result.skipped == [SkippedRow(line: 13, name: "gift-card", reason: .giftCard)])
    }

    @Test func continuationRowsAddVariantsWithOptionsInventoryAndSalePrices() throws {
        let tee = try Fixture.read("shopify-2023.csv").product("classic-tee")
        #expect(tee.title == "Classic Tee")
        #expect(tee.vendor == "Threadline")
        #expect(tee.optionNames == ["Size", "Color"])
        #expect(tee.variants.map(\.optionValues) == [["S", "Black"], ["S", "White"], ["M", "Black"], ["M", "White"]])
        #expect(tee.variants.map(\.sku) == ["TEE-S-BLK", "TEE-S-WHT", "TEE-M-BLK", nil])
        #expect(tee.variants.map(\.barcode) == ["4006381333931", nil, nil, nil])  // `Variant Barcode`, trimmed
        #expect(tee.variants.map(\.price) == [usd(1900), usd(1900), usd(2100), usd(2100)])
        #expect(tee.variants.map(\.compareAtPrice) == [usd(2500), nil, nil, nil])
        #expect(tee.variants.map(\.inventory) == [
            .tracked(quantity: 10, allowsBackorder: false), .tracked(quantity: 0, allowsBackorder: true),
            .tracked(quantity: 5, allowsBackorder: false), .tracked(quantity: 3, allowsBackorder: false),
        ])
        #expect(tee.isPublished)
        #expect(tee.publishedAt == nil)
    }

    @Test func imagesFollowPositionThenVariantImages() throws {
        let tee = try Fixture.read("shopify-2023.csv").product("classic-tee")
        #expect(tee.images == [
            ProductImage(url: "https://cdn.example.com/tee-front.jpg", altText: "Tee, front"),
            ProductImage(url: "https://cdn.example.com/tee-back.jpg", altText: "Tee, back"),
            ProductImage(url: "https://cdn.example.com/tee-detail.jpg", altText: ""),
            ProductImage(url: "https://cdn.example.com/tee-m-black.jpg", altText: "M / Black"),
        ])
    }

    @Test func categoryPrefersTypeElseLastProductCategorySegment() throws {
        let result = try Fixture.read("shopify-2023.csv")
        #expect(result.products.map(\.categoryName) == ["Shirts & Tops", "Stool", "Scarf", nil])
        #expect(try result.product("classic-tee").tags == ["cotton", "basics"])
    }

    @Test func bodyHTMLIsSanitizedAndQuotedLineBreaksSurvive() throws {
        let result = try Fixture.read("shopify-2023.csv")
        let tee = try result.product("classic-tee")
        #expect(tee.descriptionHTML == "<p>Soft <strong>cotton</strong> tee.</p>")
        #expect(tee.descriptionText == "Soft cotton tee.")
        let stool = try result.product("oak-stool")
        #expect(stool.descriptionHTML
            == "<p>Hand-made, &quot;solid&quot; oak.\nSeat height 45\u{A0}cm.</p>\n<p>Line\u{2028}separator &amp; more</p>")
        #expect(stool.descriptionText == "Hand-made, \"solid\" oak.\nSeat height 45 cm.\nLine\nseparator & more")
    }

    @Test func defaultTitleMeansNoOptionsAndEmptyTrackerMeansUntracked() throws {
        let stool = try Fixture.read("shopify-2023.csv").product("oak-stool")
        #expect(stool.optionNames.isEmpty)
        #expect(stool.variants.map(\.optionValues) == [[]])
        #expect(stool.variants.map(\.inventory) == [.untracked])
        #expect(stool.variants.map(\.price) == [usd(129_900)])
    }

    @Test func excelScientificSKUIsExpandedWithAWarning() throws {
        let result = try Fixture.read("shopify-2023.csv")
        #expect(try result.product("oak-stool").variants[0].sku == "365275000000")
        #expect(result.warnings.contains { $0.line == 7 && $0.message.contains("3.65275E+11") })
    }

    @Test(.bug(id: "13")) func skuRepeatedIgnoringCaseAndSpacesIsRefusedNamingBothLines() throws {
        let data = try Fixture.data("shopify-duplicate-sku.csv")
        let error = try #require(Fixture.importError { () throws(ImportError) in
            try CatalogImporter(currency: .usd, now: Fixture.now).read(data, fileName: "shopify-duplicate-sku.csv")
        })
        #expect(error.line == 4)
        #expect(error.column == "Variant SKU")
        #expect(error.description.contains("“tee-s-blk” is already used on line 2"))
        #expect(error.description.contains("--merge-duplicate-skus"))
    }

    @Test(.bug(id: "13")) func mergeDuplicateSKUsKeepsTheSKUOnTheFirstLineWithAWarning() throws {
        let result = try CatalogImporter(currency: .usd, now: Fixture.now, mergesDuplicateSKUs: true)
            .read(try Fixture.data("shopify-duplicate-sku.csv"), fileName: "shopify-duplicate-sku.csv")
        #expect(try result.product("classic-tee").variants.map(\.sku) == ["TEE-S-BLK", "TEE-S-WHT", nil])
        let warning = try #require(result.warnings.first { $0.message.contains("tee-s-blk") })
        #expect(warning.line == 4)
        #expect(warning.message.contains("line 2") && warning.message.contains("merged"))
    }

    @Test(.bug(id: "13"), arguments: [
        ("DENY", false), ("CONTINUE", true), ("deny", false), ("Continue", true), ("TRUE", true), ("FALSE", false), ("", false),
    ])
    func continueSellingColumnReadsShopifyPolicyValues(value: String, backorders: Bool) throws {
        let csv = """
            Title,URL handle,Price,Inventory tracker,Inventory quantity,Continue selling when out of stock
            Mug,mug,10.00,shopify,0,\(value)
            """
        let result = try Fixture.read(text: csv, fileName: "mug.csv")
        #expect(try result.product("mug").variants[0].inventory == .tracked(quantity: 0, allowsBackorder: backorders))
    }

    @Test(.bug(id: "13")) func shopify2024TemplateSampleImportsWithDenyAndContinue() throws {
        let result = try Fixture.read("shopify-2024-template.csv")
        let tote = try result.product("waxed-canvas-tote")
        #expect(tote.variants.map(\.inventory) == [
            .tracked(quantity: 5, allowsBackorder: false), .tracked(quantity: 0, allowsBackorder: true),
        ])
        #expect(tote.isPublished)
    }

    @Test func aContinueSellingValueThatIsNoPolicyNamesLineAndColumn() {
        let csv = """
            Title,URL handle,Price,Inventory tracker,Inventory quantity,Continue selling when out of stock
            Mug,mug,10.00,shopify,0,maybe
            """
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: csv, fileName: "mug.csv") }
        #expect(error?.description == "mug.csv:2: column “Continue selling when out of stock”: “maybe” is not an "
            + "inventory policy (DENY or CONTINUE; TRUE or FALSE also accepted)")
    }

    @Test func draftStatusAndPublishedFalseImportHidden() throws {
        let result = try Fixture.read("shopify-2023.csv")
        let scarf = try result.product("winter-scarf")
        #expect(!scarf.isPublished)
        #expect(scarf.variants[0].compareAtPrice == nil) // 12 is not above 15
        #expect(scarf.variants[0].inventory == .tracked(quantity: 4, allowsBackorder: false))
        let napkins = try result.product("linen-napkins")
        #expect(!napkins.isPublished)
        #expect(napkins.optionNames == ["Pack"])
        #expect(napkins.variants.map(\.optionValues) == [["4-pack"], ["8-pack"]])
        #expect(napkins.variants.map(\.sku) == [nil, nil])
    }

    @Test func renamed2024HeadersMeanTheSame() throws {
        let result = try Fixture.read("shopify-2024.csv")
        #expect(result.format == .shopifyCSV)
        #expect(result.products.map(\.handle) == ["ceramic-mug", "desk-lamp"])
        #expect(result.variantCount == 3)
        #expect(result.imageCount == 2)
        let mug = try result.product("ceramic-mug")
        #expect(mug.categoryName == "Mugs")
        #expect(mug.optionNames == ["Color"])
        #expect(mug.variants.map(\.sku) == ["MUG-SAND", "MUG-SLATE"])
        #expect(mug.variants.map(\.barcode) == ["0012345678905", nil])  // `Barcode`; leading zeros kept
        #expect(mug.variants.map(\.compareAtPrice) == [nil, usd(1800)])
        #expect(mug.variants.map(\.inventory) == [
            .tracked(quantity: 12, allowsBackorder: false), .tracked(quantity: 0, allowsBackorder: true),
        ])
        #expect(mug.isPublished)
        let lamp = try result.product("desk-lamp")
        #expect(!lamp.isPublished)
        #expect(lamp.optionNames.isEmpty)
        #expect(lamp.categoryName == "Lighting")
        #expect(lamp.variants.map(\.price) == [usd(8900)])
        #expect(lamp.variants.map(\.inventory) == [.untracked])
    }

    @Test func badPriceNamesFilePhysicalLineAndColumn() throws {
        let data = try Fixture.data("shopify-bad-price.csv")
        let error = Fixture.importError { () throws(ImportError) in
            try CatalogImporter(currency: .usd).read(data, fileName: "shopify-bad-price.csv")
        }
        #expect(error?.line == 5)
        #expect(error?.column == "Variant Price")
        #expect(error?.columnIndex == 6)
        #expect(error?.description == "shopify-bad-price.csv:5: column “Variant Price”: “abc” is not a price such as 12.50")
    }

    @Test func newHandleWithoutTitleIsAnError() throws {
        let data = try Fixture.data("shopify-missing-title.csv")
        let error = Fixture.importError { () throws(ImportError) in
            try CatalogImporter(currency: .usd).read(data, fileName: "shopify-missing-title.csv")
        }
        #expect(error?.line == 3)
        #expect(error?.column == "Title")
    }

    private let header = "Handle,Title,Option1 Name,Option1 Value,Variant Price,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy\n"

    @Test func negativeStockWithoutBackordersIsAnError() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: header + "cup,Cup,Title,Default Title,5,shopify,-2,deny\n", fileName: "s.csv")
        }
        #expect(error?.column == "Variant Inventory Qty")
        #expect(error?.line == 2)
    }

    @Test func oversoldStockWithBackordersImportsAsZeroWithAWarning() throws {
        let result = try Fixture.read(text: header + "cup,Cup,Title,Default Title,5,shopify,-2,continue\n", fileName: "s.csv")
        #expect(result.products[0].variants[0].inventory == .tracked(quantity: 0, allowsBackorder: true))
        #expect(result.warnings.count == 1)
    }

    /// Without a policy column each variant keeps its stored backorders, unknown to the reader:
    /// a negative quantity is 0 with a warning saying so, not refused.
    @Test func aNegativeQuantityInASheetWithoutAPolicyColumnIsZeroWithAWarning() throws {
        let result = try Fixture.read(text: "Handle,Title,Variant SKU,Variant Price,Variant Inventory Qty\ncup,Cup,C-1,5,-2\n",
                                      fileName: "s.csv")
        #expect(result.products[0].variants[0].inventory == .tracked(quantity: 0, allowsBackorder: false))
        #expect(result.warnings.map(\.caveat) == [.oversoldPolicyKept(quantity: -2)])
    }

    /// A sheet without option columns gives a product's rows as variants named by SKU, for the
    /// store to match (`ProductDraft.Fields.options`); a row among several without a SKU is
    /// refused at its line (a tester's stock sheet was refused as "one variant only").
    @Test func aSheetWithoutOptionColumnsNamesVariantsBySKU() throws {
        let header = "Handle,Title,Variant SKU,Variant Price,Variant Inventory Qty\n"
        let result = try Fixture.read(text: header + "tee,Tee,TEE-S,10,4\ntee,,TEE-L,12,0\n", fileName: "s.csv")
        #expect(result.products[0].variants.map(\.sku) == ["TEE-S", "TEE-L"])
        #expect(result.products[0].uncarried.contains(.options) && result.products[0].optionNames.isEmpty)
        let withOptions = try Fixture.read(text: "Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price\ntee,Tee,Size,S,TEE-S,10\n",
                                           fileName: "s.csv")
        #expect(!withOptions.products[0].uncarried.contains(.options))
        for (text, line) in [(header + "tee,Tee,TEE-S,10,4\ntee,,,12,0\n", 3), (header + "tee,Tee,,10,4\ntee,,TEE-L,12,0\n", 2)] {
            let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: text, fileName: "s.csv") }
            #expect(error?.description == "s.csv:\(line): column “Variant SKU”: the file has no option columns, so each of a "
                + "product's variants is named by its Variant SKU; give this row and the product's first row one")
        }
    }

    @Test func repeatedOptionCombinationIsAnError() {
        let text = header + "cup,Cup,Size,S,5,,,\ncup,,,S,6,,,\n"
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: text, fileName: "s.csv") }
        #expect(error?.line == 3)
        #expect(error?.message.contains("line 2") == true)
    }

    @Test func variantWithoutOptionValueIsAnError() {
        let text = header + "cup,Cup,Size,S,5,,,\ncup,,,,6,,,\n"
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: text, fileName: "s.csv") }
        #expect(error?.column == "Option1 Value")
    }

    @Test func variantsWithoutSKUAreIdentifiedByOptions() throws {
        let result = try Fixture.read(text: header + "cup,Cup,Size,S,5,,,\n cup ,,,M,6,,,\n", fileName: "s.csv")
        #expect(result.products.count == 1)
        #expect(result.products[0].variants.map(\.sku) == [nil, nil])
        #expect(result.products[0].variants.map(\.optionValues) == [["S"], ["M"]])
    }

    @Test func excelScientificPriceParsesExactly() throws {
        let result = try Fixture.read(text: header + "sofa,Sofa,Title,Default Title,1.2E+3,,,\n", fileName: "s.csv")
        #expect(result.products[0].variants[0].price == usd(120_000))
    }

    @Test func extraNonEmptyFieldsAreAnError() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: header + "cup,Cup,Title,Default Title,5,,,,surprise\n", fileName: "s.csv")
        }
        #expect(error?.columnIndex == 9)
    }
}
