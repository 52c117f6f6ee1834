import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

private let lamp = ProductDraft.mock(handle: "lamp", title: "Desk Lamp", category: "Lamps",
                                     variants: [.mock(sku: "LAMP-1", price: .usd(30_00),
                                                      inventory: .tracked(quantity: 5, allowsBackorder: false))])
private let mug = ProductDraft.mock(handle: "mug", title: "Mug", category: "Kitchen",
                                    variants: [.mock(sku: "MUG-1", price: .usd(10_00), inventory: .untracked)])
private let shirt = ProductDraft.mock(handle: "shirt", title: "Shirt", category: "Clothes", optionNames: ["Size"],
                                      variants: [.mock(sku: "S", options: ["S"], price: .usd(20_00)),
                                                 .mock(sku: "M", options: ["M"], price: .usd(20_00))])

@Suite("CartService")
struct CartServiceTests {
    private func guest(_ shop: ServiceShop) throws -> Shopper { try shop.guestSession().session.shopper }

    @Test func addingStartsTheSessionOnlyOnceTheAddIsValidAndWithTheLine() throws {
        let shop = try ServiceShop([lamp, mug])
        var started: [GuestStart] = []
        let start: ([CartChange]) throws -> GuestStart = { changes in
            let guest = try shop.sessionService.startGuestSession(csrfToken: ServiceShop.csrfCookie,
                                                                  csrfCookie: ServiceShop.csrfCookie, cart: changes)
            started.append(guest)
            return guest
        }
        #expect(throws: CartError.quantityNotANumber) {
            try shop.cartService.add(try shop.product("mug"), variantID: nil, quantityText: "two", for: nil, startingSession: start)
        }
        #expect(started.isEmpty, "a refused add makes no session")
        try shop.cartService.add(try shop.product("mug"), variantID: nil, quantityText: "2", for: nil, startingSession: start)
        #expect(started.map(\.wroteCart) == [true])
        let shopper = try #require(started.first).issued.session.shopper
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.quantity) == [2])

        // The visitor's second request at once, without the cookie yet: it joins the session,
        // and its add goes to the same cart.
        try shop.cartService.add(try shop.product("mug"), variantID: nil, quantityText: "1", for: nil, startingSession: start)
        #expect(started.map(\.wroteCart) == [true, false])
        #expect(started[1].issued.session.id == started[0].issued.session.id)
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.quantity) == [3])
    }

    /// Found by a fresh tester: another product's variant id (or none at all) added this
    /// product's default variant, or asked to choose an option.
    @Test func aVariantTheProductDoesNotHaveIsRefused() throws {
        let shop = try ServiceShop([lamp, shirt])
        let shopper = try guest(shop)
        let lampProduct = try shop.product("lamp"), shirtProduct = try shop.product("shirt")
        #expect(throws: CartError.variantNotFound) {
            try shop.cartService.add(lampProduct, variantID: shirtProduct.variants[0].id, quantityText: "1", for: shopper)
        }
        #expect(throws: CartError.variantNotFound) {
            try shop.cartService.add(shirtProduct, variantID: lampProduct.variants[0].id, quantityText: "1", for: shopper)
        }
        #expect(throws: CartError.variantNotFound) {
            try shop.cartService.add(lampProduct, variantID: Variant.ID(rawValue: 999_999), quantityText: "1", for: shopper)
        }
        #expect(try shop.cartService.cart(of: shopper).isEmpty)
        try shop.cartService.add(lampProduct, variantID: nil, quantityText: "1", for: shopper)
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.variantID) == [lampProduct.variants[0].id])
    }

    @Test func aProductWithOptionsNeedsAChosenVariant() throws {
        let shop = try ServiceShop([shirt])
        let shopper = try guest(shop)
        let product = try shop.product("shirt")
        #expect(throws: CartError.variantNotChosen) {
            try shop.cartService.add(product, variantID: nil, quantityText: "1", for: shopper)
        }
        let added = try shop.cartService.add(product, variantID: product.variants[1].id, quantityText: "1", for: shopper)
        #expect(added.optionValues == ["M"])
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.variantID) == [product.variants[1].id])
    }

    @Test(arguments: [("6", CartError.quantityExceedsStock(available: 5, inCart: 0)),
                      ("0", .quantityNotPositive), ("-1", .quantityNegative), ("1.5", .quantityNotWhole),
                      ("9999999999999999999999", .quantityExceedsMaximum(99))])
    func refusedAddsWriteNothing(quantity: String, error: CartError) throws {
        let shop = try ServiceShop([lamp])
        let shopper = try guest(shop)
        #expect(throws: error) {
            try shop.cartService.add(try shop.product("lamp"), variantID: nil, quantityText: quantity, for: shopper)
        }
        #expect(try shop.cartService.cart(of: shopper).isEmpty)
    }

    @Test func addsCountWhatIsAlreadyInTheCartAndOtherShoppersHolds() throws {
        let shop = try ServiceShop([lamp])
        let shopper = try guest(shop)
        let other = try shop.guestSession(csrf: "another-visitor-csrf-cookie-0123456789abcdef").session.shopper
        let product = try shop.product("lamp")
        _ = try shop.orders.reserve(other, [StockRequest(variantID: product.variants[0].id, quantity: 2)],
                                    shop.clock.now + 600, shop.clock.now)
        try shop.cartService.add(product, variantID: nil, quantityText: "2", for: shopper)
        #expect(throws: CartError.quantityExceedsStock(available: 3, inCart: 2)) {
            try shop.cartService.add(product, variantID: nil, quantityText: "2", for: shopper)
        }
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.quantity) == [2])
    }

    /// With the holds' ends kept (`SharedVersion`, as the storefront runs), stock is read net of
    /// holds only while one is live — a category page read its 48 variants' holds each time
    /// (issue #14) — and the answer is the store's either way: none held, one held, its end
    /// passed before the sweeper ran, an unpublished product.
    @Test func keptHoldEndsReadHoldsOnlyWhileOneIsLiveAndAnswerAsTheStore() throws {
        let shop = try ServiceShop([lamp, mug])
        let reads = Mutex(0)
        var counted = shop.orders
        let available = shop.orders.available
        counted.available = { ids, shopper, now in
            reads.withLock { $0 += 1 }
            return try available(ids, shopper, now)
        }
        let base = shop.cartService
        let kept = CartService(catalog: base.catalog, sessions: base.sessions, orders: counted, campaigns: base.campaigns,
                               currency: base.currency, now: base.now, holdEnds: base.holdEnds)
        let unkept = CartService(catalog: base.catalog, sessions: base.sessions, orders: counted, campaigns: base.campaigns,
                                 currency: base.currency, now: base.now, holdEnds: nil)
        func stock(_ carts: CartService) throws -> [Int?] {
            let listed = try carts.listing(ProductQuery(sort: .name, limit: 10)).products
            #expect(listed.map(\.handle) == ["lamp", "mug"])
            return listed.flatMap(\.variants).map(\.inventory.availableQuantity)
        }
        func readsOf(_ body: () throws -> Void) rethrows -> Int {
            let before = reads.withLock { $0 }
            try body()
            return reads.withLock { $0 } - before
        }

        #expect(try stock(kept) == [5, nil] && stock(unkept) == [5, nil])
        #expect(try readsOf { _ = try stock(kept) } == 0, "nothing held: nothing read")

        let other = try shop.guestSession(csrf: "another-visitor-csrf-cookie-0123456789abcdef").session.shopper
        let lampProduct = try shop.product("lamp")
        _ = try shop.orders.reserve(other, [StockRequest(variantID: lampProduct.variants[0].id, quantity: 2)],
                                    shop.clock.now + 600, shop.clock.now)
        #expect(try stock(kept) == [3, nil] && stock(unkept) == [3, nil])
        #expect(try readsOf { _ = try stock(kept) } > 0, "a live hold: read")
        let own = try kept.available([lampProduct], to: other)[0].variants[0].inventory.availableQuantity
        #expect(own == 5, "the holder's own hold is theirs")

        shop.clock.advance(by: 601)  // the hold has ended; the sweeper has not run
        #expect(try stock(kept) == [5, nil] && stock(unkept) == [5, nil])
        #expect(try readsOf { _ = try stock(kept) } == 0)

        var withdrawn = lamp
        withdrawn.isPublished = false
        _ = try shop.catalog.upsert([withdrawn])
        let unpublished = try #require(try shop.catalog.storedProduct(lampProduct.id)).product
        #expect(try kept.available([unpublished], to: nil)[0].variants[0].inventory.availableQuantity == 0)
        #expect(try unkept.available([unpublished], to: nil)[0].variants[0].inventory.availableQuantity == 0)
    }

    @Test func oneQuotePricesEveryLineNetOfHoldsWithTheVoucherAndTheUnavailableLines() throws {
        let shop = try ServiceShop([lamp, mug, shirt])
        let shopper = try guest(shop)
        let other = try shop.guestSession(csrf: "another-visitor-csrf-cookie-0123456789abcdef").session.shopper
        _ = try shop.campaigns.replaceAll([Campaign(
            id: "lamps", title: "Lamps 10%", startsAt: shop.clock.now - 60, endsAt: shop.clock.now + 600,
            discount: .percentage(10), target: .category(handle: "lamps"), voucherCode: VoucherCode("LIGHT"))])
        let lampProduct = try shop.product("lamp")
        let shirtLine = try shop.line("shirt", 1)
        try shop.sessions.saveCart(shopper, Cart(lines: [try shop.line("lamp", 4), try shop.line("mug", 3), shirtLine],
                                                 voucherCode: VoucherCode("light")))
        var withdrawn = shirt
        withdrawn.isPublished = false
        _ = try shop.catalog.upsert([withdrawn])
        _ = try shop.orders.reserve(other, [StockRequest(variantID: lampProduct.variants[0].id, quantity: 2)],
                                    shop.clock.now + 600, shop.clock.now)

        let quote = try shop.cartService.quote(try shop.cartService.cart(of: shopper), shopper: shopper, userID: nil)
        #expect(quote.lines.map(\.product.handle) == ["lamp", "mug"])
        #expect(quote.lines.map(\.amount) == [.usd(120_00), .usd(30_00)])
        #expect(quote.lines.map(\.discount) == [.usd(12_00), .usd(0)], "only the lamps category is discounted")
        #expect(quote.subtotal == .usd(150_00) && quote.discount == .usd(12_00) && quote.total == .usd(138_00))
        #expect(quote.appliedCampaign?.id == "lamps")
        #expect(quote.lines[0].quantityLimit == 3, "5 in stock, 2 held by another shopper")
        #expect(quote.lines[0].stockProblem == .quantityExceedsStock(available: 3, inCart: 0))
        #expect(quote.unavailable.map(\.variantID) == [shirtLine.variantID], "no longer sold")
        #expect(quote.itemCount == 7)

        try shop.cartService.removeUnavailable(quote, for: shopper)
        #expect(try shop.cartService.cart(of: shopper).lines.count == 2)
    }

    @Test func quantityRemovalSelectionAndVoucherChangeOneLineEach() throws {
        let shop = try ServiceShop([lamp, mug])
        let shopper = try guest(shop)
        let carts = shop.cartService
        let lampID = try shop.product("lamp").variants[0].id
        let mugID = try shop.product("mug").variants[0].id
        try carts.add(try shop.product("lamp"), variantID: nil, quantityText: "1", for: shopper)
        try carts.add(try shop.product("mug"), variantID: nil, quantityText: "1", for: shopper)

        #expect(try carts.setQuantity("3", of: lampID, for: shopper) == .updated)
        #expect(throws: CartError.quantityExceedsStock(available: 5, inCart: 0)) { try carts.setQuantity("6", of: lampID, for: shopper) }
        try carts.setSelected(false, line: mugID, for: shopper)
        try carts.setVoucher(VoucherCode("nothing"), for: shopper)
        var quote = try carts.quote(try carts.cart(of: shopper), shopper: shopper, userID: nil)
        #expect(quote.lines.map(\.quantity) == [3, 1] && quote.lines.map(\.isSelected) == [true, false])
        #expect(quote.total == .usd(90_00) && quote.selectedItemCount == 3)
        #expect(quote.voucher == .rejected(code: VoucherCode("NOTHING")!, .unknown))

        #expect(try carts.setQuantity("0", of: mugID, for: shopper) == .removed(title: "Mug"))
        #expect(try carts.remove(lampID, for: shopper) == "Desk Lamp")
        #expect(throws: CartError.lineNotFound) { try carts.setQuantity("1", of: lampID, for: shopper) }
        quote = try carts.quote(try carts.cart(of: shopper), shopper: shopper, userID: nil)
        #expect(quote.isEmpty && quote.total == .usd(0))
    }

    /// A changed quantity or selection releases the checkout's hold (the cart is reviewed
    /// again); what changes nothing keeps it — the same quantity, a tick already there — and so
    /// does a voucher code, which changes no quantity (a fresh tester lost their hold to each).
    /// A shopper with 4 of the 5 lamps in the cart and held at checkout, and another shopper.
    private func holdingFourLamps(_ shop: ServiceShop) throws -> (shopper: Shopper, other: Shopper, lampID: Variant.ID) {
        let shopper = try guest(shop)
        let other = try shop.guestSession(csrf: "another-visitor-csrf-cookie-0123456789abcdef").session.shopper
        let lampID = try shop.product("lamp").variants[0].id
        try shop.sessions.saveCart(shopper, Cart(lines: [try shop.line("lamp", 4)]))
        _ = try shop.orders.reserve(shopper, [StockRequest(variantID: lampID, quantity: 4)], shop.clock.now + 600, shop.clock.now)
        return (shopper, other, lampID)
    }

    @Test func aCartChangeReleasesTheShoppersCheckoutHoldButANoOpKeepsIt() throws {
        let shop = try ServiceShop([lamp])
        let (shopper, other, lampID) = try holdingFourLamps(shop)
        func leftToOthers() throws -> Int? { try shop.orders.available([lampID], other, shop.clock.now)[lampID] ?? nil }
        #expect(try leftToOthers() == 1)

        #expect(try shop.cartService.setQuantity("4", of: lampID, for: shopper) == .updated)
        try shop.cartService.setSelected(true, line: lampID, for: shopper)
        try shop.cartService.setSelected(true, line: nil, for: shopper)
        try shop.cartService.setVoucher(VoucherCode("NO-SUCH-CODE"), for: shopper)
        #expect(try leftToOthers() == 1, "nothing that changes a quantity: still held")
        #expect(try shop.cartService.cart(of: shopper).voucherCode == VoucherCode("NO-SUCH-CODE"))

        try shop.cartService.setQuantity("3", of: lampID, for: shopper)
        #expect(try leftToOthers() == 5)
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.quantity) == [3])
    }

    @Test func unselectingALineReleasesTheHold() throws {
        let shop = try ServiceShop([lamp])
        let (shopper, other, lampID) = try holdingFourLamps(shop)
        try shop.cartService.setSelected(false, line: nil, for: shopper)
        #expect(try shop.orders.available([lampID], other, shop.clock.now)[lampID] == .some(5))
        #expect(try shop.cartService.cart(of: shopper).lines.map(\.isSelected) == [false])
    }
}
