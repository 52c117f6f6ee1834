import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

private let now = Date(timeIntervalSince1970: 1_780_000_000)  // TestShop's clock

/// A shop with the v1 catalog, the checkout's shipping methods and the `SAVE15` code.
private func shop() throws -> TestShop {
    let shop = try TestShop(v1Catalog())
    configureCheckout(shop)
    _ = try shop.campaigns.replaceAll([
        Campaign(id: Campaign.ID(rawValue: "save15"), title: "15 % off", description: "", imageURL: nil,
                 startsAt: now - 86_400, endsAt: now + 86_400, discount: .percentage(15), target: .wholeCart,
                 minimumSubtotal: nil, voucherCode: VoucherCode("SAVE15")),
    ])
    return shop
}

private func guestToken(_ shop: TestShop) throws -> String {
    try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
}

private let address = #"{"firstName": "Ana", "lastName": "Lima", "phone": "+1 555 0100", "line1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"}"#

/// Cart → address → shipping for `token`.
private func fillCheckout(_ shop: TestShop, _ token: String, product: String = "night-light", quantity: Int = 2,
                          email: String? = "guest@example.com") throws {
    #expect(try shop.api(.post, "/api/v1/cart/lines", token: token,
                         json: #"{"product": "\#(product)", "quantity": \#(quantity)}"#).status == 200)
    let body = email.map { #"{"email": "\#($0)", "address": \#(address)}"# } ?? #"{"address": \#(address)}"#
    let set = try shop.api(.put, "/api/v1/checkout/address", token: token, json: body)
    #expect(set.status == 200, "\(set.text)")
    #expect(try shop.api(.put, "/api/v1/checkout/shipping", token: token, json: #"{"method": "standard"}"#).status == 200)
}

private func placeOrder(_ shop: TestShop, _ token: String, key: String?) throws -> TestResponse {
    var headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
    if let key { headers.add(name: "Idempotency-Key", value: key) }
    return try shop.api(.post, "/api/v1/orders", json: nil, headers: headers)
}

@Suite("API v1: checkout and orders")
struct V1CheckoutAPITests {
    /// As on the storefront's lists: a bearer holding the last units at review sees them
    /// buyable in the product list (an answer private to them); everyone else sees them sold out.
    @Test func aHoldersOwnHoldStaysBuyableInTheProductList() throws {
        let shop = try shop()
        let holder = try guestToken(shop), other = try guestToken(shop)
        try fillCheckout(shop, holder, product: "brass-lamp", quantity: 5)
        #expect(try shop.api(.post, "/api/v1/checkout/review", token: holder).status == 200)
        func brass(_ token: String?) throws -> (soldOut: Bool?, cacheControl: String?) {
            let response = try shop.api(.get, "/api/v1/products?category=lamps", token: token)
            let page = try decoded(V1ProductPage.self, response)
            return (page.products.first { $0.handle == "brass-lamp" }?.soldOut, response.header("Cache-Control"))
        }
        #expect(try brass(holder) == (false, "private, no-cache"))
        #expect(try brass(other) == (true, "public, no-cache"))
        #expect(try brass(nil) == (true, "public, no-cache"))
        // The featured row too (a fresh tester's holder saw their product sold out there).
        func featuredBrass(_ token: String?) throws -> (soldOut: Bool?, cacheControl: String?) {
            let response = try shop.api(.get, "/api/v1/featured", token: token)
            let featured = try decoded(V1Featured.self, response)
            return (featured.products.first { $0.handle == "brass-lamp" }?.soldOut, response.header("Cache-Control"))
        }
        #expect(try featuredBrass(holder) == (false, "private, no-cache"))
        #expect(try featuredBrass(other) == (true, "public, no-cache"))
    }

    @Test func aGuestGoesFromCartToOrder() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        #expect(try decoded(V1Checkout.self, try shop.api(.get, "/api/v1/checkout", token: token)).nextStep == "cart")
        try fillCheckout(shop, token)
        let checkout = try decoded(V1Checkout.self, try shop.api(.get, "/api/v1/checkout", token: token))
        #expect(checkout.nextStep == "review" && checkout.email == "guest@example.com")
        #expect(checkout.shippingOptions.map(\.id) == ["standard", "express"])
        let quote = try #require(checkout.quote)
        #expect(quote.subtotal.minorUnits == 25_00 && quote.shippingMethod.cost.minorUnits == 4_90 && quote.total.minorUnits == 29_90)
        #expect(quote.address.city == "Springfield" && quote.lines.map(\.quantity) == [2])

        let reviewed = try shop.api(.post, "/api/v1/checkout/review", token: token)
        #expect(reviewed.status == 200)
        #expect(try decoded(V1Checkout.self, reviewed).heldUntil != nil)

        let placed = try placeOrder(shop, token, key: "order-key-1")
        #expect(placed.status == 201, "\(placed.text)")
        let order = try decoded(V1Order.self, placed)
        #expect(order.total.minorUnits == 29_90 && order.email == "guest@example.com" && order.status == "awaiting_payment")
        let guestToken = try #require(order.guestToken)
        #expect(placed.header("Location")?.hasSuffix("/api/v1/orders/\(order.number)?token=\(guestToken)") == true)
        #expect(try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token)).lines.isEmpty)

        let read = try shop.api(.get, "/api/v1/orders/\(order.number)?token=\(guestToken)", token: nil)
        #expect(try read.status == 200 && (decoded(V1Order.self, read)).total.minorUnits == 29_90)
        #expect(try shop.api(.get, "/api/v1/orders/\(order.number)?token=wrong", token: nil).status == 404)
        #expect(try shop.api(.get, "/api/v1/orders/\(order.number)", token: token).status == 404, "a guest needs the token")
        #expect(try shop.api(.get, "/api/v1/orders", token: token).status == 403)
        // The account's own routes answer a guest's valid token the same way, not 401 (which an
        // app's token refresh reads as an expired token; a fresh tester's finding).
        for path in ["/api/v1/account", "/api/v1/addresses"] {
            let refused = try shop.api(.get, path, token: token)
            #expect(refused.status == 403 && refused.text.contains("\"sign_in_required\""), "\(path)")
        }
        #expect(try decoded(V1Order.self, read).fulfilment == nil)
        #expect(!read.text.contains("fulfilment"), "left out until fulfilled")

        // Issue #16: once fulfilled, the order says who carries it and its tracking number.
        let orders = try #require(shop.orders)
        _ = try orders.apply(OrderActionRequest(number: order.number, action: .markPaid, actor: "cli"), Date())
        _ = try orders.apply(OrderActionRequest(number: order.number, action: .fulfil,
                                                fulfilment: try Fulfilment(carrier: "UPS", trackingNumber: "1Z999"), actor: "cli"),
                             Date())
        let fulfilled = try decoded(V1Order.self, try shop.api(.get, "/api/v1/orders/\(order.number)?token=\(guestToken)", token: nil))
        #expect(fulfilled.status == "fulfilled" && fulfilled.fulfilment == V1Fulfilment(carrier: "UPS", trackingNumber: "1Z999"))
    }

    /// Issue #13, point 2: the lines of an open variant (WooCommerce "any") reach the order with
    /// their chosen values, in the review's quote and in the placed order.
    @Test(.bug(id: "13")) func anOrderKeepsTheValuesChosenForAnOpenVariant() throws {
        let shop = try TestShop(v1Catalog() + [.openTee()])
        configureCheckout(shop)
        let token = try guestToken(shop)
        let tee = try #require(try shop.catalog.productByHandle("tee")).variants[0].id.rawValue
        for size in ["M", "L"] {
            #expect(try shop.api(.post, "/api/v1/cart/lines", token: token,
                                 json: #"{"product": "tee", "variantId": \#(tee), "chosenValues": [{"option": "Size", "value": "\#(size)"}]}"#).status == 200)
        }
        #expect(try shop.api(.put, "/api/v1/checkout/address", token: token,
                             json: #"{"email": "guest@example.com", "address": \#(address)}"#).status == 200)
        #expect(try shop.api(.put, "/api/v1/checkout/shipping", token: token, json: #"{"method": "standard"}"#).status == 200)
        #expect(try shop.api(.post, "/api/v1/checkout/review", token: token).status == 200)
        let placed = try placeOrder(shop, token, key: "tee-order")
        #expect(placed.status == 201, "\(placed.text)")
        let order = try decoded(V1Order.self, placed)
        #expect(order.lines.map(\.chosenValues) == [[V1ChosenValue(option: "Size", value: "M")], [V1ChosenValue(option: "Size", value: "L")]])
        #expect(order.lines.map(\.variantTitle) == ["M", "L"] && order.lines.map(\.sku) == ["TEE-ANY", "TEE-ANY"])
    }

    /// Issue #11: the merchant's shipping names follow `Accept-Language`; the order keeps the one
    /// it was placed with.
    @Test func shippingNamesFollowAcceptLanguageAndTheOrderKeepsTheNameItWasPlacedWith() throws {
        let shop = try shop()
        shop.environment.shippingMethods[0].name = LocalizedText("Standard", translations: [.spanish: "Estándar"])
        let token = try guestToken(shop)
        try fillCheckout(shop, token)
        let spanish: HTTPHeaders = ["Authorization": "Bearer \(token)", "Accept-Language": "es"]
        let checkout = try decoded(V1Checkout.self, try shop.api(.get, "/api/v1/checkout", json: nil, headers: spanish))
        #expect(checkout.shippingOptions.map(\.name) == ["Estándar", "Express"])
        #expect(checkout.quote?.shippingMethod.name == "Estándar")
        let english = try decoded(V1Checkout.self, try shop.api(.get, "/api/v1/checkout", token: token))
        #expect(english.quote?.shippingMethod.name == "Standard")
        #expect(try shop.api(.post, "/api/v1/checkout/review", json: nil, headers: spanish).status == 200)
        var placing = spanish
        placing.add(name: "Idempotency-Key", value: "spanish-order")
        let placed = try shop.api(.post, "/api/v1/orders", json: nil, headers: placing)
        #expect(placed.status == 201, "\(placed.text)")
        #expect(try decoded(V1Order.self, placed).shippingMethod == "Estándar")
    }

    @Test func theSameIdempotencyKeyTwiceGivesOneOrder() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        try fillCheckout(shop, token)
        try shop.api(.post, "/api/v1/checkout/review", token: token)
        let first = try placeOrder(shop, token, key: "same-key")
        let second = try placeOrder(shop, token, key: "same-key")
        #expect(first.status == 201 && second.status == 200)
        #expect(try decoded(V1Order.self, first).number == decoded(V1Order.self, second).number)
        #expect(first.header("Location") == second.header("Location"))
        #expect(try shop.orders!.findOrders(.everything).orders.count == 1)
    }

    /// A retry that arrives after the order committed but before the checkout remembered it
    /// (a request racing the first, or a server killed in between: a fresh tester got 409
    /// `checkout_incomplete` on the emptied cart) answers the order, as any retry does — on the
    /// storefront's form too.
    @Test func aRetryBeforeTheCheckoutRemembersTheOrderStillGetsIt() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        try fillCheckout(shop, token)
        try shop.api(.post, "/api/v1/checkout/review", token: token)
        let first = try placeOrder(shop, token, key: "gap-key")
        #expect(first.status == 201)
        // The checkout as it was before the order's page was recorded on it.
        let orders = try #require(shop.orders)
        let shopper = try #require(try shop.environment.sessionService.resume(token: token).session).shopper
        var state = try #require(try orders.checkout(shopper))
        state.placedOrderPath = nil
        try orders.saveCheckout(shopper, state)
        let retry = try placeOrder(shop, token, key: "gap-key")
        #expect(retry.status == 200, "\(retry.text)")
        #expect(try decoded(V1Order.self, retry).number == decoded(V1Order.self, first).number)
        #expect(retry.header("Location") == first.header("Location"), "the guest's order link")
        #expect(try orders.findOrders(.everything).orders.count == 1)
    }

    @Test func anOrderNeedsAnIdempotencyKey() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        try fillCheckout(shop, token)
        let missing = try placeOrder(shop, token, key: nil)
        #expect(try missing.status == 400 && (decoded(APIErrorEnvelope.self, missing)).error.code == "missing_idempotency_key")
        #expect(try shop.orders!.findOrders(.everything).orders.isEmpty)
    }

    @Test func aVoucherRemovedAfterReviewAsksForConfirmationAtTheNewTotal() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        try fillCheckout(shop, token)
        try shop.api(.put, "/api/v1/cart/voucher", token: token, json: #"{"code": "SAVE15"}"#)
        let reviewed = try decoded(V1Checkout.self, try shop.api(.post, "/api/v1/checkout/review", token: token))
        #expect(reviewed.quote?.total.minorUnits == 26_15 && reviewed.quote?.voucherCode == "SAVE15")
        try shop.api(.delete, "/api/v1/cart/voucher", token: token)

        let conflict = try placeOrder(shop, token, key: "k-voucher")
        #expect(conflict.status == 409)
        let detail = try decoded(V1CheckoutError.self, conflict)
        #expect(detail.error.code == "confirmation_needed")
        #expect(detail.checkout?.quote?.total.minorUnits == 29_90 && detail.checkout?.quote?.voucherCode == nil)
        #expect(try shop.orders!.findOrders(.everything).orders.isEmpty)

        let placed = try placeOrder(shop, token, key: "k-voucher")
        #expect(placed.status == 201)
        #expect(try decoded(V1Order.self, placed).total.minorUnits == 29_90)
    }

    @Test func insufficientStockSaysWhatIsLeft() throws {
        let shop = try shop()
        let first = try guestToken(shop)
        let second = try guestToken(shop)
        try fillCheckout(shop, first, product: "brass-lamp", quantity: 5)
        try fillCheckout(shop, second, product: "brass-lamp", quantity: 3)
        #expect(try shop.api(.post, "/api/v1/checkout/review", token: second).status == 200)
        let refused = try shop.api(.post, "/api/v1/checkout/review", token: first)
        #expect(refused.status == 409)
        let detail = try decoded(V1CheckoutError.self, refused)
        #expect(detail.error.code == "insufficient_stock")
        #expect(detail.available?.map(\.available) == [2] && detail.available?.map(\.requested) == [5])
    }

    @Test func badAddressFieldsAreNamedOneByOne() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        let response = try shop.api(.put, "/api/v1/checkout/address", token: token,
                                    json: #"{"email": "nope", "address": {"firstName": "Ana", "country": "XX", "phone": "12"}}"#)
        #expect(response.status == 400)
        let detail = try decoded(V1CheckoutError.self, response)
        #expect(detail.error.code == "invalid_address" && detail.error.field == "email")
        let fields = Set((detail.problems ?? []).map(\.field))
        #expect(fields.isSuperset(of: ["email", "address.lastName", "address.line1", "address.city", "address.postalCode",
                                       "address.country", "address.phone"]))
        #expect(detail.problems?.first(where: { $0.field == "address.country" })?.code == "unknown_country")
        #expect(!fields.contains("address.firstName"))
    }

    @Test func anotherShoppersOrderIsNotFound() throws {
        let shop = try shop()
        let ana = try shop.apiAccount("ana@example.com")
        let bea = try shop.apiAccount("bea@example.com", name: "Bea Ruiz")
        try fillCheckout(shop, ana.token, email: nil)
        try shop.api(.post, "/api/v1/checkout/review", token: ana.token)
        let placed = try placeOrder(shop, ana.token, key: "ana-1")
        #expect(placed.status == 201)
        let order = try decoded(V1Order.self, placed)
        #expect(order.guestToken == nil && order.email == "ana@example.com")

        #expect(try shop.api(.get, "/api/v1/orders/\(order.number)", token: ana.token).status == 200)
        let other = try shop.api(.get, "/api/v1/orders/\(order.number)", token: bea.token)
        #expect(try other.status == 404 && (decoded(APIErrorEnvelope.self, other)).error.code == "not_found")
        #expect(try decoded(V1Orders.self, try shop.api(.get, "/api/v1/orders", token: ana.token)).orders.map(\.number) == [order.number])
        #expect(try decoded(V1Orders.self, try shop.api(.get, "/api/v1/orders", token: bea.token)).orders.isEmpty)
    }
}

extension V1CheckoutAPITests {
    @Test func aHoldTheMerchantTrimmedIsReportedAsHoldTrimmed() throws {
        let shop = try shop()
        let first = try guestToken(shop), second = try guestToken(shop)
        try fillCheckout(shop, first, product: "brass-lamp", quantity: 2)
        try fillCheckout(shop, second, product: "brass-lamp", quantity: 3)
        #expect(try shop.api(.post, "/api/v1/checkout/review", token: first).status == 200)
        #expect(try shop.api(.post, "/api/v1/checkout/review", token: second).status == 200)
        _ = try #require(shop.orders).setStock("BRASS-LAMP", 3, shop.clock.now)  // the later holder keeps only 1

        let trimmed = try shop.api(.post, "/api/v1/checkout/review", token: second)
        #expect(trimmed.status == 409)
        let detail = try decoded(V1CheckoutError.self, trimmed)
        #expect(detail.error.code == "hold_trimmed")
        #expect(detail.available?.map { [$0.requested, $0.available] } == [[3, 1]])
        #expect(try placeOrder(shop, first, key: "first-1").status == 201, "the earlier holder keeps all of theirs")
    }

    @Test func aSavedAddressIdUsesThatAddressAndAnotherShoppersIs404() throws {
        let shop = try shop()
        let ana = try shop.apiAccount("ana@example.com")
        let bea = try shop.apiAccount("bea@example.com", name: "Bea Ruiz")
        let saved = try shop.api(.post, "/api/v1/addresses", token: ana.token, json: #"{"address": \#(address), "isDefault": true}"#)
        #expect(saved.status == 201)
        let id = try decoded(V1SavedAddress.self, saved).id

        #expect(try shop.api(.post, "/api/v1/cart/lines", token: ana.token, json: #"{"product": "night-light"}"#).status == 200)
        let chosen = try shop.api(.put, "/api/v1/checkout/address", token: ana.token, json: #"{"savedAddressId": \#(id)}"#)
        #expect(chosen.status == 200)
        let checkout = try decoded(V1Checkout.self, chosen)
        #expect(checkout.savedAddressId == id && checkout.address?.city == "Springfield" && checkout.address?.line1 == "1 Main St")
        let both = try shop.api(.put, "/api/v1/checkout/address", token: ana.token,
                                json: #"{"savedAddressId": \#(id), "address": \#(address.replacingOccurrences(of: "Springfield", with: "Shelbyville"))}"#)
        let bothError = try decoded(APIErrorEnvelope.self, both).error
        #expect(both.status == 400 && bothError.code == "invalid_field" && bothError.field == "address")
        #expect(try decoded(V1Checkout.self, try shop.api(.get, "/api/v1/checkout", token: ana.token)).address?.city == "Springfield",
                "the refused body changed nothing")

        let stolen = try shop.api(.put, "/api/v1/checkout/address", token: bea.token, json: #"{"savedAddressId": \#(id)}"#)
        #expect(stolen.status == 404)
        #expect(try decoded(APIErrorEnvelope.self, stolen).error.code == "address_not_found")
    }
}
