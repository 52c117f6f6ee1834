public import Foundation
import ShopAPI
import ShopClient
import ShopCore
public import ShopKit

/// A whole shopping trip through ShopKit's view models, headless, against a running shop (issue
/// #12, point 4): onboarding, register, verify, sign in, home, categories, a category, a search,
/// a heart, a product page, add and quick add, a campaign's voucher, the address book, checkout
/// and the order. Each screen prints itself as text through ``print``.
///
/// The tour picks what it visits from what the shop has (the first category with products, a
/// word of its first product's title, the first campaign with a code, the first shipping
/// method), so it runs against the demo shop as against a test shop. `TourTests` runs it against
/// `LiveShop` in `make test`; `shoppable-tour URL` runs it against a server.
@MainActor
public struct Tour {
    /// Where each screen's text goes.
    public var print: (String) -> Void
    /// The token of the verification email sent to an address, when the tour can read the
    /// shop's mail (a test shop's outbox); nil skips confirming the address.
    public var verificationToken: ((String) async throws -> String?)?
    /// The time checkout's countdown reads (the shop's clock).
    public var now: @Sendable () -> Date
    /// The shop's time zone (dates and the hold's end).
    public var timeZone: TimeZone
    private var screens = 0

    /// A tour printing through `print`.
    public init(print: @escaping (String) -> Void = { Swift.print($0) },
                verificationToken: ((String) async throws -> String?)? = nil,
                now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current) {
        self.print = print
        self.verificationToken = verificationToken
        self.now = now
        self.timeZone = timeZone
    }

    /// A step that did not go as a shopper expects.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, and the screen's text then.
        public var description: String
    }

    /// What the trip ended with.
    public struct Result: Sendable {
        /// The account registered.
        public var email: String
        /// Whether the address was confirmed.
        public var verified: Bool
        /// The voucher code used, if the shop had one.
        public var voucherCode: String?
        /// The order placed, as checkout showed it.
        public var order: OrderDetail
        /// The review's charges just before placing.
        public var reviewed: ChargeLines
        /// The order as the orders screen shows it afterwards.
        public var listed: OrderDetail?
        /// The cart's badge after the order.
        public var cartBadgeAfter: Int
        /// How many screens were printed.
        public var screens: Int
    }

    private mutating func show(_ screen: String) {
        screens += 1
        print("── \(screens) " + String(repeating: "─", count: 60) + "\n" + screen)
    }

    private func check(_ condition: Bool, _ what: String, _ screen: @autoclosure () -> String) throws(Failure) {
        if !condition { throw Failure(description: "\(what)\n\(screen())") }
    }

    /// Runs the trip for `app` (a new install: no session).
    /// - Parameters:
    ///   - app: the app model, over the shop's live operations.
    ///   - settings: the store the list layout is remembered in.
    ///   - email: the account to register.
    ///   - password: its password.
    /// - Returns: what the trip ended with.
    /// - Throws: ``Failure`` naming the step that failed.
    public mutating func run(app: AppModel, settings: any KeyValueStore, email: String,
                             password: String = "Blue9sky!") async throws -> Result {
        let language = app.language, connectivity = app.connectivity, timeZone = timeZone

        // Onboarding, once.
        show(app.tourSnapshot)
        if app.showsOnboarding { app.finishOnboarding() }
        await app.start()
        show(app.tourSnapshot)

        // Register: live validation first.
        let register = RegisterModel(shop: app.shop, language: language, connectivity: connectivity)
        register.name = "Ana Lima"
        register.email = "ana@example"
        register.password = "ana12345"
        register.passwordConfirmation = "ana1234"
        show(register.snapshot)
        try check(!register.canRegister, "an invalid form could be sent", register.snapshot)
        register.email = email
        register.password = password
        register.passwordConfirmation = password
        await register.register()
        show(register.snapshot)
        guard case .registered = register.stage else { throw Failure(description: "registering failed\n\(register.snapshot)") }

        // Verify through the emailed link's token.
        if let verificationToken, let token = try await verificationToken(email) {
            await register.confirmEmail(token: token)
            show(register.snapshot)
        } else {
            show("[Verify] skipped: the link went to \(email)")
        }

        // Sign out, sign in again.
        await app.signOut()
        let signIn = SignInModel(shop: app.shop, language: language, connectivity: connectivity)
        signIn.email = email
        signIn.password = password
        await signIn.signIn()
        show(signIn.snapshot)
        try check(signIn.status == .signedIn && app.isSignedIn, "signing in failed", signIn.snapshot)

        // Home.
        let home = HomeModel(shop: app.shop, cart: app.cart, favorites: app.favorites)
        await home.load()
        show(home.tourSnapshot)

        // Categories, a category, a search.
        let categories = CategoriesModel(shop: app.shop, language: language, connectivity: connectivity)
        await categories.load()
        show(categories.snapshot)
        guard let category = categories.visible.first(where: { $0.productCount > 0 }) else {
            throw Failure(description: "no category has products\n\(categories.snapshot)")
        }
        categories.query = String(category.name.prefix(4))
        show(categories.snapshot)
        let list = ProductListModel(category: category.handle, shop: app.shop, cart: app.cart, favorites: app.favorites,
                                    settings: settings)
        await list.load()
        show(list.tourSnapshot(category.name))
        guard let first = list.cards.first(where: { !$0.soldOut }) else {
            throw Failure(description: "nothing to buy in \(category.name)\n\(list.tourSnapshot(category.name))")
        }
        let word = first.title.split(separator: " ").first.map(String.init) ?? first.title
        let search = ProductListModel(search: word, shop: app.shop, cart: app.cart, favorites: app.favorites, settings: settings)
        await search.load()
        show(search.tourSnapshot("Search “\(word)”"))
        try check(search.cards.contains { $0.id == first.id }, "the search misses “\(first.title)”", search.tourSnapshot(word))

        // A heart, the product page, add; a quick add.
        await search.toggleFavorite(first)
        show(app.favorites.tourSnapshot)
        try check(app.favorites.isFavorite(first.id), "the heart did not stay", app.favorites.tourSnapshot)
        let detail = ProductDetailModel(handle: first.handle, shop: app.shop, cart: app.cart, favorites: app.favorites)
        await detail.load()
        detail.quantity = 2
        show(detail.tourSnapshot)
        try check(await detail.addToCart(), "adding failed", detail.tourSnapshot)
        if let other = list.cards.first(where: { $0.id != first.id && !$0.soldOut }) {
            try check(await list.quickAdd(other), "quick add failed", app.cart.tourSnapshot)
        }
        show(app.cart.tourSnapshot)

        // Campaigns and a voucher.
        let campaigns = CampaignsModel(shop: app.shop, language: language, timeZone: timeZone, connectivity: connectivity)
        await campaigns.load()
        show(campaigns.snapshot)
        var voucherCode: String?
        if let campaign = campaigns.state.value?.first(where: { $0.voucherCode != nil }), let code = campaign.voucherCode {
            let page = CampaignDetailModel(handle: campaign.id, shop: app.shop, language: language, timeZone: timeZone,
                                           connectivity: connectivity)
            await page.load()
            show(page.snapshot)
            if await app.cart.applyVoucher(code) { voucherCode = code }
            show(app.cart.tourSnapshot)
        }

        // The address book: a refused form, then a default address.
        let book = AddressBookModel(shop: app.shop, language: language, connectivity: connectivity)
        await book.load()
        var form = AddressForm(values: [.firstName: "Ana", .lastName: "Lima", .phone: "12", .line1: "1 Main St",
                                        .city: "Springfield", .postalCode: "12345", .countryCode: "US"], isDefault: true)
        try check(await book.save(form) == false, "a bad phone was saved", book.snapshot)
        show(book.snapshot + "\n  form: " + book.fieldErrors.map { "\($0.key.rawValue): \($0.value.joined(separator: " "))" }
            .joined(separator: "; "))
        form[.phone] = "+1 555 0100"
        try check(await book.save(form), "saving the address failed", book.snapshot)
        show(book.snapshot)
        guard let address = book.state.value?.first else { throw Failure(description: "no address\n\(book.snapshot)") }

        // Checkout: address → shipping → review (held) → order.
        let checkout = CheckoutModel(shop: app.shop, language: language, timeZone: timeZone, connectivity: connectivity,
                                     now: now, orderPlaced: { [cart = app.cart] _ in await cart.load() })
        await checkout.start()
        show(checkout.snapshot)
        await checkout.useSavedAddress(address.id)
        show(checkout.snapshot)
        guard checkout.step == .shipping, let method = checkout.shippingOptions.last else {
            throw Failure(description: "no shipping step\n\(checkout.snapshot)")
        }
        await checkout.chooseShipping(method.id)
        show(checkout.snapshot)
        guard checkout.canPlaceOrder, let reviewed = checkout.review?.charges else {
            throw Failure(description: "no review to place\n\(checkout.snapshot)")
        }
        await checkout.placeOrder()
        show(checkout.snapshot)
        guard checkout.step == .placed, let order = checkout.order else { throw Failure(description: "no order\n\(checkout.snapshot)") }
        show(app.cart.tourSnapshot)

        // Orders.
        let orders = OrdersModel(shop: app.shop, language: language, timeZone: timeZone, connectivity: connectivity)
        await orders.load()
        await orders.open(order.number)
        show(orders.snapshot)
        print("── the tour ends after \(screens) screens " + String(repeating: "─", count: 40))
        return Result(email: email, verified: register.verification == .verified, voucherCode: voucherCode, order: order,
                      reviewed: reviewed, listed: orders.detail.value, cartBadgeAfter: app.cartBadge, screens: screens)
    }
}

// Text for the shared models, for the tour's log.

extension AppModel {
    var tourSnapshot: String {
        "[App] session: \(session), onboarding: \(showsOnboarding ? "shown" : "done"), language: \(language.rawValue), "
            + "network: \(network), badges: cart \(cartBadge), favorites \(favoritesBadge)"
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
