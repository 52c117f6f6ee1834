import Foundation
import ShopCore
@testable import ShopImport
import Testing

/// A large Shopify CSV file is read in two parts at once (issue #13, point 6): whatever the
/// file, the result — products, lines, warnings, skipped rows, errors — is the one pass's.
@Suite("Shopify CSV read in two parts")
struct ShopifyCSVTwoPartTests {
    static let header = "Handle,Title,Body (HTML),Type,Tags,Option1 Name,Option1 Value,Variant SKU,"
        + "Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Price,Image Src,Gift Card"

    /// `count` products of 1–3 variants; every seventh description spans lines (LF and CRLF,
    /// a doubled quote, a comma), every eleventh variant is oversold with backorders (a
    /// warning), one gift card (skipped), one SKU Excel mangled (a warning).
    static func file(products count: Int, lineBreak: String = "\n",
                     edit: (inout [String]) -> Void = { _ in }) -> Data {
        var rows: [String] = []
        for number in 1...count {
            let variants = number % 3 + 1
            for variant in 1...variants {
                let isFirst = variant == 1
                let body = number % 7 == 0 ? "\"<p>Line one,\nline \"\"two\"\"\r\nthree</p>\"" : "<p>Item \(number)</p>"
                let stock = (number * 3 + variant) % 11 == 0 ? "-2" : "\(variant * 4)"
                let sku = number == 40 && isFirst ? "3.65275E+11" : "SKU-\(number)-\(variant)"
                rows.append([
                    "item-\(number)", isFirst ? "Item \(number)" : "", isFirst ? body : "",
                    isFirst ? "Type \(number % 5)" : "", isFirst ? "\"tag\(number % 4), common\"" : "",
                    isFirst ? "Size" : "", "S\(variant)", sku, "shopify", stock, "continue",
                    "\(number).\(variant)0", isFirst ? "https://cdn.example.com/\(number).jpg" : "",
                    number == 55 && isFirst ? "TRUE" : "FALSE",
                ].joined(separator: ","))
            }
        }
        edit(&rows)
        return Data(([header] + rows).joined(separator: lineBreak).utf8 + Array(lineBreak.utf8))
    }

    static func onePass(_ data: Data) throws(ImportError) -> ImportResult {
        try CatalogImporter(currency: .usd, now: Fixture.now, twoPartMinimumBytes: .max)
            .read(data, fileName: "big.csv", format: .shopifyCSV)
    }

    static func twoParts(_ data: Data) throws(ImportError) -> ImportResult {
        try CatalogImporter(currency: .usd, now: Fixture.now, twoPartMinimumBytes: 0)
            .read(data, fileName: "big.csv", format: .shopifyCSV)
    }

    @Test(arguments: ["\n", "\r\n"])
    func aFileReadInTwoPartsGivesTheOnePassResult(lineBreak: String) throws {
        let data = Self.file(products: 300, lineBreak: lineBreak)
        let parts = try #require(CatalogImporter(currency: .usd, now: Fixture.now)
            .readShopifyCSVInTwoParts(data, fileName: "big.csv"), "the file was not split")
        let whole = try Self.onePass(data)
        #expect(parts == whole)
        #expect(try Self.twoParts(data) == whole)
        #expect(whole.products.count == 299)  // the gift card is skipped
        #expect(whole.skipped.map(\.line).count == 1)
        #expect(whole.warnings.count > 20)
        // The second part's lines are the file's: the last product starts on the line the file says.
        let text = String(decoding: data, as: UTF8.self)
        let before = try #require(text.range(of: "\(lineBreak)item-300,")).lowerBound
        #expect(try #require(whole.products.last).sourceLine == Self.lineBreaks(in: text[..<before]) + 2)
    }

    /// A price sign that is not the shop currency's is said once for the file, also when both
    /// parts meet it (each part's reader said it once before).
    @Test func aPriceSignInBothPartsIsSaidOnce() throws {
        let data = Self.file(products: 300) { rows in
            for index in [0, rows.count - 1] {
                var fields = rows[index].components(separatedBy: ",")
                fields[fields.count - 3] = "€" + fields[fields.count - 3]
                rows[index] = fields.joined(separator: ",")
            }
        }
        let parts = try #require(CatalogImporter(currency: .usd, now: Fixture.now)
            .readShopifyCSVInTwoParts(data, fileName: "big.csv"), "the file was not split")
        let whole = try Self.onePass(data)
        #expect(parts == whole)
        #expect(whole.warnings.count { if case .priceSign = $0.caveat { true } else { false } } == 1)
    }

    /// Physical line breaks (CRLF once), as `CSVReader` counts lines.
    static func lineBreaks(in text: Substring) -> Int {
        var count = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 13 || (byte == 10 && previous != 13) { count += 1 }
            previous = byte
        }
        return count
    }

    /// Progress counts both parts' rows, never goes back, and ends at (all, all) — reported
    /// on the caller's thread only (the second part's thread just counts).
    @Test func progressCountsBothPartsAndEndsAtAllRows() throws {
        final class Calls: @unchecked Sendable { var values: [(done: Int, total: Int, thread: Thread)] = [] }
        let calls = Calls()
        let data = Self.file(products: 300)
        let result = try CatalogImporter(currency: .usd, now: Fixture.now, progressInterval: 50, twoPartMinimumBytes: 0)
            .read(data, fileName: "big.csv") { done, total in calls.values.append((done, total, Thread.current)) }
        let rows = try CSVReader().records(in: data).count - 1
        #expect(rows > result.products.count)
        #expect(calls.values.count >= 5)
        #expect(calls.values.map(\.done) == calls.values.map(\.done).sorted())
        #expect(calls.values.last.map { [$0.done, $0.total] } == [rows, rows])
        #expect(calls.values.allSatisfy { $0.thread === Thread.current })
    }

    @Test(arguments: ["shopify-2023.csv", "shopify-2024.csv", "shopify-2024-template.csv", "shopify-duplicate-sku.csv"])
    func fixturesReadTheSameEitherWay(name: String) throws {
        let data = try Fixture.data(name)
        let whole = Result { () throws(ImportError) in try Self.onePass(data) }
        let parts = Result { () throws(ImportError) in try Self.twoParts(data) }
        #expect(parts == whole)
    }

    /// A product whose rows are not together, with one row on each side of the split.
    @Test func aProductWithRowsInBothPartsIsReadInOnePass() throws {
        let data = Self.file(products: 300) { rows in
            rows.append("item-2,,,,,,S9,SKU-2-9,shopify,1,deny,9.00,,FALSE")
        }
        #expect(CatalogImporter(currency: .usd, now: Fixture.now).readShopifyCSVInTwoParts(data, fileName: "big.csv") == nil)
        let whole = try Self.onePass(data)
        #expect(try Self.twoParts(data) == whole)
        #expect(try #require(whole.products.first { $0.handle == "item-2" }).variants.count == 4)
    }

    /// A SKU in both parts: the same error, naming both lines, as the one pass.
    @Test func aSKUInBothPartsIsTheOnePassError() throws {
        let data = Self.file(products: 300) { rows in
            rows.append("item-extra,Extra,,,,,,sku-1-1 ,shopify,1,deny,9.00,,FALSE")
        }
        #expect(CatalogImporter(currency: .usd, now: Fixture.now).readShopifyCSVInTwoParts(data, fileName: "big.csv") == nil)
        let whole = Fixture.importError { () throws(ImportError) in try Self.onePass(data) }
        let parts = Fixture.importError { () throws(ImportError) in try Self.twoParts(data) }
        #expect(parts == whole)
        #expect(whole?.message.contains("already used on line 2") == true)
    }

    /// Errors in either part, or both: the first in the file, as the one pass reports it.
    @Test(arguments: [
        ("a bad price in the second part", [(0.9, "12,00x")]),
        ("a bad price in each part", [(0.2, "abc"), (0.9, "12,00x")]),
        ("an unclosed quote at the end", [(1.0, "\"9.00")]),
    ])
    func errorsAreTheOnePassOnes(_ name: String, prices: [(Double, String)]) throws {
        let data = Self.file(products: 300) { rows in
            for (place, price) in prices {
                let index = min(Int(Double(rows.count) * place), rows.count - 1)
                var fields = rows[index].components(separatedBy: ",")
                fields[fields.count - 3] = price
                rows[index] = fields.joined(separator: ",")
            }
        }
        let whole = Fixture.importError { () throws(ImportError) in try Self.onePass(data) }
        let parts = Fixture.importError { () throws(ImportError) in try Self.twoParts(data) }
        #expect(whole != nil)
        #expect(parts == whole, "\(name)")
    }
}
