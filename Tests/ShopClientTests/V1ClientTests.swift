import Foundation
import ShopAPI
import ShopClient
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LiveShop {
    /// Sells for real: two shipping methods and the `SAVE15` voucher (15 % off the whole cart),
    /// as the ShopWeb checkout tests set their shop up.
    func sellWithVoucher() throws {
        shop.environment.shippingMethods = [
            ShippingMethod(id: "standard", name: "Standard", price: .usd(4_90), freeAbove: .usd(500_00)),
            ShippingMethod(id: "express", name: "Express", price: .usd(12_00), countries: ["US"]),
        ]
        let now = shop.clock.now
        _ = try shop.campaigns.replaceAll([
            Campaign(id: Campaign.ID(rawValue: "save15"), title: "15 % off", description: "", imageURL: nil,
                     startsAt: now - 86_400, endsAt: now + 86_400, discount: .percentage(15), target: .wholeCart,
                     minimumSubtotal: nil, voucherCode: VoucherCode("SAVE15")),
        ])
    }

    static let shippingAddress = V1Address(firstName: "Ana", lastName: "Lima", phone: "+1 555 0100", line1: "1 Main St",
                                           city: "Springfield", postalCode: "12345", country: "US")
}

@Suite("ShopClient: /api/v1 named methods against the live server")
struct V1ClientTests {
    /// Issue #10's "Done when": a program using only `ShopClient`'s named methods browses, fills a
    /// cart with a guest token, applies a voucher, checks out, places an order and reads it back.
    @Test func aGuestBrowsesFillsACartAppliesAVoucherAndPlacesAnOrder() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        try live.sellWithVoucher()
        let recorder = Recorder()
        let client = live.client(recorder.transport)

        // Browse: categories → products → detail.
        let categories = try await client.v1.categories()
        #expect(Set(categories.map(\.name)) == ["Men's chairs", "Lamps"])
        let lamps = try #require(categories.first { $0.name == "Lamps" })
        #expect(lamps.productCount == 2)
        let page = try await client.v1.products(query: V1ProductQuery(category: lamps.handle, sort: "name"))
        #expect(page.products.map(\.title) == ["Arc Lamp", "Desk Lamp"] && page.totalCount == 2 && page.nextCursor == nil)
        let arc = try await client.v1.product(handle: page.products[0].handle)
        #expect(arc.title == "Arc Lamp" && arc.variants.map(\.price.minorUnits) == [49_90])
        #expect(arc.related.map(\.title) == ["Desk Lamp"])

        // A guest cart: the token is kept and every cart call carries it.
        let guest = try await client.v1.startGuestSession()
        #expect(client.credentials == Credentials(accessToken: guest.token))
        _ = try await client.v1.addLine(V1AddLine(product: arc.handle, quantity: 3))
        var cart = try await client.v1.addLine(V1AddLine(productId: page.products[1].id, quantity: 1))
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer \(guest.token)")
        let arcVariant = try #require(arc.variants.first).id
        cart = try await client.v1.updateLine(variantID: arcVariant, quantity: 2)
        #expect(cart.lines.map(\.quantity) == [2, 1] && cart.subtotal.minorUnits == 2 * 49_90 + 10_00)

        // The voucher: 15 % of $109.80 is $16.47, shared over the lines to the cent.
        cart = try await client.v1.setVoucher(code: "save15")
        #expect(cart.voucher?.status == "applied" && cart.voucher?.code == "SAVE15")
        #expect(cart.discount.minorUnits == 16_47 && cart.total.minorUnits == 93_33)
        #expect(cart.lines.map(\.discount.minorUnits).reduce(0, +) == cart.discount.minorUnits)
        #expect(try await client.v1.cart() == cart)

        // Checkout: address, shipping, review.
        var checkout = try await client.v1.checkout()
        #expect(checkout.nextStep == "address" && checkout.quote == nil)
        checkout = try await client.v1.setAddress(V1CheckoutAddress(address: LiveShop.shippingAddress, email: "guest@example.com"))
        #expect(checkout.nextStep == "shipping" && checkout.shippingOptions.map(\.id) == ["standard", "express"])
        checkout = try await client.v1.setShipping(method: "express")
        #expect(checkout.nextStep == "review")
        let reviewed = try await client.v1.review()
        #expect(reviewed.heldUntil != nil)
        let quote = try #require(reviewed.quote)
        #expect(quote.subtotal == cart.subtotal && quote.discount == cart.discount && quote.voucherCode == "SAVE15")
        #expect(quote.total.minorUnits == cart.total.minorUnits + 12_00)

        // The order: the cart's and the review's numbers, to the cent.
        let key = ShopClient.V1.newIdempotencyKey()
        let order = try await client.v1.placeOrder(idempotencyKey: key)
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Idempotency-Key") == key)
        #expect(order.subtotal == cart.subtotal && order.discount == cart.discount && order.voucherCode == "SAVE15")
        #expect(order.shippingMethod == "Express" && order.shippingCost.minorUnits == 12_00 && order.total == quote.total)
        #expect(order.lines.map(\.total) == cart.lines.map(\.total) && order.lines.map(\.quantity) == [2, 1])
        #expect(order.email == "guest@example.com" && order.shippingAddress.city == "Springfield")
        let guestToken = try #require(order.guestToken)

        // Placing it again with the same key answers the same order; no second one is made.
        let again = try await client.v1.placeOrder(idempotencyKey: key)
        #expect(again.number == order.number && again.total == order.total)
        #expect(try live.shop.orders?.findOrders(.everything).orders.count == 1)

        // Read back with the order's guest token alone, as the confirmation email's link does.
        client.signOut()
        var readBack = try await client.v1.order(number: order.number, guestToken: guestToken)
        #expect(readBack.guestToken == nil)
        readBack.guestToken = guestToken
        #expect(readBack == order)
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Authorization") == nil)
        let stranger = await #expect(throws: NetworkError.self) { try await client.v1.order(number: order.number) }
        #expect(stranger?.status == 401 || stranger?.status == 404)
    }

    /// The answer to the first `POST /api/v1/orders` is lost after the shop placed the order: the
    /// client sends it again with the same `Idempotency-Key` and gets that order, not a second one.
    @Test func placeOrderIsRetriedWithTheSameKeyAfterALostAnswer() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        try live.sellWithVoucher()
        let recorder = Recorder()
        let lost = Counter()
        let transport = HTTPTransport { request in
            let answer = try await recorder.transport.send(request)
            if request.url?.path == "/api/v1/orders", lost.next() == 1 { throw URLError(.networkConnectionLost) }
            return answer
        }
        let sleeps = Sleeps()
        let client = live.client(transport, retry: sleeps.policy())
        try await client.v1.startGuestSession()
        _ = try await client.v1.addLine(V1AddLine(product: "oak-chair"))
        _ = try await client.v1.setAddress(V1CheckoutAddress(address: LiveShop.shippingAddress, email: "guest@example.com"))
        _ = try await client.v1.setShipping(method: "standard")
        _ = try await client.v1.review()

        let order = try await client.v1.placeOrder()
        let attempts = recorder.requests.filter { $0.url?.path == "/api/v1/orders" }
        #expect(attempts.count == 2 && sleeps.recorded.count == 1)
        let keys = attempts.map { $0.value(forHTTPHeaderField: "Idempotency-Key") }
        #expect(keys[0] != nil && keys[0] == keys[1], "one key per order attempt, reused on retry")
        #expect(try live.shop.orders?.findOrders(.everything).orders.map(\.number) == [order.number])

        // Other POSTs carry no key and are never sent twice.
        let dropped = Counter()
        let flaky = live.client(HTTPTransport { request in
            _ = dropped.next()
            throw URLError(.networkConnectionLost)
        }, retry: sleeps.policy())
        await #expect(throws: NetworkError.self) { try await flaky.v1.review() }
        #expect(dropped.value == 1)
    }

    @Test func linesVoucherFavoritesAndPagesByName() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        try live.sellWithVoucher()
        let client = live.client()

        // Cursor pagination as an AsyncSequence: every product once, in order.
        var titles: [String] = []
        var pages = 0
        for try await page in client.v1.productPages(query: V1ProductQuery(sort: "name", limit: "2")) {
            titles += page.products.map(\.title)
            pages += 1
        }
        #expect(titles == ["Arc Lamp", "Desk Lamp", "Oak Chair"] && pages == 2)
        let first = try await client.v1.products(query: V1ProductQuery(sort: "name", limit: "2"))
        let next = try #require(first.nextCursor)
        #expect(try await client.v1.products(query: V1ProductQuery(sort: "name", cursor: next, limit: "2")).products
                    .map(\.title) == ["Oak Chair"])

        try await client.v1.startGuestSession()
        let chair = try await client.v1.product(handle: "oak-chair")
        var cart = try await client.v1.addLine(V1AddLine(productId: chair.id, quantity: 2))
        let variant = try #require(cart.lines.first).variantId
        cart = try await client.v1.updateLine(variantID: variant, selected: false)
        #expect(cart.lines.first?.selected == false && cart.total.minorUnits == 0 && cart.selectedItemCount == 0)
        cart = try await client.v1.setVoucher(code: "NOPE")
        #expect(cart.voucher?.status == "rejected" && cart.voucher?.problem?.code == "voucher_unknown")
        cart = try await client.v1.removeVoucher()
        #expect(cart.voucher == nil)
        cart = try await client.v1.removeLine(variantID: variant)
        #expect(cart.lines.isEmpty)
        let missing = await #expect(throws: NetworkError.self) { try await client.v1.removeLine(variantID: variant) }
        #expect(missing?.status == 404 && missing?.code == "line_not_found")

        #expect(try await client.v1.favorites().isEmpty)
        #expect(try await client.v1.addFavorite(productID: chair.id).map(\.handle) == ["oak-chair"])
        #expect(try await client.v1.favorites().map(\.id) == [chair.id])
        #expect(try await client.v1.removeFavorite(productID: chair.id).isEmpty)

        // An account's orders: sign in (the guest's cart merges), check out with a typed address.
        try live.register(email: "ana@example.com", password: "Blue9sky!")
        _ = try await client.v1.addLine(V1AddLine(product: "arc-lamp"))
        try await client.login(username: "ana@example.com", password: "Blue9sky!")
        #expect(try await client.v1.cart().lines.map(\.handle) == ["arc-lamp"], "merged at sign-in")
        _ = try await client.v1.setAddress(V1CheckoutAddress(address: LiveShop.shippingAddress))
        _ = try await client.v1.setShipping(method: "standard")
        _ = try await client.v1.review()
        let order = try await client.v1.placeOrder()
        #expect(order.guestToken == nil && order.email == "ana@example.com")
        #expect(try await client.v1.orders().map(\.number) == [order.number])
        #expect(try await client.v1.order(number: order.number).total == order.total)
    }
}
