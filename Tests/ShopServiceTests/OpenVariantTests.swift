import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
import Testing

/// Issue #13, point 2: a WooCommerce "any" variant is ONE sellable variant — one SKU, one stock
/// pool — whose open option the shopper picks; the pick is on the cart line and the order line.
@Suite("Open variants (WooCommerce any)")
struct OpenVariantTests {
    private static let sizeM = ChosenValues(entries: [.init(name: "Size", value: "M")])
    private static let sizeL = ChosenValues(entries: [.init(name: "Size", value: "L")])

    private func add(_ shop: ServiceShop, _ shopper: Shopper, _ quantity: String, _ picked: [String: String]) throws {
        let tee = try shop.product("tee")
        try shop.cartService.add(tee, variantID: tee.variants[0].id, quantityText: quantity, picked: picked,
                                 for: shopper)
    }

    /// Ana's checkout of `cart`, reviewed and held: the quote she confirms, or nil (recorded).
    private func review(_ cart: CartQuote, _ shop: ServiceShop, _ shopper: Shopper,
                        key: String) throws -> (CheckoutQuote, CheckoutState)? {
        var state = CheckoutState(email: "ana@example.com",
                                  addressFields: ["first_name": "Ana", "last_name": "Lima", "phone": "+90 555 000 00 00",
                                                  "line1": "Bağdat Cd. 1", "city": "İstanbul", "postal_code": "34728",
                                                  "country": "TR"],
                                  shippingMethodID: "standard", idempotencyKey: key)
        let quote = try #require(try shop.checkoutService.quote(cart, state, userID: nil, language: .english))
        guard case .held = try shop.checkoutService.review(quote, &state, for: shopper) else {
            Issue.record("not held")
            return nil
        }
        return (quote, state)
    }

    private func place(_ quote: CheckoutQuote, _ state: CheckoutState, _ shop: ServiceShop,
                       _ shopper: Shopper) throws -> CheckoutService.Placement {
        try shop.checkoutService.place(quote, voucherCode: nil, state: state, for: shopper, user: nil,
                                       email: "ana@example.com", confirmation: { request, _ in
                                           OutboxDraft(toAddress: request.email, toName: "Ana", subject: "Order",
                                                       textBody: "", createdAt: shop.clock.now)
                                       })
    }

    @Test(.bug(id: "13"), arguments: [
        ([:], CartError.valueNotChosen(option: "Size")), (["Size": " "], .valueNotChosen(option: "Size")),
        (["Size": "XL"], .valueNotAllowed(option: "Size", value: "XL")), (["Colour": "M"], .valueNotChosen(option: "Size")),
    ])
    func anOpenVariantNeedsAnAllowedValue(picked: [String: String], error: CartError) throws {
        let shop = try ServiceShop([.openTee()])
        let shopper = try shop.guestSession().session.shopper
        #expect(throws: error) { try add(shop, shopper, "1", picked) }
        #expect(try shop.cartService.cart(of: shopper).isEmpty)
    }

    @Test(.bug(id: "13")) func eachChosenValueIsItsOwnLineSharingTheVariantsStock() throws {
        let shop = try ServiceShop([.openTee()])
        let shopper = try shop.guestSession().session.shopper
        try add(shop, shopper, "2", ["Size": "M"])
        try add(shop, shopper, "1", ["Size": "L"])
        try add(shop, shopper, "1", ["Size": "M"])
        let cart = try shop.cartService.cart(of: shopper)
        #expect(cart.lines.map(\.chosen) == [Self.sizeM, Self.sizeL])
        #expect(cart.lines.map(\.quantity) == [3, 1])
        // 4 of the 5 are in the cart, whatever size: 2 more L is refused, naming the 4.
        #expect(throws: CartError.quantityExceedsStock(available: 5, inCart: 4)) { try add(shop, shopper, "2", ["Size": "L"]) }
        let variant = cart.lines[0].variantID
        #expect(throws: CartError.quantityExceedsStock(available: 5, inCart: 3)) {
            try shop.cartService.setQuantity("3", of: variant, chosen: Self.sizeL, for: shopper)
        }
        #expect(try shop.cartService.setQuantity("2", of: variant, chosen: Self.sizeL, for: shopper) == .updated)
        // The quote shows each line with its pick in the variant title, the SKU kept.
        let quote = try shop.cartService.quote(try shop.cartService.cart(of: shopper), shopper: shopper, userID: nil)
        #expect(quote.lines.map(\.variant.title) == ["M", "L"])
        #expect(quote.lines.map(\.variant.sku) == ["TEE-ANY", "TEE-ANY"])
        #expect(try shop.cartService.remove(variant, chosen: Self.sizeM, for: shopper) == "Plain Tee")
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.chosen) == [Self.sizeL])
    }

    /// A pick the merchant withdraws (a re-import now offering S and M only) is no longer sold: the
    /// cart leaves that line out with the usual notice, and placing the quote the shopper
    /// confirmed before answers "confirm again" without taking stock (`Product.stillOffers`).
    @Test(.bug(id: "13")) func aWithdrawnPickIsNoLongerSoldInTheCartOrAtPlacement() throws {
        let shop = try ServiceShop([.openTee()])
        let shopper = try shop.guestSession().session.shopper
        try add(shop, shopper, "2", ["Size": "M"])
        try add(shop, shopper, "1", ["Size": "L"])
        let cart = try shop.cartService.quote(try shop.cartService.cart(of: shopper), shopper: shopper, userID: nil)
        #expect(cart.unavailable.isEmpty)
        guard let (quote, state) = try review(cart, shop, shopper, key: "key-withdrawn") else { return }

        var reimported = ProductDraft.openTee()
        reimported.variants[0].optionChoices = [["S", "M"]]
        _ = try shop.catalog.upsert([reimported])
        let variant = try shop.product("tee").variants[0]
        #expect(variant.id == cart.lines[0].variant.id, "the same variant, with fewer values")

        let placement = try place(quote, state, shop, shopper)
        #expect(placement == .confirmationNeeded)
        #expect(try shop.product("tee").variants[0].inventory == .tracked(quantity: 5, allowsBackorder: false),
                "no stock taken")

        let again = try shop.cartService.quote(try shop.cartService.cart(of: shopper), shopper: shopper, userID: nil)
        #expect(again.unavailable.map(\.chosen) == [Self.sizeL])
        #expect(again.lines.map(\.variant.title) == ["M"])
    }

    @Test(.bug(id: "13")) func theOrderKeepsEachLinesChosenValuesAndTakesStockOnce() throws {
        let shop = try ServiceShop([.openTee()])
        let shopper = try shop.guestSession().session.shopper
        try add(shop, shopper, "1", ["Size": "S"])
        // S stays in the cart unticked: ticking is per variant, and adding ticks only its line.
        try shop.cartService.setSelected(false, line: try shop.product("tee").variants[0].id, for: shopper)
        try add(shop, shopper, "2", ["Size": "M"])
        try add(shop, shopper, "1", ["Size": "L"])
        let cart = try shop.cartService.quote(try shop.cartService.cart(of: shopper), shopper: shopper, userID: nil)
        guard let (quote, state) = try review(cart, shop, shopper, key: "key-tee") else { return }
        let placement = try place(quote, state, shop, shopper)
        guard case let .placed(order, _) = placement else {
            Issue.record("not placed: \(placement)")
            return
        }
        #expect(order.lines.map(\.chosen) == [Self.sizeM, Self.sizeL])
        #expect(order.lines.map(\.variantTitle) == ["M", "L"])
        #expect(order.lines.map(\.sku) == ["TEE-ANY", "TEE-ANY"])
        #expect(order.lines.map(\.quantity) == [2, 1])
        // Stored as placed, and the variant's one stock pool lost 3.
        #expect(try shop.orders.order(order.number)?.lines.map(\.chosen) == [Self.sizeM, Self.sizeL])
        #expect(try shop.product("tee").variants[0].inventory == .tracked(quantity: 2, allowsBackorder: false))
        // The ordered lines left the cart; the unticked S of the same variant stayed.
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.chosen) == [ChosenValues(text: "Size=S")])
    }
}
