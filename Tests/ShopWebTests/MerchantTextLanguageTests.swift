import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// What the merchant writes — shipping method names, payment instructions, campaign titles and
/// option names — follows the shopper's language when the merchant translated it (issue #11), and
/// saving the language on the account takes a POST with the CSRF token.
@Suite("Localization: the merchant's texts")
struct MerchantTextLanguageTests {
    private static let password = "Blue9sky!"
    private static let now = Date(timeIntervalSince1970: 1_780_000_000)  // TestShop's clock

    private let stool: ProductDraft = {
        var draft = ProductDraft.mock(handle: "stool", title: "Counter Stool", category: "Chairs",
                                      variants: [.mock(sku: "S-65", options: ["65 cm"], price: .usd(89_00)),
                                                 .mock(sku: "S-75", options: ["75 cm"], price: .usd(95_00))])
        draft.optionNames = ["Size"]
        return draft
    }()

    private static let lampsSale = Campaign(
        id: "winter-light",
        title: LocalizedText("Winter light", translations: [.turkish: "Kış ışığı", .spanish: "Luz de invierno"]),
        description: LocalizedText("Warm light for long evenings.", translations: [.turkish: "Uzun akşamlar için sıcak ışık."]),
        startsAt: now - 86_400, endsAt: now + 86_400, discount: .percentage(15), voucherCode: VoucherCode("LIGHT15"))

    private let lamp = ProductDraft.mock(handle: "lamp", title: "Desk Lamp", category: "Lamps",
                                         variants: [.mock(sku: "L", price: .usd(40_00))])

    /// A shop whose configuration and campaign are translated.
    private func shop() throws -> TestShop {
        let shop = try TestShop([stool, lamp])
        shop.environment.shippingMethods = [
            ShippingMethod(id: "standard",
                           name: LocalizedText("Standard delivery", translations: [.turkish: "Standart teslimat",
                                                                                   .spanish: "Envío estándar"]),
                           price: .usd(4_90)),
        ]
        shop.environment.paymentInstructions = LocalizedText("Pay by bank transfer.",
                                                             translations: [.turkish: "Havale ile ödeyin."])
        shop.environment.optionNames = OptionNameGlossary([
            "Size": LocalizedText("Size", translations: [.turkish: "Boyut", .spanish: "Tamaño"]),
        ])
        _ = try shop.campaigns.replaceAll([Self.lampsSale])
        return shop
    }

    private func turkishGuestReachesShipping(_ shop: TestShop) throws -> TestResponse {
        _ = try shop.get("/?lang=tr")
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        let submitted = try shop.post("/checkout/address", [("email", "misafir@example.com")] + checkoutAddress)
        #expect(submitted.header("Location") == "/checkout/shipping")
        return try shop.get("/checkout/shipping")
    }

    @Test(.bug(id: "11", "shipping names stay English on Turkish pages"))
    func aTurkishShippingStepShowsTheTurkishMethodName() throws {
        let shop = try shop()
        let page = try turkishGuestReachesShipping(shop)
        #expect(page.status == 200)
        #expect(page.text.contains("<html lang=\"tr\" "))
        #expect(page.text.contains("Standart teslimat"))
        #expect(!page.text.contains("Standard delivery"))
    }

    @Test func theTurkishOrderKeepsAndMailsTheTurkishShippingName() throws {
        let shop = try shop()
        _ = try turkishGuestReachesShipping(shop)
        #expect(try shop.post("/checkout/shipping", [("method", "standard")]).header("Location") == "/checkout/review")
        let review = try shop.get("/checkout/review")
        #expect(review.text.contains("Standart teslimat"))
        let placed = try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))])
        #expect(placed.status == 303)
        let email = try #require(try shop.outbox().last?.draft)
        #expect(email.textBody.contains("Standart teslimat"), "\(email.textBody)")
        #expect(email.textBody.contains("Havale ile ödeyin."))
        #expect(!email.textBody.contains("Standard delivery") && !email.textBody.contains("Pay by bank transfer"))
        // The order keeps the name it was placed with: an English reader sees what the shopper chose.
        let order = try shop.get(try #require(placed.header("Location")) + "&lang=en")
        #expect(order.text.contains("<html lang=\"en\" "))
        #expect(order.text.contains("Standart teslimat"))
        #expect(order.text.contains("Pay by bank transfer."))  // the current instructions, in the reader's language
    }

    @Test func aSpanishProductPageShowsTheGlossarysOptionName() throws {
        let shop = try shop()
        let spanish = try shop.send(.get, "/products/stool", headers: ["Accept-Language": "es"])
        #expect(spanish.text.contains("<legend>Tamaño</legend>"), "\(spanish.text)")
        let english = try shop.visitor().send(.get, "/products/stool")
        #expect(english.text.contains("<legend>Size</legend>"))
        let api = try shop.visitor().send(.get, "/api/v1/products/stool", headers: ["Accept-Language": "tr"])
        #expect(api.text.contains(#""options":["Boyut"]"#), "\(api.text)")
    }

    @Test func aTurkishCampaignPageShowsTheTurkishTitle() throws {
        let shop = try shop()
        let page = try shop.send(.get, "/campaigns/winter-light", headers: ["Accept-Language": "tr"])
        #expect(page.text.contains("<title>Kış ışığı"), "\(page.text.prefix(600))")
        #expect(page.text.contains("Kış ışığı") && page.text.contains("Uzun akşamlar için sıcak ışık."))
        #expect(!page.text.contains("Winter light"))
        // Spanish has a title but no description: the merchant's default fills in.
        let spanish = try shop.visitor().send(.get, "/campaigns/winter-light", headers: ["Accept-Language": "es"])
        #expect(spanish.text.contains("Luz de invierno") && spanish.text.contains("Warm light for long evenings."))
        let list = try shop.visitor().send(.get, "/campaigns", headers: ["Accept-Language": "tr"])
        #expect(list.text.contains("Kış ışığı") && !list.text.contains("Winter light"))
        let api = try shop.visitor().send(.get, "/api/v1/campaigns/winter-light", headers: ["Accept-Language": "es"])
        #expect(api.text.contains(#""title":"Luz de invierno""#), "\(api.text)")
    }

    @Test func theVoucherMessageNamesTheCampaignInTheShoppersLanguage() throws {
        let shop = try shop()
        _ = try shop.get("/?lang=tr")
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "light15")])
        let cart = try shop.get("/cart")
        #expect(cart.text.contains("Kış ışığı"), "\(cart.text)")
        #expect(!cart.text.contains("Winter light"))
    }

    // MARK: saving the language on the account (CSRF)

    private func signedInShopper(_ shop: TestShop) throws -> User.ID {
        try shop.post("/account/register", [("name", "Ayşe Yılmaz"), ("email", "ayse@example.com"),
                                            ("password", Self.password), ("password_confirmation", Self.password)])
        let user = try #require(try shop.accounts.credentials("ayse@example.com")?.user)
        #expect(user.locale == .english)
        return user.id
    }

    private func storedLocale(_ shop: TestShop) throws -> Language? {
        try shop.accounts.credentials("ayse@example.com")?.user.locale
    }

    @Test(.bug(id: "11", "a cross-site GET ?lang= changed the account's language"))
    func aGetWithLangNeverChangesTheAccountsLanguage() throws {
        let shop = try shop()
        _ = try signedInShopper(shop)
        let page = try shop.get("/account?lang=tr")
        #expect(page.text.contains("<html lang=\"tr\" "))  // this browser speaks Turkish now (the cookie)…
        #expect(shop.cookies["shoppable_lang"] == "tr")
        #expect(try storedLocale(shop) == .english)       // …but the account was not written
    }

    @Test func thePickerPostsTheChoiceWithTheCSRFTokenAndTheAccountRemembersIt() throws {
        let shop = try shop()
        _ = try signedInShopper(shop)
        let page = try shop.get("/products/stool").text
        #expect(page.contains(#"<form method="post" action="/account/language">"#))
        #expect(page.contains(#"<input type="hidden" name="return_to" value="/products/stool">"#))
        #expect(page.contains(#"name="lang" value="tr""#))

        let chosen = try shop.post("/account/language", [("lang", "tr"), ("return_to", "/products/stool")])
        #expect(chosen.status == 303)
        #expect(chosen.header("Location") == "/products/stool")
        #expect(shop.cookies["shoppable_lang"] == "tr")
        #expect(try storedLocale(shop) == .turkish)
        // An unknown language and a foreign return address change nothing and go home.
        let odd = try shop.post("/account/language", [("lang", "xx"), ("return_to", "https://evil.example/")])
        #expect(odd.header("Location") == "/")
        #expect(try storedLocale(shop) == .turkish)
    }

    @Test func thePickersPostWithoutTheTokenIsRefused() throws {
        let shop = try shop()
        _ = try signedInShopper(shop)
        let forged = try shop.post("/account/language", [("lang", "es"), ("return_to", "/")], csrf: false)
        #expect(forged.status == 403)
        #expect(try storedLocale(shop) == .english)
        #expect(shop.cookies["shoppable_lang"] != "es")
    }

    @Test func visitorsKeepThePickersLinksAndTheHreflangAlternates() throws {
        let shop = try shop()
        let page = try shop.get("/products/stool").text
        #expect(!page.contains(#"action="/account/language""#))
        #expect(page.contains(#"<a href="/products/stool?lang=tr" hreflang="tr" lang="tr""#))
        #expect(page.contains(#"<link rel="alternate" hreflang="es" href="\#(shop.environment.publicURL)/products/stool?lang=es">"#))
    }
}
