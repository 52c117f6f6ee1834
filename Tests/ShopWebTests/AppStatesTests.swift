import Foundation
import HTTPServer
import ShopCore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// The first-visit introduction, the service worker, the manifest and the offline page
/// (issue #11, points 4 and 5).
@Suite("App states")
struct AppStatesTests {
    static let chrome = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"

    private func browse(_ shop: TestShop, _ target: String, userAgent: String? = chrome) throws -> TestResponse {
        var headers: HTTPHeaders = ["Accept": "text/html"]
        if let userAgent { headers.add(name: "User-Agent", value: userAgent) }
        return try shop.send(.get, target, headers: headers)
    }

    // MARK: Onboarding

    @Test func aFirstVisitFromABrowserShowsTheIntroductionWithItsThreePanels() throws {
        let shop = try SnapshotShop.make()
        let home = try browse(shop, "/")
        #expect(home.status == 200)
        #expect(home.count("data-welcome=\"\"") == 1)
        #expect(home.count("data-welcome-panel=") == 3)
        for key in [L10nKey.welcomeBrowseTitle, .welcomeFavoritesTitle, .welcomeCampaignsTitle] {
            #expect(home.text.contains(Localizer()(key)))
        }
        // Its forms carry the visitor's CSRF token (filled like every other form) and come back here.
        #expect(home.text.contains("<input type=\"hidden\" name=\"return_to\" value=\"/\">"))
        #expect(!home.text.contains("<!--p:"))
        #expect(home.header("Cache-Control") == "no-store")
        // Without JavaScript, "Next" is a link to the next panel.
        #expect(home.text.contains("href=\"#welcome-2\""))
        #expect(try browse(shop, "/products/oak-chair").count("data-welcome=\"\"") == 1)
    }

    @Test(arguments: ["skip", "done"])
    func skipAndDoneAreRememberedAndTheIntroductionDoesNotComeBack(choice: String) throws {
        let shop = try SnapshotShop.make()
        _ = try browse(shop, "/categories")
        let dismissed = try shop.post("/welcome", [("choice", choice), ("return_to", "/categories")])
        #expect(dismissed.status == 303)
        #expect(dismissed.header("Location") == "/categories")
        let cookie = try #require(dismissed.response.headers.values(for: "Set-Cookie").first { $0.hasPrefix("shoppable_welcomed=") })
        #expect(cookie.hasPrefix("shoppable_welcomed=\(choice == "done" ? "done" : "skipped");"))
        #expect(cookie.contains("Max-Age=31536000"))
        #expect(!cookie.contains("HttpOnly"), "app.js reads it to drop an introduction from a page kept offline")
        for target in ["/", "/categories", "/products/oak-chair", "/campaigns"] {
            let page = try browse(shop, target)
            #expect(page.status == 200)
            #expect(!page.text.contains("data-welcome"), "\(target) after \(choice)")
        }
    }

    @Test func dismissingFromAnotherSiteIsRefusedAndGoesNowhereElse() throws {
        let shop = try SnapshotShop.make()
        #expect(try shop.send(.post, "/welcome", form: [("choice", "skip")], headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        let offSite = try shop.post("/welcome", [("choice", "skip"), ("return_to", "//evil.example/")])
        #expect(offSite.header("Location") == "/")
        let json = try shop.send(.post, "/welcome", form: [("choice", "done")], headers: ["Accept": "application/json"])
        #expect(json.status == 200 && json.text == #"{"welcomed":"done"}"#)
    }

    @Test(arguments: [
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Mozilla/5.0 (compatible; YandexSpider/3.0)",
        "curl/8.5.0", "Python-urllib/3.11", "",
    ])
    func crawlersAndScriptsNeverSeeTheIntroduction(userAgent: String) throws {
        let shop = try SnapshotShop.make()
        let home = try browse(shop, "/", userAgent: userAgent)
        #expect(home.status == 200)
        #expect(!home.text.contains("data-welcome"))
    }

    @Test func noUserAgentAtAllIsNotABrowser() throws {
        #expect(Onboarding.isAutomated(userAgent: nil))
        #expect(!Onboarding.isAutomated(userAgent: Self.chrome))
        #expect(!Onboarding.isAutomated(userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36"))
    }

    @Test func theAPIAndTheAccountAndCheckoutPagesNeverShowIt() throws {
        let shop = try SnapshotShop.make()
        for target in ["/api/products", "/api/v1/products", "/account/sign-in", "/cart", "/offline", "/nope"] {
            let answer = try browse(shop, target)
            #expect(!answer.text.contains("data-welcome"), "\(target)")
        }
    }

    /// The page cache keeps pages without the introduction: a visitor who dismissed it gets the
    /// cached document as before, and a new visitor after them still gets it.
    @Test func theDecisionNeverLeaksThroughThePageCache() throws {
        let shop = try SnapshotShop.make()
        let dismissed = try shop.visitor()
        dismissed.cookies[Onboarding.cookie] = "done"
        let crawler = try browse(try shop.visitor(), "/categories", userAgent: "Googlebot/2.1")
        #expect(try browse(shop, "/categories").text.contains("data-welcome"))
        #expect(!(try browse(dismissed, "/categories").text.contains("data-welcome")))
        #expect(try browse(try shop.visitor(), "/categories").text.contains("data-welcome"))
        #expect(!(try browse(dismissed, "/categories").text.contains("data-welcome")))
        // Without the introduction, the page is what it was before onboarding existed.
        #expect(try browse(dismissed, "/categories").text.replacing(/value="[^"]+"/, with: "")
                == crawler.text.replacing(/value="[^"]+"/, with: ""))
    }

    // MARK: Service worker, manifest, offline page

    @Test func theServiceWorkerIsServedFromTheRootWithItsVersionAndShell() throws {
        let shop = try SnapshotShop.make()
        shop.environment.assets = .bundled
        let worker = try shop.get("/sw.js")
        #expect(worker.status == 200)
        #expect(worker.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(worker.header("Service-Worker-Allowed") == "/")
        #expect(worker.header("Cache-Control") == "no-cache")
        #expect(worker.header("Content-Security-Policy") != nil)
        let assets = Assets.bundled
        #expect(worker.text.hasPrefix("self.SHOPPABLE = {\"version\":\"\(AppShell.version(assets))\",\"offline\":\"/offline\""))
        for url in [assets.stylesheetPath, assets.scriptPath, assets.versionedPath("images/icon-192.png"), "/offline"] {
            #expect(worker.text.contains("\"\(url)\""))
        }
        #expect(worker.text.contains("addEventListener(\"fetch\""))
        let etag = try #require(worker.header("ETag"))
        #expect(try shop.send(.get, "/sw.js", headers: ["If-None-Match": etag]).status == 304)
    }

    @Test func theCacheVersionChangesWithAnyShippedFile() throws {
        var files = Assets.bundled.files
        let before = AppShell.version(Assets(files: files))
        var css = try #require(files["app.css"])
        css.bytes += Array("\n/* changed */".utf8)
        css.etag = Assets.etag(for: css.bytes)
        files["app.css"] = css
        #expect(AppShell.version(Assets(files: files)) != before)
    }

    @Test func withoutTheScriptShippedThereIsNoWorker() throws {
        let shop = try SnapshotShop.make()  // stand-in assets: no sw.js
        #expect(try shop.get("/sw.js").status == 404)
    }

    @Test func theManifestMakesTheShopInstallable() throws {
        let shop = try SnapshotShop.make()
        shop.environment.assets = .bundled
        let answer = try shop.get("/manifest.webmanifest")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/manifest+json")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(answer.response.body)) as? [String: Any])
        #expect(manifest["name"] as? String == "Shoppable")
        #expect(manifest["short_name"] as? String == "Shoppable")
        #expect(manifest["start_url"] as? String == "/")
        #expect(manifest["scope"] as? String == "/")
        #expect(manifest["display"] as? String == "standalone")
        #expect(manifest["theme_color"] as? String == "#fbf8f4")
        #expect(manifest["background_color"] as? String == "#fbf8f4")
        let icons = try #require(manifest["icons"] as? [[String: String]])
        #expect(Set(icons.map { "\($0["sizes"]!) \($0["purpose"]!)" }) == ["192x192 any", "512x512 any", "512x512 maskable"])
        for icon in icons {
            let image = try shop.get(try #require(icon["src"]))
            #expect(image.status == 200 && image.header("Content-Type") == "image/png", "\(icon)")
            #expect(image.response.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(image.header("Cache-Control") == "public, max-age=31536000, immutable")
        }
    }

    @Test func everyPageLinksTheManifestIconsAndThemeColoursAndCarriesTheHiddenOfflineBanner() throws {
        let shop = try SnapshotShop.make()
        shop.environment.assets = .bundled
        for target in ["/", "/cart", "/account/sign-in", "/nope"] {
            let page = try shop.get(target)
            #expect(page.text.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"), "\(target)")
            #expect(page.text.contains("<link rel=\"apple-touch-icon\" href=\"/static/images/apple-touch-icon.png\">"))
            #expect(page.count("<meta name=\"theme-color\"") == 2)
            #expect(page.text.contains("data-offline-banner=\"\""))
            #expect(page.text.contains("data-reason=\"\(Localizer()(.offlineActionReason))\""))
        }
        #expect(try shop.get("/static/images/apple-touch-icon.png").status == 200)
    }

    @Test func theOfflinePageIsASmallPageOfTheShop() throws {
        let shop = try SnapshotShop.make()
        let page = try browse(shop, "/offline")
        #expect(page.status == 200)
        #expect(page.header("Cache-Control") == "no-cache")
        #expect(page.text.contains("<h1>\(Localizer()(.offlineTitle))</h1>"))
        #expect(page.text.contains("data-offline-retry"))
        #expect(page.text.contains("class=\"tab-bar\""))
    }
}

/// `Assets.load` reads what `Public` holds: every regular file by its path, nothing hidden, no folder.
@Suite("shipped files loaded from a folder")
struct AssetsLoadTests {
    @Test func everyRegularFileIsLoadedByItsPathAndHiddenOnesAreNot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = ["app.css": "body{}", "images/demo/oak.chair.svg": "<svg/>", "images/icon.png": "PNG",
                     ".hidden": "x", "images/.DS_Store": "x", ".git/config": "x", "no-extension": "plain"]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let assets = Assets.load(from: root)
        #expect(Set(assets.files.keys) == ["app.css", "images/demo/oak.chair.svg", "images/icon.png", "no-extension"])
        #expect(assets.files["images/demo/oak.chair.svg"]?.contentType == "image/svg+xml")
        #expect(assets.files["images/icon.png"]?.contentType == "image/png")
        #expect(assets.files["no-extension"]?.contentType == "application/octet-stream")
        #expect(assets.files["app.css"]?.bytes == Array("body{}".utf8))
        #expect(assets.files["app.css"]?.etag == Assets.etag(for: Array("body{}".utf8)))
        #expect(assets.stylesheetPath.hasPrefix("/static/app.css?v="))
    }

    @Test func theBundledFilesAreAllThere() {
        #expect(Assets.bundled.files["app.css"] != nil && Assets.bundled.files["app.js"] != nil)
        #expect(Assets.bundled.files.keys.contains { $0.hasPrefix("images/demo/") })
    }
}
