import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// A Shopify CSV of a cap in two colours and a mug; `price` is the mug's price as written.
private func shopifyCSV(mugPrice: String = "8.50") -> UploadedFile {
    let text = """
        Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price,Image Src
        cap,Cap,Color,Red,CAP-RED,10.00,https://cdn.example.com/cap.png
        cap,,,Blue,CAP-BLUE,11.00,
        mug,Mug,Title,Default Title,MUG-1,\(mugPrice),

        """
    return UploadedFile(fieldName: "file", fileName: "products.csv", contentType: "text/csv", data: Array(text.utf8))
}

/// Importing a catalog file in the back office (issue #16, point 4): the CLI's checks, dry run
/// and all-or-nothing write, from an upload form.
@Suite("Back office catalog import")
struct AdminProductImportTests {
    static let page = "/admin/products/import"

    @Test func aCheckWritesNothingAndSaysWhatAnImportWouldDo() throws {
        let shop = try adminShop()
        let manager = try StaffBrowser(shop, role: .manager)
        let before = try shop.catalog.productCount()
        let form = try manager.get(Self.page)
        #expect(form.status == 200 && form.text.contains(#"enctype="multipart/form-data""#))
        let checked = try manager.upload(Self.page, [("mode", "check"), ("format", "")], files: [shopifyCSV()], from: Self.page)
        #expect(checked.status == 200)
        #expect(checked.text.contains("The file is valid") && checked.text.contains("products.csv: 2 products, 3 variants, 1 images."))
        #expect(checked.text.contains("An import would create 2, update 0 and leave 0 unchanged."))
        #expect(checked.text.contains("The 2 products created or changed") && checked.text.contains("<code>mug</code>"))
        #expect(try shop.catalog.productCount() == before, "a check writes nothing")
        // The format asked for stays chosen for the import that follows; an unknown one is named.
        let named = try manager.upload(Self.page, [("mode", "check"), ("format", "shopify-csv")], files: [shopifyCSV()], from: Self.page)
        #expect(named.status == 200 && named.text.contains(#"value="shopify-csv" selected"#))
        let unknown = try manager.upload(Self.page, [("mode", "check"), ("format", "xyz")], files: [shopifyCSV()], from: Self.page)
        #expect(unknown.status == 422 && unknown.text.contains("Choose one of the formats listed"))
    }

    @Test func anImportWritesEveryProductAndAuditsEachAsTheStaffMembers() throws {
        let shop = try adminShop()
        let manager = try StaffBrowser(shop, role: .manager)
        let done = try manager.upload(Self.page, [("mode", "import")], files: [shopifyCSV()], from: Self.page)
        #expect(done.status == 200 && done.text.contains("2 created, 0 updated, 0 unchanged."))
        #expect(try shop.catalog.productByHandle("mug")?.variants.first?.price == .usd(8_50))
        let audit = try #require(shop.environment.audit)
        let entries = try audit.entries(AuditQuery(source: .backOffice, subject: "product")).entries
        #expect(Set(entries.map(\.subjectID)) == ["cap", "mug"])
        #expect(entries.allSatisfy { $0.actor == "manager@shop.test" && $0.action == "import" })
        let again = try manager.upload(Self.page, [("mode", "import")], files: [shopifyCSV()], from: Self.page)
        #expect(again.text.contains("0 created, 0 updated, 2 unchanged."))
    }

    /// A bad value anywhere refuses the whole file with the CLI's message (file, line, column).
    @Test func aBadLineRefusesTheWholeFileNamingTheLine() throws {
        let shop = try adminShop()
        let manager = try StaffBrowser(shop, role: .manager)
        let before = try shop.catalog.productCount()
        let refused = try manager.upload(Self.page, [("mode", "import")], files: [shopifyCSV(mugPrice: "eight")], from: Self.page)
        #expect(refused.status == 422)
        #expect(refused.text.contains("products.csv:4: column “Variant Price”"))
        #expect(refused.text.contains("Nothing was written to the catalog."))
        #expect(try shop.catalog.productCount() == before && shop.catalog.productByHandle("cap") == nil, "not even the good lines")
        let empty = try manager.upload(Self.page, [("mode", "import")],
                                       files: [UploadedFile(fieldName: "file", fileName: "", data: [])], from: Self.page)
        #expect(empty.status == 422 && empty.text.contains("Choose a catalog file to upload."))
        let local = UploadedFile(fieldName: "file", fileName: "local.csv", data: Array("""
            Handle,Title,Variant SKU,Variant Price,Image Src
            desk,Desk,DESK-1,90.00,images/desk.png

            """.utf8))
        let noFolder = try manager.upload(Self.page, [("mode", "check")], files: [local], from: Self.page)
        #expect(noFolder.status == 422 && noFolder.text.contains("local.csv:2"), "an upload has no folder to read images from")
    }

    /// The server's larger body limit is only for a signed-in staff member who may import
    /// (found by a tester: anyone could make the server hold 64 MB before the 403).
    @Test func onlyStaffWhoMayImportGetTheLargerBodyLimit() throws {
        let shop = try adminShop()
        let admits = try #require(ShopApp.uploads(shop.environment)[Self.page]).admits
        func headers(_ browser: TestShop) -> HTTPHeaders {
            var headers = HTTPHeaders()
            headers.add(name: "Cookie", value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            return headers
        }
        #expect(!admits(HTTPHeaders()), "no cookie")
        #expect(!admits(headers(try StaffBrowser(shop, role: .support).browser)), "support may not import")
        #expect(admits(headers(try StaffBrowser(shop, role: .manager).browser)))
        var forged = HTTPHeaders()
        forged.add(name: "Cookie", value: "shoppable_staff=" + String(repeating: "a", count: 43))
        #expect(!admits(forged))
    }

    @Test func supportCannotImportAndTheFormNeedsItsToken() throws {
        let shop = try adminShop()
        let support = try StaffBrowser(shop, role: .support)
        #expect(try support.get(Self.page).status == 403)
        #expect(try support.upload(Self.page, [("mode", "import")], files: [shopifyCSV()], from: "/admin").status == 403)
        let manager = try StaffBrowser(shop, role: .manager)
        _ = try manager.get(Self.page)
        let forged = try manager.browser.send(.post, Self.page, form: [("mode", "import")], files: [shopifyCSV()], csrf: false)
        #expect(forged.status == 403)
        #expect(try shop.catalog.productByHandle("cap") == nil)
    }
}
