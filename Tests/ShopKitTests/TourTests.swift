import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// The tour (issue #12, point 4): the view models, driven headlessly as a shopper's taps would,
/// through a whole trip against the real server on a free port — onboarding, register, verify
/// (the token from the outbox), sign in, browse, search, favorite, add, voucher, address,
/// checkout, order. Each screen prints itself as text, so the test log reads as the trip.
@MainActor
@Suite("ShopKit: the tour")
struct TourTests {
    @Test func aShopperGoesFromOnboardingToAPlacedOrder() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let clock = live.shop.clock, utc = TimeZone(identifier: "UTC")!
        live.shop.environment.shippingMethods = [
            ShippingMethod(id: "standard", name: "Standard", price: .usd(4_90), freeAbove: .usd(500_00)),
            ShippingMethod(id: "express", name: "Express", price: .usd(12_00)),
        ]
        _ = try live.shop.campaigns.replaceAll([
            Campaign(id: Campaign.ID(rawValue: "tour10"), title: "Tour week", description: "10 % off everything",
                     imageURL: nil, startsAt: clock.now - 86_400, endsAt: clock.now + 6 * 86_400, discount: .percentage(10),
                     target: .wholeCart, minimumSubtotal: nil, voucherCode: VoucherCode("TOUR10")),
        ])
        var tour = TourLog()

        // Onboarding, shown once.
        let settings = MemoryKeyValueStore()
        let app = AppModel(shop: .live(live.client()), settings: settings, sessions: MemorySessionStore(), language: .english)
        tour.show(app.snapshot)
        #expect(app.showsOnboarding)
        app.finishOnboarding()
        await app.start()
        tour.show(app.snapshot)
        #expect(!app.showsOnboarding)

        // Register: live validation first, then the account (which signs in).
        let register = RegisterModel(shop: app.shop, language: app.language, connectivity: app.connectivity)
        register.name = "Ana Lima"
        register.email = "ana@example"
        register.password = "ana12345"
        register.passwordConfirmation = "ana1234"
        tour.show(register.snapshot)
        #expect(!register.canRegister)
        register.email = "ana@example.com"
        register.password = "Blue9sky!"
        register.passwordConfirmation = "Blue9sky!"
        await register.register()
        tour.show(register.snapshot)
        guard case .registered = register.stage else { Issue.record("\(register.stage)"); return }
        #expect(app.session == .signedIn && register.verification == .unverified)

        // Verify: the token of the emailed link, as a universal link would bring it.
        let email = try #require(try live.shop.outbox().last { $0.draft.toAddress == "ana@example.com" })
        let token = String(try #require(email.draft.textBody.firstMatch(of: /token=([A-Za-z0-9_\-]+)/)).1)
        await register.confirmEmail(token: token)
        tour.show(register.snapshot)
        #expect(register.verification == .verified)

        // Sign out, sign in again.
        await app.signOut()
        #expect(app.session == .none)
        let signIn = SignInModel(shop: app.shop, language: app.language, connectivity: app.connectivity)
        signIn.email = "ana@example.com"
        signIn.password = "Blue9sky!"
        await signIn.signIn()
        tour.show(signIn.snapshot)
        #expect(signIn.status == .signedIn && app.session == .signedIn)

        // Home: banners, categories, featured products, then the recommendations.
        let homeScreen = HomeModel(shop: app.shop, cart: app.cart, favorites: app.favorites)
        await homeScreen.load()
        tour.show(homeScreen.tourSnapshot)
        #expect(homeScreen.state.value?.banners.map(\.id) == ["tour10"])
        await homeScreen.toggleRecommendations()
        tour.show(homeScreen.tourSnapshot)

        // Browse: categories, a category's products, a search.
        let categories = CategoriesModel(shop: app.shop, language: app.language, connectivity: app.connectivity)
        await categories.load()
        tour.show(categories.snapshot)
        #expect(categories.visible.map(\.name).sorted() == ["Lamps", "Men's chairs"])
        categories.query = "lamp"
        tour.show(categories.snapshot)
        let lamps = ProductListModel(category: "lamps", shop: app.shop, cart: app.cart, favorites: app.favorites, settings: settings)
        await lamps.load()
        tour.show(lamps.tourSnapshot("Lamps"))
        #expect(lamps.cards.count == 2)
        let search = ProductListModel(search: "chair", shop: app.shop, cart: app.cart, favorites: app.favorites, settings: settings)
        await search.load()
        tour.show(search.tourSnapshot("Search “chair”"))
        let chair = try #require(search.cards.first { $0.handle == "oak-chair" })

        // Favorite it, open it, add it; quick-add a lamp.
        await search.toggleFavorite(chair)
        tour.show(app.favorites.tourSnapshot)
        #expect(app.favorites.isFavorite(chair.id) && app.favoritesBadge == 1)
        let detail = ProductDetailModel(handle: chair.handle, shop: app.shop, cart: app.cart, favorites: app.favorites)
        await detail.load()
        detail.quantity = 2
        tour.show(detail.tourSnapshot)
        #expect(await detail.addToCart())
        let lamp = try #require(lamps.cards.first { $0.handle == "arc-lamp" })
        #expect(await lamps.quickAdd(lamp))
        tour.show(app.cart.tourSnapshot)
        #expect(app.cartBadge == 3)

        // The campaign and its voucher.
        let campaigns = CampaignsModel(shop: app.shop, language: app.language, timeZone: utc, connectivity: app.connectivity)
        await campaigns.load()
        tour.show(campaigns.snapshot)
        let code = try #require(campaigns.state.value?.first?.voucherCode)
        let campaign = CampaignDetailModel(handle: "tour10", shop: app.shop, language: app.language, timeZone: utc,
                                           connectivity: app.connectivity)
        await campaign.load()
        tour.show(campaign.snapshot)
        #expect(await app.cart.applyVoucher(code))
        tour.show(app.cart.tourSnapshot)
        let cart = try #require(app.cart.cart)
        #expect(cart.discount.minorUnits == (2 * 129_00 + 49_90) / 10)

        // The address book: an invalid form, then the home address as default.
        let book = AddressBookModel(shop: app.shop, language: app.language, connectivity: app.connectivity)
        await book.load()
        var form = AddressForm(values: [.firstName: "Ana", .lastName: "Lima", .phone: "12", .line1: "1 Main St",
                                        .city: "Springfield", .postalCode: "12345", .countryCode: "US"], isDefault: true)
        #expect(await book.save(form) == false)
        tour.show(book.snapshot + "\n  form: " + book.fieldErrors.map { "\($0.key.rawValue): \($0.value.joined())" }.joined())
        form[.phone] = "+1 555 0100"
        #expect(await book.save(form))
        tour.show(book.snapshot)
        let home = try #require(book.state.value?.first)

        // Checkout: address → shipping → review (held, counting down) → order.
        let checkout = CheckoutModel(shop: app.shop, language: app.language, timeZone: utc, connectivity: app.connectivity,
                                     now: { clock.now },
                                     orderPlaced: { _ in await app.cart.load() })
        await checkout.start()
        tour.show(checkout.snapshot)
        #expect(checkout.step == .address && checkout.savedAddresses.map(\.id) == [home.id])
        await checkout.useSavedAddress(home.id)
        tour.show(checkout.snapshot)
        #expect(checkout.step == .shipping)
        await checkout.chooseShipping("express")
        clock.advance(by: 60)
        checkout.tick()
        tour.show(checkout.snapshot)
        #expect(checkout.step == .review && checkout.canPlaceOrder)
        let review = try #require(checkout.review)
        #expect(review.charges.voucherCode == "TOUR10" && review.charges.shippingMethod == "Express")
        await checkout.placeOrder()
        tour.show(checkout.snapshot)
        #expect(checkout.step == .placed)
        let order = try #require(checkout.order)
        #expect(order.charges.total == review.charges.total, "the order charges what the review showed")
        tour.show(app.cart.tourSnapshot)
        #expect(app.cartBadge == 0)

        // Orders: the list and the order.
        let orders = OrdersModel(shop: app.shop, language: app.language, timeZone: utc, connectivity: app.connectivity)
        await orders.load()
        await orders.open(order.number)
        tour.show(orders.snapshot)
        #expect(orders.state.value?.map(\.number) == [order.number])
        #expect(orders.detail.value?.charges == order.charges)
        tour.finish()
    }
}

/// The tour's log: each screen's text, printed as it is shown.
struct TourLog {
    private var step = 0

    mutating func show(_ screen: String) {
        step += 1
        print("── \(step) " + String(repeating: "─", count: 60) + "\n" + screen)
    }

    func finish() { print("── the tour ends after \(step) screens " + String(repeating: "─", count: 40)) }
}

// Text for the shared models (kit-core's), for the tour's log.

extension AppModel {
    var snapshot: String {
        "[App] session: \(session), onboarding: \(showsOnboarding ? "shown" : "done"), language: \(language.rawValue), "
            + "network: \(network), badges: cart \(cartBadge), favorites \(favoritesBadge)"
    }
}

extension CartModel {
    var tourSnapshot: String {
        guard case let .loaded(cart) = state else { return "[Cart] \(state)" }
        var lines = ["[Cart] \(cart.itemCount) item(s)"]
        lines += cart.lines.map { "  \($0.quantity) × \($0.title) — \($0.total)" }
        if let voucher = cart.voucher {
            lines.append("  voucher \(voucher.code): \(voucher.isApplied ? "applied" : "not applied")"
                         + (voucher.message.map { " — \($0)" } ?? ""))
        }
        lines.append("  subtotal \(cart.subtotal)" + (cart.discount.map { ", discount −\($0)" } ?? "") + ", total \(cart.total)")
        return lines.joined(separator: "\n")
    }
}

extension HomeModel {
    var tourSnapshot: String {
        guard case let .loaded(home) = state else { return "[Home] \(state)" }
        var lines = ["[Home]"] + home.banners.map { "  banner: \($0.title)" + ($0.voucherCode.map { " (code \($0))" } ?? "") }
        lines.append("  categories: " + home.categories.map { "\($0.name) (\($0.productCount))" }.joined(separator: ", "))
        lines.append("  \(showsRecommendations ? "recommended" : "featured"): "
                     + home.products.map { "\($0.title) \($0.price ?? "")" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}

extension FavoritesModel {
    var tourSnapshot: String {
        guard case let .loaded(cards) = state else { return "[Favorites] \(state)" }
        return (["[Favorites]"] + cards.map { "  ♥ \($0.title) \($0.price ?? "")" }).joined(separator: "\n")
    }
}

extension ProductListModel {
    func tourSnapshot(_ title: String) -> String {
        guard case let .loaded(cards) = state else { return "[\(title)] \(state)" }
        return (["[\(title)] \(layout) layout"] + cards.map { card in
            "  \(isFavorite(card) ? "♥" : "♡") \(card.title) \(card.price ?? "")\(card.soldOut ? " (sold out)" : "")"
        }).joined(separator: "\n")
    }
}

extension ProductDetailModel {
    var tourSnapshot: String {
        guard let product else { return "[Product] \(state)" }
        return "[Product] \(product.title) \(price ?? "") — \(available.map { "\($0) in stock" } ?? "stock unknown"), "
            + "quantity \(quantity)\(isFavorite ? ", ♥" : "")"
    }
}
