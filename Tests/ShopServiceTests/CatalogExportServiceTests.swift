import Foundation
import ShopCore
import ShopImport
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Testing

/// A shop on a private SQLite `:memory:` database, with the import and export use cases.
private final class ExportShop {
    let database: SQLiteDatabase
    let catalog: CatalogStore
    let importer: CatalogImportService
    let exporter: CatalogExportService

    init(currency: Currency = .usd) throws {
        database = try SQLiteDatabase.open(path: ":memory:", poolSize: 1)
        catalog = .sqlite(database, currency: currency)
        importer = CatalogImportService(catalog: catalog, media: .directory(URL(fileURLWithPath: "/nonexistent")),
                                        currency: currency, now: { Date(timeIntervalSince1970: 1_750_000_000) })
        exporter = CatalogExportService(catalog: catalog, currency: currency)
    }

    deinit { database.close() }

    func importFile(_ data: Data, _ format: CatalogFormat, dryRun: Bool = false) throws -> CatalogImportReport {
        try importer.importCatalog(data, fileName: "export", format: format, options: .init(dryRun: dryRun))
    }
}

/// Export → import → export (issue #13, point 3), for every format, on SQLite.
@Suite("Catalog export")
struct CatalogExportServiceTests {
    /// A catalog with what merchants' files hold: options, sale prices, every kind of stock,
    /// unpublished products, images with alt text, tags and texts that need quoting.
    static let catalog: [ProductDraft] = [
        ProductDraft(
            handle: "waxed-canvas-tote", title: "Waxed Canvas Tote, \"Large\"",
            descriptionHTML: "<p>Made in <strong>Portugal</strong> &amp; waxed by hand.</p>\n<p>=1+1</p>",
            descriptionText: "Made in Portugal & waxed by hand.\n=1+1", vendor: "Tasche & Co",
            productType: "", categoryName: "Bags", tags: ["canvas", "gift, idea", "çanta 👜"],
            publishedAt: Date(timeIntervalSince1970: 1_700_000_000), isPublished: true,
            images: [ProductImage(url: "https://cdn.example.com/tote.jpg", altText: "Tote, front"),
                     ProductImage(url: "https://cdn.example.com/tote-olive.jpg", altText: "Olive")],
            rating: Rating(rateHundredths: 460, count: 12), optionNames: ["Color", "Size"],
            variants: [
                VariantDraft(sku: "WCT-NAT-S", optionValues: ["Natural", "Small"], price: .usd(58_00),
                             compareAtPrice: .usd(72_00), inventory: .tracked(quantity: 4, allowsBackorder: false)),
                VariantDraft(sku: "WCT-NAT-L", optionValues: ["Natural", "Large"], price: .usd(64_00), inventory: .untracked),
                VariantDraft(sku: nil, optionValues: ["Olive", "Large"], price: .usd(64_00),
                             inventory: .tracked(quantity: 0, allowsBackorder: true)),
            ]),
        ProductDraft(
            handle: "beeswax-leather-balm", title: "Beeswax Leather Balm", descriptionHTML: "<p>Balm</p>",
            descriptionText: "Balm", vendor: "", productType: "Care", categoryName: "Care", tags: [],
            isPublished: true, images: [], optionNames: [],
            variants: [VariantDraft(sku: "BALM", price: .usd(14_50), inventory: .tracked(quantity: 0, allowsBackorder: false))]),
        ProductDraft(
            handle: "winter-sample-tote", title: "Winter Sample Tote", isPublished: false,
            images: [ProductImage(url: "https://cdn.example.com/winter.jpg", altText: "")],
            variants: [VariantDraft(sku: "WINTER", price: .usd(0), inventory: .untracked)]),
    ]

    @Test(arguments: CatalogWriter.formats)
    func exportImportExportGivesTheSameBytes(format: CatalogFormat) throws {
        let shop = try ExportShop()
        _ = try shop.catalog.upsert(Self.catalog)
        let first = try shop.exporter.export(as: format)

        let empty = try ExportShop()
        let imported = try empty.importFile(first, format)
        #expect(imported.changes?.productsCreated == Self.catalog.count)
        #expect(imported.warnings.isEmpty && imported.skipped.isEmpty)
        let second = try empty.exporter.export(as: format)
        #expect(String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self))

        let again = try empty.importFile(first, format)
        #expect(again.changes?.productsCreated == 0 && again.changes?.productsUpdated == 0)
        #expect(again.changes?.variantsCreated == 0 && again.changes?.variantsUpdated == 0)
        #expect(again.changes?.productsUnchanged == Self.catalog.count)
        #expect(try empty.exporter.export(as: format) == first)
    }

    @Test func aShoppableJSONExportCarriesEverythingBackIntoTheSameShop() throws {
        let shop = try ExportShop()
        _ = try shop.catalog.upsert(Self.catalog)
        let before = try shop.catalog.allProducts()
        let version = try shop.catalog.version()

        let report = try shop.importFile(try shop.exporter.export(as: .shoppableJSON), .shoppableJSON)
        #expect(report.changes?.productsCreated == 0 && report.changes?.productsUpdated == 0)
        #expect(try shop.catalog.allProducts() == before)
        #expect(try shop.catalog.version() == version)  // nothing written at all
    }

    /// The demo catalog (54 products with types, categories, ratings and publication dates).
    static func demoCatalog() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/shoppable/DemoCatalog/catalog.json"))
    }

    /// Export → import into the same shop: the fields a CSV format does not carry (publication
    /// date, rating, a category beside the type; WooCommerce's vendor, type and alt texts) keep
    /// the stored values, so nothing changes — and a price edited in the file changes the price only.
    @Test(.bug("tester: a Shopify CSV round trip erased ratings and publication dates and moved categories"),
          arguments: [CatalogFormat.shopifyCSV, .wooCommerceCSV])
    func importingACSVExportIntoTheShopItCameFromChangesNothing(format: CatalogFormat) throws {
        let shop = try ExportShop()
        let demo = try shop.importFile(try Self.demoCatalog(), .shoppableJSON)
        #expect(demo.changes?.productsCreated == 54)
        let before = try shop.catalog.allProducts()
        #expect(before.contains { $0.product.handle == "oak-dining-chair" && $0.categoryName == "Chairs" })
        let version = try shop.catalog.version()
        let export = try shop.exporter.export(as: format)

        let report = try shop.importFile(export, format)
        #expect(report.changes?.productsCreated == 0 && report.changes?.productsUpdated == 0)
        #expect(report.changes?.productsUnchanged == 54)
        #expect(try shop.catalog.allProducts() == before)
        #expect(try shop.catalog.version() == version)

        // Prices edited in a spreadsheet: that product's price changes, nothing else of it.
        var drafts = before.map { ProductDraft($0.product, categoryName: $0.categoryName) }
        let index = try #require(drafts.firstIndex { $0.handle == "oak-dining-chair" })
        drafts[index].variants[0].price = .usd(123_00)
        let edited = try shop.importFile(try CatalogWriter(currency: .usd).write(drafts, as: format), format)
        #expect(edited.changes?.productsUpdated == 1 && edited.changes?.productsUnchanged == 53)
        let after = try #require(try shop.catalog.allProducts().first { $0.product.handle == "oak-dining-chair" })
        var expected = before[index]
        expected.product.variants[0].price = .usd(123_00)
        #expect(after == expected)
        #expect(after.categoryName == "Chairs" && after.product.rating != nil && after.product.publishedAt != nil)
    }

    /// Two products of one name without SKUs, exported to WooCommerce and the rows sorted in a
    /// spreadsheet (the second first): each keeps the handle its `ID` gave it unsorted, so the
    /// import changes nothing — before, the first row took the bare handle, the second product's
    /// price and description overwrote the first's and a duplicate was made (a fresh tester).
    @Test(.bug("tester: a sorted WooCommerce export overwrote a same-name product"))
    func aSortedWooCommerceExportMatchesSameNameProductsByTheirIDs() throws {
        let shop = try ExportShop()
        func sofa(_ price: Int64, _ text: String) -> ProductDraft {
            ProductDraft(handle: "plain-sofa", title: "Plain Sofa", descriptionHTML: "<p>\(text)</p>", descriptionText: text,
                         isPublished: true, variants: [VariantDraft(sku: nil, price: .usd(price), inventory: .untracked)])
        }
        let unsorted = try CatalogWriter(currency: .usd).write([sofa(100_00, "Linen"), sofa(200_00, "Velvet")], as: .wooCommerceCSV)
        let first = try shop.importFile(unsorted, .wooCommerceCSV)
        #expect(first.changes?.productsCreated == 2)
        let stored = try shop.catalog.allProducts()
        #expect(stored.map(\.product.handle) == ["plain-sofa", "plain-sofa-2"])

        var lines = String(decoding: unsorted, as: UTF8.self).components(separatedBy: "\r\n")
        try #require(lines.count == 4 && lines[3].isEmpty, "a header and one line per product")
        lines.swapAt(1, 2)
        let sorted = try shop.importFile(Data(lines.joined(separator: "\r\n").utf8), .wooCommerceCSV)
        #expect(sorted.changes?.productsCreated == 0 && sorted.changes?.productsUpdated == 0)
        #expect(try shop.catalog.allProducts() == stored)
    }

    /// A shop loaded from a WooCommerce file whose same-name products took `-<ID>` handles of
    /// that file's IDs: its own export names them back, sorted or not, so importing it changes
    /// nothing (a fresh tester's export overwrote the first sofa with the second's data).
    @Test(.bug("tester: a shop's own WooCommerce export overwrote a same-name product"), arguments: [false, true])
    func aWooCommerceExportKeepsSameNameProductsHandles(sorted: Bool) throws {
        let shop = try ExportShop()
        let original = """
            ID,Type,SKU,Name,Stock,Regular price,Description
            20,simple,,Plain Sofa,3,200,Second sofa
            9,simple,,Plain Sofa,5,100,First sofa
            10,simple,,Plain Sofa,7,300,Third sofa
            15,simple,,Oak Chair,1,50,Chair

            """
        _ = try shop.importFile(Data(original.utf8), .wooCommerceCSV)
        let stored = try shop.catalog.allProducts()
        #expect(Set(stored.map(\.product.handle)) == ["plain-sofa-20", "plain-sofa", "plain-sofa-10", "oak-chair"])

        var export = try shop.exporter.export(as: .wooCommerceCSV)
        if sorted {
            var lines = String(decoding: export, as: UTF8.self).components(separatedBy: "\r\n")
            let header = lines.removeFirst()
            lines = lines.filter { !$0.isEmpty }.reversed()
            export = Data(([header] + lines + [""]).joined(separator: "\r\n").utf8)
        }
        let report = try shop.importFile(export, .wooCommerceCSV)
        #expect(report.changes?.productsCreated == 0 && report.changes?.productsUpdated == 0)
        #expect(try shop.catalog.allProducts() == stored)
    }

    @Test func allProductsListsPublishedAndUnpublishedByID() throws {
        let shop = try ExportShop()
        _ = try shop.catalog.upsert(Self.catalog.reversed())
        let stored = try shop.catalog.allProducts()
        #expect(stored.map(\.product.handle) == Self.catalog.reversed().map(\.handle))
        #expect(stored.map(\.product.isPublished) == [false, true, true])
        #expect(stored.last?.categoryName == "Bags" && stored.last?.product.variants.count == 3)
        #expect(stored.last?.product.images.map(\.altText) == ["Tote, front", "Olive"])
    }

    @Test func aDryRunTellsPerProductWhatWouldBeCreatedUpdatedAndLeftAlone() throws {
        let shop = try ExportShop()
        _ = try shop.catalog.upsert(Array(Self.catalog.prefix(2)))
        let version = try shop.catalog.version()

        var file = Self.catalog
        file[1].variants[0].price = .usd(15_00)
        let data = try CatalogWriter(currency: .usd).write(file, as: .shoppableJSON)
        let report = try shop.importFile(data, .shoppableJSON, dryRun: true)

        #expect(report.isDryRun && report.changes == nil)
        let preview = try #require(report.preview)
        #expect(preview.products == [
            .init(handle: "waxed-canvas-tote", change: .unchanged),
            .init(handle: "beeswax-leather-balm", change: .updated),
            .init(handle: "winter-sample-tote", change: .created),
        ])
        #expect((preview.productsCreated, preview.productsUpdated, preview.productsUnchanged) == (1, 1, 1))
        #expect(preview.variantsUpdated == 1)
        #expect(try shop.catalog.productCount() == 2)  // rolled back
        #expect(try shop.catalog.version() == version)
        #expect(try shop.catalog.allProducts()[1].product.variants[0].price == .usd(14_50))
    }
}
