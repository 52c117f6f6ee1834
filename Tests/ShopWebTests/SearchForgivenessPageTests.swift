import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// Issue #13, point 5, through the storefront's search page and the JSON API.
@Suite("Search that forgives: pages and API")
struct SearchForgivenessPageTests {
    private func shop() throws -> TestShop {
        try TestShop([
            .mock(handle: "mermer-lamba", title: "Mermer Lamba", category: "Lamps"),
            .mock(handle: "silla", title: "Silla de roble", category: "Chairs"),
            .mock(handle: "reloj", title: "Reloj de pared", category: "Clocks"),
            .mock(handle: "walnut-chair", title: "Walnut Chair", category: "Chairs",
                  variants: [.mock(sku: "WAL-CH-01")]),
        ])
    }

    @Test(.bug("issue #13", "stemming per shopper language"), arguments: [
        ("tr", "lambalar", "Mermer Lamba"),
        ("es", "sillas", "Silla de roble"),
        ("es", "relojes", "Reloj de pared"),  // two edits away: only the stem finds it
        ("en", "chairs", "Walnut Chair"),
    ])
    func aShopperFindsTheSingularFromAPlural(language: String, query: String, title: String) throws {
        let page = try shop().send(.get, "/search?q=\(query)", headers: ["Accept-Language": language]).text
        #expect(page.contains(">\(title)<"), "\(language): “\(query)” finds \(title)")
    }

    /// Facet counts in the filter form, in each language, the chosen band selected; links and
    /// a GET form, so they work without JavaScript.
    @Test(.bug("issue #13", "facets with counts on the page"), arguments: [
        ("en", "Under $25.00 (4)", "In stock only (4)", "Chairs (2)"),
        ("tr", "altı (4)", "Yalnızca stoktakiler (4)", "Chairs (2)"),
        ("es", "Menos de", "Solo con stock (4)", "Chairs (2)"),
    ])
    func filterFormShowsFacetCountsInTheShoppersLanguage(language: String, band: String, inStock: String,
                                                         category: String) throws {
        let page = try shop().send(.get, "/products?price=0-25", headers: ["Accept-Language": language]).text
        #expect(page.contains("<option value=\"0-25\" selected>"))
        #expect(page.contains(band) && page.contains("(4)</option>"))
        #expect(page.contains(inStock) && page.contains(category))
        let search = try shop().send(.get, "/search?q=chair", headers: ["Accept-Language": language]).text
        #expect(search.contains("<select name=\"price\" id=\"price\">") && search.contains(inStock.replacingOccurrences(of: "(4)", with: "(2)")))
    }

    @Test(.bug("issue #13", "typos and SKUs on the search page"))
    func typosAndSKUsFindTheProduct() throws {
        let shop = try shop()
        #expect(try shop.get("/search?q=wallnut").text.contains(">Walnut Chair<"))
        #expect(try shop.get("/search?q=wal-ch").text.contains(">Walnut Chair<"))
    }

    @Test(.bug("issue #13", "did you mean"), arguments: [
        ("en", "Did you mean:"), ("tr", "Bunu mu demek istediniz:"), ("es", "Quizás quisiste decir:"),
    ])
    func anEmptySearchOffersDidYouMean(language: String, text: String) throws {
        let page = try shop().send(.get, "/search?q=slla", headers: ["Accept-Language": language]).text
        #expect(page.contains("class=\"did-you-mean\""))
        #expect(page.contains(text))
        #expect(page.contains("href=\"/search?q=silla\""))
        let found = try shop().send(.get, "/search?q=silla", headers: ["Accept-Language": language]).text
        #expect(!found.contains("did-you-mean"))
    }

    @Test(.bug("issue #13", "did you mean in the API answer"))
    func theAPIAnswerCarriesTheSuggestion() throws {
        let shop = try shop()
        let empty = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?q=slla"))
        #expect(empty.products.isEmpty)
        #expect(empty.suggestion == "silla")
        let found = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?q=silla"))
        #expect(found.suggestion == nil && found.totalCount == 1)
    }
}
