import Foundation
import ShopCore
@testable import ShopImport
import Testing

@Suite("Catalog importer: detection, errors, progress")
struct CatalogImporterTests {
    @Test(arguments: [
        ("fakestore.json", CatalogFormat.fakeStore), ("seed.json", .seedJSON), ("shoppable.json", .shoppableJSON),
        ("shopify-2023.csv", .shopifyCSV), ("shopify-2024.csv", .shopifyCSV), ("woocommerce.csv", .wooCommerceCSV),
    ])
    func detectsEachFormat(file: String, format: CatalogFormat) throws {
        #expect(try CatalogImporter(currency: .usd).detectFormat(Fixture.data(file), fileName: file) == format)
    }

    @Test(arguments: ["unknown.csv", "unknown.json"])
    func unknownFileGivesAClearError(file: String) throws {
        let data = try Fixture.data(file)
        let error = Fixture.importError { () throws(ImportError) in
            try CatalogImporter(currency: .usd).read(data, fileName: file)
        }
        #expect(error?.file == file)
        #expect(error?.message.contains("--format") == true)
    }

    @Test func emptyFileIsAnError() {
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: " \n", fileName: "e.csv") }
        #expect(error?.description == "e.csv: the file is empty")
    }

    @Test func explicitFormatSkipsDetection() throws {
        let result = try Fixture.read("woocommerce.csv", format: .wooCommerceCSV)
        #expect(result.products.count == 7)
    }

    @Test func wrongExplicitFormatReportsTheMissingColumn() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: "Name,Regular price\nMug,5\n", fileName: "w.csv", format: .shopifyCSV)
        }
        #expect(error?.line == 1)
        #expect(error?.message.contains("Handle") == true)
    }

    @Test func malformedCSVNamesTheLineWhereTheQuoteOpens() {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: "Handle,Title,Variant Price\na,\"A\n", fileName: "q.csv", format: .shopifyCSV)
        }
        #expect(error?.line == 2)
        #expect(error?.columnIndex == 2)
    }

    @Test func progressIsReportedEveryIntervalAndAtTheEnd() throws {
        final class Calls { var values: [[Int]] = [] }
        let calls = Calls()
        _ = try CatalogImporter(currency: .usd, progressInterval: 4)
            .read(Fixture.data("woocommerce.csv"), fileName: "woocommerce.csv") { done, total in
                calls.values.append([done, total])
            }
        #expect(calls.values == [[4, 14], [8, 14], [12, 14], [14, 14]])
    }

    /// A JSON syntax error names its line and the character on it (a fresh tester's one-line
    /// file said only "line 1").
    @Test(arguments: [
        (#"{"format":"shoppable-catalog","version":1,"products":[{"handle":"a","title":"A" "x":1}]}"#, 1, 81),
        ("{\"format\":\"shoppable-catalog\",\n  \"products\": [}", 2, 16),
        ("{\"title\": \"Çay bardağı\" ,, }", 1, 26),
    ])
    func aJSONSyntaxErrorNamesItsLineAndCharacter(text: String, line: Int, column: Int) throws {
        let error = try #require(throws: ImportError.self) {
            try CatalogImporter(currency: .usd).read(Data(text.utf8), fileName: "c.json", format: .shoppableJSON)
        }
        #expect(error.line == line && error.columnIndex == column, "\(error)")
        #expect(error.description.hasPrefix("c.json:\(line): column \(column): "), "\(error)")
    }

    @Test func errorDescriptionNamesFileLineAndColumn() {
        let csv = ImportError(file: "catalog.csv", line: 14, column: "Variant Price", columnIndex: 21,
                              problem: .notAPrice("abc"))
        #expect(csv.description == "catalog.csv:14: column “Variant Price”: “abc” is not a price such as 12.50")
        let json = ImportError(file: "p.json", line: 3, column: "title", problem: .required)
        #expect(json.description == "p.json:3: field “title”: is required")
        let file = ImportError(file: "x", line: nil, problem: .fileEmpty)
        #expect(file.description == "x: the file is empty")
    }

    @Test(arguments: [
        ("3.65275E+11", "365275000000"), ("1E+3", "1000"), ("4.00601e12", "4006010000000"), ("0.5E+1", "5"),
    ])
    func expandsIntegersInScientificNotation(text: String, digits: String) {
        #expect(ImportContext.expandScientific(text) == digits)
    }

    @Test(arguments: ["1.5E-3", "1.23456E+2", "E+5", "ABC-123", "12E", "TEE-1E5"])
    func leavesOtherSKUsAlone(text: String) {
        #expect(ImportContext.expandScientific(text) == nil)
    }

    /// Shopify rows are read as they are parsed; progress counts them and ends at (all, all)
    /// even when blank lines made the first estimate larger.
    @Test(.bug(id: "13")) func shopifyProgressEndsAtAllRowsRead() throws {
        final class Calls { var values: [[Int]] = [] }
        let calls = Calls()
        let csv = "Handle,Title,Variant Price,Image Src\na,A,1.00,\n\n , , \nb,B,2.00,\nb,,,https://cdn.example.com/b.png\n"
        let result = try CatalogImporter(currency: .usd, progressInterval: 2)
            .read(Data(csv.utf8), fileName: "p.csv") { done, total in calls.values.append([done, total]) }
        #expect(result.products.map(\.handle) == ["a", "b"])
        #expect(calls.values == [[2, 5], [3, 3]])
    }
}
