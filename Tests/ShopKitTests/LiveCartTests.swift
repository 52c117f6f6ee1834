import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import ShopStore
import ShopTestSupport
import Testing

/// The shared models against the real server on a free port.
@MainActor
@Suite("ShopKit against the live server")
struct LiveCartTests {
    @Test func aGuestAddsChangesAndEntersVouchersThroughTheOneCart() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let now = live.shop.clock.now
        _ = try live.shop.campaigns.replaceAll([
            Campaign(id: Campaign.ID(rawValue: "save15"), title: "15 % off", description: "", imageURL: nil,
                     startsAt: now - 86_400, endsAt: now + 86_400, discount: .percentage(15), target: .wholeCart,
                     minimumSubtotal: nil, voucherCode: VoucherCode("SAVE15")),
        ])
        let sessions = MemorySessionStore()
        let app = AppModel(shop: .live(live.client()), settings: MemoryKeyValueStore(), sessions: sessions,
                           language: .english)
        await app.start()
        guard case .empty = app.cart.state else { Issue.record("\(app.cart.state)"); return }

        #expect(await app.cart.add(product: "arc-lamp", quantity: 2))
        #expect(app.session == .guest && sessions.load()?.kind == .guest && app.cartBadge == 2)
        #expect(app.cart.state.value?.total == "$99.80")

        let line = try #require(app.cart.lines.first)
        await app.cart.increase(line)
        #expect(app.cart.lines.first?.quantity == 3 && app.cart.state.value?.total == "$149.70")
        await app.cart.setQuantity(500, forLine: line.id)   // over the per-line maximum: refused
        let english = try #require(app.cart.errorMessage)
        #expect(app.cart.lines.first?.quantity == 3)
        app.cart.dismissError()

        #expect(await app.cart.applyVoucher("NOPE") == false)
        #expect(app.cart.state.value?.voucher?.isApplied == false && app.cart.state.value?.voucher?.message != nil)
        #expect(await app.cart.applyVoucher("SAVE15"))
        // 15 % of $149.70 is $22.455: the server's rounding, shown as it priced it.
        let priced = try #require(app.cart.state.value)
        #expect(priced.voucher?.campaign == "15 % off" && priced.discount != nil)
        #expect(priced.total == app.cart.cart?.total.text(in: Locale(identifier: "en_US")))

        // The server's messages follow the app's language.
        await app.setLanguage(.turkish)
        await app.cart.setQuantity(500, forLine: line.id)
        let turkish = try #require(app.cart.errorMessage)
        #expect(turkish != english)

        await app.cart.remove(line.id)
        guard case .empty = app.cart.state else { Issue.record("\(app.cart.state)"); return }
        #expect(app.cartBadge == 0)
    }
}

/// Home, a list and favorites against the real server.
@MainActor
@Suite("ShopKit browsing against the live server")
struct LiveBrowsingTests {
    @Test func homeListAndHeartsGoThroughTheRealAPI() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let app = AppModel(shop: .live(live.client()), settings: MemoryKeyValueStore(), language: .english)
        let home = HomeModel(shop: app.shop, cart: app.cart, favorites: app.favorites)
        await home.load()
        let content = try #require(home.state.value)
        #expect(content.categories.count == 2 && content.categories.first { $0.id == "lamps" }?.productCount == 2)
        #expect(Set(content.products.map(\.handle)) == ["oak-chair", "arc-lamp", "desk-lamp"])

        let lamps = ProductListModel(category: "lamps", shop: app.shop, cart: app.cart, favorites: app.favorites,
                                     settings: MemoryKeyValueStore(), pageSize: 1)
        await lamps.load()
        #expect(lamps.cards.count == 1 && lamps.hasMore && lamps.totalCount == 2)
        await lamps.loadMore()
        #expect(Set(lamps.cards.map(\.handle)) == ["arc-lamp", "desk-lamp"] && !lamps.hasMore)

        // The first heart starts a guest session; the arc lamp then leaves the recommendations once in the cart.
        let arc = try #require(lamps.cards.first { $0.handle == "arc-lamp" })
        await lamps.toggleFavorite(arc)
        #expect(app.session == .guest && app.favorites.isFavorite(arc.id) && app.favoritesBadge == 1)
        #expect(await lamps.quickAdd(arc))
        await home.setShowsRecommendations(true)
        #expect(home.showsRecommendations && home.state.value?.products.contains { $0.handle == "arc-lamp" } == false)
        await app.favorites.load()
        #expect(app.favorites.state.value?.map(\.handle) == ["arc-lamp"])

        let detail = ProductDetailModel(handle: "oak-chair", shop: app.shop, cart: app.cart, favorites: app.favorites)
        await detail.load()
        #expect(detail.price == "$129.00" && detail.canAddToCart)
        detail.quantity = 2
        #expect(await detail.addToCart())
        #expect(app.cartBadge == 3)
    }

    /// Issue #13, point 2, for a native app: a WooCommerce "any" variant (one SKU, sizes S, M, L
    /// picked by the shopper) is chosen in the product page's picker, each pick is added as its
    /// own line, and each line is changed and removed on its own — through the real server.
    @Test(.bug(id: "13")) func anOpenVariantIsPickedAddedAndChangedLineByLine() async throws {
        let live = try LiveShop(LiveShop.catalog + [.openTee()])
        defer { live.stop() }
        let app = AppModel(shop: .live(live.client()), settings: MemoryKeyValueStore(), sessions: MemorySessionStore(),
                           language: .english)
        await app.start()
        let detail = ProductDetailModel(handle: "tee", shop: .live(live.client()), cart: app.cart, favorites: app.favorites)
        await detail.load()
        #expect(detail.options.map(\.name) == ["Size"])
        #expect(detail.options.first?.values.map(\.name) == ["S", "M", "L"], "the allowed values, not an empty one")
        #expect(detail.chosen == ["S"] && detail.variant?.sku == "TEE-ANY")

        detail.choose("M", forOption: 0)
        detail.quantity = 2
        #expect(detail.variant?.sku == "TEE-ANY" && detail.canAddToCart)
        #expect(await detail.addToCart())
        detail.choose("L", forOption: 0)
        detail.quantity = 1
        #expect(await detail.addToCart())
        let m = [V1ChosenValue(option: "Size", value: "M")], l = [V1ChosenValue(option: "Size", value: "L")]
        #expect(app.cart.lines.map(\.chosenValues) == [m, l])
        #expect(app.cart.lines.map(\.variantTitle) == ["M", "L"] && app.cartBadge == 3)
        #expect(Set(app.cart.lines.map(\.id)).count == 2, "two lines of one variant")

        let large = try #require(app.cart.lines.last)
        await app.cart.increase(large)
        #expect(app.cart.lines.map(\.quantity) == [2, 2] && app.cart.errorMessage == nil)
        await app.cart.remove(try #require(app.cart.lines.first).id)
        #expect(app.cart.lines.map(\.chosenValues) == [l] && app.cartBadge == 2)
        await app.cart.load()   // the server's cart, read again
        #expect(app.cart.lines.map(\.chosenValues) == [l] && app.cart.lines.map(\.quantity) == [2])
    }
}
