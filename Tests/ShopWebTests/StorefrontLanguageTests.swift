import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// The storefront speaks the shopper's language: decided by one rule, shown in `<html lang>`,
/// offered by the picker and `hreflang`, remembered, and never mixed up by the caches.
@Suite("Localization: the storefront's language")
struct StorefrontLanguageTests {
    private let lamp = ProductDraft.mock(handle: "lamp", title: "Desk Lamp", category: "Lamps",
                                         variants: [.mock(sku: "L", price: .usd(40_00))])
    private static let password = "Blue9sky!"

    private func get(_ shop: TestShop, _ target: String, acceptLanguage: String? = nil) throws -> TestResponse {
        var headers: HTTPHeaders = [:]
        if let acceptLanguage { headers.add(name: "Accept-Language", value: acceptLanguage) }
        return try shop.send(.get, target, headers: headers)
    }

    @Test func acceptLanguageTurkishRendersTurkishAndTheNextEnglishVisitorIsNotServedItsCache() throws {
        let shop = try TestShop([lamp])
        let turkish = try get(shop, "/", acceptLanguage: "tr-TR,tr;q=0.9")
        #expect(turkish.text.contains("<html lang=\"tr\" "))
        #expect(turkish.text.contains("<title>Shoppable — huzurlu bir ev için</title>"))
        #expect(turkish.text.contains("Sepete ekle") || turkish.text.contains("Öne çıkanlar"))
        // The same URL, now cached in Turkish (document and body), for a visitor without cookies.
        let english = try get(try shop.visitor(), "/")
        #expect(english.text.contains("<html lang=\"en\" "))
        #expect(english.text.contains("<title>Shoppable — things for a calm home</title>"))
        #expect(!english.text.contains("Öne çıkanlar"))
        for target in ["/categories/lamps", "/products/lamp", "/search?q=lamp"] {
            let tr = try get(try shop.visitor(), target, acceptLanguage: "tr")
            let en = try get(try shop.visitor(), target)
            let es = try get(try shop.visitor(), target, acceptLanguage: "es")
            #expect(tr.text.contains("<html lang=\"tr\" ") && en.text.contains("<html lang=\"en\" ")
                    && es.text.contains("<html lang=\"es\" "), "\(target)")
            #expect(!en.text.contains("Kategoriler") && !en.text.contains("Categorías"), "\(target) in English")
            #expect(tr.text.contains("Kategoriler") && es.text.contains("Categorías"), "\(target)")
        }
    }

    @Test func thePickerLinksEveryLanguageAndHreflangNamesThemWithAnXDefault() throws {
        let shop = try TestShop([lamp])
        let page = try get(shop, "/categories/lamps?sort=price-asc").text
        #expect(page.contains(#"<nav class="language-picker" aria-label="Language">"#))
        for code in ["en", "tr", "es"] {
            #expect(page.contains(#"<link rel="alternate" hreflang="\#(code)" href="\#(shop.environment.publicURL)/categories/lamps?sort=price-asc&amp;lang=\#(code)">"#)
                    || page.contains(#"hreflang="\#(code)" href="\#(shop.environment.publicURL)/categories/lamps?lang=\#(code)""#),
                    "\(code)")
        }
        #expect(page.contains(#"hreflang="x-default""#))
        #expect(page.contains(#"<a href="/categories/lamps"#) && page.contains(#"lang="tr">Türkçe</a>"#))
        #expect(page.contains(#"aria-current="true" lang="en">English</a>"#) || page.contains(#"lang="en" aria-current="true">English</a>"#)
                || page.contains("aria-current=\"true\">English</a>"))
    }

    @Test func choosingALanguageIsRememberedInACookieAndBeatsTheBrowser() throws {
        let shop = try TestShop([lamp])
        let chosen = try get(shop, "/products/lamp?lang=es", acceptLanguage: "tr")
        #expect(chosen.text.contains("<html lang=\"es\" "))
        #expect(shop.cookies["shoppable_lang"] == "es")
        let next = try get(shop, "/categories/lamps", acceptLanguage: "tr")
        #expect(next.text.contains("<html lang=\"es\" ") && next.text.contains("Añadir"))
        #expect(try get(shop, "/?lang=xx", acceptLanguage: "tr").text.contains("<html lang=\"es\" "))
    }

    @Test func theAccountRemembersTheChoiceForAnotherBrowser() throws {
        let shop = try TestShop([lamp])
        try shop.post("/account/register", [("name", "Ayşe Yılmaz"), ("email", "ayse@example.com"),
                                            ("password", Self.password), ("password_confirmation", Self.password)])
        try shop.post("/account/language", [("lang", "tr"), ("return_to", "/account")])  // the signed-in picker
        let user = try #require(try shop.accounts.credentials("ayse@example.com")?.user)
        #expect(user.locale == .turkish)
        // Another browser: no language cookie, an English browser — the account's choice wins.
        let laptop = try shop.visitor()
        try laptop.send(.post, "/account/sign-in", form: [("email", "ayse@example.com"), ("password", Self.password)])
        let page = try get(laptop, "/", acceptLanguage: "en-US")
        #expect(page.text.contains("<html lang=\"tr\" "))
        // The password-reset email follows the account, whatever the asking browser speaks.
        let stranger = try shop.visitor()
        try stranger.send(.post, "/account/password/forgot", form: [("email", "ayse@example.com")],
                          headers: ["Accept-Language": "es"])
        #expect(try shop.outbox().last?.draft.subject == "Shoppable şifrenizi sıfırlayın")
    }

    @Test func emailsGoOutInTheLanguageTheShopperRegisteredIn() throws {
        let shop = try TestShop([lamp])
        try shop.send(.post, "/account/register", form: [("name", "Lucía Pérez"), ("email", "lucia@example.com"),
                                                         ("password", Self.password), ("password_confirmation", Self.password)],
                      headers: ["Accept-Language": "es-ES"])
        let email = try #require(try shop.outbox().last?.draft)
        #expect(email.subject == "Confirma tu correo para Shoppable")
        #expect(email.textBody.hasPrefix("Hola, Lucía:"))
        #expect(try shop.accounts.credentials("lucia@example.com")?.user.locale == .spanish)
    }

    @Test func theShopsDefaultServesBrowsersThatAskForNoLanguageItSpeaks() throws {
        let shop = try TestShop([lamp])
        shop.environment.defaultLanguage = .turkish
        #expect(try get(shop, "/", acceptLanguage: "de-DE").text.contains("<html lang=\"tr\" "))
        #expect(try get(try shop.visitor(), "/", acceptLanguage: "es").text.contains("<html lang=\"es\" "))
    }

    @Test func errorPagesSpeakTheShoppersLanguage() throws {
        let shop = try TestShop([lamp])
        let missing = try get(shop, "/products/nothing-here", acceptLanguage: "es")
        #expect(missing.status == 404)
        #expect(missing.text.contains("<html lang=\"es\" ") && missing.text.contains("Página no encontrada"))
        #expect(!missing.text.contains("hreflang=\"x-default\""))
    }

    @Test func countriesAreNamedAndSortedInTheShoppersLanguage() {
        #expect(Countries.name(of: "DE", in: .turkish) == "Almanya")
        #expect(Countries.name(of: "DE", in: .spanish) == "Alemania")
        #expect(Countries.name(of: "DE", in: .english) == "Germany")
        let turkish = Countries.all(in: .turkish).map(\.name)
        // Sorted by the Turkish names: “Irak”, “İsviçre”, “Japonya”, … “Türkiye”.
        let position = { (name: String) in turkish.firstIndex(of: name) ?? -1 }
        #expect(position("Irak") >= 0 && position("Irak") < position("İsviçre") && position("İsviçre") < position("Japonya"))
        #expect(position("Almanya") < position("Türkiye"))
        #expect(Countries.all(in: .spanish).count == Countries.all.count)
    }
}
