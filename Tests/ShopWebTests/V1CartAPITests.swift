import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

private let now = Date(timeIntervalSince1970: 1_780_000_000)  // TestShop's clock

private func percentOff(_ code: String, _ percent: Int, minimum: Int64? = nil) -> Campaign {
    Campaign(id: Campaign.ID(rawValue: code.lowercased()), title: LocalizedText("\(percent) % off"), description: "",
             imageURL: nil, startsAt: now - 86_400, endsAt: now + 86_400, discount: .percentage(percent),
             target: .wholeCart, minimumSubtotal: minimum.map(Money.usd), voucherCode: VoucherCode(code))
}

/// A shop with the v1 catalog and the `SAVE15` (15 % off) and `BIG` (10 % off from $500) codes.
private func shop() throws -> TestShop {
    let shop = try TestShop(v1Catalog())
    _ = try shop.campaigns.replaceAll([percentOff("SAVE15", 15), percentOff("BIG", 10, minimum: 500_00)])
    return shop
}

private func guestToken(_ shop: TestShop) throws -> String {
    let response = try shop.api(.post, "/api/v1/sessions/guest")
    #expect(response.status == 201)
    return try decoded(V1GuestToken.self, response).token
}

private func variantID(_ shop: TestShop, _ handle: String, _ index: Int = 0) throws -> Int64 {
    try #require(try shop.catalog.productByHandle(handle)).variants[index].id.rawValue
}

private func error(_ response: TestResponse) throws -> APIErrorEnvelope.Body {
    try decoded(APIErrorEnvelope.self, response).error
}

@Suite("API v1: cart")
struct V1CartAPITests {
    @Test func aGuestTokenFillsACartPricedInOnePass() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        let added = try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light", "quantity": 3}"#)
        #expect(added.status == 200)
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "shirt", "variantId": \#(try variantID(shop, "shirt", 1))}"#)
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.lines.map(\.handle) == ["night-light", "shirt"] && cart.lines.map(\.quantity) == [3, 1])
        #expect(cart.lines[0].amount == V1Money(minorUnits: 37_50, currency: "USD", formatted: "$37.50"))
        #expect(cart.lines[1].variantTitle == "M" && cart.lines[1].quantityLimit == 3)
        #expect(cart.subtotal.minorUnits == 69_50 && cart.discount.minorUnits == 0 && cart.total.minorUnits == 69_50)
        #expect(cart.itemCount == 4 && cart.voucher == nil && cart.unavailable.isEmpty)
    }

    /// A line's picture is its variant's, as on the cart page (a fresh tester's Moss mug came
    /// back with the cream one, the product's first).
    @Test func aLinesImageShowsItsVariant() throws {
        let mug = ProductDraft.mock(handle: "mug", title: "Mug", optionNames: ["Glaze"],
                                    variants: [.mock(sku: "MUG-C", options: ["Cream"]), .mock(sku: "MUG-M", options: ["Moss"])],
                                    images: [ProductImage(url: "/media/mug-cream.svg", altText: "Mug in Cream"),
                                             ProductImage(url: "/media/mug-moss.svg", altText: "Mug in Moss")])
        let shop = try TestShop(v1Catalog() + [mug])
        let token = try guestToken(shop)
        for index in [1, 0] {
            try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "mug", "variantId": \#(try variantID(shop, "mug", index))}"#)
        }
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light"}"#)
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.lines.map { $0.image?.hasSuffix("/media/mug-moss.svg") } == [true, false, false])
        #expect(cart.lines[1].image?.hasSuffix("/media/mug-cream.svg") == true)
        #expect(cart.lines[2].image?.hasSuffix("/media/night-light.jpg") == true, "no variant picture: the product's first")
    }

    /// Issue #13, point 2: an open variant (WooCommerce "any") lists its `choices`; adding it
    /// needs `chosenValues`, each pick is its own line, and the lines share the variant's stock.
    @Test(.bug(id: "13")) func anOpenVariantIsAddedWithChosenValues() throws {
        let shop = try TestShop(v1Catalog() + [.openTee()])
        let token = try guestToken(shop)
        let product = try decoded(V1Product.self, try shop.api(.get, "/api/v1/products/tee"))
        #expect(product.variants.map(\.choices) == [[["S", "M", "L"]]])
        #expect(product.variants.map(\.options) == [[""]] && product.variants.map(\.sku) == ["TEE-ANY"])
        let tee = try variantID(shop, "tee")
        let missing = try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "tee", "variantId": \#(tee)}"#)
        #expect(missing.status == 422)
        #expect(try error(missing).code == "value_not_chosen" && error(missing).field == "chosenValues")
        let wrong = try shop.api(.post, "/api/v1/cart/lines", token: token,
                                 json: #"{"product": "tee", "variantId": \#(tee), "chosenValues": [{"option": "Size", "value": "XL"}]}"#)
        #expect(wrong.status == 422)
        #expect(try error(wrong).code == "value_not_allowed")
        for (size, quantity) in [("M", 2), ("L", 1)] {
            let added = try shop.api(.post, "/api/v1/cart/lines", token: token,
                                     json: #"{"product": "tee", "variantId": \#(tee), "quantity": \#(quantity), "chosenValues": [{"option": "Size", "value": "\#(size)"}]}"#)
            #expect(added.status == 200)
        }
        var cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.lines.map(\.chosenValues) == [[V1ChosenValue(option: "Size", value: "M")], [V1ChosenValue(option: "Size", value: "L")]])
        #expect(cart.lines.map(\.variantTitle) == ["M", "L"] && cart.lines.map(\.quantity) == [2, 1])
        let over = try shop.api(.post, "/api/v1/cart/lines", token: token,
                                json: #"{"product": "tee", "variantId": \#(tee), "quantity": 3, "chosenValues": [{"option": "Size", "value": "L"}]}"#)
        #expect(over.status == 422)
        #expect(try error(over).code == "quantity_exceeds_stock")
        cart = try decoded(V1Cart.self, try shop.api(.patch, "/api/v1/cart/lines/\(tee)", token: token,
                                                     json: #"{"quantity": 2, "chosenValues": [{"option": "Size", "value": "L"}]}"#))
        #expect(cart.lines.map(\.quantity) == [2, 2])
        cart = try decoded(V1Cart.self, try shop.api(.delete, "/api/v1/cart/lines/\(tee)?chosen=Size%3DM", token: token))
        #expect(cart.lines.map(\.chosenValues) == [[V1ChosenValue(option: "Size", value: "L")]])

        // The merchant withdraws L (a re-import offering S and M): the line is listed as
        // unavailable, with its pick, so an app knows which line went.
        var reimported = ProductDraft.openTee()
        reimported.variants[0].optionChoices = [["S", "M"]]
        _ = try shop.catalog.upsert([reimported])
        cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.lines.isEmpty)
        #expect(cart.unavailable == [V1Cart.UnavailableLine(productId: product.id, variantId: Int64(tee), quantity: 2,
                                                            chosenValues: [V1ChosenValue(option: "Size", value: "L")])])
    }

    @Test func guestTokensAreThrottledPerAddress() throws {
        let shop = try shop()
        shop.environment.throttles.guestSessionPerClient = RateLimit(limit: 3, window: 3_600)
        for _ in 0..<3 { _ = try guestToken(shop) }
        let refused = try shop.api(.post, "/api/v1/sessions/guest")
        #expect(refused.status == 429 && refused.header("Retry-After") != nil)
        #expect(try error(refused).code == "too_many_attempts")
        let sessions = try shop.sessions.purgeExpired(.distantFuture)
        #expect(sessions == 3, "the refused request stored no session")
        shop.clock.advance(by: 3_601)
        #expect(try shop.api(.post, "/api/v1/sessions/guest").status == 201, "and again after the hour")
    }

    @Test func cartRoutesNeedABearerToken() throws {
        let shop = try shop()
        for (method, target) in [(HTTPMethod.get, "/api/v1/cart"), (.post, "/api/v1/cart/lines"), (.delete, "/api/v1/cart/voucher"),
                                 (.get, "/api/v1/favorites"), (.put, "/api/v1/favorites/1")] {
            let anonymous = try shop.api(method, target, token: nil)
            #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate") == "Bearer", "\(target)")
            #expect(try error(anonymous).code == "unauthorized")
            #expect(try shop.api(method, target, token: "0123456789abcdef0123456789abcdef").status == 401, "an unknown token")
        }
        let basic = try shop.api(.get, "/api/v1/cart", json: nil, headers: ["Authorization": "Basic YTpi"])
        #expect(basic.status == 401)
    }

    @Test func refusalsCarryStableCodesAndTheStorefrontsMessages() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        let l10n = Localizer()
        let cases: [(String, Int, String, CartError?)] = [
            (#"{"product": "night-light", "quantity": 1.5}"#, 400, "quantity_not_whole", .quantityNotWhole),
            (#"{"product": "night-light", "quantity": 0}"#, 400, "quantity_not_positive", .quantityNotPositive),
            (#"{"product": "night-light", "quantity": -2}"#, 400, "quantity_negative", .quantityNegative),
            (#"{"product": "brass-lamp", "quantity": 6}"#, 422, "quantity_exceeds_stock", .quantityExceedsStock(available: 5, inCart: 0)),
            (#"{"product": "night-light", "quantity": 100}"#, 422, "quantity_exceeds_maximum", .quantityExceedsMaximum(99)),
            (#"{"product": "shirt"}"#, 422, "variant_not_chosen", .variantNotChosen),
            (#"{"product": "nothing"}"#, 422, "variant_not_found", .variantNotFound),
            (#"{"quantity": 1}"#, 400, "missing_field", nil),
            (#"{"product": "night-light", "quantity": "two"}"#, 400, "invalid_field", nil),
            ("not json", 400, "malformed_body", nil),
            ("[1]", 400, "malformed_body", nil),  // a fresh tester's: "invalid_field" with no field
            ("null", 400, "malformed_body", nil),
        ]
        for (body, status, code, cartError) in cases {
            let response = try shop.api(.post, "/api/v1/cart/lines", token: token, json: body)
            #expect(response.status == status, "\(body)")
            let envelope = try error(response)
            #expect(envelope.code == code, "\(body)")
            if let cartError { #expect(envelope.message == l10n.message(for: cartError), "\(body)") }
            if body == "[1]" { #expect(envelope.message == "The body must be a JSON object ({…}).") }
        }
        #expect(try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token)).lines.isEmpty, "nothing written")
        // The field named is the one to change (a fresh tester's unknown `variantId` named `quantity`).
        for (body, field) in [(#"{"product": "nothing"}"#, "product"),
                              (#"{"product": "night-light", "variantId": 999999}"#, "variantId"),
                              (#"{"product": "shirt"}"#, "variantId"),
                              (#"{"product": "night-light", "quantity": 100}"#, "quantity")] {
            #expect(try error(try shop.api(.post, "/api/v1/cart/lines", token: token, json: body)).field == field, "\(body)")
        }
    }

    /// A fresh tester's body named two products, and the handle's was added without a word.
    @Test func productAndProductIdMustNameOneProduct() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        let shade = try #require(try shop.catalog.productByHandle("linen-shade")).id.rawValue
        let light = try #require(try shop.catalog.productByHandle("night-light")).id.rawValue
        let refused = try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light", "productId": \#(shade)}"#)
        let envelope = try error(refused)
        #expect(refused.status == 400 && envelope.code == "invalid_field" && envelope.field == "productId")
        #expect(envelope.message == "“product” and “productId” name different products: send one of them.")
        #expect(try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token)).lines.isEmpty, "nothing written")
        let agreed = try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light", "productId": \#(light)}"#)
        #expect(agreed.status == 200)
    }

    @Test func linesChangeQuantityAndSelectionAndGo() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        let light = try variantID(shop, "night-light")
        let shade = try variantID(shop, "linen-shade")
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light"}"#)
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"productId": \#(try #require(try shop.catalog.productByHandle("linen-shade")).id.rawValue)}"#)

        var cart = try decoded(V1Cart.self, try shop.api(.patch, "/api/v1/cart/lines/\(light)", token: token, json: #"{"quantity": 4}"#))
        #expect(cart.lines.map(\.quantity) == [4, 1] && cart.total.minorUnits == 4 * 12_50 + 25_00)
        cart = try decoded(V1Cart.self, try shop.api(.patch, "/api/v1/cart/lines/\(shade)", token: token, json: #"{"selected": false}"#))
        #expect(cart.lines.map(\.selected) == [true, false] && cart.total.minorUnits == 50_00 && cart.selectedItemCount == 4)

        let tooMany = try shop.api(.patch, "/api/v1/cart/lines/\(light)", token: token, json: #"{"quantity": 120}"#)
        #expect(try tooMany.status == 422 && (error(tooMany)).code == "quantity_exceeds_maximum")
        let empty = try shop.api(.patch, "/api/v1/cart/lines/\(light)", token: token, json: "{}")
        #expect(try empty.status == 400 && (error(empty)).code == "missing_field")
        let unknown = try shop.api(.patch, "/api/v1/cart/lines/999999", token: token, json: #"{"quantity": 1}"#)
        #expect(try unknown.status == 404 && (error(unknown)).code == "line_not_found")
        let malformed = try shop.api(.delete, "/api/v1/cart/lines/abc", token: token)
        #expect(try malformed.status == 400 && (error(malformed)).code == "malformed_id")

        cart = try decoded(V1Cart.self, try shop.api(.patch, "/api/v1/cart/lines/\(light)", token: token, json: #"{"quantity": 0}"#))
        #expect(cart.lines.map(\.handle) == ["linen-shade"], "0 removes the line")
        cart = try decoded(V1Cart.self, try shop.api(.delete, "/api/v1/cart/lines/\(shade)", token: token))
        #expect(cart.lines.isEmpty && cart.total.minorUnits == 0)
        #expect(try shop.api(.delete, "/api/v1/cart/lines/\(shade)", token: token).status == 404)
    }

    /// `Prefer: return=minimal` (RFC 7240): the change is made and the answer is 204 without
    /// the cart; without it (or with another preference) the cart comes back as before.
    @Test(arguments: [("return=minimal", true), ("Return=Minimal", true), ("respond-async, return=minimal; x=1", true),
                      ("return=\"minimal\"", true), ("return=representation", false), ("minimal", false)])
    func cartWritesAnswer204WhenTheClientPrefersMinimal(prefer: String, isMinimal: Bool) throws {
        let shop = try shop()
        let token = try guestToken(shop)
        var headers: HTTPHeaders = ["Authorization": "Bearer \(token)", "Prefer": prefer]
        let added = try shop.api(.post, "/api/v1/cart/lines", json: #"{"product": "night-light", "quantity": 2}"#, headers: headers)
        #expect(added.status == (isMinimal ? 204 : 200))
        #expect(added.response.body.isEmpty == isMinimal)
        #expect((added.response.headers["Preference-Applied"] == "return=minimal") == isMinimal)
        let light = try variantID(shop, "night-light")
        headers.replaceOrAdd(name: "Prefer", value: prefer)
        let changed = try shop.api(.patch, "/api/v1/cart/lines/\(light)", json: #"{"quantity": 3}"#, headers: headers)
        #expect(changed.status == (isMinimal ? 204 : 200))
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.lines.map(\.quantity) == [3] && cart.total.minorUnits == 3 * 12_50, "the change is made either way")
        let refused = try shop.api(.patch, "/api/v1/cart/lines/\(light)", json: #"{"quantity": 120}"#, headers: headers)
        #expect(refused.status == 422, "a refusal is still an error envelope")
    }

    @Test func vouchersApplyOrSayWhyNotAndCanBeRemoved() throws {
        let shop = try shop()
        let token = try guestToken(shop)
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light", "quantity": 3}"#)
        var cart = try decoded(V1Cart.self, try shop.api(.put, "/api/v1/cart/voucher", token: token, json: #"{"code": " save15 "}"#))
        #expect(cart.voucher == V1Cart.Voucher(code: "SAVE15", status: "applied", campaign: "15 % off", problem: nil))
        #expect(cart.subtotal.minorUnits == 37_50 && cart.discount.minorUnits == 5_63 && cart.total.minorUnits == 31_87)

        cart = try decoded(V1Cart.self, try shop.api(.put, "/api/v1/cart/voucher", token: token, json: #"{"code": "BIG"}"#))
        #expect(cart.voucher?.status == "rejected" && cart.voucher?.problem?.code == "voucher_minimum_not_met")
        #expect(cart.voucher?.problem?.message.contains("$462.50") == true && cart.discount.minorUnits == 0)
        cart = try decoded(V1Cart.self, try shop.api(.put, "/api/v1/cart/voucher", token: token, json: #"{"code": "NOPE"}"#))
        #expect(cart.voucher?.problem?.code == "voucher_unknown")

        let invalid = try shop.api(.put, "/api/v1/cart/voucher", token: token, json: #"{"code": "no spaces!"}"#)
        #expect(try invalid.status == 400 && (error(invalid)) == .init(code: "invalid_voucher_code",
                                                                        message: Localizer()(.voucherInvalidFormat), field: "code"))
        cart = try decoded(V1Cart.self, try shop.api(.delete, "/api/v1/cart/voucher", token: token))
        #expect(cart.voucher == nil && cart.total.minorUnits == 37_50)
    }

    /// Issue #10's required test: one shopper, the same cart with a voucher, the cart page and
    /// `GET /api/v1/cart` agree to the cent.
    @Test(arguments: [false, true])
    func theWebCartPageAndTheAPIGiveTheSameTotals(signedIn: Bool) throws {
        let shop = try shop()
        var token: String
        if signedIn {
            token = try shop.apiAccount("ana@example.com").token
            try shop.send(.post, "/account/sign-in", form: [("email", "ana@example.com"), ("password", "Blue9sky!")])
        } else {
            try shop.post("/cart/add", [("product", "night-light")])  // a guest session; its cookie is the token
            token = try #require(shop.cookies["shoppable_session"])
        }
        // Changes from both front doors, to one cart: 15 % of $12.50 × 3 and of $89 rounds per line.
        try shop.post("/cart/add", [("product", "night-light"), ("quantity", signedIn ? "3" : "2")])
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "brass-lamp"}"#)
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "shirt", "variantId": \#(try variantID(shop, "shirt", 0)), "quantity": 2}"#)
        try shop.post("/cart/voucher", [("code", "SAVE15")])

        let page = try shop.get("/cart")
        #expect(page.status == 200)
        func shown(_ name: String) throws -> String {
            let match = try #require(page.text.firstMatch(of: try Regex("data-\(name)=\"\"[^>]*>([^<]+)<")))
            return String(try #require(match.output[1].substring))
        }
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.voucher?.status == "applied")
        #expect(try shown("subtotal") == cart.subtotal.formatted)
        #expect(try shown("discount") == "−" + cart.discount.formatted)
        #expect(try shown("total") == cart.total.formatted)
        // Worked out by hand: 37.50 + 89.00 + 60.00; 15 % per line, half-up: 5.63 + 13.35 + 9.00.
        #expect(cart.subtotal.minorUnits == 186_50 && cart.discount.minorUnits == 27_98 && cart.total.minorUnits == 158_52)
    }

    @Test func signingInWithAGuestTokenMergesItsCartAndFavoritesLikeTheWeb() throws {
        let shop = try shop()
        let account = try shop.apiAccount("ana@example.com")
        try shop.api(.post, "/api/v1/cart/lines", token: account.token, json: #"{"product": "night-light", "quantity": 2}"#)
        let guest = try guestToken(shop)
        try shop.api(.post, "/api/v1/cart/lines", token: guest, json: #"{"product": "night-light", "quantity": 1}"#)
        try shop.api(.post, "/api/v1/cart/lines", token: guest, json: #"{"product": "linen-shade"}"#)
        let shadeID = try #require(try shop.catalog.productByHandle("linen-shade")).id.rawValue
        try shop.api(.put, "/api/v1/favorites/\(shadeID)", token: guest)

        let login = try shop.api(.post, "/api/auth/login", json: #"{"username": "ana@example.com", "password": "Blue9sky!"}"#,
                                 headers: ["Authorization": "Bearer \(guest)"])
        #expect(login.status == 200)
        let token = try decoded(FakeStoreToken.self, login).token
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: token))
        #expect(cart.lines.map(\.handle) == ["night-light", "linen-shade"] && cart.lines.map(\.quantity) == [3, 1])
        let favorites = try decoded(V1Favorites.self, try shop.api(.get, "/api/v1/favorites", token: token))
        #expect(favorites.products.map(\.handle) == ["linen-shade"])
        #expect(try shop.api(.get, "/api/v1/cart", token: guest).status == 401, "the guest session ends at sign-in")
        #expect(try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: account.token)).lines.count == 2,
                "the account's other devices see the merged cart")
    }

    @Test func aShoppersTokenNeverReachesAnotherShoppersCart() throws {
        let shop = try shop()
        let ana = try shop.apiAccount("ana@example.com").token
        let ben = try shop.apiAccount("ben@example.com", name: "Ben Okafor").token
        let guest = try guestToken(shop)
        let light = try variantID(shop, "night-light")
        try shop.api(.post, "/api/v1/cart/lines", token: ana, json: #"{"product": "night-light", "quantity": 2}"#)
        try shop.api(.put, "/api/v1/cart/voucher", token: ana, json: #"{"code": "SAVE15"}"#)
        for other in [ben, guest] {
            let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: other))
            #expect(cart.lines.isEmpty && cart.voucher == nil)
            #expect(try shop.api(.patch, "/api/v1/cart/lines/\(light)", token: other, json: #"{"quantity": 9}"#).status == 404)
            #expect(try shop.api(.delete, "/api/v1/cart/lines/\(light)", token: other).status == 404)
        }
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: ana))
        #expect(cart.lines.map(\.quantity) == [2] && cart.voucher?.code == "SAVE15", "untouched by the others")
    }
}

@Suite("API v1: favorites")
struct V1FavoritesAPITests {
    @Test func favoritesAreAddedListedAndRemoved() throws {
        let shop = try TestShop(v1Catalog())
        let token = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        let lamp = try #require(try shop.catalog.productByHandle("brass-lamp")).id.rawValue
        let shade = try #require(try shop.catalog.productByHandle("linen-shade")).id.rawValue
        try shop.api(.put, "/api/v1/favorites/\(lamp)", token: token)
        shop.clock.advance(by: 5)
        let added = try shop.api(.put, "/api/v1/favorites/\(shade)", token: token)
        #expect(added.status == 200)
        #expect(try decoded(V1Favorites.self, added).products.map(\.handle) == ["linen-shade", "brass-lamp"], "most recent first")
        #expect(try shop.api(.put, "/api/v1/favorites/\(shade)", token: token).status == 200, "adding twice is fine")
        let removed = try decoded(V1Favorites.self, try shop.api(.delete, "/api/v1/favorites/\(lamp)", token: token))
        #expect(removed.products.map(\.handle) == ["linen-shade"])
        #expect(try decoded(V1Favorites.self, try shop.api(.get, "/api/v1/favorites", token: token)).products.count == 1)
        let unknown = try shop.api(.put, "/api/v1/favorites/999999", token: token)
        #expect(try unknown.status == 404 && (decoded(APIErrorEnvelope.self, unknown)).error.code == "not_found")
        let malformed = try shop.api(.put, "/api/v1/favorites/x", token: token)
        #expect(try malformed.status == 400 && (decoded(APIErrorEnvelope.self, malformed)).error.code == "malformed_id")
    }

    @Test func aShoppersTokenNeverSeesAnotherShoppersFavorites() throws {
        let shop = try TestShop(v1Catalog())
        let ana = try shop.apiAccount("ana@example.com").token
        let ben = try shop.apiAccount("ben@example.com", name: "Ben Okafor").token
        let lamp = try #require(try shop.catalog.productByHandle("brass-lamp")).id.rawValue
        try shop.api(.put, "/api/v1/favorites/\(lamp)", token: ana)
        #expect(try decoded(V1Favorites.self, try shop.api(.get, "/api/v1/favorites", token: ben)).products.isEmpty)
        try shop.api(.delete, "/api/v1/favorites/\(lamp)", token: ben)
        #expect(try decoded(V1Favorites.self, try shop.api(.get, "/api/v1/favorites", token: ana)).products.count == 1,
                "B's removal touches only B's list")
    }
}

/// The `chosen` query a Foundation-only client writes (`V1ChosenValue.text`, ShopAPI) is the text
/// the server reads (`ChosenValues(text:)`, ShopCore): one wire format written in two modules.
@Suite("API v1: the chosen query")
struct ChosenQueryTests {
    @Test(arguments: [[], [("Size", "M")], [("Size", "M"), ("Color", "Red")], [("Note", "a=b"), ("Size", "")]])
    func theClientsTextIsTheServersText(_ pairs: [(String, String)]) {
        let wire = pairs.map { V1ChosenValue(option: $0.0, value: $0.1) }
        let chosen = ChosenValues(entries: pairs.map { ChosenValues.Entry(name: $0.0, value: $0.1) })
        #expect(V1ChosenValue.text(wire) == (chosen.isEmpty ? nil : chosen.text))
        #expect(ChosenValues(text: V1ChosenValue.text(wire) ?? "") == chosen)
    }
}
