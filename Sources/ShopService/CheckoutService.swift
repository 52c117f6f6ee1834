public import Foundation
public import ShopCore
public import ShopStore

/// An order as a checkout step would place it now: the quote, where it goes and how.
public struct CheckoutQuote: Hashable, Sendable {
    public var order: OrderQuote
    public var address: Address
    public var shippingMethod: ShippingMethod
    /// The shopper's language: the order keeps the method's name in it.
    public var language: Language
}

/// The checkout use cases (address → shipping → review → place, issue #5): quoting each step,
/// holding the stock at review, and placing the order with every price and the voucher decided
/// again inside the order's transaction (`OrderPlacement`), so a shopper is never charged a total
/// they did not confirm.
public struct CheckoutService: Sendable {
    public var carts: CartService
    public var orders: OrderStore
    /// Signed-in shoppers' address books (nil: saved addresses are not offered).
    public var addresses: AddressStore?
    /// How orders can be shipped.
    public var shippingMethods: [ShippingMethod]
    /// How long the review holds the stock.
    public var reservationLifetime: TimeInterval
    /// Guest order links' tokens.
    public var crypto: Crypto

    public init(carts: CartService, orders: OrderStore, addresses: AddressStore?, shippingMethods: [ShippingMethod],
                reservationLifetime: TimeInterval, crypto: Crypto) {
        self.carts = carts
        self.orders = orders
        self.addresses = addresses
        self.shippingMethods = shippingMethods
        self.reservationLifetime = reservationLifetime
        self.crypto = crypto
    }

    /// The shopper's checkout in progress, or a new one (also when the last one ended in an order).
    public func state(of shopper: Shopper) throws -> CheckoutState {
        if let state = try orders.checkout(shopper), state.placedOrderPath == nil { return state }
        return CheckoutState(idempotencyKey: crypto.randomToken())
    }

    /// Stores the checkout in progress.
    public func save(_ state: CheckoutState, for shopper: Shopper) throws {
        try orders.saveCheckout(shopper, state)
    }

    /// The address the checkout ships to, if chosen and valid: the saved one chosen (of this
    /// account), or the one typed in.
    public func address(of state: CheckoutState, userID: User.ID?) throws -> Address? {
        if let id = state.savedAddressID, let userID {
            return try addresses?.address(userID, Address.ID(rawValue: id))
        }
        guard let fields = state.addressFields else { return nil }
        var typed: [AddressField: String] = [:]
        for field in AddressField.allCases { typed[field] = fields[field.rawValue] }
        return try? AddressRules.validate(typed, isDefault: false)
    }

    /// The methods that ship to `address`, each with its cost for goods totalling `goodsTotal`.
    public func shippingOptions(to address: Address, goodsTotal: Money) -> [(method: ShippingMethod, cost: Money)] {
        shippingMethods.filter { $0.ships(to: address.countryCode) }.map { ($0, $0.cost(forGoodsTotal: goodsTotal)) }
    }

    /// The order the cart's selected lines would make now with the checkout's address and
    /// shipping method, its name in `language` (the shopper's); nil while either is missing or
    /// nothing is selected.
    public func quote(_ cart: CartQuote, _ state: CheckoutState, userID: User.ID?,
                      language: Language) throws -> CheckoutQuote? {
        guard !cart.selectedLines.isEmpty, let address = try address(of: state, userID: userID),
              let methodID = state.shippingMethodID,
              let method = shippingOptions(to: address, goodsTotal: cart.total).first(where: { $0.method.id.rawValue == methodID })
        else { return nil }
        return CheckoutQuote(order: try OrderQuote(cart: cart, shipping: method.method, language: language),
                             address: address, shippingMethod: method.method, language: language)
    }

    /// What reaching the review did.
    public enum Review: Equatable, Sendable {
        /// The stock is held for the shopper until then; the checkout remembers what the review showed.
        case held(until: Date)
        /// The merchant lowered the stock under the shopper's hold since their last step.
        case holdTrimmed([ReservationTrim])
        /// Not enough for these variants: how many the shopper can still have.
        case insufficientStock([Variant.ID: Int])
    }

    /// Reaching the review: tells of trimmed holds first, then holds the quote's stock for the
    /// shopper and records the charges shown (`CheckoutState.reviewedCharges`).
    public func review(_ quote: CheckoutQuote, _ state: inout CheckoutState, for shopper: Shopper) throws -> Review {
        let now = carts.now()
        let trims = try relevantTrims(for: shopper, in: quote.order, now: now)
        guard trims.isEmpty else { return .holdTrimmed(trims) }
        let requests = quote.order.lines.compactMap { line in
            line.variantID.map { StockRequest(variantID: $0, quantity: line.quantity) }
        }
        switch try orders.reserve(shopper, requests, now.addingTimeInterval(reservationLifetime), now) {
        case let .insufficientStock(available):
            return .insufficientStock(available)
        case let .reserved(until):
            state.reviewedCharges = quote.order.charges
            try orders.saveCheckout(shopper, state)
            return .held(until: until)
        }
    }

    /// What "place order" did.
    public enum Placement: Equatable, Sendable {
        /// Placed now; `guestToken` is the guest's order-link secret.
        case placed(Order, guestToken: String?)
        /// Placed earlier with this checkout's key (a second "Place order", a retry): the same
        /// order and the same order-link secret (with `Crypto.orderLinkToken` wired).
        case alreadyPlaced(Order, guestToken: String?)
        /// The merchant lowered the stock under the shopper's hold since the review.
        case holdTrimmed([ReservationTrim])
        /// The order would now charge something else than the review showed — a price, the
        /// voucher (removed, expired, used up), shipping, or the cart itself changed: the shopper
        /// confirms the new order on the review page. Nothing was written.
        case confirmationNeeded
        /// Not enough for these variants: how many the shopper can still have. Nothing was written.
        case insufficientStock([Variant.ID: Int])
    }

    /// Places the order the shopper confirmed at review.
    /// - Parameters:
    ///   - quote: the order as quoted now (before the transaction); it must charge what the
    ///     review showed, and the store decides it again inside the transaction.
    ///   - voucherCode: the code in the cart, decided again inside the transaction.
    ///   - user: the signed-in account, or nil for a guest (`email` then says where the
    ///     confirmation goes).
    ///   - confirmation: writes the confirmation email for the order request and, for a guest,
    ///     the token of their order link; queued in the order's transaction.
    public func place(_ quote: CheckoutQuote, voucherCode: VoucherCode?, state: CheckoutState, for shopper: Shopper,
                      user: User?, email: String,
                      confirmation: (OrderRequest, _ guestToken: String?) -> OutboxDraft) throws -> Placement {
        let now = carts.now()
        let trims = try relevantTrims(for: shopper, in: quote.order, now: now)
        guard trims.isEmpty else { return .holdTrimmed(trims) }
        guard state.reviewedCharges == quote.order.charges else { return .confirmationNeeded }
        // One token per checkout, not per request: a double-submitted "Place order" whose second
        // request finds the order placed answered with a token of its own, whose link was a 404
        // (found by a fresh tester).
        let guestToken = user == nil
            ? orderLinkToken(shopper, idempotencyKey: state.idempotencyKey) ?? crypto.randomToken()
            : nil
        var request = OrderRequest(shopper: shopper, userID: user?.id, email: email, shippingAddress: quote.address,
                                   shippingMethod: quote.shippingMethod, language: quote.language, voucherCode: voucherCode,
                                   confirmed: quote.order, idempotencyKey: state.idempotencyKey,
                                   guestTokenHash: guestToken.map(crypto.sha256Hex), confirmation: nil, fromCart: true)
        request.confirmation = confirmation(request, guestToken)
        switch try orders.placeOrder(request, now) {
        case let .placed(order):
            if state.saveAddress, let user, let addresses { _ = try addresses.save(user.id, quote.address) }
            return .placed(order, guestToken: guestToken)
        case let .alreadyPlaced(order):
            return .alreadyPlaced(order, guestToken: guestToken)
        case let .insufficientStock(available):
            return .insufficientStock(available)
        case .changed, .unavailable, .cartChanged:
            // `.cartChanged`: another "Place order" of this cart won; the review finds the cart
            // as it is now (empty, or what is left of it).
            return .confirmationNeeded
        }
    }

    /// The order `shopper` placed with `idempotencyKey`, and a guest's order-link token (the one
    /// ``place(_:voucherCode:state:for:user:email:confirmation:)`` gave), or nil when none was
    /// placed with it: what a retried "place order" answers — found from the moment the order's
    /// transaction commits, before the checkout remembers it, also after a crash in between.
    public func placedOrder(for shopper: Shopper, idempotencyKey: String, user: User?) throws -> (order: Order, guestToken: String?)? {
        guard !idempotencyKey.isEmpty, let order = try orders.placedOrder(shopper, idempotencyKey) else { return nil }
        guard user == nil else { return (order, nil) }
        // A guest's link token is derived from the checkout; without the key that derives it
        // (tests), the order is not answered here (`place` finds it and answers it).
        guard let token = orderLinkToken(shopper, idempotencyKey: idempotencyKey) else { return nil }
        return (order, token)
    }

    private func orderLinkToken(_ shopper: Shopper, idempotencyKey: String) -> String? {
        crypto.orderLinkToken.map { $0(Self.orderLinkKey(shopper, idempotencyKey: idempotencyKey)) }
    }

    /// What a guest's order-link token is computed from (`Crypto.orderLinkToken`): the shopper
    /// and the checkout's idempotency key — a key another shopper sends makes another token.
    static func orderLinkKey(_ shopper: Shopper, idempotencyKey: String) -> String {
        switch shopper {
        case let .guest(session): "guest:\(session.rawValue):\(idempotencyKey)"
        case let .account(user): "account:\(user.rawValue):\(idempotencyKey)"
        }
    }

    /// The shopper's trimmed holds on lines still ordered (each is told once).
    private func relevantTrims(for shopper: Shopper, in order: OrderQuote, now: Date) throws -> [ReservationTrim] {
        let ordered = Set(order.lines.compactMap(\.variantID))
        return try orders.takeReservationTrims(shopper, now).filter { ordered.contains($0.variantID) }
    }
}
