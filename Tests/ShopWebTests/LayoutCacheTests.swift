import HTML
import ShopCore
@testable import ShopWeb
import Testing

/// `LayoutCache`: the layout kept per look gives, with each request's badges, the very bytes
/// `Views.page` renders — whatever was kept before.
@Suite("Layout kept per look")
struct LayoutCacheTests {
    /// One look and one request's badge counts.
    struct Case: CustomTestStringConvertible, Sendable {
        var cart: Int
        var favorites: Int
        var theme: Theme = .system
        var language: Language = .english
        var account: String?
        var tab: Tab?
        var path = "/categories/lamps"
        var testDescription: String {
            "cart \(cart), favorites \(favorites), \(theme.rawValue), \(language.rawValue), \(account ?? "guest"), \(path)"
        }
    }

    static let cases: [Case] = [
        Case(cart: 0, favorites: 0),
        Case(cart: 3, favorites: 1, tab: .categories),
        Case(cart: 99, favorites: 12, theme: .dark, account: "Ada"),
        Case(cart: 100, favorites: 250, theme: .light, language: .turkish, tab: .cart, path: "/cart"),
        Case(cart: 1, favorites: 0, language: .spanish, account: "Zoë <b>", tab: .favorites, path: "/favorites?x=\"1\""),
    ]

    private static func layout(_ c: Case) -> LayoutModel {
        LayoutModel(title: "Lamps", activeTab: c.tab, cartCount: c.cart, favoritesCount: c.favorites, flash: nil,
                    accountName: c.account, stylesheetHref: "/static/app.css", scriptHref: "/static/app.js",
                    localizer: Localizer(language: c.language),
                    alternates: LanguageAlternates(path: c.path, publicURL: "https://shop.example"),
                    theme: c.theme, returnPath: c.path)
    }

    @Test(arguments: cases)
    func theKeptLayoutGivesTheBytesViewsPageRenders(_ c: Case) {
        let cache = LayoutCache()
        let content = "<p>content</p>"
        // Kept first: the same look with other counts, and another theme.
        var other = c
        other.cart += 7
        other.favorites += 2
        _ = cache.shell(Self.layout(other), mainClass: "listing")
        other.theme = c.theme == .dark ? .light : .dark
        _ = cache.shell(Self.layout(other), mainClass: "listing")

        let expected = renderedText(Views.page(Self.layout(c), mainClass: "listing") { Node.raw(unsafe: content) })
        #expect(renderedText(cache.document(Self.layout(c), mainClass: "listing", main: Array(content.utf8))) == expected)
        #expect(renderedText(cache.document(Self.layout(c), mainClass: "listing", main: Array(content.utf8))) == expected,
                "the second time, from the kept look")
    }

    /// Issue #14: pages of one look at other addresses and titles — another page, sort or
    /// filter of a listing — share one kept layout, each with its own title, language links,
    /// theme links and banner, as `Views.page` renders them.
    @Test func pagesAtOtherAddressesShareOneKeptLook() {
        let cache = LayoutCache()
        let content = "<p>content</p>"
        for (index, path) in ["/categories/lamps", "/categories/lamps?page=2&sort=price-asc", "/search?q=a%26b&x=\"<1>\"",
                              "/products/oak-chair"].enumerated() {
            for language in [Language.english, .turkish] {
                var layout = Self.layout(Case(cart: index, favorites: 1, language: language, account: "Ada", path: path))
                layout.title = "Page \(index) <\(path)>"
                layout.unverifiedEmail = "ada@example.com"
                let expected = renderedText(Views.page(layout, mainClass: "listing") { Node.raw(unsafe: content) })
                #expect(renderedText(cache.document(layout, mainClass: "listing", main: Array(content.utf8))) == expected,
                        "\(path) in \(language)")
            }
        }
        #expect(cache.keptLookCount == 2, "one look per language, whatever the page")
        #expect(cache.keptAddressCount == 8, "each page in each language at its address")
    }

    /// A shopper back at a page joins the kept layout at that address with their badges; past
    /// its capacity the memory starts over, and every page is still the one `Views.page` renders.
    @Test func aLookAtAnAddressIsKeptWithinItsCapacity() {
        let cache = LayoutCache(addressCapacity: 2)
        let content = "<p>content</p>"
        for round in 0..<3 {
            for (index, path) in ["/a", "/b?x=1", "/c"].enumerated() {
                let layout = Self.layout(Case(cart: round + index, favorites: round, path: path))
                let expected = renderedText(Views.page(layout, mainClass: "listing") { Node.raw(unsafe: content) })
                #expect(renderedText(cache.document(layout, mainClass: "listing", main: Array(content.utf8))) == expected,
                        "round \(round), \(path)")
                #expect(cache.keptAddressCount <= 2)
            }
        }
        #expect(cache.keptLookCount == 1)
    }

    @Test func aPageWithAFlashMessageIsRenderedAsViewsPageRendersIt() {
        let cache = LayoutCache()
        var layout = Self.layout(Case(cart: 2, favorites: 0))
        _ = cache.shell(layout, mainClass: "")
        layout.flash = Flash(kind: .success, text: "Added to cart", linkText: "View cart", linkHref: "/cart")
        let expected = renderedText(Views.page(layout) { Node.raw(unsafe: "<p>x</p>") })
        #expect(renderedText(cache.document(layout, mainClass: "", main: Array("<p>x</p>".utf8))) == expected)
    }

    /// Bytes as text, so a failure shows a readable difference.
    private func renderedText(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
