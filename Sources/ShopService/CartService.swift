public import Foundation
public import ShopCore
public import ShopStore

/// The cart use cases — quote, add, set quantity, remove, select, voucher — for the storefront
/// and the JSON API alike. Every change is one conditional write per line in the store (issue #9:
/// simultaneous requests never lose each other's items), and every change releases the stock the
/// shopper's checkout held (the review holds it again).
///
/// ```swift
/// let carts = CartService(catalog: env.catalog, sessions: env.sessions, orders: env.orders,
///                         campaigns: env.campaigns, currency: .usd, now: Date.init)
/// try carts.add(product, variantID: nil, quantityText: "2", to: { shopper })
/// let quote = try carts.quote(for: shopper, userID: nil)   // one pricing pass
/// ```
public final class CartService: Sendable {
    public let catalog: CatalogStore
    public let sessions: SessionStore
    /// Stock holds (nil in a shop without checkout: nothing is held).
    public let orders: OrderStore?
    public let campaigns: CampaignStore
    /// The shop currency.
    public let currency: Currency
    public let now: @Sendable () -> Date
    /// The live holds' ends kept per catalog version (the environment's, shared by every
    /// request): with none live, stock needs no reading of holds. Nil: holds are read each time.
    public let holdEnds: SharedVersion?

    public init(catalog: CatalogStore, sessions: SessionStore, orders: OrderStore?, campaigns: CampaignStore,
                currency: Currency, now: @escaping @Sendable () -> Date, holdEnds: SharedVersion? = nil) {
        self.catalog = catalog
        self.sessions = sessions
        self.orders = orders
        self.campaigns = campaigns
        self.currency = currency
        self.now = now
        self.holdEnds = holdEnds
    }

    // MARK: Reading

    /// The shopper's cart (empty without a shopper).
    public func cart(of shopper: Shopper?) throws -> Cart {
        try shopper.map { try sessions.loadCart($0) } ?? Cart()
    }

    /// The cart priced in one pass: each line as the catalog holds it now with its stock net of
    /// other shoppers' holds, its amount and voucher share; the totals over the selected lines;
    /// the voucher decided now (a per-account usage limit counts the account's orders).
    /// - Parameters:
    ///   - cart: the shopper's cart, as loaded.
    ///   - shopper: whose holds do not count against them.
    ///   - userID: the signed-in account, or nil for a guest.
    public func quote(_ cart: Cart, shopper: Shopper?, userID: User.ID?) throws -> CartQuote {
        guard !cart.isEmpty else { return .empty(currency) }
        let products = try available(try catalog.productsByID(Array(Set(cart.lines.map(\.productID)))).map(\.value),
                                     to: shopper)
        let byID = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let campaign = try cart.voucherCode.flatMap { try campaigns.byVoucherCode($0) }
        // Category handles are read only when the campaign targets a category.
        var categoryHandles: [Category.ID: String] = [:]
        if case .category? = campaign?.target {
            categoryHandles = Dictionary(try catalog.categories().map { ($0.category.id, $0.category.handle) },
                                         uniquingKeysWith: { first, _ in first })
        }
        var items: [CartQuote.Item] = []
        var unavailable: [LineItem] = []
        for line in cart.lines {
            guard let product = byID[line.productID],
                  let variant = product.variants.first(where: { $0.id == line.variantID }),
                  product.stillOffers(line.chosen, for: variant) else {
                unavailable.append(line)
                continue
            }
            items.append(CartQuote.Item(product: product, variant: variant,
                                        categoryHandle: product.categoryID.flatMap { categoryHandles[$0] },
                                        quantity: line.quantity, isSelected: line.isSelected, chosen: line.chosen))
        }
        var quote = try CartPricing.price(items, voucherCode: cart.voucherCode, campaign: campaign, now: now(),
                                          currency: currency, accountUses: try voucherUses(of: campaign, by: userID))
        quote.unavailable = unavailable
        return quote
    }

    /// How many times the account used the campaign's code: 0 when the campaign has no
    /// per-account limit, nil for a guest when it has one.
    func voucherUses(of campaign: Campaign?, by userID: User.ID?) throws -> Int? {
        guard let campaign, campaign.usageLimitPerAccount != nil, let code = campaign.voucherCode else { return 0 }
        guard let userID else { return nil }
        return try orders?.voucherUses(userID, code.normalized) ?? 0
    }

    /// Items in the cart that can still be bought (the tab-bar badge), without pricing.
    public func itemCount(_ cart: Cart) throws -> Int {
        guard !cart.isEmpty else { return 0 }
        let products = try catalog.productsByID(Array(Set(cart.lines.map(\.productID))))
        return cart.lines.reduce(0) { count, line in
            let sold = products[line.productID]?.variants.contains { $0.id == line.variantID } ?? false
            return count + (sold ? line.quantity : 0)
        }
    }

    /// A page of the catalog as a list shows it (category and search pages, the API's product
    /// list): live holds are taken out of the in-stock filter and its count
    /// (`ProductQuery.heldOutProductIDs`) and out of each product's stock, so the filter keeps
    /// only what the cards offer — every hold for a list every visitor shares (`shopper` nil),
    /// every hold but `shopper`'s own for theirs (``mayHoldStock(_:)``).
    public func listing(_ query: ProductQuery, for shopper: Shopper? = nil) throws -> ProductPage {
        var query = query
        // Asked once for the page: both steps below need it (each asked it before, on every listing).
        let live = try hasLiveHolds()
        query.heldOutProductIDs = live ? try heldOutProducts(to: shopper) : []
        var page = try catalog.products(query)
        page.products = try available(page.products, to: shopper, liveHolds: live)
        return page
    }

    /// The published products with stock in hand that `shopper` (every visitor, for nil) sees
    /// sold out, because live holds (of others than `shopper`) take all of it
    /// (`Product.isSoldOut` before and after `available(_:to:)`, the one rule of "can be
    /// bought"). Only products with a hold are looked at: none on most pages.
    public func heldOutProducts(to shopper: Shopper? = nil) throws -> [Product.ID] {
        guard try hasLiveHolds(), let heldProducts = orders?.heldProducts else { return [] }
        let held = try heldProducts(now())
        guard !held.isEmpty else { return [] }
        let products = try catalog.productsByID(held)
        let inHand = held.compactMap { products[$0] }.filter { !$0.isSoldOut }
        return try available(inHand, to: shopper).filter(\.isSoldOut).map(\.id)
    }

    /// Whether lists may show a shopper something else than every visitor sees: a hold is live on
    /// a product of their cart — theirs (which stays buyable to them), or another shopper's.
    /// False for nearly every visitor: `cart` (theirs, loaded only when asked) and the held
    /// products are read only while a hold is live somewhere.
    public func mayHoldStock(_ cart: () throws -> Cart) throws -> Bool {
        guard try hasLiveHolds(), let heldProducts = orders?.heldProducts else { return false }
        let lines = try cart().lines
        guard !lines.isEmpty else { return false }
        let held = Set(try heldProducts(now()))
        return lines.contains { held.contains($0.productID) }
    }

    /// The products with each tracked variant's stock lowered by the live holds of everyone but
    /// `shopper` (all holds for nil: what a page shared by every visitor may promise).
    public func available(_ products: [Product], to shopper: Shopper?) throws -> [Product] {
        try available(products, to: shopper, liveHolds: nil)
    }

    /// ``available(_:to:)`` with whether a hold is live already known (nil: ask).
    private func available(_ products: [Product], to shopper: Shopper?, liveHolds: Bool?) throws -> [Product] {
        guard let availableToOthers = orders?.available else { return products }
        let limited = products.flatMap(\.variants).filter(\.inventory.isLimited)
        guard !limited.isEmpty else { return products }
        guard try liveHolds ?? hasLiveHolds() else {
            // Nothing held: the stock as read, as `OrderStore.available` would answer it (none
            // of an unpublished product's). A category page read the holds of its 48 variants
            // for this, 3 % of its CPU (issue #14).
            return products.map { product in
                guard !product.isPublished else { return product }
                var product = product
                for index in product.variants.indices where product.variants[index].inventory.isLimited {
                    product.variants[index].inventory = .tracked(quantity: 0, allowsBackorder: false)
                }
                return product
            }
        }
        let available = try availableToOthers(limited.map(\.id), shopper, now())
        return products.map { product in
            var product = product
            for index in product.variants.indices where product.variants[index].inventory.isLimited {
                if let count = available[product.variants[index].id] ?? nil {
                    product.variants[index].inventory = .tracked(quantity: count, allowsBackorder: false)
                }
            }
            return product
        }
    }

    /// `true` when the shop holds stock, unless the kept hold ends (`holdEnds`) say no hold is
    /// live now. Takes the store's one closure, not a copy of the store: a copy retains each of
    /// its closures, 1 % of a shopper's page (issue #14).
    private func hasLiveHolds() throws -> Bool {
        guard let readEnds = orders?.holdEnds else { return false }
        guard let holdEnds else { return true }
        return try holdEnds.hasLiveHolds(catalog: catalog, readingEnds: readEnds, now: now())
    }

    /// One variant of `product` with its stock net of the holds of everyone but `shopper`.
    public func available(_ variant: Variant, of product: Product, to shopper: Shopper?) throws -> Variant {
        guard variant.inventory.isLimited else { return variant }
        return try available([Product(id: product.id, handle: product.handle, title: product.title, variants: [variant])],
                             to: shopper)[0].variants[0]
    }

    // MARK: Changing

    /// Adds `quantityText` of a variant of `product` to the shopper's cart: the variant asked
    /// for, or the only one of a product without options. The checks that need no cart come
    /// first; the one against the variant's lines already in the cart is the store's conditional
    /// increment (all lines of a variant share its stock, whatever was chosen).
    /// - Parameters:
    ///   - picked: the values picked for the variant's open options (WooCommerce "any"), by option
    ///     name; checked by `Product.chosenValues(for:picked:)` and ignored for other variants.
    ///   - shopper: the visitor's shopper if they have one (their own hold is theirs to buy).
    ///   - start: when there is no shopper yet, starts the visitor's guest session with the
    ///     add as its first cart change (`SessionService.startGuestSession(…cart:)`: one
    ///     transaction); called only once the add is valid.
    /// - Returns: the variant added, its stock net of other shoppers' holds.
    /// - Throws: `CartError` (nothing written), `.valueNotChosen` / `.valueNotAllowed` for an
    ///   open option without a valid pick.
    @discardableResult
    public func add(_ product: Product, variantID: Variant.ID?, quantityText: String, picked: [String: String] = [:],
                    for shopper: Shopper?, startingSession start: ([CartChange]) throws -> GuestStart) throws -> Variant {
        // A variant the product does not have is refused, not replaced by the default one (a
        // fresh tester's API add of another product's variant id added this product's).
        if let variantID, !product.variants.contains(where: { $0.id == variantID }) { throw CartError.variantNotFound }
        guard let listed = variantID.flatMap({ id in product.variants.first { $0.id == id } })
            ?? (product.hasOptions ? nil : product.defaultVariant) else {
            throw CartError.variantNotChosen
        }
        let chosen = try product.chosenValues(for: listed, picked: picked)
        let variant = try available(listed, of: product, to: shopper)
        let quantity = try CartQuantity.parse(quantityText)
        let limit = try Cart.lineLimit(adding: quantity, of: variant)
        let changes = [CartChange.add(productID: product.id, variantID: variant.id, quantity: quantity, limit: limit, chosen: chosen)]
        do {
            if let shopper {
                try change(shopper, changes)
            } else {
                let started = try start(changes)
                // A session stored just now holds no stock: there is no hold to release.
                if !started.wroteCart { try change(started.issued.session.shopper, changes) }
            }
        } catch let refused as CartLineLimitExceeded {
            throw Cart.addRefusal(adding: quantity, of: variant, alreadyInCart: refused.inCart)
        }
        return variant
    }

    /// Adds to the cart of a shopper who has one (the API, whose clients start their session
    /// first): ``add(_:variantID:quantityText:picked:for:startingSession:)``.
    @discardableResult
    public func add(_ product: Product, variantID: Variant.ID?, quantityText: String, picked: [String: String] = [:],
                    for shopper: Shopper) throws -> Variant {
        try add(product, variantID: variantID, quantityText: quantityText, picked: picked, for: shopper,
                startingSession: { _ in preconditionFailure("a shopper was given") })
    }

    /// What became of a quantity change.
    public enum QuantityChange: Equatable, Sendable {
        /// The line now holds the new quantity.
        case updated
        /// The line was removed (quantity 0, or its product is no longer sold); the product's
        /// title when it is still known.
        case removed(title: String?)
    }

    /// Sets the quantity of the shopper's line of `variantID` with `chosen` values (0 removes it);
    /// a line whose product is no longer sold is removed. The variant's other lines (other chosen
    /// values) count against its stock.
    /// - Throws: `CartError.lineNotFound`, or the quantity's refusal (nothing written).
    public func setQuantity(_ quantityText: String, of variantID: Variant.ID, chosen: ChosenValues = .none,
                            for shopper: Shopper) throws -> QuantityChange {
        let cart = try cart(of: shopper)
        guard let line = cart.line(for: variantID, chosen: chosen) else { throw CartError.lineNotFound }
        let product = try catalog.productsByID([line.productID])[line.productID]
        guard let product, let listed = product.variants.first(where: { $0.id == variantID }) else {
            try change(shopper, [.remove(variantID, chosen: chosen)])
            return .removed(title: product?.title)
        }
        let quantity = try CartQuantity.parse(quantityText)
        if quantity == 0 {
            try change(shopper, [.remove(variantID, chosen: chosen)])
            return .removed(title: product.title)
        }
        let variant = try available(listed, of: product, to: shopper)
        var rules = Cart(lines: cart.lines.filter { $0.variantID == variantID })
        try rules.setQuantity(quantity, of: variant, chosen: chosen)
        // The same quantity again writes nothing and keeps the checkout's hold (a fresh tester
        // lost theirs to "Update" without a change).
        guard quantity != line.quantity else { return .updated }
        do {
            try change(shopper, [.setQuantity(variantID, quantity, chosen: chosen, limit: Cart.quantityLimit(for: variant))])
        } catch let refused as CartLineLimitExceeded {
            // Another request grew the variant's other lines meanwhile: refused against what they hold now.
            let others = refused.inCart - line.quantity
            throw Cart.addRefusal(adding: quantity, of: variant, alreadyInCart: max(others, 0))
        }
        return .updated
    }

    /// Removes the shopper's line of `variantID` with `chosen` values; answers the product's
    /// title when known.
    public func remove(_ variantID: Variant.ID, chosen: ChosenValues = .none, for shopper: Shopper) throws -> String? {
        let line = try cart(of: shopper).line(for: variantID, chosen: chosen)
        try change(shopper, [.remove(variantID, chosen: chosen)])
        guard let line else { return nil }
        return try catalog.productsByID([line.productID])[line.productID]?.title
    }

    /// Ticks or unticks the variant's line with `chosen` values, every line of the variant
    /// (`chosen` nil), or every line (`variantID` nil).
    public func setSelected(_ isSelected: Bool, line variantID: Variant.ID?, chosen: ChosenValues? = nil,
                            for shopper: Shopper) throws {
        // Lines already so write nothing and keep the checkout's hold.
        let affected = try cart(of: shopper).lines.filter { line in
            (variantID == nil || line.variantID == variantID) && (chosen == nil || line.chosen == chosen)
        }
        guard affected.contains(where: { $0.isSelected != isSelected }) else { return }
        try change(shopper, [.setSelected(variantID, isSelected, chosen: chosen)])
    }

    /// Enters (or, with nil, removes) the voucher code; whether it applies is decided by every
    /// quote. The checkout's hold stays: a code changes no quantity, and a changed charge sends
    /// the shopper back to confirm at "Place order" (`CheckoutService.place`).
    public func setVoucher(_ code: VoucherCode?, for shopper: Shopper) throws {
        try sessions.changeCart(shopper, [.setVoucher(code)])
    }

    /// Removes lines whose product is no longer sold (the quote's `unavailable`), for good.
    public func removeUnavailable(_ quote: CartQuote, for shopper: Shopper) throws {
        guard !quote.unavailable.isEmpty else { return }
        try change(shopper, quote.unavailable.map { .remove($0.variantID, chosen: $0.chosen) })
    }

    /// Every cart change goes through here: the store's conditional writes, then the shopper's
    /// checkout hold is released (a changed cart is reviewed again).
    private func change(_ shopper: Shopper, _ changes: [CartChange]) throws {
        try sessions.changeCart(shopper, changes)
        try orders?.releaseReservation(shopper)
    }
}
