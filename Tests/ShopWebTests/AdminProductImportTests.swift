import Foundation
import HTTPServer
import ShopCore
import ShopService
import ShopStore
import ShopStoreSQLite
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
        #expect(checked.text.contains("The file is valid") && checked.text.contains("products.csv: 2 products, 3 variants, 1 image."))
        #expect(checked.text.contains("An import would create 2, update 0 and leave 0 unchanged."))
        #expect(checked.text.contains("The 2 products that would be created or changed") && checked.text.contains("<code>mug</code>"))
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
        #expect(done.text.contains("The 2 products created or changed"), "an import says what it did, a check what it would")
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
        // A chosen file with nothing in it is the importer's to refuse, not "choose a file".
        let nothing = try manager.upload(Self.page, [("mode", "import")],
                                         files: [UploadedFile(fieldName: "file", fileName: "empty.csv", data: [])], from: Self.page)
        #expect(nothing.status == 422 && !nothing.text.contains("Choose a catalog file to upload."))
        #expect(nothing.text.contains("empty.csv") && nothing.text.contains("empty"))
        let local = UploadedFile(fieldName: "file", fileName: "local.csv", data: Array("""
            Handle,Title,Variant SKU,Variant Price,Image Src
            desk,Desk,DESK-1,90.00,images/desk.png

            """.utf8))
        let noFolder = try manager.upload(Self.page, [("mode", "check")], files: [local], from: Self.page)
        #expect(noFolder.status == 422 && noFolder.text.contains("local.csv:2"), "an upload has no folder to read images from")
        // The recent list tells a refused check from a refused import (a fresh tester's).
        let list = try manager.get(Self.page).text
        #expect(list.contains("local.csv</a><span class=\"muted small\"> · refused at the check · "), "\(list)")
        #expect(list.contains("products.csv</a><span class=\"muted small\"> · refused · "))
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

    /// A file that takes longer than the POST waits for (`importAnswerWait`, 0 here) answers
    /// with its job's page: it shows the step and the products written so far, reloads itself,
    /// and once the import ends shows what it did — in the staff member's language. The import
    /// is held after its first product, inside its write transaction, while the page is read.
    @Test func aLongImportShowsItsProgressThenItsResult() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 4)
        defer { database.close() }
        let shop = try TestShop([], sqlite: database)
        shop.environment.importAnswerWait = 0
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let base = shop.environment.catalog
        shop.environment.catalog.upsertBy = { drafts, actor, now, progress in
            try base.upsertBy(drafts, actor, now, { passed in
                try progress?(passed)
                if passed == 1 {
                    arrived.signal()
                    release.wait()
                }
            })
        }
        let manager = try StaffBrowser(shop, role: .manager)
        manager.browser.cookies["shoppable_lang"] = "tr"
        let started = try manager.upload(Self.page, [("mode", "import")], files: [shopifyCSV()], from: Self.page)
        #expect(started.status == 303)
        let location = try #require(started.header("Location"))
        #expect(location.hasPrefix(Self.page + "/"))
        #expect(arrived.wait(timeout: .now() + 30) == .success)

        let running = try manager.get(location)
        #expect(running.status == 200)
        #expect(running.text.contains(#"<meta http-equiv="refresh" content="1">"#))
        #expect(running.text.contains("products.csv içe aktarılıyor"))
        #expect(running.text.contains("Ürünler yazılıyor: 2 üründen 1 tanesi"))
        #expect(running.text.contains(#"max="2" value="1""#))
        #expect(running.text.contains("manager@shop.test tarafından"))
        // Another app server (no live counts) reads the step from the job's row.
        let jobs = try #require(shop.environment.importJobs)
        let id = String(location.dropFirst(Self.page.count + 1))
        let otherServer = ImportJobs(store: .sqlite(database), now: { Date(timeIntervalSince1970: 1_780_000_000) },
                                     newID: { "unused" }, runner: "other-host:1", isRunnerAlive: { _ in nil })
        let seen = try #require(try otherServer.status(id))
        #expect(seen.outcome == nil && seen.job.step == .writing && seen.job.total == 2 && seen.job.done == 0)
        #expect(try shop.catalog.productByHandle("cap") == nil, "nothing is committed before the end")

        #expect(!jobs.waitForAll(upTo: 0.05), "a stopping server sees the job running")
        release.signal()
        #expect(jobs.wait(id, upTo: 30))
        #expect(jobs.waitForAll(upTo: 30), "its outcome stored")
        let done = try manager.get(location)
        #expect(done.status == 200 && !done.text.contains("http-equiv"))
        #expect(done.text.contains("İçe aktarıldı") && done.text.contains("2 oluşturuldu, 0 güncellendi, 0 değişmedi."))
        #expect(try shop.catalog.productByHandle("mug") != nil)
        let report = try #require(try otherServer.status(id)?.outcome)
        guard case let .report(summary) = report else { Issue.record("not a report: \(report)"); return }
        #expect(summary.created == 2 && !summary.isDryRun && summary.products.map(\.handle) == ["cap", "mug"])
        // The import page lists it, linked, so its page is found again once the tab is closed.
        let form = try manager.get(Self.page)
        #expect(form.text.contains("Son denetimler ve içe aktarmalar") && form.text.contains(#"href="\#(location)">products.csv</a>"#))
        #expect(form.text.contains("içe aktarıldı · manager@shop.test"))
        #expect(try manager.get(Self.page + "/no-such-job").status == 404)
        #expect(try StaffBrowser(shop, role: .support).get(location).status == 403)
    }

    /// A job whose server stopped (its row not changed for `ImportJobs.stallTime`) is shown as
    /// stopped, with nothing written, not as running for ever.
    @Test func aJobWhoseServerStoppedIsShownAsStopped() throws {
        let database = try SQLiteDatabase.open(path: ":memory:", poolSize: 1)
        defer { database.close() }
        let shop = try TestShop([], sqlite: database)
        let store = ImportJobStore.sqlite(database)
        try store.insert(ImportJob(id: "lost", startedBy: "manager@shop.test", fileName: "big.csv", isDryRun: false,
                                   step: .writing, total: 30_000, startedAt: shop.clock.now))
        let manager = try StaffBrowser(shop, role: .manager)
        let running = try manager.get(Self.page + "/lost")
        #expect(running.text.contains("Writing products: 0 of 30,000") && running.text.contains("http-equiv"))
        shop.clock.advance(by: ImportJobs.stallTime + 1)
        let stopped = try manager.get(Self.page + "/lost")
        #expect(stopped.status == 200 && !stopped.text.contains("http-equiv"))
        #expect(stopped.text.contains("Stopped without finishing") && stopped.text.contains("Nothing was written"))
    }

    /// A refused file is worded in the staff member's language, naming the file, line and
    /// column, with the file's values as written; a repeated SKU says what the browser can do
    /// (give each variant its own SKU), never the CLI's `--merge-duplicate-skus`.
    @Test(arguments: [
        ("tr", "products.csv, satır 4, “Variant Price” sütunu: “eight” geçerli bir fiyat değil (örneğin 12.50)",
         "products.csv, satır 3, “Variant SKU” sütunu: “cap-red” stok kodu 2. satırda zaten kullanılıyor",
         "her varyanta kendi stok kodunu verin"),
        ("es", "products.csv, línea 4, columna “Variant Price”: “eight” no es un precio como 12.50",
         "products.csv, línea 3, columna “Variant SKU”: la referencia (SKU) “cap-red” ya se usa en la línea 2",
         "da a cada variante su propia referencia"),
        ("en", "products.csv:4: column “Variant Price”: “eight” is not a price such as 12.50",
         "products.csv:3: column “Variant SKU”: SKU “cap-red” is already used on line 2",
         "give each variant its own SKU"),
    ])
    func aRefusalIsInTheStaffMembersLanguage(language: String, badPrice: String, duplicate: String, remedy: String) throws {
        let shop = try adminShop()
        let manager = try StaffBrowser(shop, role: .manager)
        manager.browser.cookies["shoppable_lang"] = language
        let refused = try manager.upload(Self.page, [("mode", "check")], files: [shopifyCSV(mugPrice: "eight")], from: Self.page)
        #expect(refused.status == 422)
        #expect(refused.text.contains(badPrice), "\(refused.text)")
        if language != "en" { #expect(!refused.text.contains("is not a price")) }
        let twice = UploadedFile(fieldName: "file", fileName: "products.csv", data: Array("""
            Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price
            cap,Cap,Color,Red,CAP-RED,10.00
            cap,,,Blue,cap-red,11.00

            """.utf8))
        let repeated = try manager.upload(Self.page, [("mode", "import")], files: [twice], from: Self.page)
        #expect(repeated.status == 422)
        #expect(repeated.text.contains(duplicate) && repeated.text.contains(remedy), "\(repeated.text)")
        #expect(!repeated.text.contains("--merge-duplicate-skus"), "the browser has no such flag")
        #expect(try shop.catalog.productByHandle("cap") == nil)
    }

    /// A SKU of another stored product is refused at its line in the staff member's language,
    /// like every other refusal (it was the store's English, shaped differently).
    @Test(arguments: [
        ("tr", "take2.csv, satır 2: “MUG-1” stok kodu “mug” ürününe ait; bir stok kodu yalnızca tek bir ürünün tek bir "
            + "varyantında kullanılabilir"),
        ("es", "take2.csv, línea 2: la referencia (SKU) “MUG-1” pertenece al producto “mug”; cada referencia identifica "
            + "una sola variante de un solo producto"),
        ("en", "take2.csv:2: SKU “MUG-1” belongs to product “mug”; a SKU names one variant of one product"),
    ])
    func aSKUOfAnotherProductIsRefusedInTheStaffMembersLanguage(language: String, message: String) throws {
        let shop = try adminShop()
        let manager = try StaffBrowser(shop, role: .manager)
        _ = try manager.upload(Self.page, [("mode", "import")], files: [shopifyCSV()], from: Self.page)
        manager.browser.cookies["shoppable_lang"] = language
        let take = UploadedFile(fieldName: "file", fileName: "take2.csv", data: Array("""
            Handle,Title,Variant SKU,Variant Price
            cap,Cap,MUG-1,10.00

            """.utf8))
        for mode in ["check", "import"] {
            let refused = try manager.upload(Self.page, [("mode", mode)], files: [take], from: Self.page)
            #expect(refused.status == 422)
            #expect(refused.text.contains(message), "\(refused.text)")
            #expect(!refused.text.contains("already belongs"))
        }
        #expect(try shop.catalog.productByHandle("cap")?.variants.map(\.sku) == ["CAP-RED", "CAP-BLUE"])
    }

    /// A file's warnings are shown in the reader's language too, the values as written.
    @Test func warningsAreInTheStaffMembersLanguage() throws {
        let shop = try adminShop()
        let manager = try StaffBrowser(shop, role: .manager)
        manager.browser.cookies["shoppable_lang"] = "tr"
        let file = UploadedFile(fieldName: "file", fileName: "excel.csv", data: Array("""
            Handle,Title,Variant SKU,Variant Price
            mug,Mug,3.65275E+11,8.50

            """.utf8))
        let checked = try manager.upload(Self.page, [("mode", "check")], files: [file], from: Self.page)
        #expect(checked.status == 200)
        #expect(checked.text.contains("Uyarılar"))
        #expect(checked.text.contains("satır 2: “3.65275E+11” stok kodu, Excel’in bilimsel gösterimle yazdığı bir sayıya "
            + "benziyor; 365275000000 olarak okundu"), "\(checked.text)")
    }

    /// Jobs finished before their messages were typed kept them as English text (`"refused":
    /// {"_0": "…"}`, warnings as strings): their pages still show that text, in any language —
    /// not "cannot be read".
    @Test func aJobStoredWithTheOldEncodingStillShowsItsMessages() throws {
        let database = try SQLiteDatabase.open(path: ":memory:", poolSize: 1)
        defer { database.close() }
        let shop = try TestShop([], sqlite: database)
        let store = ImportJobStore.sqlite(database)
        let refusal = #"{"refused":{"_0":"old.csv:3: column “Variant Price”: “x” is not a price such as 12.50"}}"#
        try store.insert(ImportJob(id: "old-refused", startedBy: "manager@shop.test", fileName: "old.csv", isDryRun: true,
                                   step: .finished, outcome: refusal, startedAt: shop.clock.now))
        let report = #"{"report":{"_0":{"fileName":"old.csv","isDryRun":true,"productCount":1,"variantCount":1,"#
            + #""imageCount":0,"created":1,"updated":0,"unchanged":0,"products":[{"handle":"mug","isNew":true}],"#
            + #""productsTouched":1,"warnings":["line 2: stock -1 (oversold, backorders allowed) imported as 0"]}}}"#
        try store.insert(ImportJob(id: "old-report", startedBy: "manager@shop.test", fileName: "old.csv", isDryRun: true,
                                   step: .finished, outcome: report, startedAt: shop.clock.now))
        let manager = try StaffBrowser(shop, role: .manager)
        manager.browser.cookies["shoppable_lang"] = "tr"
        let refused = try manager.get(Self.page + "/old-refused")
        #expect(refused.status == 200 && refused.text.contains("Dosya içe aktarılamıyor"))
        #expect(refused.text.contains("old.csv:3: column “Variant Price”: “x” is not a price such as 12.50"))
        #expect(!refused.text.contains("okunamıyor"))
        let checked = try manager.get(Self.page + "/old-report")
        #expect(checked.status == 200 && checked.text.contains("line 2: stock -1 (oversold, backorders allowed) imported as 0"))
    }
}
