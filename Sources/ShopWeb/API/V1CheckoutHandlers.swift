import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// Checkout and orders over the API: every step through `CheckoutService` (the checkout pages'
/// use cases) — the address checked by `AddressRules`, the review holding the stock and recording
/// the charges shown, the order placed with every price and the voucher decided again in its
/// transaction. The client's `Idempotency-Key` is the key the store's idempotency uses
/// (`CheckoutState.idempotencyKey`, unique per shopper).
extension V1Handlers {
    /// What a checkout step needs: the use case, the bearer's shopper, their checkout in
    /// progress, the account (nil for a guest) and the cart quoted once for this request.
    struct APICheckout {
        var service: CheckoutService
        var shopper: Shopper
        var state: CheckoutState
        var user: User?
        var cart: CartQuote
    }

    static func loadCheckout(_ context: inout RequestContext) throws -> APICheckout {
        let shopper = try shopper(&context)
        guard let service = context.environment.checkout else { throw APIError.notFound(.apiNoOrders) }
        return APICheckout(service: service, shopper: shopper, state: try service.state(of: shopper),
                           user: try context.currentUser(), cart: try context.cartQuote())
    }

    // MARK: Steps

    /// `GET /api/v1/checkout`.
    static func checkout(_ context: inout RequestContext) throws -> Response {
        try APIApp.json(checkoutJSON(try loadCheckout(&context), context))
    }

    /// `PUT /api/v1/checkout/address`: a saved address of the account, or one typed in and
    /// checked by `AddressRules` (every problem in `problems`, the first in `error.field`); a
    /// guest also gives the email the confirmation goes to. Any change asks for a new review.
    static func setCheckoutAddress(_ context: inout RequestContext) throws -> Response {
        var checkout = try loadCheckout(&context)
        let body = try APIApp.body(V1CheckoutAddress.self, of: context.request)
        let l10n = context.l10n
        // Both (one of them meant to replace the other): neither is taken silently.
        if body.savedAddressId != nil, body.address != nil {
            throw APIError(status: .badRequest, code: "invalid_field", .apiEitherNotBoth,
                           ["first": "savedAddressId", "second": "address"], field: "address")
        }
        if let id = body.savedAddressId {
            guard let user = checkout.user,
                  try context.environment.addresses?.address(user.id, Address.ID(rawValue: id)) != nil else {
                throw APIError(status: .notFound, code: "address_not_found", .apiNoSavedAddress, field: "savedAddressId")
            }
            checkout.state.savedAddressID = id
            checkout.state.addressFields = nil
            checkout.state.saveAddress = false
        } else {
            var problems: [V1FieldProblem] = []
            var email: String?
            if checkout.user == nil {
                do { email = try EmailRules.normalize(body.email ?? "") } catch {
                    problems.append(V1FieldProblem(field: "email", code: "invalid_email", message: l10n.message(for: error)))
                }
            }
            var address: Address?
            switch validateAddress(body.address, isDefault: false, context) {
            case let .success(valid): address = valid
            case let .failure(refused): problems += refused.problems
            }
            if let first = problems.first {
                throw APIError(status: .badRequest, checkout: V1CheckoutError(
                    error: .init(code: "invalid_address", message: first.message, field: first.field), problems: problems))
            }
            guard let address else { throw APIError(status: .badRequest, code: "invalid_address", message: "", field: "address") }
            checkout.state.addressFields = AddressFormValues.values(of: address)
            checkout.state.savedAddressID = nil
            checkout.state.saveAddress = checkout.user != nil && body.saveAddress == true
            if let email { checkout.state.email = email }
        }
        checkout.state.reviewedCharges = nil
        try checkout.service.save(checkout.state, for: checkout.shopper)
        return try APIApp.json(checkoutJSON(checkout, context))
    }

    /// `PUT /api/v1/checkout/shipping` `{"method"}`: one of the methods that ship to the address.
    static func setCheckoutShipping(_ context: inout RequestContext) throws -> Response {
        var checkout = try loadCheckout(&context)
        let body = try APIApp.body(V1ShippingChoice.self, of: context.request)
        guard let address = try checkout.service.address(of: checkout.state, userID: checkout.user?.id) else {
            throw incomplete("address", context)
        }
        guard checkout.service.shippingOptions(to: address, goodsTotal: checkout.cart.total)
            .contains(where: { $0.method.id.rawValue == body.method }) else {
            throw APIError(status: .badRequest, code: "invalid_shipping_method",
                           message: context.l10n(.checkoutChooseShipping), field: "method")
        }
        checkout.state.shippingMethodID = body.method
        checkout.state.reviewedCharges = nil
        try checkout.service.save(checkout.state, for: checkout.shopper)
        return try APIApp.json(checkoutJSON(checkout, context))
    }

    /// `POST /api/v1/checkout/review`: `CheckoutService.review` holds the stock for the shopper
    /// and records the charges shown; the order is then placed only while it charges exactly these.
    static func reviewCheckout(_ context: inout RequestContext) throws -> Response {
        var checkout = try loadCheckout(&context)
        let quote = try completeQuote(checkout, context)
        let until = try review(quote, &checkout, context)
        return try APIApp.json(checkoutJSON(checkout, heldUntil: until, context))
    }

    /// `POST /api/v1/orders`: `CheckoutService.place` under the client's `Idempotency-Key`. 201
    /// with the order; the same key again after that answers the same order with 200.
    static func placeOrder(_ context: inout RequestContext) throws -> Response {
        let key = context.request.headers["Idempotency-Key"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !key.isEmpty else {
            throw APIError(status: .badRequest, code: "missing_idempotency_key", .apiIdempotencyKeyMissing,
                           field: "Idempotency-Key")
        }
        guard key.utf8.count <= 200, key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
            throw APIError(status: .badRequest, code: "invalid_idempotency_key", .apiIdempotencyKeyInvalid,
                           field: "Idempotency-Key")
        }
        let shopper = try shopper(&context)
        // The same key after the order was placed — a retry, or a request racing the first: the
        // same order, found by its key from the moment it committed (the checkout remembers it
        // only after, and a tester's retries in that gap, or after a crash there, got 409).
        if let placed = try context.environment.checkout?.placedOrder(for: shopper, idempotencyKey: key,
                                                                        user: try context.currentUser()) {
            return try orderCreated(placed.order, guestToken: placed.guestToken, status: .ok, context)
        }
        var checkout = try loadCheckout(&context)
        checkout.state.idempotencyKey = key
        let quote = try completeQuote(checkout, context)
        let placement = try checkout.service.place(
            quote, voucherCode: try context.cart().voucherCode, state: checkout.state, for: checkout.shopper,
            user: checkout.user, email: checkout.user?.email ?? checkout.state.email ?? "",
            confirmation: { request, token in ShopApp.confirmationEmail(request, token: token, context) })
        switch placement {
        case let .placed(order, guestToken), let .alreadyPlaced(order, guestToken):
            var finished = checkout.state
            finished.placedOrderPath = SiteRoute.orders(.order(number: order.number, token: guestToken)).path
            try checkout.service.save(finished, for: checkout.shopper)
            context.invalidateCart()
            // Only the request that placed it answers 201; one that raced it and found the order
            // placed answers as a retry does (found by a fresh tester).
            let isNew = if case .placed = placement { true } else { false }
            return try orderCreated(order, guestToken: guestToken, status: isNew ? .created : .ok, context)
        case let .holdTrimmed(trims):
            throw holdTrimmed(trims, quote.order.lines, context)
        case let .insufficientStock(available):
            throw insufficientStock(available, quote.order.lines, context)
        case .confirmationNeeded:
            // Something charged changed since the review: review the order as it is now (holding
            // its stock, recording its charges) and ask the client to confirm it.
            context.invalidateCart()
            var current = try loadCheckout(&context)
            current.state.idempotencyKey = key
            let newQuote = try completeQuote(current, context)
            let until = try review(newQuote, &current, context)
            throw APIError(status: .conflict, checkout: V1CheckoutError(
                error: .init(code: "confirmation_needed", message: context.l10n(.checkoutChangedText)),
                checkout: try checkoutJSON(current, heldUntil: until, context)))
        }
    }

    // MARK: Orders

    /// `GET /api/v1/orders`: the signed-in account's orders, newest first.
    static func orders(_ context: inout RequestContext) throws -> Response {
        _ = try shopper(&context)
        guard let store = context.environment.orders else { throw APIError.notFound(.apiNoOrders) }
        guard let user = try context.currentUser() else {
            throw APIError(status: .forbidden, code: "sign_in_required", .apiOrderListNeedsAccount)
        }
        let orders = try store.orders(user.id).sorted { ($0.placedAt, $0.id.rawValue) > ($1.placedAt, $1.id.rawValue) }
        return try APIApp.json(V1Orders(orders: orders.map { orderJSON($0, guestToken: nil, context) }))
    }

    /// `GET /api/v1/orders/{number}`: to the account that placed it, or with the guest token
    /// given at placing; anyone else gets 404, as for an order that does not exist.
    static func order(_ number: String, token: String?, _ context: inout RequestContext) throws -> Response {
        guard let store = context.environment.orders else { throw APIError.notFound(.apiNoOrders) }
        let notFound = APIError.notFound(.apiNoOrder, ["number": number])
        if let token, !token.isEmpty {
            guard let order = try store.guestOrder(context.environment.crypto.sha256Hex(token)), order.number == number else {
                throw notFound
            }
            return try APIApp.json(orderJSON(order, guestToken: nil, context))
        }
        _ = try shopper(&context)
        guard let order = try store.order(number), let owner = order.userID, try context.currentUser()?.id == owner else {
            throw notFound
        }
        return try APIApp.json(orderJSON(order, guestToken: nil, context))
    }

    // MARK: Helpers

    /// The quote of a checkout ready for review.
    /// - Throws: 409 `checkout_incomplete` naming the step still missing (`cart`, `email`,
    ///   `address`, `shipping`).
    static func completeQuote(_ checkout: APICheckout, _ context: RequestContext) throws -> CheckoutQuote {
        if checkout.cart.selectedLines.isEmpty { throw incomplete("cart", context) }
        if checkout.user == nil && checkout.state.email == nil { throw incomplete("email", context) }
        guard try checkout.service.address(of: checkout.state, userID: checkout.user?.id) != nil else {
            throw incomplete("address", context)
        }
        guard let quote = try checkout.service.quote(checkout.cart, checkout.state, userID: checkout.user?.id,
                                                          language: context.l10n.language) else {
            throw incomplete("shipping", context)
        }
        return quote
    }

    /// `CheckoutService.review`: the hold's end, or the 409 that says what is left.
    static func review(_ quote: CheckoutQuote, _ checkout: inout APICheckout, _ context: RequestContext) throws -> Date {
        switch try checkout.service.review(quote, &checkout.state, for: checkout.shopper) {
        case let .held(until): return until
        case let .holdTrimmed(trims): throw holdTrimmed(trims, quote.order.lines, context)
        case let .insufficientStock(available): throw insufficientStock(available, quote.order.lines, context)
        }
    }

    static func incomplete(_ step: String, _ context: RequestContext) -> APIError {
        let message = switch step {
        case "cart": context.l10n(.checkoutNothingSelected)
        case "email": context.l10n(.apiCheckoutNeedsEmail)
        case "address": context.l10n(.apiCheckoutNeedsAddress)
        default: context.l10n(.apiCheckoutNeedsShipping)
        }
        return APIError(status: .conflict, code: "checkout_incomplete", message: message, field: step)
    }

    static func insufficientStock(_ available: [Variant.ID: Int], _ lines: [OrderLine], _ context: RequestContext) -> APIError {
        let left = lines.compactMap { line -> V1StockLeft? in
            guard let id = line.variantID, let count = available[id] else { return nil }
            return V1StockLeft(variantId: id.rawValue, title: line.title, requested: line.quantity, available: count)
        }
        return APIError(status: .conflict, checkout: V1CheckoutError(
            error: .init(code: "insufficient_stock", message: context.l10n(.checkoutSoldOutTitle)), available: left))
    }

    static func holdTrimmed(_ trims: [ReservationTrim], _ lines: [OrderLine], _ context: RequestContext) -> APIError {
        let left = trims.compactMap { trim -> V1StockLeft? in
            guard let line = lines.first(where: { $0.variantID == trim.variantID }) else { return nil }
            return V1StockLeft(variantId: trim.variantID.rawValue, title: line.title, requested: trim.held, available: trim.kept)
        }
        return APIError(status: .conflict, checkout: V1CheckoutError(
            error: .init(code: "hold_trimmed", message: context.l10n(.checkoutHoldTrimmedTitle)), available: left))
    }

    static func orderCreated(_ order: Order, guestToken: String?, status: HTTPStatus, _ context: RequestContext) throws -> Response {
        let location = context.environment.publicURL + APIRoute.router.url(for: .v1(.order(number: order.number, token: guestToken)))
        return try APIApp.json(orderJSON(order, guestToken: guestToken, context), status: status, headers: ["Location": location])
    }

    // MARK: Shaping

    static func checkoutJSON(_ checkout: APICheckout, heldUntil: Date? = nil, _ context: RequestContext) throws -> V1Checkout {
        let address = try checkout.service.address(of: checkout.state, userID: checkout.user?.id)
        let options = address.map { checkout.service.shippingOptions(to: $0, goodsTotal: checkout.cart.total) } ?? []
        let quote = try checkout.service.quote(checkout.cart, checkout.state, userID: checkout.user?.id,
                                                          language: context.l10n.language)
        let next = if checkout.cart.selectedLines.isEmpty { "cart" }
            else if address == nil || (checkout.user == nil && checkout.state.email == nil) { "address" }
            else if quote == nil { "shipping" } else { "review" }
        return V1Checkout(
            email: checkout.user?.email ?? checkout.state.email, address: address.map(addressJSON),
            savedAddressId: checkout.state.savedAddressID, shippingMethod: checkout.state.shippingMethodID,
            shippingOptions: options.map { V1ShippingOption(id: $0.method.id.rawValue, name: $0.method.name.text(in: context.l10n.language), cost: money($0.cost, context)) },
            quote: quote.map { quote in
                V1CheckoutQuote(lines: quote.order.lines.map { lineJSON($0, context) }, subtotal: money(quote.order.subtotal, context),
                                discount: money(quote.order.discount, context), voucherCode: quote.order.voucherCode,
                                shippingMethod: V1ShippingOption(id: quote.shippingMethod.id.rawValue, name: quote.order.shippingMethodName,
                                                                 cost: money(quote.order.shippingCost, context)),
                                total: money(quote.order.total, context), address: addressJSON(quote.address))
            },
            nextStep: next, heldUntil: heldUntil)
    }

    static func orderJSON(_ order: Order, guestToken: String?, _ context: RequestContext) -> V1Order {
        V1Order(number: order.number, status: order.status.rawValue, placedAt: order.placedAt, email: order.email,
                shippingAddress: addressJSON(order.shippingAddress), lines: order.lines.map { lineJSON($0, isPlaced: true, context) },
                subtotal: money(order.subtotal, context), discount: money(order.discount, context),
                voucherCode: order.voucherCode, shippingMethod: order.shippingMethodName,
                shippingCost: money(order.shippingCost, context), total: money(order.total, context), guestToken: guestToken,
                fulfilment: order.fulfilment.map { V1Fulfilment(carrier: $0.carrier, trackingNumber: $0.trackingNumber) },
                refunded: money(order.refundedTotal, context))
    }

    /// A line of a quote, or with `isPlaced` of an order (which also tells its refunded units).
    static func lineJSON(_ line: OrderLine, isPlaced: Bool = false, _ context: RequestContext) -> V1OrderLine {
        V1OrderLine(productId: line.productID?.rawValue, variantId: line.variantID?.rawValue, title: line.title,
                    variantTitle: line.variantTitle, sku: line.sku, unitPrice: money(line.unitPrice, context),
                    quantity: line.quantity, discount: money(line.discount, context), total: money(line.total, context),
                    chosenValues: wire(line.chosen), refundedQuantity: isPlaced ? line.refundedQuantity : nil)
    }

    static func addressJSON(_ address: Address) -> V1Address {
        V1Address(firstName: address.firstName, lastName: address.lastName, phone: address.phone, email: address.email,
                  line1: address.line1, line2: address.line2, city: address.city, postalCode: address.postalCode,
                  region: address.region, country: address.countryCode)
    }

    /// Every problem of an address a client sent (``validateAddress(_:isDefault:id:_:)``).
    struct AddressRefusal: Error {
        var problems: [V1FieldProblem]
    }

    /// An address sent by a client checked by `AddressRules` (the address form's rules), or every
    /// problem as the API names it (`address.postalCode`, code, the form's message).
    static func validateAddress(_ sent: V1Address?, isDefault: Bool, id: Address.ID? = nil,
                                _ context: RequestContext) -> Result<Address, AddressRefusal> {
        var typed: [AddressField: String] = [:]
        for field in AddressField.allCases { typed[field] = sent?[keyPath: addressKeyPath(field)] ?? "" }
        do {
            return .success(try AddressRules.validate(typed, isDefault: isDefault, id: id))
        } catch {
            var problems: [V1FieldProblem] = []
            for field in AddressField.allCases {
                for problem in error.byField[field] ?? [] {
                    problems.append(V1FieldProblem(field: "address." + wireName(field), code: code(for: problem),
                                                   message: context.l10n.message(for: problem)))
                }
            }
            return .failure(AddressRefusal(problems: problems))
        }
    }

    /// The body member of an address field.
    static func addressKeyPath(_ field: AddressField) -> KeyPath<V1Address, String?> {
        switch field {
        case .firstName: \.firstName
        case .lastName: \.lastName
        case .phone: \.phone
        case .email: \.email
        case .line1: \.line1
        case .line2: \.line2
        case .city: \.city
        case .postalCode: \.postalCode
        case .region: \.region
        case .countryCode: \.country
        }
    }

    static func wireName(_ field: AddressField) -> String {
        switch field {
        case .firstName: "firstName"
        case .lastName: "lastName"
        case .phone: "phone"
        case .email: "email"
        case .line1: "line1"
        case .line2: "line2"
        case .city: "city"
        case .postalCode: "postalCode"
        case .region: "region"
        case .countryCode: "country"
        }
    }

    static func code(for problem: AddressProblem) -> String {
        switch problem {
        case .missing: "missing"
        case .tooLong: "too_long"
        case .invalidEmail: "invalid_email"
        case .invalidPhone: "invalid_phone"
        case .unknownCountry: "unknown_country"
        case .invalidPostalCode: "invalid_postal_code"
        }
    }
}
