import Foundation
import HTTPServer
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

private let lamp = ProductDraft.mock(handle: "lamp", title: "Desk Lamp", category: "Lamps",
                                     variants: [.mock(sku: "LAMP-1", price: .usd(30_00), inventory: .tracked(quantity: 5, allowsBackorder: false))])
private let last = ProductDraft.mock(handle: "last", title: "Last One", category: "Lamps",
                                     variants: [.mock(sku: "LAST-1", price: .usd(50_00), inventory: .tracked(quantity: 1, allowsBackorder: false))])
private let mug = ProductDraft.mock(handle: "mug", title: "Mug", category: "Kitchen",
                                    variants: [.mock(sku: "MUG-1", price: .usd(10_00), inventory: .untracked)])

private func shop(_ drafts: [ProductDraft] = [lamp, last, mug]) throws -> TestShop {
    let shop = try TestShop(drafts)
    configureCheckout(shop)
    return shop
}

@Suite("Checkout and orders")
struct CheckoutFlowTests {
    @Test func aGuestGoesFromCartToAnOrderAwaitingPayment() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "2")])
        let review = try reachReview(shop)
        #expect(review.status == 200)
        #expect(review.text.contains("$60.00") && review.text.contains("Shipping · Standard") && review.text.contains("$64.90"))
        #expect(review.text.contains("We hold these items for you for 15 minutes, until"))
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))])
        #expect(placed.status == 303)
        let location = try #require(placed.header("Location"))
        #expect(location.hasPrefix("/orders/") && location.contains("?token="))
        let order = try shop.get(location)
        #expect(order.status == 200 && order.text.contains("Awaiting payment") && order.text.contains("IBAN XX00 0000"))
        #expect(order.text.contains("Thank you! Your order"))
        #expect(try shop.get("/cart").text.contains("Your cart is empty"))
        let email = try #require(try shop.outbox().last)
        #expect(email.draft.toAddress == "guest@example.com" && email.draft.subject.contains("order"))
        #expect(email.draft.textBody.contains("https://shop.test/orders/"))
        let number = String(location.dropFirst("/orders/".count).prefix { $0 != "?" })
        #expect(email.draft.subject.contains(number) && email.draft.textBody.contains("https://shop.test" + location),
                "queued with the order, number and guest link filled in")
        let withoutToken = try shop.get("/orders/\(number)")
        #expect(withoutToken.status == 303 && withoutToken.header("Location") == "/account/sign-in?next=/orders/\(number)",
                "without the token a guest order is not shown: signed out, the link asks to sign in")
        #expect(try shop.get("/orders/\(number)?token=wrong").status == 404)
    }

    /// Back to the review after placing the order (a fresh tester): the cart is empty and says
    /// so, without "nothing selected" above it; that message is for a cart with lines unticked.
    @Test func theCheckoutOfAnEmptyCartGoesToTheCartWithoutAMessage() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/select-all", [("selected", "0")])
        let unticked = try shop.get("/checkout/review")
        #expect(unticked.status == 303 && unticked.header("Location") == "/cart")
        #expect(try shop.get("/cart").text.contains("Your cart has nothing selected to check out."))
        try shop.post("/cart/select-all", [("selected", "1")])
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(try reachReview(shop)))])
        #expect(placed.status == 303)
        let back = try shop.get("/checkout/review")
        #expect(back.status == 303 && back.header("Location") == "/cart")
        let cart = try shop.get("/cart").text
        #expect(cart.contains("Your cart is empty") && !cart.contains("nothing selected"))
    }

    /// Issue #16: once staff fulfil the order, its page says who carries it and the tracking
    /// number, and no longer asks for payment.
    @Test func aFulfilledOrdersPageShowsTheCarrierAndTrackingNumber() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(try reachReview(shop)))])
        let location = try #require(placed.header("Location"))
        let number = String(location.dropFirst("/orders/".count).prefix { $0 != "?" })
        let orders = try #require(shop.orders)
        _ = try orders.apply(OrderActionRequest(number: number, action: .markPaid, actor: "cli"), Date())
        _ = try orders.apply(OrderActionRequest(number: number, action: .fulfil,
                                                fulfilment: try Fulfilment(carrier: "Yurtiçi <Kargo>", trackingNumber: "TR-123 456"),
                                                actor: "cli"), Date())
        let page = try shop.get(location)
        #expect(page.status == 200)
        #expect(page.text.contains("Shipped with Yurtiçi &lt;Kargo&gt;") && page.text.contains("Tracking number: TR-123 456"))
        #expect(page.text.contains(#"class="status-pill status-ok">Shipped<"#))
        #expect(!page.text.contains("IBAN XX00 0000"), "paid: no payment instructions")
    }

    @Test func replayingPlaceOrderCreatesOneOrder() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let key = try idempotencyKey(try reachReview(shop))
        let first = try shop.post("/checkout/place", [("idempotency_key", key)])
        let second = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(first.status == 303 && second.status == 303)
        #expect(second.header("Location")?.hasPrefix("/orders/") == true)
        #expect(try shop.orders!.findOrders(.everything).orders.count == 1)
        // A replay before the checkout remembered the order (a server killed right after the
        // order's commit) still lands on it: found by the form's key.
        let orders = try #require(shop.orders)
        let sessionToken = try #require(shop.cookies["shoppable_session"])
        let shopper = try #require(try shop.environment.sessionService.resume(token: sessionToken).session).shopper
        var state = try #require(try orders.checkout(shopper))
        state.placedOrderPath = nil
        try orders.saveCheckout(shopper, state)
        let third = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(third.status == 303 && third.header("Location") == first.header("Location"))
        #expect(try orders.findOrders(.everything).orders.count == 1)
    }

    @Test func aPriceChangeAfterReviewNeedsConfirmation() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let key = try idempotencyKey(try reachReview(shop))
        var dearer = lamp
        dearer.variants[0].price = .usd(35_00)
        _ = try shop.catalog.upsert([dearer])
        let changed = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(changed.status == 409 && changed.text.contains("Your order changed since you reviewed it") && changed.text.contains("$39.90"))
        #expect(try shop.orders!.findOrders(.everything).orders.isEmpty)
        let confirmed = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(confirmed.status == 303)
        let order = try #require(try shop.orders!.findOrders(.everything).orders.first)
        #expect(order.total == .usd(39_90))
    }

    @Test func aVoucherThatExpiresBeforeOrderingIsDroppedWithAMessage() throws {
        let shop = try shop()
        _ = try shop.campaigns.replaceAll([Campaign(
            id: "ten", title: "Ten", startsAt: shop.clock.now - 60, endsAt: shop.clock.now + 600,
            discount: .percentage(10), voucherCode: VoucherCode("TEN"))])
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "ten")])
        let review = try reachReview(shop)
        #expect(review.text.contains("Discount (TEN)") && review.text.contains("$31.90"))
        shop.clock.advance(by: 700)
        let changed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))])
        #expect(changed.status == 409 && changed.text.contains("$34.90") && !changed.text.contains("Discount (TEN)"))
        #expect(changed.text.contains("The code TEN ended on"), "says why the discount went")
    }

    /// A line removed in another tab takes the cart under the code's minimum: the "your order
    /// changed" review says why the discount went, as the cart page does (a fresh tester saw it
    /// vanish without a word).
    @Test func aVoucherUnderItsMinimumAtPlacingSaysWhyOnTheReview() throws {
        let shop = try shop()
        _ = try shop.campaigns.replaceAll([Campaign(
            id: "fix", title: "Fix", startsAt: shop.clock.now - 60, endsAt: shop.clock.now + 86_400,
            discount: .fixedAmount(.usd(5_00)), minimumSubtotal: .usd(50_00), voucherCode: VoucherCode("FIX5"))])
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "2")])
        try shop.post("/cart/voucher", [("code", "fix5")])
        let review = try reachReview(shop)
        #expect(review.text.contains("Discount (FIX5)") && !review.text.contains("Add "))
        let mugID = try #require(try shop.catalog.productByHandle("mug")).variants[0].id.rawValue
        try shop.post("/cart/lines/\(mugID)/remove", [])
        let changed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))])
        #expect(changed.status == 409 && !changed.text.contains("Discount (FIX5)"))
        #expect(changed.text.contains("Add $20.00 more to use FIX5 (minimum $50.00)."))
    }

    @Test(.bug(id: 9, "the voucher was decided before the place-order transaction"))
    func aVoucherRemovedAfterReviewNeedsConfirmationOfTheNewTotal() throws {
        let shop = try shop()
        _ = try shop.campaigns.replaceAll([Campaign(
            id: "ten", title: "Ten", startsAt: shop.clock.now - 60, endsAt: shop.clock.now + 86_400,
            discount: .percentage(10), voucherCode: VoucherCode("TEN"))])
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "ten")])
        let review = try reachReview(shop)
        #expect(review.text.contains("Discount (TEN)") && review.text.contains("$31.90"))
        _ = try shop.campaigns.replaceAll([])
        let key = try idempotencyKey(review)
        let changed = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(changed.status == 409 && changed.text.contains("Your order changed since you reviewed it"))
        #expect(changed.text.contains("$34.90") && !changed.text.contains("Discount (TEN)"))
        #expect(try shop.orders!.findOrders(.everything).orders.isEmpty, "never charged the stale total")
        let confirmed = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(confirmed.status == 303)
        let order = try #require(try shop.orders!.findOrders(.everything).orders.first)
        #expect(order.total == .usd(34_90) && order.voucherCode == nil)
    }

    @Test func theLastItemIsHeldForWhoeverReachedReviewUntilItExpires() throws {
        let first = try shop()
        let second = try TestShop()
        second.environment = first.environment
        try first.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(first)
        let blocked = try second.post("/cart/add", [("product", "last"), ("quantity", "1")])
        #expect(blocked.status == 422 && blocked.text.contains("sold out"))
        first.clock.advance(by: 16 * 60)
        #expect(try second.post("/cart/add", [("product", "last"), ("quantity", "1")]).status == 303, "released on expiry")
    }

    @Test func changingTheCartReleasesTheHold() throws {
        let first = try shop()
        let second = try TestShop()
        second.environment = first.environment
        try first.post("/cart/add", [("product", "last"), ("quantity", "1")])
        try first.post("/cart/add", [("product", "mug"), ("quantity", "1")])
        _ = try reachReview(first)
        let mugID = try #require(try first.catalog.productByHandle("mug")).variants[0].id.rawValue
        try first.post("/cart/lines/\(mugID)/remove", [])
        #expect(try second.post("/cart/add", [("product", "last"), ("quantity", "1")]).status == 303)
    }

    @Test func orderingTakesTheHeldStockAndOthersSeeItSoldOut() throws {
        let first = try shop()
        let second = try TestShop()
        second.environment = first.environment
        try first.post("/cart/add", [("product", "last"), ("quantity", "1")])
        try second.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(first)
        let secondReview = try reachReview(second, email: "b@example.com")
        #expect(secondReview.status == 409 && secondReview.text.contains("Last One: sold out."))
        let placed = try first.post("/checkout/place", [("idempotency_key", try idempotencyKey(try first.get("/checkout/review")))])
        #expect(placed.status == 303)
        first.clock.advance(by: 3600)
        #expect(try second.post("/cart/add", [("product", "last"), ("quantity", "1")]).text.contains("sold out"))
    }

    @Test func unselectedLinesStayInTheCart() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "1")])
        let mugID = try #require(try shop.catalog.productByHandle("mug")).variants[0].id.rawValue
        try shop.post("/cart/lines/\(mugID)/select", [])
        let review = try reachReview(shop)
        #expect(!review.text.contains(">Mug<"))
        try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))])
        let cart = try #require(try shop.get("/cart").text.components(separatedBy: "class=\"related\"").first)
        #expect(cart.contains(">Mug<") && !cart.contains(">Desk Lamp<"))
    }

    @Test func anOrderKeepsWhatWasBoughtWhenTheCatalogChanges() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(try reachReview(shop)))])
        var renamed = lamp
        renamed.title = "Renamed Lamp"
        renamed.variants[0].price = .usd(99_00)
        _ = try shop.catalog.upsert([renamed])
        let order = try #require(try shop.orders!.findOrders(.everything).orders.first)
        let page = try shop.get("/orders/\(order.number)?token=x")
        #expect(page.status == 404)
        let stored = try #require(try shop.orders!.order(order.number))
        #expect(stored.lines.first?.title == "Desk Lamp" && stored.lines.first?.unitPrice == .usd(30_00))
    }

    @Test func anEmptySelectionCannotCheckOut() throws {
        let shop = try shop()
        let response = try shop.get("/checkout")
        #expect(response.status == 303 && response.header("Location") == "/cart")
    }

    @Test func addressFieldsAreCheckedOneByOneAndEscaped() throws {
        let shop = try shop()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let payload = "<script>alert(1)</script>"
        let response = try shop.post("/checkout/address", [("email", "nope"), ("first_name", payload), ("last_name", ""),
                                                           ("phone", "12"), ("line1", ""), ("city", payload),
                                                           ("postal_code", ""), ("country", "ZZ")])
        #expect(response.status == 422)
        for message in ["Please enter an email address", "Please fill this in.", "Please enter a phone number",
                        "Please choose a country from the list."] {
            #expect(response.text.contains(message), "\(message)")
        }
        #expect(!response.text.contains("<script>alert") && response.text.contains("&lt;script&gt;"))
    }
}

@Suite("Address book")
struct AddressBookTests {
    private func signedIn() throws -> TestShop {
        let shop = try shop()
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"),
                                            ("password", "Blue9sky!"), ("password_confirmation", "Blue9sky!")])
        return shop
    }

    @Test func guestsAreAskedToSignIn() throws {
        #expect(try shop().get("/account/addresses").status == 303)
    }

    @Test func addressesAreAddedListedByNameEditedAndDeletedWithConfirmation() throws {
        let shop = try signedIn()
        for (first, last) in [("Zeynep", "Kaya"), ("Ali", "Demir"), ("Şule", "Öztürk"), ("<b>Bob</b>", "\"onmouseover=x")] {
            let saved = try shop.post("/account/addresses", checkoutAddress.map { $0.0 == "first_name" ? ($0.0, first) : $0.0 == "last_name" ? ($0.0, last) : $0 })
            #expect(saved.status == 303, "\(first)")
        }
        let list = try shop.get("/account/addresses").text
        let order = ["Ali Demir", "&lt;b&gt;Bob&lt;/b&gt;", "Şule Öztürk", "Zeynep Kaya"].map { list.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order[0]! < order[2]! && order[2]! < order[3]!)
        #expect(list.contains(">S</h2>") && list.contains(">A</h2>") && !list.contains("<b>Bob"))
        let id = try #require(list.firstMatch(of: /\/account\/addresses\/(\d+)\/delete/)?.1)
        let edit = try shop.get("/account/addresses/\(id)")
        #expect(edit.text.contains("value=\"1 Main St\""))
        let confirm = try shop.get("/account/addresses/\(id)/delete")
        #expect(confirm.text.contains("Delete this address?"))
        try shop.post("/account/addresses/\(id)/delete", [])
        #expect(try shop.get("/account/addresses").text.components(separatedBy: "class=\"address-card\"").count - 1 == 3)
    }

    @Test func payloadsInEveryAddressFieldStayText() throws {
        let shop = try signedIn()
        let payload = "<script>alert(1)</script>\"'onmouseover="
        let fields = ["first_name", "last_name", "line1", "line2", "city", "region"]
        // In a country whose postal codes have no fixed form (`PostalCodes`), so the payload stays.
        let form = checkoutAddress.map { fields.contains($0.0) ? ($0.0, payload) : $0.0 == "postal_code" ? ($0.0, "<i>1</i>\"'")
                                         : $0.0 == "country" ? ($0.0, "GB") : $0 }
        #expect(try shop.post("/account/addresses", form).status == 303)
        for path in ["/account/addresses"] {
            let page = try shop.get(path).text
            #expect(!page.contains("<script>alert") && !page.contains("\"'onmouseover"), "\(path)")
            #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;onmouseover="))
        }
        let id = try #require(try shop.get("/account/addresses").text.firstMatch(of: /\/account\/addresses\/(\d+)\/delete/)?.1)
        for path in ["/account/addresses/\(id)", "/account/addresses/\(id)/delete"] {
            let page = try shop.get(path).text
            #expect(!page.contains("<script>alert") && !page.contains("\"'onmouseover"), "\(path)")
        }
        let rejected = try shop.post("/account/addresses", checkoutAddress.map { $0.0 == "phone" || $0.0 == "address_email" ? ($0.0, payload) : $0 })
        #expect(rejected.status == 422 && !rejected.text.contains("<script>alert"))
    }

    @Test(.bug(id: 9, "a signed-in shopper signed out elsewhere mid-checkout was shown an empty cart"),
          arguments: ["/checkout/review", "/checkout/shipping"])
    func aSessionThatEndsMidCheckoutAsksToSignInAndComesBackToTheStep(step: String) throws {
        let shop = try signedIn()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        _ = try reachReview(shop)
        // Signed out on another device: every session of the account ends.
        let user = try #require(try shop.accounts.users().first)
        try shop.sessions.deleteAll(user.id, nil)
        let ended = try shop.get(step)
        #expect(ended.status == 303)
        #expect(ended.header("Location") == "/account/sign-in?next=\(step)")
        let signIn = try shop.get(try #require(ended.header("Location")))
        #expect(signIn.text.contains("You were signed out. Sign in to pick up your checkout where you left it."))
        let back = try shop.post("/account/sign-in", [("email", "ana@example.com"), ("password", "Blue9sky!"),
                                                      ("next", step)])
        #expect(back.header("Location") == step)
        let page = try shop.get(step)
        #expect(page.status == 200, "the account's cart and checkout are still there")
        #expect(page.text.contains(step.hasSuffix("review") ? "Desk Lamp" : "name=\"method\""))
    }

    /// The confirmation email's link to an account holder's order, opened signed out (another
    /// device): sign in, then the order — not "page not found" (a fresh tester). A number that
    /// does not exist asks the same, so the answer says nothing about it; signed in, another
    /// account's order is still not found.
    @Test func anOrderLinkOpenedSignedOutAsksToSignInAndComesBackToTheOrder() throws {
        let shop = try signedIn()
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(try reachReview(shop)))])
        let path = try #require(placed.header("Location"))
        #expect(!path.contains("token="))
        try shop.post("/account/sign-out", [])
        for asked in [path, "/orders/9999-NOPE"] {
            let answer = try shop.get(asked)
            #expect(answer.status == 303 && answer.header("Location") == "/account/sign-in?next=\(asked)")
        }
        let back = try shop.post("/account/sign-in", [("email", "ana@example.com"), ("password", "Blue9sky!"), ("next", path)])
        #expect(back.header("Location") == path)
        #expect(try shop.get(path).status == 200)
        #expect(try shop.get("/orders/9999-NOPE").status == 404)
    }

    @Test func signedInCheckoutUsesASavedAddressAndListsTheOrder() throws {
        let shop = try signedIn()
        try shop.post("/account/addresses", checkoutAddress + [("default", "1")])
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let page = try shop.get("/checkout/address").text
        let id = try #require(page.firstMatch(of: /name="address_id" value="(\d+)" checked/)?.1)
        #expect(try shop.post("/checkout/address", [("address_id", String(id))]).header("Location") == "/checkout/shipping")
        try shop.post("/checkout/shipping", [("method", "express")])
        let review = try shop.get("/checkout/review")
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))])
        let location = try #require(placed.header("Location"))
        #expect(!location.contains("token="))
        #expect(try shop.get(location).text.contains("Express"))
        #expect(try shop.get("/orders").text.contains(String(location.dropFirst("/orders/".count))))
    }
}

@Suite("Availability shown to everyone")
struct AvailabilityTests {
    @Test func heldStockIsNotOfferedOnTheProductPage() throws {
        let first = try shop([lamp, last])
        let second = try TestShop()
        second.environment = first.environment
        #expect(try second.get("/products/last").text.contains("Only 1 left"))
        try first.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(first)
        let page = try second.get("/products/last").text
        #expect(page.contains("Sold out") && !page.contains("Only 1 left"))
        #expect(try second.get("/categories/lamps").text.contains("card card-sold-out"))
    }

    /// Found by a fresh tester (issue #14 review): search results, the home page's picks, a
    /// product page's related products and a campaign's products offered held stock that the
    /// category page showed sold out. Every card shared by all visitors shows stock net of holds.
    @Test func heldStockIsNotOfferedOnAnySharedList() throws {
        let first = try shop([lamp, last])
        let second = try TestShop()
        second.environment = first.environment
        func lastCard(_ path: String) throws -> String? {
            let page = try second.get(path).text
            guard let start = page.range(of: #"<article class="card"#) else { return nil }
            return page[start.lowerBound...].components(separatedBy: "</article>")
                .first { $0.contains(#"href="/products/last""#) }
        }
        #expect(try lastCard("/search?q=last")?.contains("card-sold-out") == false)
        try first.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(first)
        for path in ["/search?q=last", "/", "/products/" + lamp.handle] {
            let card = try lastCard(path)
            #expect(card == nil || card!.contains("card card-sold-out"), "\(path): \(card ?? "")")
        }
        #expect(try lastCard("/search?q=last") != nil, "the search lists it")
    }
}

@Suite("Voucher usage limit per account")
struct VoucherUsageLimitTests {
    @Test func aOncePerAccountCodeAsksGuestsToSignInAndCannotBeUsedTwice() throws {
        let shop = try shop()
        _ = try shop.campaigns.replaceAll([Campaign(
            id: "once", title: "Once", startsAt: shop.clock.now - 60, endsAt: shop.clock.now + 86_400,
            discount: .percentage(10), voucherCode: VoucherCode("ONCE"), usageLimitPerAccount: 1)])
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "once")])
        #expect(try shop.get("/cart").text.contains("Sign in to use the code ONCE"))
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"),
                                            ("password", "Blue9sky!"), ("password_confirmation", "Blue9sky!")])
        #expect(try shop.get("/cart").text.contains("Discount (ONCE)"), "the guest's code followed them into the account")
        try shop.post("/account/addresses", checkoutAddress + [("default", "1")])
        let page = try shop.get("/checkout/address").text
        let id = try #require(page.firstMatch(of: /name="address_id" value="(\d+)" checked/)?.1)
        try shop.post("/checkout/address", [("address_id", String(id))])
        try shop.post("/checkout/shipping", [("method", "standard")])
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(try shop.get("/checkout/review")))])
        #expect(placed.status == 303)
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "once")])
        #expect(try shop.get("/cart").text.contains("You have already used the code ONCE"))
    }
}

@Suite("Findings of a shopper's trial")
struct TrialFindingsTests {
    /// Found by a fresh tester: a tag past the first 50 could not be chosen, and once chosen
    /// through the address the form dropped it. The list keeps the tags of the most products,
    /// and a chosen one past them stays selected.
    @Test(.bug("issue #14", "the tag facet kept the alphabetically first 50"))
    func aTagOfManyProductsIsListedAndAChosenRareOneStaysSelected() throws {
        let oneOffs = (0..<55).map { index in
            ProductDraft.mock(handle: "lamp-\(index)", title: "Lamp \(index)", category: "Lamps",
                              tags: [String(format: "shade-%02d", index)])
        }
        let zebras = (0..<2).map { index in
            ProductDraft.mock(handle: "zebra-\(index)", title: "Zebra \(index)", category: "Lamps", tags: ["Zebra"])
        }
        let shop = try shop(oneOffs + zebras)
        let page = try shop.get("/categories/lamps").text
        let listsZebra = page.contains(#"<option value="Zebra">Zebra</option>"#)
        let listsLastOneOff = page.contains(#"value="shade-54""#)
        #expect(listsZebra && !listsLastOneOff)
        let chosen = try shop.get("/categories/lamps?tag=SHADE-54").text
        let keepsIt = chosen.contains(#"<option value="SHADE-54" selected>SHADE-54</option>"#)
        let shows = chosen.contains("Lamp 54")
        #expect(keepsIt && shows)
    }

    /// Found by a fresh tester: `?tag=oak%20` or `?vendor=%20Acme` found nothing, though stored
    /// tags and vendors are trimmed. The asked ones are trimmed too (pages and API).
    @Test func aTagOrVendorAskedWithSpacesAroundItIsFound() throws {
        let lamp = ProductDraft.mock(handle: "oak-lamp", title: "Oak Lamp", category: "Lamps", tags: ["oak"])
        var other = ProductDraft.mock(handle: "pine-lamp", title: "Pine Lamp", category: "Lamps", tags: ["pine"])
        other.vendor = "Pinewood"
        let shop = try shop([lamp, other])
        for query in ["tag=%20oak%20", "vendor=%20Acme%0A", "tag=+oak&vendor=Acme+"] {
            let page = try shop.get("/categories/lamps?" + query).text
            #expect(page.contains("Oak Lamp") && !page.contains("Pine Lamp"), "\(query)")
            let api = try shop.api(.get, "/api/v1/products?category=lamps&" + query).text
            #expect(api.contains("\"oak-lamp\"") && !api.contains("\"pine-lamp\""), "\(query)")
        }
        #expect(try shop.get("/categories/lamps?tag=%20%20").text.contains("Pine Lamp"), "only spaces: no filter")
    }

    @Test func aReviewOfOtherItemsAtTheSameTotalIsNotPlaced() throws {
        let cream = ProductDraft.mock(handle: "mug-cream", title: "Mug Cream", category: "Kitchen",
                                      variants: [.mock(sku: "MC", price: .usd(24_00), inventory: .untracked)])
        let moss = ProductDraft.mock(handle: "mug-moss", title: "Mug Moss", category: "Kitchen",
                                     variants: [.mock(sku: "MM", price: .usd(24_00), inventory: .untracked)])
        let shop = try shop([cream, moss])
        try shop.post("/cart/add", [("product", "mug-cream"), ("quantity", "1")])
        let key = try idempotencyKey(try reachReview(shop))
        let creamID = try #require(try shop.catalog.productByHandle("mug-cream")).variants[0].id.rawValue
        try shop.post("/cart/lines/\(creamID)/remove", [])
        try shop.post("/cart/add", [("product", "mug-moss"), ("quantity", "1")])
        let stale = try shop.post("/checkout/place", [("idempotency_key", key)])
        #expect(stale.status == 409 && stale.text.contains("Your order changed since you reviewed it"))
        #expect(stale.text.contains("Mug Moss"))
        #expect(try shop.orders!.findOrders(.everything).orders.isEmpty)
    }

    @Test func lineBreaksInNamesBecomeSpaces() throws {
        let form: [AddressField: String] = [.firstName: "Eve\r\nBcc: evil@example.com", .lastName: "L", .phone: "5550100",
                                            .line1: "1 St", .city: "C", .postalCode: "12345", .countryCode: "US"]
        let address = try AddressRules.validate(form, isDefault: false)
        #expect(address.firstName == "Eve Bcc: evil@example.com")
        #expect(!Countries.isKnown("EU") && !Countries.isKnown("UN") && Countries.isKnown("TR"))
    }

    @Test func searchWithoutLettersAndReversedPricesBehave() throws {
        let shop = try shop()
        #expect(try shop.get("/search?q=%F0%9F%98%80").text.contains("What are you looking for?"))
        let swapped = try shop.get("/categories/lamps?min=40&max=20").text
        #expect(swapped.contains("Desk Lamp"), "30.00 is between 20 and 40")
    }

    @Test func theCartCountsOtherShoppersHolds() throws {
        let first = try shop()
        let second = try TestShop()
        second.environment = first.environment
        try second.post("/cart/add", [("product", "last"), ("quantity", "1")])
        try first.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(first)
        #expect(try second.get("/cart").text.contains("Sorry, this is sold out."))
    }

    @Test(.bug(id: 9, "after a refused add the page said 'sold out' above 'Only 1 left'"))
    func aRefusedAddShowsStockNetOfOtherShoppersHolds() throws {
        let holder = try shop()
        let other = try TestShop()
        other.environment = holder.environment
        try holder.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(holder)  // holds the last unit
        let refused = try other.post("/cart/add", [("product", "last"), ("quantity", "1")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Sorry, this is sold out."))
        #expect(!refused.text.contains("Only 1 left") && refused.text.contains(">Sold out<"), "the page agrees with the message")
    }

    /// Found by a fresh tester: "In stock only" listed a product whose last unit a checkout held,
    /// with a "Sold out" card, and counted it. The filter, its count and the cards now agree, on
    /// category and search pages and in the API.
    @Test(.bug("issue #14", "the in-stock filter ignored held stock"))
    func inStockOnlyLeavesOutWhatCheckoutsHold() throws {
        let holder = try shop()
        let other = try TestShop()
        other.environment = holder.environment
        #expect(try other.get("/categories/lamps?instock=1").text.contains("Last One"))
        try holder.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(holder)  // holds the last unit
        for (path, count) in [("/categories/lamps?instock=1", 1), ("/search?q=last&instock=1", 0), ("/products?instock=1", 2)] {
            let page = try other.get(path).text
            let shown = page.contains("Last One"), counted = page.contains("In stock only (\(count))")
            #expect(!shown, "\(path)")
            #expect(counted, "\(path): the count agrees")
        }
        let all = try other.get("/categories/lamps").text
        #expect(all.contains("Last One") && all.contains(">Sold out<"), "unfiltered, it is listed as sold out")
        let api = try other.api(.get, "/api/v1/products?category=lamps&instock=1")
        #expect(api.status == 200 && !api.text.contains("\"last\""))
    }

    /// Found by a fresh tester: when a hold lapsed, the shared pages cached while it was live
    /// kept the product sold out (and out of "In stock only") until the sweeper deleted the hold,
    /// up to a minute later, while a page not yet cached showed it in stock. Nothing is written
    /// when a hold ends: the shared version counts the ends passed (`SharedVersion`).
    @Test(.bug("issue #14", "a lapsed hold kept shared pages sold out until the sweeper ran"))
    func sharedPagesFreeAHoldAtTheInstantItEnds() throws {
        let holder = try shop()
        let other = try TestShop()
        other.environment = holder.environment
        try holder.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(holder)  // holds the last unit for 15 minutes
        func shown() throws -> (inStockOnly: Bool, productPageSoldOut: Bool, api: Bool, recommended: Bool) {
            (try other.get("/categories/lamps?instock=1").text.contains("Last One"),
             try other.get("/products/last").text.contains(">Sold out<"),
             try other.api(.get, "/api/v1/products?category=lamps&instock=1").text.contains("\"last\""),
             try ShopApp.bestRatedInStock(other.environment).contains { $0.handle == "last" })
        }
        #expect(try shown() == (false, true, false, false), "held: cached so, every one of them")
        holder.clock.advance(by: 14 * 60)
        #expect(try shown() == (false, true, false, false), "still held a minute before its end")
        holder.clock.advance(by: 61)
        #expect(try holder.orders!.heldProducts(holder.clock.now).isEmpty, "the hold has ended, not yet swept")
        #expect(try shown() == (true, false, true, true), "in stock again at once")
    }

    /// Found by a fresh tester: the favorites list (page and API) showed a product every unit of
    /// which another shopper held as buyable, with an "Add" the cart then refused.
    @Test func favoritesShowOtherShoppersHoldsAsEveryListDoes() throws {
        let holder = try shop()
        let other = try TestShop()
        other.environment = holder.environment
        let last = try #require(try holder.environment.catalog.productByHandle("last"))
        try other.post("/favorites/\(last.id.rawValue)", [("favorite", "1")])
        #expect(try !other.get("/favorites").text.contains(">Sold out<"))
        try holder.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(holder)
        #expect(try other.get("/favorites").text.contains(">Sold out<"))
        try holder.post("/favorites/\(last.id.rawValue)", [("favorite", "1")])
        #expect(try !holder.get("/favorites").text.contains(">Sold out<"), "the holder's own hold is theirs")
    }

    @Test(.bug(id: 9, "a shopper's own hold made the product page say 'Sold out' to them"))
    func aShoppersOwnHoldDoesNotMakeTheProductSoldOutForThem() throws {
        let holder = try shop()
        let other = try TestShop()
        other.environment = holder.environment
        try holder.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(holder)
        let mine = try holder.get("/products/last").text
        #expect(!mine.contains(">Sold out<"), "the unit is held for this shopper")
        #expect(mine.contains("Only 1 left"))
        let theirs = try other.get("/products/last").text
        #expect(theirs.contains(">Sold out<"), "everyone else sees it held")
    }

    /// Found by a fresh tester: holding the last unit at checkout, the shopper went back to the
    /// category page, and it said "Sold out" on the card of the product they were buying. Lists
    /// are theirs while a product of their cart is held; everyone else's stay shared (and cached).
    @Test func aShoppersOwnHoldStaysBuyableOnTheListsTheySee() throws {
        let holder = try shop()
        let other = try TestShop()
        other.environment = holder.environment
        try holder.post("/cart/add", [("product", "last"), ("quantity", "1")])
        _ = try reachReview(holder)
        func card(_ page: String) -> Substring? {
            guard let start = page.range(of: "Last One") else { return nil }
            return page[start.lowerBound...].prefix(1_500)
        }
        for path in ["/categories/lamps", "/categories/lamps?instock=1", "/search?q=last", "/products", "/"] {
            let mine = try holder.get(path).text, theirs = try other.get(path).text
            let own = try #require(card(mine), "\(path): the holder sees the product")
            #expect(!own.contains(">Sold out<"), "\(path): the holder's unit is theirs to buy")
            if !path.contains("instock") {
                #expect(card(theirs)?.contains(">Sold out<") == true, "\(path): held for everyone else")
            } else {
                #expect(card(theirs) == nil, "\(path): not in stock for everyone else")
            }
        }
        // A shopper whose cart has nothing held shares the cached lists.
        try other.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let before = holder.environment.pageCache.count
        _ = try other.get("/categories/lamps?sort=price-asc")
        #expect(holder.environment.pageCache.count == before + 1, "kept for everyone")
        _ = try holder.get("/categories/lamps?sort=price-desc")
        #expect(holder.environment.pageCache.count == before + 1, "the holder's own list is not kept")
    }
}

@Suite("Quick add on cards")
struct QuickAddCardTests {
    /// Found by a fresh tester: a product whose only variant has an open option ("any" size)
    /// got a one-tap "Add" on its card, which the cart always refused ("Please choose an
    /// option"). Its card links to the product's options instead; a plain product keeps "Add".
    @Test func aProductWithAnOpenOptionIsChosenOnItsPage() throws {
        let tee = ProductDraft.mock(handle: "open-tee", title: "Open Tee", category: "Lamps", optionNames: ["Size"],
                                    variants: [.mock(sku: "TEE-1", options: [""], choices: [["S", "M", "L"]])])
        let shop = try shop([lamp, tee])
        let page = try shop.get("/categories/lamps").text
        #expect(page.contains(#"href="/products/open-tee#options""#))
        #expect(!page.contains(#"name="product" value="open-tee""#), "no quick add for it")
        #expect(page.contains(#"name="product" value="lamp""#), "a plain product keeps its quick add")
        #expect(try shop.get("/search?q=tee").text.contains(#"href="/products/open-tee#options""#))
    }
}

@Suite("Ticking cart lines")
struct CartLineTickTests {
    /// Found by a fresh tester: unticking the "M" line of a tee also unticked its "S" line (the
    /// same variant, an open option chosen twice). The line's form names its chosen values.
    @Test func unTickingOneLineOfAVariantLeavesTheOther() throws {
        let tee = ProductDraft.mock(handle: "open-tee", title: "Open Tee", category: "Lamps", optionNames: ["Size"],
                                    variants: [.mock(sku: "TEE-1", options: [""], price: .usd(20_00), choices: [["S", "M", "L"]])])
        let shop = try shop([lamp, tee])
        let variant = try #require(try shop.catalog.productByHandle("open-tee")?.variants.first?.id.rawValue)
        for size in ["S", "M"] {
            let added = try shop.post("/cart/add", [("product", "open-tee"), ("variant", String(variant)), ("quantity", "1"),
                                                     ("choice.\(variant).Size", size)])
            #expect(added.status == 303)
        }
        #expect(try shop.get("/cart").text.contains("2 items"))
        try shop.post("/cart/lines/\(variant)", [("select_shown", "1"), ("chosen", "Size=M"), ("quantity", "1")])
        let cart = try shop.get("/cart").text
        #expect(cart.contains("1 item"), "only the M line is unticked")
    }

    /// Found by the same tester: a refused quantity on one line of a variant was shown under
    /// every line of it. It is shown under the line that was changed.
    @Test func aRefusedQuantityIsShownUnderItsOwnLine() throws {
        let tee = ProductDraft.mock(handle: "open-tee", title: "Open Tee", category: "Lamps", optionNames: ["Size"],
                                    variants: [.mock(sku: "TEE-1", options: [""], price: .usd(20_00),
                                                     inventory: .tracked(quantity: 7, allowsBackorder: false),
                                                     choices: [["S", "M", "L"]])])
        let shop = try shop([lamp, tee])
        let variant = try #require(try shop.catalog.productByHandle("open-tee")?.variants.first?.id.rawValue)
        for size in ["S", "M"] {
            try shop.post("/cart/add", [("product", "open-tee"), ("variant", String(variant)), ("quantity", "3"),
                                        ("choice.\(variant).Size", size)])
        }
        let refused = try shop.post("/cart/lines/\(variant)", [("select_shown", "1"), ("selected", "1"), ("chosen", "Size=M"),
                                                               ("quantity", "5")])
        #expect(refused.status == 422)
        #expect(refused.text.components(separatedBy: #"class="form-error""#).count - 1 == 1, "one line's error")
        let mLine = try #require(refused.text.range(of: #"value="Size=M""#))
        let error = try #require(refused.text.range(of: #"class="form-error""#))
        #expect(error.lowerBound < mLine.lowerBound, "under the M line (its error comes before its form)")
        let sLine = try #require(refused.text.range(of: #"value="Size=S""#))
        #expect(sLine.lowerBound < error.lowerBound, "not under the S line")
    }
}
