import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

private func chair(_ handle: String = "oak-chair", title: String = "Oak Chair", stock: Int = 5,
                   price: Int64 = 149_00, compareAt: Int64? = nil, category: String = "Chairs") -> ProductDraft {
    .mock(handle: handle, title: title, category: category, rating: Rating(rateHundredths: 460, count: 12),
          variants: [.mock(sku: handle.uppercased(), price: .usd(price), compareAt: compareAt.map(Money.usd),
                           inventory: .tracked(quantity: stock, allowsBackorder: false))],
          images: [ProductImage(url: "/static/images/demo/\(handle).svg", altText: "")],
          tags: ["oak", "dining"], publishedAt: Date(timeIntervalSince1970: 1_773_500_000))
}

private let shirt = ProductDraft.mock(
    handle: "linen-shirt", title: "Linen Shirt", category: "Clothing", optionNames: ["Size", "Color"],
    variants: [
        .mock(sku: "LS-S-W", options: ["S", "White"], price: .usd(59_00), inventory: .tracked(quantity: 0, allowsBackorder: false)),
        .mock(sku: "LS-M-W", options: ["M", "White"], price: .usd(59_00), compareAt: .usd(79_00),
              inventory: .tracked(quantity: 2, allowsBackorder: false)),
        .mock(sku: "LS-L-B", options: ["L", "Blue"], price: .usd(64_00), inventory: .untracked),
    ])

@Suite("Storefront pages")
struct StorefrontPageTests {
    @Test func homeShowsCategoriesAndFeaturedProducts() throws {
        let shop = try TestShop([chair(), shirt])
        let home = try shop.get("/")
        #expect(home.status == 200)
        #expect(home.header("Content-Type") == "text/html; charset=utf-8")
        #expect(home.text.contains("Oak Chair") && home.text.contains("Linen Shirt"))
        #expect(home.text.contains("href=\"/categories/chairs\""))
        #expect(home.text.contains("class=\"tab tab-active\" href=\"/\""))
        #expect(home.text.contains("data-cart-count=\"0\" hidden"))
    }

    @Test func categoriesListEveryCategoryWithItsCount() throws {
        let shop = try TestShop([chair(), chair("pine-chair", title: "Pine Chair"), shirt,
                                 .mock(handle: "draft", category: "Hidden", isPublished: false)])
        let page = try shop.get("/categories")
        #expect(page.status == 200)
        #expect(page.text.contains("Chairs") && page.text.contains("2 products"))
        #expect(page.text.contains("Clothing") && page.text.contains(">1 product<"), "singular for one")
        #expect(!page.text.contains("Hidden"), "categories with only unpublished products are not listed")
    }

    @Test func categoryPagesAreTwentyFourCardsWithStableOrderAndNoRepeats() throws {
        let drafts = (1...30).map { chair("chair-\($0)", title: "Chair \($0)", price: 100_00) }
        let shop = try TestShop(drafts)
        let first = try shop.get("/categories/chairs")
        let second = try shop.get("/categories/chairs?page=2")
        #expect(first.count("class=\"card\"") == 24)
        #expect(second.count("class=\"card\"") == 6)
        #expect(first.text.contains("Page 1 of 2") && first.text.contains("href=\"/categories/chairs?page=2\""))
        let titles = (1...30).map { "Chair \($0)<" }
        for title in titles {
            #expect(first.count(title) + second.count(title) == 1, "\(title) appears exactly once")
        }
        #expect(try shop.get("/categories/chairs?page=3").status == 404)
        #expect(try shop.get("/categories/chairs?page=0").status == 404)
        #expect(try shop.get("/categories/chairs?page=99999999999999999999").status == 404)
        #expect(try shop.get("/categories/nope").status == 404)
    }

    @Test func cardsShowSalePriceStruckThroughAndSoldOut() throws {
        let shop = try TestShop([chair(compareAt: 199_00), chair("gone", title: "Gone Chair", stock: 0)])
        let page = try shop.get("/categories/chairs")
        #expect(page.text.contains("<span class=\"price-now price-sale\">$149.00</span><del class=\"price-was\">$199.00</del>"))
        #expect(page.text.contains("card card-sold-out"))
        #expect(page.text.contains("Rated 4.6 out of 5"))
    }

    @Test func productPageShowsEverythingAShopperNeeds() throws {
        let shop = try TestShop([chair(stock: 2, compareAt: 179_00)])
        let page = try shop.get("/products/oak-chair")
        #expect(page.status == 200)
        for expected in ["<h1 class=\"product-title\">Oak Chair</h1>", "$149.00", "<del class=\"price-was\">$179.00</del>",
                         "Only 2 left", "By Acme", "Added Mar 14, 2026", "<li class=\"tag\">oak</li>",
                         "Rated 4.6 out of 5", "<p>oak-chair</p>", "name=\"quantity\" value=\"1\" min=\"1\" max=\"2\"",
                         "Add to cart"] {
            #expect(page.text.contains(expected), "product page shows \(expected)")
        }
        #expect(!page.text.contains("variant-picker"), "a product without options has no picker")
    }

    /// Opened at a variant not on sale (`?variant=`, a reload after picking one), the page still
    /// carries the "was" price and the pill, hidden, for the script to fill when a variant on sale
    /// is picked (a fresh tester's struck-through price never came); a product with no variant on
    /// sale carries neither.
    @Test func aProductWithAVariantOnSaleKeepsAHiddenWasPriceForTheOthers() throws {
        let shop = try TestShop([shirt, chair()])
        let large = try #require(try shop.catalog.productByHandle("linen-shirt")).variants[2].id.rawValue
        let page = try shop.get("/products/linen-shirt?variant=\(large)").text
        #expect(page.contains("<span class=\"price-now\">$64.00</span><del class=\"price-was\" hidden></del></p>"
            + "<span class=\"pill pill-sale\" hidden>Sale</span>"))
        #expect(page.contains("data-compare-at=\"$79.00\""))
        let plain = try shop.get("/products/oak-chair").text
        #expect(!plain.contains("price-was") && !plain.contains("pill-sale"))
    }

    /// Handles are lower-case; an address typed or linked with capitals is moved there, with its
    /// query (a fresh tester's `/categories/Chairs` was a 404).
    @Test func anAddressWithACapitalizedHandleMovesToTheLowerCaseOne() throws {
        let shop = try TestShop([chair()])
        let category = try shop.get("/categories/Chairs?sort=price-asc")
        #expect(category.status == 301 && category.header("Location") == "/categories/chairs?sort=price-asc")
        let product = try shop.get("/products/OAK-Chair")
        #expect(product.status == 301 && product.header("Location") == "/products/oak-chair")
        #expect(try shop.get("/products/Nope").status == 301, "then the lower-case address answers 404")
        #expect(try shop.get("/products/nope").status == 404)
    }

    /// Without JavaScript a heart or a quick add on a list comes back to its card, not to the
    /// top of the list (a fresh tester's scroll position was lost on page 2).
    @Test func aListsFormsComeBackToTheirCard() throws {
        let shop = try TestShop([chair()])
        let id = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
        let page = try shop.get("/categories/chairs").text
        #expect(page.contains("<article class=\"card\" id=\"product-\(id)\">"))
        #expect(page.contains("name=\"return_to\" value=\"/categories/chairs#product-\(id)\""))
        let hearted = try shop.post("/favorites/\(id)", [("favorite", "1"), ("return_to", "/categories/chairs#product-\(id)")])
        #expect(hearted.status == 303 && hearted.header("Location") == "/categories/chairs#product-\(id)")
        let added = try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "1"),
                                                ("return_to", "/categories/chairs#product-\(id)")])
        #expect(added.status == 303 && added.header("Location") == "/categories/chairs#product-\(id)")
    }

    @Test func soldOutProductsCannotBeAddedFromTheirPage() throws {
        let shop = try TestShop([chair(stock: 0)])
        let page = try shop.get("/products/oak-chair")
        #expect(page.text.contains("Sold out"))
        #expect(page.text.contains("<button type=\"submit\" class=\"button button-primary button-wide\" disabled"))
    }

    /// A product with many variants over two options carries, for the script's picker per
    /// option, the options' names (in the shopper's language) and each variant's values; the
    /// list stays the picker without the script. A product with few variants carries neither
    /// (a tester found a 30-variant product's one flat list hard to use).
    @Test(.bug("tester: a 30-variant product showed one flat list of 30 choices"))
    func aProductWithManyVariantsOffersAPickerPerOption() throws {
        let sizes = ["S", "M", "L", "XL"], colors = ["White", "Blue"]
        let tee = ProductDraft.mock(handle: "tee", title: "Tee", category: "Clothing", optionNames: ["Size", "Color"],
                                    variants: sizes.flatMap { size in colors.map { color in
                                        VariantDraft.mock(sku: "TEE-\(size)-\(color)", options: [size, color], price: .usd(20_00)) } })
        let shop = try TestShop([tee, shirt])
        let page = try shop.get("/products/tee").text
        #expect(page.contains(#"<fieldset class="variant-picker" id="options" data-option-names="[&quot;Size&quot;,&quot;Color&quot;]" data-unavailable="Unavailable">"#))
        #expect(page.contains(#"data-option-values="[&quot;XL&quot;,&quot;Blue&quot;]""#))
        #expect(page.components(separatedBy: "type=\"radio\" name=\"variant\"").count == 9, "the list is still there, and is what the form posts")
        let few = try shop.get("/products/linen-shirt").text
        #expect(!few.contains("data-option-names") && !few.contains("data-option-values"))
    }

    /// Opened at a sold-out variant (`?variant=`) while another is in stock, the page keeps the
    /// quantity box and the button usable: a shopper without JavaScript picks the other variant
    /// and adds it (a tester could not: the button stayed "Sold out"), and one who presses "Add"
    /// at the sold-out one is asked to choose. A product with every variant sold out has neither.
    @Test func aProductOpenedAtASoldOutVariantCanStillAddAnother() throws {
        let shop = try TestShop([shirt, chair(stock: 0)])
        let variants = try #require(try shop.catalog.productByHandle("linen-shirt")).variants
        let page = try shop.get("/products/linen-shirt?variant=\(variants[0].id.rawValue)").text
        #expect(page.contains("<p class=\"stock stock-out\" data-stock=\"\" aria-live=\"polite\">Sold out</p>"))
        #expect(page.contains("<label class=\"quantity-field\" data-quantity-field=\"\"><span"))
        #expect(page.contains("class=\"quantity-input\"></label><button type=\"submit\" class=\"button button-primary button-wide\" data-add-label"))
        let large = variants[2].id.rawValue
        let added = try shop.post("/cart/add", [("product", "linen-shirt"), ("variant", String(large)), ("quantity", "2")])
        #expect(added.status == 303)
        let unchosen = try shop.post("/cart/add", [("product", "linen-shirt"), ("quantity", "1")])
        #expect(unchosen.status == 422 && unchosen.text.contains("Please choose an option."))
        #expect(unchosen.text.contains(#"name="variant" value="\#(large)""#))
        #expect(!unchosen.text.contains(/name="variant" value="\d+" checked/), "nothing chosen for the shopper: a second press asks again")
        let soldOut = try shop.get("/products/oak-chair").text
        #expect(!soldOut.contains("quantity-field") && soldOut.contains("button-wide\" disabled"))
    }

    @Test func variantPickerListsOptionsAndDisablesSoldOutOnes() throws {
        let shop = try TestShop([shirt])
        let page = try shop.get("/products/linen-shirt")
        #expect(page.text.contains("<legend>Size / Color</legend>"))
        #expect(page.count("type=\"radio\" name=\"variant\"") == 3)
        #expect(page.text.contains("variant-choice variant-sold-out"))
        // The first available variant is chosen by default: M / White, on sale, 2 left.
        #expect(page.text.contains("Only 2 left") && page.text.contains("$79.00"))
        let blue = try #require(shop.catalog.productByHandle("linen-shirt")?.variants.last)
        let chosen = try shop.get("/products/linen-shirt?variant=\(blue.id.rawValue)")
        #expect(chosen.text.contains("$64.00") && chosen.text.contains("In stock"))
    }

    /// A HEAD's answer is its GET's, only not sent: the same length (a fresh tester found the
    /// cart's, a product's and the favorites' a few bytes off — their links came back to `/`).
    @Test func aHeadAnswersWhatItsGetAnswers() throws {
        let shop = try TestShop([chair()])
        try shop.post("/cart/add", [("product", "chair"), ("quantity", "1")])
        for path in ["/cart", "/products/oak-chair", "/favorites", "/categories/chairs?sort=price", "/nope?x=1"] {
            let get = try shop.get(path), head = try shop.head(path)
            #expect(head.status == get.status, "\(path)")
            #expect(head.response.body.count == get.response.body.count, "\(path)")
        }
    }

    /// A first visitor's browser gets the introduction on a HEAD as on its GET (a fresh tester
    /// found HEAD's length without it), compressed or not.
    @Test func aFirstVisitorsHeadCarriesTheIntroductionItsGetCarries() throws {
        let shop = try TestShop([chair()])
        for path in ["/", "/products/oak-chair", "/categories/chairs?sort=price", "/search?q=chair"] {
            for coding in ["identity", "gzip"] {
                let headers: HTTPHeaders = ["User-Agent": AppStatesTests.chrome, "Accept-Encoding": coding]
                _ = try (0..<2).map { _ in try shop.visitor().send(.get, path, headers: headers) }  // kept, compressed
                let get = try shop.visitor().send(.get, path, headers: headers)
                let head = try shop.visitor().send(.head, path, headers: headers)
                #expect(head.status == 200 && head.response.body.count == get.response.body.count, "\(path) \(coding)")
                #expect(head.header("Content-Encoding") == get.header("Content-Encoding"), "\(path) \(coding)")
                #expect(coding != "identity" || get.text.contains("id=\"welcome\""), "\(path): introduced")
            }
        }
    }

    @Test func unknownPathsAndProductsGetAStyled404() throws {
        let shop = try TestShop([chair()])
        // ("/products/" is All products since issue #13, like "/products".)
        for path in ["/nope", "/products/nope", "/cart/lines/abc", "/static/../Package.swift", "/static/missing.css"] {
            let page = try shop.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(page.text.contains("Page not found") && page.text.contains("tab-bar"))
        }
    }

    @Test func storeFailuresGetAStyled500WithoutDetails() throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "disk on fire at /secret/path" } }
        let shop = try TestShop([chair()])
        shop.environment.catalog.categories = { throw Boom() }
        let page = try shop.get("/")
        #expect(page.status == 500)
        #expect(page.text.contains("Something went wrong"))
        #expect(!page.text.contains("disk on fire") && !page.text.contains("/secret/path"))
        #expect(shop.logLines.contains { $0.contains("disk on fire") }, "the error is logged")
    }

    @Test func errorsThatKnowTheirAnswerRenderIt() throws {
        struct Gone: HTTPResponseError {
            var status: HTTPStatus { .gone }
            var headers: HTTPHeaders { ["X-Why": "retired"] }
        }
        let shop = try TestShop([chair()])
        shop.environment.catalog.categories = { throw Gone() }
        let page = try shop.get("/")
        #expect(page.status == 410 && page.header("X-Why") == "retired")
        #expect(page.text.contains("<html"), "the storefront's own error page")
        #expect(page.header("Content-Security-Policy") != nil)
        #expect(shop.logLines.contains { $0.hasPrefix("refused request_id=") })
    }

    @Test func everyResponseCarriesTheSecurityHeaders() throws {
        let shop = try TestShop([chair()])
        for path in ["/", "/nope", "/static/app.css"] {
            let response = try shop.get(path)
            #expect(response.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
            #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Referrer-Policy") == "same-origin")
        }
    }

    @Test(.bug(id: 8, "point 7: no Strict-Transport-Security with an https public URL"))
    func httpsShopsSendStrictTransportSecurity() throws {
        let shop = try TestShop([chair()])
        for path in ["/", "/nope", "/static/app.css"] {
            #expect(try shop.get(path).header("Strict-Transport-Security") == "max-age=31536000")
        }
        shop.environment.publicURL = "http://127.0.0.1:8080"
        #expect(try shop.get("/").header("Strict-Transport-Security") == nil)
    }

    @Test func refusalsBeforeRoutingCarryTheSecurityHeaders() throws {
        let shop = try TestShop([chair()])
        let response = ShopApp.refusal(.uriTooLong, "The address is longer than 8192 bytes.", shop.environment)
        #expect(response.status == .uriTooLong)
        #expect(String(decoding: response.body, as: UTF8.self)
                == "414 — The address is too long for this shop. Shorten it, or go back and try again.\n")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Content-Security-Policy"]?.contains("default-src 'self'") == true)
        #expect(response.headers["Strict-Transport-Security"] == "max-age=31536000")
    }

    /// A page refused at the door (before routing) speaks the reader's language by the
    /// storefront's rule: the language cookie, else `Accept-Language`, else the shop's default.
    @Test(arguments: [
        (HTTPStatus.contentTooLarge, "shoppable_lang=tr", "en", "tr", "413 — İstek bu mağaza için çok büyük."),
        (.uriTooLong, "", "es-ES,es;q=0.9", "es", "414 — La dirección es demasiado larga"),
        (.requestHeaderFieldsTooLarge, "other=1; shoppable_lang=es", "tr", "es", "431 — Las cabeceras"),
        (.badRequest, "", "tr-TR", "tr", "400 — Tarayıcı, bu mağazanın okuyamadığı"),
        (.notImplemented, "shoppable_lang=xx", "de", "en", "501 — The browser sent a request this shop could not read."),
    ] as [(HTTPStatus, String, String, String, String)])
    func refusalsBeforeRoutingSpeakTheReadersLanguage(status: HTTPStatus, cookie: String, accepted: String,
                                                     language: String, start: String) throws {
        let shop = try TestShop([chair()])
        var headers = HTTPHeaders()
        if !cookie.isEmpty { headers.add(name: "Cookie", value: cookie) }
        headers.add(name: "Accept-Language", value: accepted)
        let response = ShopApp.refusal(status, "Too much.", target: "/products/chair", headers: headers, shop.environment)
        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix(start))
        #expect(response.headers["Content-Language"] == language)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/plain; charset=utf-8") == true)
    }

    /// Found by a fresh tester: a 3 MB body to the API got plain text, though docs/API.md
    /// promises the error envelope for every error. Under `/api` a refusal is the envelope.
    /// Its message follows the API's language rule (`Accept-Language`, a second fresh tester);
    /// an absolute-form target is read by its path.
    @Test(arguments: [(HTTPStatus.contentTooLarge, "/api/v1/cart/lines", "body_too_large", "en",
                       "The request is too large for this shop."),
                      (.uriTooLong, "/api/products?x=1", "target_too_long", "tr", "Adres bu mağaza için çok uzun."),
                      (.badRequest, "/api", "malformed_request", "es-ES", "No se pudo leer la solicitud"),
                      (.badRequest, "/api/v1/products?q=%", "malformed_request", "en", "The request could not be read"),
                      (.requestHeaderFieldsTooLarge, "http://shop.example/api/v1/products", "headers_too_large", "de",
                       "The request's headers are too large.")])
    func refusalsUnderTheAPIAreItsErrorEnvelope(status: HTTPStatus, target: String, code: String, accepted: String,
                                                message: String) throws {
        let shop = try TestShop([chair()])
        let headers: HTTPHeaders = ["Accept-Language": accepted]
        let response = ShopApp.refusal(status, "Too much.", target: target, headers: headers, shop.environment)
        #expect(response.status == status && response.headers["Content-Type"] == "application/json; charset=utf-8")
        let envelope = try JSONDecoder().decode(APIErrorEnvelope.self, from: Data(response.body))
        #expect(envelope.error.code == code && envelope.error.message.hasPrefix(message))
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        // The API's security policy, as its other answers (a fresh tester found the page's).
        #expect(response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'")
        #expect(response.headers["Referrer-Policy"] == nil)
        #expect(ShopApp.refusal(status, "Too much.", target: "/apiary", shop.environment).headers["Content-Type"]?
            .hasPrefix("text/plain") == true, "a page whose path only starts like it")
        #expect(ShopApp.refusal(status, "Too much.", target: "http://shop.example?/api/v1", shop.environment)
            .headers["Content-Type"]?.hasPrefix("text/plain") == true, "the path of http://host?/api is /")
    }

    @Test func merchantTextIsEscapedEverywhere() throws {
        let payload = "<script>alert(1)</script>\"onmouseover=\"alert(2)"
        let evil = ProductDraft.mock(handle: "evil", title: payload, category: payload,
                                     variants: [.mock(sku: "E", options: [payload], price: .usd(1_00))],
                                     tags: [payload])
        var withOptions = evil
        withOptions.optionNames = [payload]
        let shop = try TestShop([withOptions])
        _ = try shop.post("/cart/add", [("product", "evil"), ("variant", "1"), ("quantity", "1")])
        for path in ["/", "/categories", "/categories/script-alert-1-script-onmouseover-alert-2", "/products/evil", "/cart"] {
            let page = try shop.get(path)
            #expect(page.status == 200, "\(path)")
            #expect(!page.text.contains("<script>alert"), "\(path) shows the title as text")
            #expect(!page.text.contains("\"onmouseover"), "\(path) keeps attributes closed")
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
        }
    }

    @Test func staticFilesHaveStrongETagsAndVersionedOnesAreImmutable() throws {
        let shop = try TestShop()
        let home = try shop.get("/")
        let href = try #require(home.text.firstMatch(of: /href="(\/static\/app\.css\?v=[0-9a-f]+)"/)?.1)
        let css = try shop.get(String(href))
        #expect(css.status == 200 && css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("Cache-Control") == "public, max-age=31536000, immutable")
        let etag = try #require(css.header("ETag"))
        let again = try shop.send(.get, String(href), headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.response.body.isEmpty)
    }

    @Test func healthzChecksTheDatabase() throws {
        struct Down: Error {}
        let shop = try TestShop()
        #expect(try shop.get("/healthz").status == 200)
        shop.environment.healthCheck = { throw Down() }
        #expect(try shop.get("/healthz").status == 503)
    }
}
