import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// Error pages, the health check, shipped assets and imported media.
@Suite("Error and asset snapshots")
struct ErrorAndAssetSnapshotTests {
    @Test(arguments: [("unknown-path", "/nope"), ("unknown-product", "/products/nope"),
                      ("unknown-category", "/categories/nope"), ("past-the-last-page", "/categories/lamps?page=9"),
                      ("unknown-asset", "/static/missing.css")])
    func notFound(name: String, target: String) throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get(target), named: name)
    }

    /// Found by a fresh tester: an error page drew the light theme over a chosen dark one, its
    /// theme links went home, and its language links dropped the query (`/search?q=x&page=-1`
    /// in Turkish lost the search).
    @Test func anErrorPageKeepsTheThemeAndLinksBackToItsOwnAddress() throws {
        let shop = try SnapshotShop.make()
        shop.cookies["shoppable_theme"] = "dark"
        let page = try shop.get("/search?q=oak+chair&page=-1&lang=en")
        #expect(page.status == 404)
        #expect(page.text.contains(#"data-theme="dark""#))
        #expect(page.text.contains(#"href="/search?q=oak%20chair&amp;page=-1&amp;lang=tr""#), "the search is kept, one lang")
        #expect(page.text.contains(#"href="/theme?set=light&amp;return_to=/search%3Fq%3Doak%2520chair%26page%3D-1""#))
        let evil = try shop.get("//evil.example/x")
        #expect(!evil.text.contains("evil.example"), "never a link off the shop")
    }

    /// Another site's form (`RequestSite`), and a shopper's form without Fetch Metadata whose
    /// token is not their session's.
    @Test func forbiddenFromAnotherSiteOrWithAWrongToken() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.send(.post, "/cart/add", form: [("product", "oak-chair"), ("quantity", "1")],
                                                 headers: ["Sec-Fetch-Site": "cross-site"], csrf: false),
                               named: "cross-site")
        #expect(try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "1")]).status == 303)
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "1"),
                                                               ("csrf_token", "forged-forged-forged-forged-forged")]),
                               named: "wrong")
    }

    @Test func methodNotAllowed() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.send(.post, "/cart", form: [], csrf: false), named: "post-to-a-page")
        assertResponseSnapshot(of: try shop.get("/cart/add"), named: "get-an-action")
    }

    @Test func serverErrorFromAFailingStore() throws {
        struct DiskOnFire: Error {}
        let shop = try SnapshotShop.make()
        shop.environment.catalog.categories = { throw DiskOnFire() }
        assertResponseSnapshot(of: try shop.get("/"))
    }

    @Test func busyStore() throws {
        struct Locked: TemporaryStoreFailure { var isTemporary: Bool { true } }
        let shop = try SnapshotShop.make()
        shop.environment.catalog.productByHandle = { _ in throw Locked() }
        assertResponseSnapshot(of: try shop.get("/products/oak-chair"))
    }

    @Test func healthCheck() throws {
        struct Down: Error {}
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/healthz"), named: "up")
        shop.environment.healthCheck = { throw Down() }
        assertResponseSnapshot(of: try shop.get("/healthz"), named: "down")
    }

    @Test func stylesheet() throws {
        let shop = try SnapshotShop.make()
        let versioned = shop.environment.assets.stylesheetPath
        let fresh = try shop.get(versioned)
        assertResponseSnapshot(of: fresh, named: "versioned")
        let etag = try #require(fresh.header("ETag"))
        assertResponseSnapshot(of: try shop.send(.get, versioned, headers: ["If-None-Match": etag]), named: "not-modified")
        assertResponseSnapshot(of: try shop.get("/static/app.css?v=stale"), named: "stale-version")
    }

    /// A file really shipped in `Public` (the icon), as served from the bundle.
    @Test func bundledImage() throws {
        let shop = try SnapshotShop.make()
        shop.environment.assets = .bundled
        assertResponseSnapshot(of: try shop.get("/static/images/icon.svg"))
    }

    @Test func importedMedia() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(to: folder.appendingPathComponent("5f1d2c.svg"))
        let shop = try SnapshotShop.make()
        shop.environment.mediaDirectory = folder
        assertResponseSnapshot(of: try shop.get("/media/5f1d2c.svg"), named: "found")
        assertResponseSnapshot(of: try shop.get("/media/missing.png"), named: "missing")
    }
}
