import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

@Suite("Page cache")
struct PageCacheTests {
    private let lamp = ProductDraft.mock(handle: "lamp", title: "Desk Lamp", category: "Lamps",
                                         variants: [.mock(sku: "L", price: .usd(40_00), inventory: .tracked(quantity: 5, allowsBackorder: false))])

    @Test func catalogChangesShowOnTheNextRequest() throws {
        let shop = try TestShop([lamp])
        #expect(try shop.get("/products/lamp").text.contains("$40.00"))
        #expect(try shop.get("/categories/lamps").text.contains("Desk Lamp"))
        #expect(shop.environment.pageCache.count == 2)
        var cheaper = lamp
        cheaper.title = "Reading Lamp"
        cheaper.variants[0].price = .usd(35_00)
        _ = try shop.catalog.upsert([cheaper])
        #expect(try shop.get("/products/lamp").text.contains("$35.00"))
        #expect(try shop.get("/categories/lamps").text.contains("Reading Lamp"))
    }

    @Test func cachedPagesStillShowEachVisitorTheirOwnBadgeAndMessages() throws {
        let shop = try TestShop([lamp])
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "2")])
        let mine = try shop.get("/products/lamp")
        #expect(mine.text.contains("data-cart-count=\"2\"") && mine.text.contains("Added Desk Lamp"))
        let stranger = try TestShop([lamp])
        stranger.environment.pageCache = shop.environment.pageCache
        let theirs = try stranger.get("/products/lamp")
        #expect(theirs.text.contains("data-cart-count=\"0\" hidden"))
        #expect(!theirs.text.contains("Added Desk Lamp"))
    }

    @Test func missingPagesAreNotCached() throws {
        let shop = try TestShop([lamp])
        #expect(try shop.get("/products/nope").status == 404)
        #expect(try shop.get("/categories/lamps?page=5").status == 404)
        #expect(shop.environment.pageCache.count == 0)
    }

    @Test func aCacheOfZeroPagesStillServesEverything() throws {
        let shop = try TestShop([lamp])
        shop.environment.pageCache = PageCache(capacity: 0)
        #expect(try shop.get("/products/lamp").status == 200)
        #expect(shop.environment.pageCache.count == 0)
    }
}

@Suite("Page cache: whole documents")
struct DocumentCacheTests {
    private let lamp = ProductDraft.mock(handle: "lamp", title: "Desk Lamp", category: "Lamps")

    @Test func anonymousVisitorsGetTheSameDocumentAndShoppersTheirOwn() throws {
        let shop = try TestShop([lamp])
        let first = try shop.get("/products/lamp")
        let second = try shop.get("/products/lamp")
        // The same bytes: a visitor without a session gets no CSRF token in forms (`RequestSite`).
        #expect(first.text == second.text && !first.text.contains("csrf_token"))
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "3")])
        let shopper = try shop.get("/products/lamp")
        #expect(shopper.text.contains("data-cart-count=\"3\"") && shopper.text.contains("Added Desk Lamp"))
        let stranger = try TestShop([lamp])
        stranger.environment.pageCache = shop.environment.pageCache
        #expect(try stranger.get("/products/lamp").text.contains("data-cart-count=\"0\" hidden"))
    }

    @Test func cachedDocumentsFollowCatalogChanges() throws {
        let shop = try TestShop([lamp])
        _ = try shop.get("/categories/lamps")
        var renamed = lamp
        renamed.title = "Floor Lamp"
        _ = try shop.catalog.upsert([renamed])
        #expect(try shop.get("/categories/lamps").text.contains("Floor Lamp"))
    }
}
