import Foundation
import ShopCore
@testable import ShopImport
import Testing

/// Issue #8, point 4: every imported text field has a length limit, refused with an error naming
/// the line and column; and no step of reading a file takes time growing with the square of a
/// field's length.
@Suite("Import limits and long fields", .bug(id: 8))
struct ImportLimitsTests {
    struct OverLong: Sendable, CustomTestStringConvertible {
        var file: String
        var name: String
        /// The start of the error's description: `file:line: column “…”: `.
        var place: String
        var bytes: Int
        var limit: TextLimit
        var testDescription: String { place + limit.rawValue }
    }

    static let shopifyHeader = "Handle,Title,Variant Price,Type,Tags,Product Category,Body (HTML),Variant SKU,Image Src"

    /// A Shopify file whose second product (line 3) has `value` in `column` (0-based in
    /// `shopifyHeader`).
    static func shopify(_ column: Int, _ value: String) -> String {
        var fields = ["lamp", "Lamp", "20.00", "", "", "", "", "", ""]
        fields[column] = "\"\(value)\""
        return shopifyHeader + "\nchair,Chair,10.00,,,,,,\n" + fields.joined(separator: ",") + "\n"
    }

    static let a1001 = String(repeating: "a", count: 1_001)
    static let x256 = String(repeating: "x", count: 256)

    static let overLong: [OverLong] = [
        OverLong(file: shopify(1, a1001), name: "s.csv", place: "s.csv:3: column “Title”: ", bytes: 1_001, limit: .title),
        // The issue's category: 640 000 × "é", refused at once instead of folded for 17 s.
        OverLong(file: shopify(3, String(repeating: "é", count: 640_000)), name: "s.csv", place: "s.csv:3: column “Type”: ",
                 bytes: 1_280_000, limit: .name),
        OverLong(file: shopify(5, "Home > " + x256), name: "s.csv", place: "s.csv:3: column “Product Category”: ",
                 bytes: 256, limit: .name),
        OverLong(file: shopify(4, "ok, " + x256 + ", fine"), name: "s.csv", place: "s.csv:3: column “Tags”: ",
                 bytes: 256, limit: .tag),
        OverLong(file: shopify(6, String(repeating: "<p>çok güzel</p>", count: 15_000)), name: "s.csv",
                 place: "s.csv:3: column “Body (HTML)”: ", bytes: 270_000, limit: .description),
        OverLong(file: shopify(0, x256), name: "s.csv", place: "s.csv:3: column “Handle”: ", bytes: 256, limit: .handle),
        OverLong(file: shopify(7, x256), name: "s.csv", place: "s.csv:3: column “Variant SKU”: ", bytes: 256, limit: .sku),
        OverLong(file: shopify(8, "https://cdn.example.com/" + String(repeating: "p", count: 2_025)), name: "s.csv",
                 place: "s.csv:3: column “Image Src”: ", bytes: 2_049, limit: .imageURL),
        OverLong(file: "Name,Regular price\nMug,5\n\(a1001),6\n", name: "w.csv", place: "w.csv:3: column “Name”: ",
                 bytes: 1_001, limit: .title),
        OverLong(file: "Name,Regular price,Images\nMug,5,\"a.jpg, https://cdn.example.com/\(String(repeating: "p", count: 2_025))\"\n",
                 name: "w.csv", place: "w.csv:2: column “Images”: ", bytes: 2_049, limit: .imageURL),
        OverLong(file: "Name,Regular price,Categories\nMug,5,\"Kitchen > \(x256), Sale\"\n", name: "w.csv",
                 place: "w.csv:2: column “Categories”: ", bytes: 256, limit: .name),
        OverLong(file: "ID,Type,Name,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)\n"
                    + "1,variable,Tee,,,Size,\"S, \(x256)\"\n2,variation,Tee S,10,id:1,Size,S\n",
                 name: "w.csv", place: "w.csv:2: column “Attribute 1 value(s)”: ", bytes: 256, limit: .name),
        OverLong(file: "[{\"title\": \"Mug\", \"price\": 5},\n {\"title\": \"\(a1001)\", \"price\": 6}]", name: "f.json",
                 place: "f.json:2: field “title”: ", bytes: 1_001, limit: .title),
        OverLong(file: "{\"products\": [{\"name\": \"Chair\", \"price\": {\"value\": 10},\n \"info\": {\"color\": \"\(x256)\"}}]}",
                 name: "seed.json", place: "seed.json:2: field “color”: ", bytes: 256, limit: .name),
        OverLong(file: "{\"format\": \"shoppable-catalog\", \"version\": 1, \"products\": [{\"title\": \"Mug\",\n"
                    + "\"tags\": [\"ok\",\n \"\(x256)\"], \"variants\": [{\"price\": \"5\"}]}]}",
                 name: "c.json", place: "c.json:3: field “tags”: ", bytes: 256, limit: .tag),
        OverLong(file: "{\"format\": \"shoppable-catalog\", \"version\": 1, \"products\": [{\"title\": \"Mug\",\n"
                    + "\"variants\": [{\"price\": \"5\",\n \"sku\": \"\(x256)\"}]}]}",
                 name: "c.json", place: "c.json:3: field “sku”: ", bytes: 256, limit: .sku),
        OverLong(file: "{\"format\": \"shoppable-catalog\", \"version\": 1, \"products\": [{\"title\": \"Mug\",\n"
                    + "\"description\": \"\(String(repeating: "é", count: 131_073))\", \"variants\": [{\"price\": \"5\"}]}]}",
                 name: "c.json", place: "c.json:2: field “description”: ", bytes: 262_146, limit: .description),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: overLong)
    func overLongFieldsAreRefusedNamingLineAndColumn(_ case: OverLong) {
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: `case`.file, fileName: `case`.name) }
        let message = "the text is \(`case`.bytes) bytes long; \(`case`.limit.label) may have at most "
            + "\(`case`.limit.maximumBytes) bytes (UTF-8)"
        #expect(error?.description == `case`.place + message)
    }

    @Test func fieldsAtTheLimitAreImported() throws {
        let title = String(repeating: "a", count: 1_000)
        let type = String(repeating: "é", count: 127) + "a"  // 255 bytes
        let body = "<p>" + String(repeating: "b", count: 262_144 - 7) + "</p>"
        let csv = Self.shopifyHeader + "\nchair,\(title),10.00,\(type),,,\(body),,\n"
        let chair = try Fixture.read(text: csv, fileName: "s.csv").product("chair")
        #expect(chair.title == title)
        #expect(chair.categoryName == type)
        #expect(chair.descriptionText.utf8.count == 262_144 - 7)
    }

    @Test func everyLimitIsDocumented() throws {
        let guide = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../docs/IMPORT.md").standardized, encoding: .utf8)
        for limit in TextLimit.allCases {
            #expect(guide.contains("| `\(limit.rawValue)` | \(limit.maximumBytes) |"), "docs/IMPORT.md has no row for \(limit)")
        }
    }

    // MARK: Long fields take time in proportion to their length

    @Test(.timeLimit(.minutes(1)), .bug(id: 8, "a 10 MB category took more than 10 minutes"))
    func aDescriptionOfMixedAccentedTextAtTheLimitImports() throws {
        let unit = "<p>Çay bardağı — <b>İnce</b> Straße, crème brûlée; ñandú Ærø 한국 ﬁne</p>\n"
        let body = String(repeating: unit, count: 262_144 / unit.utf8.count)
        let title = String(repeating: "Çğüşöı ", count: 1_000 / "Çğüşöı ".utf8.count)
        let json = """
            {"format": "shoppable-catalog", "version": 1, "products": [
              {"title": "\(title)", "category": "\(String(repeating: "é", count: 127))",
               "description": "\(body.replacingOccurrences(of: "\n", with: "\\n"))", "variants": [{"price": "5"}]}]}
            """
        let product = try #require(try Fixture.read(text: json, fileName: "c.json").products.first)
        #expect(product.handle == Array(repeating: "cgusoi", count: 1_000 / "Çğüşöı ".utf8.count).joined(separator: "-"))
        #expect(product.descriptionText.hasPrefix("Çay bardağı — İnce Straße"))
    }

    @Test(.timeLimit(.minutes(1)))
    func skusOfManyLeadingZerosExpandInOnePass() {
        let zeros = String(repeating: "0", count: 200_000)
        #expect(ImportContext.expandScientific(zeros + "12E+2") == "1200")
        #expect(ImportContext.expandScientific(zeros + "E+3") == "0")
    }

    @Test(.timeLimit(.minutes(1)))
    func manyProductsWithOneNameGetNumberedHandlesInOnePass() throws {
        let count = 20_000
        let csv = "Name,Regular price\n" + String(repeating: "Mug,5\n", count: count)
        let result = try Fixture.read(text: csv, fileName: "w.csv")
        #expect(result.products.map(\.handle) == ["mug"] + (2...count).map { "mug-\($0)" })
    }

    @Test(.timeLimit(.minutes(1)))
    func deeplyNestedHTMLIsSanitizedInOnePass() {
        let html = String(repeating: "<ul>", count: 100_000) + String(repeating: "<b>", count: 50_000)
            + String(repeating: "</x>", count: 50_000) + "text"
        let sanitized = HTMLSanitizer.sanitize(html)
        #expect(sanitized.html == String(repeating: "<ul>", count: 32) + "text" + String(repeating: "</ul>", count: 32))
        #expect(sanitized.text == "text")
    }

    @Test func elementsNestedDeeperThanTheLimitAreDroppedTheirTextKept() {
        let html = String(repeating: "<b>", count: 40) + "deep" + String(repeating: "</b>", count: 40) + " after"
        #expect(HTMLSanitizer.sanitize(html).html
            == String(repeating: "<b>", count: 32) + "deep" + String(repeating: "</b>", count: 32) + " after")
    }

    /// Issue #13, point 2: an "any" variation is no longer expanded (50 × 50 values were 2 500
    /// variants, refused): it is one variant whatever the number of values to pick from.
    @Test(.bug(id: "13")) func anAnyVariationWithManyValuesIsStillOneVariant() throws {
        let values = (1...50).map(String.init).joined(separator: ", ")
        let csv = "ID,Type,Name,Regular price,Parent,Attribute 1 name,Attribute 1 value(s),Attribute 2 name,"
            + "Attribute 2 value(s)\n1,variable,Tee,,,Size,\"\(values)\",Color,\"\(values)\"\n"
            + "2,variation,Tee any,10,id:1,Size,,Color,\n"
        let tee = try Fixture.read(text: csv, fileName: "w.csv").product("tee")
        #expect(tee.variants.count == 1)
        #expect(tee.variants[0].optionValues == ["", ""])
        #expect(tee.variants[0].optionChoices.map(\.count) == [50, 50])
    }
}
