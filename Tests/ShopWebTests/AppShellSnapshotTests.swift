import Foundation
import HTTPServer
import ShopTestSupport
@testable import ShopWeb
import Testing

/// The app shell's exchanges: the service worker (with a stand-in script), the manifest, the
/// offline page, the first-visit introduction and its dismissal.
@Suite("App shell snapshots")
struct AppShellSnapshotTests {
    /// The snapshot shop's stand-in files plus a stand-in worker, so these snapshots do not follow
    /// every edit of `sw.js`.
    static func shop() throws -> TestShop {
        let shop = try SnapshotShop.make()
        var files = SnapshotShop.assets.files
        let worker = Array("// snapshot stand-in worker\n".utf8)
        files["sw.js"] = Assets.File(bytes: worker, contentType: "text/javascript; charset=utf-8", etag: Assets.etag(for: worker))
        shop.environment.assets = Assets(files: files)
        return shop
    }

    @Test func serviceWorker() throws {
        assertResponseSnapshot(of: try Self.shop().get("/sw.js"))
    }

    @Test func manifest() throws {
        assertResponseSnapshot(of: try Self.shop().get("/manifest.webmanifest"))
    }

    @Test func offlinePage() throws {
        assertResponseSnapshot(of: try Self.shop().get("/offline"))
    }

    @Test func welcome() throws {
        let shop = try Self.shop()
        assertResponseSnapshot(of: try shop.send(.get, "/campaigns", headers: ["User-Agent": AppStatesTests.chrome]),
                               named: "first-visit")
        assertResponseSnapshot(of: try shop.post("/welcome", [("choice", "skip"), ("return_to", "/campaigns")]),
                               named: "skipped")
        assertResponseSnapshot(of: try shop.send(.get, "/campaigns", headers: ["User-Agent": AppStatesTests.chrome]),
                               named: "after-skipping")
    }
}
