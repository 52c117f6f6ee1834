import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
@testable import ShopWeb
import ShopTestSupport
import Testing

/// Every storefront route is declared once (`SiteRoute.router`); these tests hold the two
/// directions of each declaration together and check that the traits it declares are obeyed.
/// The links `SiteRoute.path` prints without the router (a card's product link and heart action,
/// a cart page's forms)
/// are the router's, byte for byte, whatever the value.
@Suite("Routes printed without the router")
struct PrintedRouteTests {
    @Test(arguments: ["oak-chair", "", "a b", "çay/ışık", "100%", "?x=1#y", "probe-value-2f7c", "..", "ünïcödé 🪑"])
    func aProductLinkIsTheRoutersAndParsesBack(handle: String) {
        let route = SiteRoute.catalog(.product(handle: handle, variant: nil))
        #expect(route.path == route.routed)
    }

    @Test(arguments: [Int64(1), 42, 987_654_321, Int64.max])
    func aHeartsActionIsTheRouters(id: Int64) {
        let route = SiteRoute.favorites(.toggle(Product.ID(rawValue: id)))
        #expect(route.path == route.routed)
    }

    /// A cart page's forms and its way to checkout.
    @Test(arguments: [Int64(1), 42, 987_654_321, Int64.max])
    func aCartPagesFormsAreTheRouters(id: Int64) {
        let variant = Variant.ID(rawValue: id)
        for route in [SiteRoute.cart(.updateLine(variant)), .cart(.removeLine(variant)), .cart(.selectLine(variant)),
                      .cart(.selectAll), .cart(.voucher), .cart(.voucherRemove), .checkout(.start)] {
            #expect(route.path == route.routed, "\(route)")
        }
    }
}

@Suite("Routes")
struct RouteRoundTripTests {
    /// At least one value of every route case (several where parsing has choices).
    static let samples: [SiteRoute] = [
        .catalog(.home), .catalog(.homeRecommendations), .catalog(.categories),
        .catalog(.categorySearch(query: "lamp & shade")), .catalog(.badge),
        .catalog(.layout("list", returnTo: "/categories/lamps?page=2")), .catalog(.layout("grid", returnTo: nil)),
        .catalog(.theme("dark", returnTo: "/categories/lamps?page=2")), .catalog(.theme("system", returnTo: nil)),
        .catalog(.category(handle: "lamps", listing: Listing())),
        .catalog(.allProducts(category: nil, listing: Listing())), .catalog(.allProducts(category: .uncategorized, listing: Listing(page: 2))),
        .catalog(.allProducts(category: .category(handle: "lamps"), listing: Listing(sort: .name, inStockOnly: true))),
        .catalog(.category(handle: "çay-bardağı", listing: Listing(sort: .priceDescending, minPrice: "10", maxPrice: "20.5",
                                                                  minRating: 4, inStockOnly: true, vendor: "Loom & Co",
                                                                  tag: "a=b", page: 3))),
        .catalog(.search(query: "oak chair", listing: Listing())),
        .catalog(.search(query: "oak", category: .category(handle: "chairs"), listing: Listing(page: 2))),
        .catalog(.search(query: "oak", category: .uncategorized, listing: Listing())), .catalog(.search(query: "", listing: Listing(page: 2))),
        .catalog(.product(handle: "oak-chair", variant: nil)),
        .catalog(.product(handle: "oak chair", variant: Variant.ID(rawValue: 7))),
        .cart(.show), .cart(.add), .cart(.updateLine(Variant.ID(rawValue: 3))), .cart(.removeLine(Variant.ID(rawValue: 3))),
        .cart(.selectLine(Variant.ID(rawValue: 4))), .cart(.selectAll), .cart(.voucher), .cart(.voucherRemove),
        .favorites(.list), .favorites(.toggle(Product.ID(rawValue: 9))),
        .account(.show), .account(.register), .account(.registerSubmit), .account(.signIn(next: nil)),
        .account(.signIn(next: "/checkout?step=1&x=y")), .account(.signInSubmit), .account(.signOut),
        .account(.signOutEverywhere), .account(.verifyEmail(token: "abc+/=")), .account(.verifyResend), .account(.verifyBannerDismiss), .account(.language),
        .account(.forgotPassword), .account(.forgotPasswordSubmit), .account(.resetPassword(token: "t0ken")),
        .account(.resetPasswordSubmit), .account(.changePassword), .account(.addresses), .account(.addressNew),
        .account(.addressCreate), .account(.addressEdit(Address.ID(rawValue: 5))), .account(.addressUpdate(Address.ID(rawValue: 5))),
        .account(.addressDeleteConfirm(Address.ID(rawValue: 5))), .account(.addressDelete(Address.ID(rawValue: 5))),
        .checkout(.start), .checkout(.address), .checkout(.addressSubmit), .checkout(.shipping), .checkout(.shippingSubmit),
        .checkout(.review), .checkout(.place),
        .orders(.list), .orders(.order(number: "1001", token: nil)), .orders(.order(number: "1002", token: "g/uest")),
        .campaigns(.list), .campaigns(.campaign(Campaign.ID(rawValue: "summer sale"))),
        .assets(.health), .assets(.asset(path: "images/demo/oak chair.svg")), .assets(.media(file: "ab12.jpg")),
        .appShell(.serviceWorker), .appShell(.manifest), .appShell(.offline), .appShell(.dismissWelcome),
    ]

    /// Parses `route.path` the way the server does: through the HTTP request decoder.
    private func parsed(_ route: SiteRoute) throws -> SiteRoute? {
        let request = try Request(method: HTTPMethod(rawValue: SiteRoute.router.request(for: route).method),
                                  target: route.path, headers: [:], body: [])
        return SiteRoute.parse(method: request.method.rawValue, path: request.path,
                               query: request.query.map { RouteRequest.QueryItem($0.name, $0.value) })
    }

    @Test(arguments: samples)
    func printingThenParsingGivesTheSameRoute(route: SiteRoute) throws {
        #expect(try parsed(route) == route, "\(route) printed as \(route.path)")
    }

    /// `path` prints a few routes from a kept copy (issue #14): the copy is the router's own.
    @Test(arguments: samples)
    func aKeptPathIsTheRoutersOwn(route: SiteRoute) {
        #expect(route.path == route.routed)
    }

    @Test func everyDeclarationHasASample() {
        let declared = Set(SiteRoute.router.declarations.map { "\($0.method) \($0.pattern)" })
        let sampled = Set(Self.samples.map { route in
            let declaration = SiteRoute.router.declaration(for: route).declaration
            return "\(declaration.method) \(declaration.pattern)"
        })
        #expect(declared == sampled, "declarations without a sample: \(declared.subtracting(sampled).sorted())")
    }

    @Test func stateChangingRoutesArePostsAndPostsChangeState() {
        for route in Self.samples {
            let declaration = SiteRoute.router.declaration(for: route).declaration
            #expect((declaration.method == "POST") == route.isAction, "\(route)")
        }
    }

    @Test func everyStateChangingRouteRefusesAnotherSiteAndASessionsPostWithoutItsToken() throws {
        let shop = try TestShop([.mock(handle: "mug", title: "Mug")])
        _ = try shop.get("/")
        for route in Self.samples where route.isAction {
            let response = try shop.send(.post, route.path, form: [("quantity", "1")], headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(response.status == 403, "\(route.path) answered \(response.status) to another site")
        }
        #expect(try shop.post("/cart/add", [("product", "mug"), ("quantity", "1")]).status == 303)  // a session now
        for route in Self.samples where route.isAction {
            let response = try shop.send(.post, route.path, form: [("quantity", "1")], csrf: false)
            #expect(response.status == 403, "\(route.path) answered \(response.status) without the session's token")
        }
    }

    @Test func everyRouteThatNeedsSignInSendsAnAnonymousVisitorToSignIn() throws {
        let shop = try TestShop([])
        for route in Self.samples where route.traits.contains(.requiresSignIn) {
            let response = try route.isAction
                ? shop.send(.post, route.path, form: [])
                : shop.send(.get, route.path)
            let location = response.header("Location") ?? ""
            #expect(response.status == 303 && location.hasPrefix("/account/sign-in"),
                    "\(route.path) answered \(response.status) \(location)")
        }
    }

    @Test func onlyCacheableRoutesAreServedFromThePageCache() throws {
        let shop = try TestShop([.mock(handle: "lamp", title: "Lamp", category: "Lamps")])
        for path in ["/", "/categories", "/categories/lamps", "/products/lamp", "/search?q=lamp", "/campaigns"] {
            _ = try shop.get(path)
        }
        let cached = shop.environment.pageCache.count
        #expect(cached > 0)
        for path in ["/cart", "/favorites", "/account/sign-in", "/?view=recommendations", "/checkout"] {
            _ = try shop.get(path)
        }
        #expect(shop.environment.pageCache.count == cached, "a page not declared cacheable was cached")
    }
}

/// `ParsedRoutes` answers what parsing answers, from the second request on (issue #14).
@Suite("Routes kept between requests")
struct ParsedRoutesTests {
    static let requests: [(String, String, [RouteRequest.QueryItem])] = [
        ("GET", "/", []), ("GET", "/categories/chairs", [.init("sort", "price"), .init("page", "2")]),
        ("GET", "/categories/chairs", [.init("page", "2"), .init("sort", "price")]),  // another order, one canonical path
        ("GET", "/products/çay", [.init("variant", "7")]), ("POST", "/cart/add", []), ("GET", "/search", [.init("q", "ışık lamba")]),
        ("GET", "/no-such-page", []), ("DELETE", "/cart/add", []),
    ]

    @Test func keptAnswersAreTheParsersAndOnlyRoutesAreKept() {
        let parsed = ParsedRoutes(capacity: 100)
        for _ in 0..<2 {
            for (method, path, query) in Self.requests {
                let expected = SiteRoute.parse(method: method, path: path, query: query)
                let answer = parsed.route(method: method, path: path, query: query)
                #expect(answer?.route == expected)
                #expect(answer?.canonicalPath == expected?.path)
                #expect(answer?.traits == expected?.traits, "the declaration's traits, as the route looks them up")
            }
        }
        #expect(parsed.count == Self.requests.count - 2, "no route: not kept")
    }

    @Test func aLongAddressIsAnsweredButNotKept() {
        let parsed = ParsedRoutes(capacity: 100)
        let query = [RouteRequest.QueryItem("q", String(repeating: "lamba ", count: 200))]
        let answer = parsed.route(method: "GET", path: "/search", query: query)
        #expect(answer?.route == SiteRoute.parse(method: "GET", path: "/search", query: query))
        #expect(parsed.count == 0)
    }

    @Test func reachingTheCapacityDropsWhatWasKept() {
        let parsed = ParsedRoutes(capacity: 3)
        for page in 1...3 { _ = parsed.route(method: "GET", path: "/categories/chairs", query: [.init("page", String(page))]) }
        #expect(parsed.count == 3)
        let fourth = parsed.route(method: "GET", path: "/categories/chairs", query: [.init("page", "4")])
        #expect(parsed.count == 1 && fourth?.route == SiteRoute.parse(method: "GET", path: "/categories/chairs",
                                                                      query: [.init("page", "4")]))
    }
}
