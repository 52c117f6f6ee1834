import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

// Issue #11, points 3 (appearance) and 7 (layout faults): the rules the server decides.

private let chair = ProductDraft.mock(
    handle: "oak-chair", title: "Oak Chair", category: "Chairs", optionNames: ["Color"],
    variants: [
        .mock(sku: "OC-N", options: ["Natural Oak"], price: .usd(149_00), compareAt: .usd(179_00),
              inventory: .tracked(quantity: 4, allowsBackorder: false)),
        .mock(sku: "OC-S", options: ["Smoked Oak"], price: .usd(159_00), inventory: .tracked(quantity: 4, allowsBackorder: false)),
        .mock(sku: "OC-B", options: ["Black"], price: .usd(159_00), inventory: .tracked(quantity: 0, allowsBackorder: false)),
    ],
    images: [ProductImage(url: "/static/images/demo/natural.svg", altText: "Oak Chair in Natural Oak"),
             ProductImage(url: "/static/images/demo/smoked.svg", altText: "Oak Chair in Smoked Oak"),
             ProductImage(url: "/static/images/demo/black.svg", altText: "Oak Chair in Black")])

private let soldOut = ProductDraft.mock(
    handle: "velvet-chair", title: "Velvet Chair", category: "Chairs",
    variants: [.mock(sku: "VC", price: .usd(399_00), inventory: .tracked(quantity: 0, allowsBackorder: false))])

private let password = "Blue9sky!"

@Suite("Appearance: theme choice")
struct ThemeTests {
    @Test func withoutAChoiceThePageFollowsTheSystem() throws {
        let page = try TestShop([chair]).get("/")
        #expect(page.text.contains("<html lang=\"en\" data-theme=\"system\">"))
        #expect(page.text.contains("<meta name=\"color-scheme\" content=\"light dark\">"))
        #expect(page.text.contains("media=\"(prefers-color-scheme: dark)\""))
        #expect(page.text.contains("data-theme-choice=\"system\" aria-current=\"true\""))
    }

    @Test(arguments: ["light", "dark"])
    func theChosenThemeIsRenderedByTheServerFromTheCookie(_ theme: String) throws {
        let shop = try TestShop([chair])
        let chosen = try shop.get("/theme?set=\(theme)&return_to=%2Fcategories")
        #expect(chosen.status == 303 && chosen.header("Location") == "/categories")
        #expect(chosen.header("Set-Cookie")?.contains("shoppable_theme=\(theme)") == true)
        for path in ["/", "/categories", "/products/oak-chair", "/cart"] {
            let page = try shop.get(path)
            #expect(page.text.contains("<html lang=\"en\" data-theme=\"\(theme)\">"), "\(path)")
            #expect(page.text.contains("<meta name=\"color-scheme\" content=\"\(theme)\">"), "\(path)")
            #expect(!page.text.contains("prefers-color-scheme"), "one theme colour, no media query: \(path)")
            #expect(page.text.contains("data-theme-choice=\"\(theme)\" aria-current=\"true\""), "\(path)")
        }
    }

    @Test func choosingSystemAgainDeletesTheCookie() throws {
        let shop = try TestShop([chair])
        try shop.get("/theme?set=dark")
        let back = try shop.get("/theme?set=system&return_to=/")
        #expect(back.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try shop.get("/").text.contains("data-theme=\"system\""))
    }

    @Test func anUnknownThemeOrAForeignReturnIsRefused() throws {
        let shop = try TestShop([chair])
        #expect(try shop.get("/theme?set=purple").status == 404)
        #expect(try shop.get("/theme?set=dark&return_to=//evil.example").header("Location") == "/")
    }

    @Test func cachedPagesAreKeptApartByTheme() throws {
        let shop = try TestShop([chair])
        let light = try shop.visitor()
        try light.get("/theme?set=light")
        #expect(try shop.get("/").text.contains("data-theme=\"system\""))
        #expect(try light.get("/").text.contains("data-theme=\"light\""))
        #expect(try shop.get("/").text.contains("data-theme=\"system\""))
    }
}

@Suite("Layout faults (issue #11, point 7)")
struct LayoutFaultTests {
    @Test func theVerifyBannerShowsOnAccountAndCheckoutOnlyAndCanBeClosed() throws {
        let shop = try TestShop([chair])
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"), ("password", password),
                                             ("password_confirmation", password)])
        #expect(!(try shop.get("/").text.contains("Please confirm your email")), "not on browsing pages")
        #expect(!(try shop.get("/products/oak-chair").text.contains("Please confirm your email")))
        let account = try shop.get("/account")
        #expect(account.text.contains("Please confirm your email"))
        #expect(account.text.contains("action=\"/account/verify/dismiss\""))
        try shop.post("/cart/add", [("product", "oak-chair"), ("variant", "1"), ("quantity", "1")])
        #expect(try shop.get("/checkout/address").text.contains("Please confirm your email"))

        let closed = try shop.post("/account/verify/dismiss", [("return_to", "/checkout/address")])
        #expect(closed.status == 303 && closed.header("Location") == "/checkout/address")
        #expect(!(try shop.get("/checkout/address").text.contains("Please confirm your email")), "remembered")
        #expect(!(try shop.get("/account").text.contains("Please confirm your email")))
    }

    @Test func aSoldOutProductPageHasNoQuantityBox() throws {
        let shop = try TestShop([soldOut, chair])
        let page = try shop.get("/products/velvet-chair")
        #expect(page.status == 200 && page.text.contains("Sold out"))
        #expect(!page.text.contains("name=\"quantity\""))
        #expect(try shop.get("/products/oak-chair").text.contains("name=\"quantity\""), "in stock: the box is there")
    }

    @Test func searchResultsHighlightNoTab() throws {
        let shop = try TestShop([chair])
        for path in ["/search?q=oak", "/search"] {
            let page = try shop.get(path)
            #expect(!page.text.contains("tab-active"), "\(path)")
            // The tab bar marks nothing current (the results' own category filter may mark "All").
            let tabBar = try #require(page.text.components(separatedBy: "class=\"tab-bar\"").last)
            #expect(!tabBar.contains("aria-current=\"page\""), "\(path)")
        }
        #expect(try shop.get("/categories").text.contains("class=\"tab tab-active\" href=\"/categories\""))
    }

    @Test func theHomeTitleNamesTheShopOnce() throws {
        let page = try TestShop([chair]).get("/")
        #expect(page.text.contains("<title>Shoppable — things for a calm home</title>"))
        #expect(try TestShop([chair]).get("/categories").text.contains("<title>Categories · Shoppable</title>"))
    }

    @Test func aCardWhoseCheapestVariantIsOnSaleShowsTheSaleMark() throws {
        let page = try TestShop([chair]).get("/categories/chairs")
        #expect(page.text.contains("From $149.00"))
        #expect(page.text.contains("price-now price-sale"))
        #expect(page.text.contains("<del class=\"price-was\">$179.00</del>"))
        #expect(page.text.contains("pill pill-sale"))
    }

    @Test func theGalleryHasThumbnailLinksAndEachVariantNamesItsPicture() throws {
        let shop = try TestShop([chair])
        let page = try shop.get("/products/oak-chair")
        #expect(page.count("class=\"gallery-thumb\"") == 3)
        #expect(page.text.contains("<figure class=\"gallery-item\" id=\"image-2\">"))
        #expect(page.text.contains("href=\"#image-2\" aria-label=\"Image 2 of 3\""))
        #expect(page.text.contains("data-image=\"image-2\""), "Smoked Oak's picture is the second")
        // A link to a variant shows its picture first, without JavaScript.
        let smoked = try shop.get("/products/oak-chair?variant=2")
        let first = try #require(smoked.text.range(of: "id=\"image-1\"><img src=\""))
        #expect(smoked.text[first.upperBound...].hasPrefix("/static/images/demo/smoked.svg"))
    }

    @Test func theCartSaysOnlyWhatIsTrueAboutShippingAndTaxes() throws {
        let shop = try TestShop([chair])
        try shop.post("/cart/add", [("product", "oak-chair"), ("variant", "1"), ("quantity", "1")])
        let cart = try shop.get("/cart")
        #expect(!cart.text.contains("taxes"))
        #expect(cart.text.contains("Shipping is added at checkout."))
        #expect(cart.text.contains("class=\"cart-total-bar\""))
    }

    @Test func theAddressAndShippingStepsShowARunningTotal() throws {
        let shop = try TestShop([chair])
        try shop.post("/cart/add", [("product", "oak-chair"), ("variant", "1"), ("quantity", "2")])
        let address = try shop.get("/checkout/address")
        #expect(address.text.contains("running-total"))
        #expect(address.text.contains("Total so far") && address.text.contains("$298.00"))
        #expect(address.text.contains("Chosen at the next step"))
    }
}
