import Foundation
public import Routing
public import ShopCore

/// Every page and action of the storefront, by area. Each route is declared once, in
/// ``SiteRoute/router`` — method, path, whether it changes state (CSRF), needs a signed-in
/// shopper, or may be cached — and that one declaration both parses requests and prints links,
/// so links are `SiteRoute.catalog(.product(handle:variant:)).path`, never string
/// concatenation (STYLE.md 6). `RouteRoundTripTests` prints and parses a value of every case.
public enum SiteRoute: Hashable, Sendable {
    case catalog(CatalogRoute)
    case cart(CartRoute)
    case favorites(FavoritesRoute)
    case account(AccountRoute)
    case checkout(CheckoutRoute)
    case orders(OrdersRoute)
    case campaigns(CampaignsRoute)
    case assets(AssetsRoute)

    /// Browsing: home, categories, search, products.
    public enum CatalogRoute: Hashable, Sendable {
        /// `GET /` — campaign banners, categories, featured products.
        case home
        /// `GET /?view=recommendations` — the home page with recommendations for this visitor.
        case homeRecommendations
        /// `GET /categories` — every category with its product count.
        case categories
        /// `GET /categories?q=…` — categories whose name contains the words (works without
        /// JavaScript; with it the list filters as you type).
        case categorySearch(query: String)
        /// `GET /categories/{handle}?sort=…&page=N` — a category's products, sorted and filtered.
        case category(handle: String, listing: Listing)
        /// `GET /search?q=…&sort=…` — products matching the words.
        case search(query: String, listing: Listing)
        /// `GET /products/{handle}?variant={id}` — a product, optionally with a variant chosen.
        case product(handle: String, variant: Variant.ID?)
        /// `GET /layout?set=grid|list&return_to=…` — remembers the product list layout in a cookie.
        case layout(String, returnTo: String?)
        /// `GET /badge` — the visitor's cart and favorites counts as JSON, for the live badges.
        case badge
    }

    /// The cart and its actions.
    public enum CartRoute: Hashable, Sendable {
        /// `GET /cart`.
        case show
        /// `POST /cart/add` — form: `product`, `variant`, `quantity`, optional `return_to`.
        case add
        /// `POST /cart/lines/{variantID}` — form: `quantity` (0 removes).
        case updateLine(Variant.ID)
        /// `POST /cart/lines/{variantID}/remove`.
        case removeLine(Variant.ID)
        /// `POST /cart/lines/{variantID}/select` — form: `selected` = 1 or 0.
        case selectLine(Variant.ID)
        /// `POST /cart/select-all` — form: `selected` = 1 or 0.
        case selectAll
        /// `POST /cart/voucher` (`code`) and `POST /cart/voucher/remove`.
        case voucher, voucherRemove
    }

    /// The favorites list.
    public enum FavoritesRoute: Hashable, Sendable {
        /// `GET /favorites`.
        case list
        /// `POST /favorites/{productID}` — form: `favorite` (1 adds, 0 removes), optional `return_to`.
        case toggle(Product.ID)
    }

    /// Accounts, sign-in and the address book.
    public enum AccountRoute: Hashable, Sendable {
        /// `GET /account` — name, email, password change, sign out everywhere (signed in only).
        case show
        /// `GET /account/register` and `POST` (name, email, password, password_confirmation).
        case register, registerSubmit
        /// `GET /account/sign-in?next=/path` and `POST` (email, password, remember, next).
        case signIn(next: String?)
        case signInSubmit
        /// `POST /account/sign-out` and `POST /account/sign-out-everywhere`.
        case signOut, signOutEverywhere
        /// `GET /account/verify?token=…` — the emailed confirmation link.
        case verifyEmail(token: String)
        /// `POST /account/verify/resend`.
        case verifyResend
        /// `GET /account/password/forgot` and `POST` (email).
        case forgotPassword, forgotPasswordSubmit
        /// `GET /account/password/reset?token=…` and `POST` (token, password, password_confirmation).
        case resetPassword(token: String)
        case resetPasswordSubmit
        /// `POST /account/password` (current_password, password, password_confirmation).
        case changePassword
        /// `GET /account/addresses`, `GET /account/addresses/new`, `POST /account/addresses`.
        case addresses, addressNew, addressCreate
        /// `GET|POST /account/addresses/{id}` (edit).
        case addressEdit(Address.ID), addressUpdate(Address.ID)
        /// `GET|POST /account/addresses/{id}/delete` (confirm, delete).
        case addressDeleteConfirm(Address.ID), addressDelete(Address.ID)
    }

    /// Checkout: `GET /checkout` (to the right step), address, shipping, review, place.
    public enum CheckoutRoute: Hashable, Sendable {
        case start
        case address, addressSubmit
        case shipping, shippingSubmit
        case review, place
    }

    /// Orders.
    public enum OrdersRoute: Hashable, Sendable {
        /// `GET /orders` — a signed-in shopper's orders.
        case list
        /// `GET /orders/{number}?token=…` — one order (the token lets a guest see theirs).
        case order(number: String, token: String?)
    }

    /// Campaigns.
    public enum CampaignsRoute: Hashable, Sendable {
        /// `GET /campaigns` — the active campaigns.
        case list
        /// `GET /campaigns/{id}` — description, dates, products with campaign prices, code.
        case campaign(Campaign.ID)
    }

    /// Files and health.
    public enum AssetsRoute: Hashable, Sendable {
        /// `GET /healthz` — liveness and database check.
        case health
        /// `GET /static/{path}` — stylesheet, script and images shipped with the app.
        case asset(path: String)
        /// `GET /media/{file}` — images imported from merchants' local files.
        case media(file: String)
    }

    /// The site-relative URL of the route (path and query, percent-encoded).
    public var path: String { areaRouter.url(for: self) }

    /// What the route's declaration says (changes state, needs sign-in, cacheable).
    public var traits: RouteTraits { areaRouter.declaration(for: self).declaration.traits }

    /// The declarations of this route's area: printing looks only there (pages print dozens of
    /// links, and most are catalog links declared first).
    private var areaRouter: Router<SiteRoute> {
        switch self {
        case .catalog: SiteRoute.areaRouters[0]
        case .cart: SiteRoute.areaRouters[1]
        case .favorites: SiteRoute.areaRouters[2]
        case .account: SiteRoute.areaRouters[3]
        case .checkout: SiteRoute.areaRouters[4]
        case .orders: SiteRoute.areaRouters[5]
        case .campaigns: SiteRoute.areaRouters[6]
        case .assets: SiteRoute.areaRouters[7]
        }
    }

    /// `true` for routes that change state (and so must be POSTed with the CSRF token).
    public var isAction: Bool { traits.contains(.changesState) }

    /// Parses a request's method, decoded path and query; nil when nothing matches (404).
    public static func parse(method: String, path: String, query: [RouteRequest.QueryItem]) -> SiteRoute? {
        router.parse(RouteRequest(method: method, path: path, query: query))?.route
    }

    /// The methods under which this path and query would be a route (for 405's `Allow`).
    public static func allowedMethods(path: String, query: [RouteRequest.QueryItem]) -> [String] {
        ["GET", "POST"].filter { parse(method: $0, path: path, query: query) != nil }
    }

    /// `path` with `items` as its query (for forms whose action keeps some choices).
    static func withQuery(_ path: String, _ items: [(String, String)]) -> String {
        items.isEmpty ? path
            : path + "?" + items.map { "\($0.0)=\(RouteRequest.encodeQueryValue($0.1))" }.joined(separator: "&")
    }

    /// A category's first page with nothing chosen.
    public static func category(handle: String, page: Int) -> SiteRoute {
        .catalog(.category(handle: handle, listing: Listing(page: page)))
    }
}

// MARK: - Declarations

extension SiteRoute {
    /// Every storefront route, declared once.
    public static let router = Router<SiteRoute>(areas.flatMap { $0 })

    private static let areas = [catalogRoutes, cartRoutes, favoritesRoutes, accountRoutes, checkoutRoutes, ordersRoutes,
                                campaignsRoutes, assetsRoutes]
    private static let areaRouters = areas.map(Router<SiteRoute>.init)

    private typealias Declaration = RouteDeclaration<SiteRoute>
    private typealias Parameters = RouteParameters

    /// A declaration for a route without parameters.
    private static func fixed(_ method: String, _ pattern: String, _ traits: RouteTraits = [],
                              _ route: SiteRoute) -> Declaration {
        Declaration(method, pattern, method == "POST" ? traits.union(.changesState) : traits,
                    make: { _ in route }, match: { $0 == route ? Parameters() : nil })
    }

    /// A declaration whose one path parameter `{id}` is a whole number.
    private static func numbered(_ method: String, _ pattern: String, _ traits: RouteTraits = [],
                                 make: @escaping @Sendable (Int64) -> SiteRoute,
                                 id: @escaping @Sendable (SiteRoute) -> Int64?) -> Declaration {
        Declaration(method, pattern, method == "POST" ? traits.union(.changesState) : traits,
                    make: { $0.int64("id").map(make) },
                    match: { route in id(route).map { Parameters(["id": String($0)]) } })
    }

    private static func listingItems(_ listing: Listing) -> [RouteRequest.QueryItem] {
        listing.queryItems.map { RouteRequest.QueryItem($0.0, $0.1) }
    }

    private static let catalogRoutes: [Declaration] = [
        Declaration("GET", "/", [],
                    make: { $0.queryValue("view") == "recommendations" ? .catalog(.homeRecommendations) : nil },
                    match: { $0 == .catalog(.homeRecommendations) ? Parameters(query: ["view": "recommendations"]) : nil }),
        fixed("GET", "/", [.cacheable], .catalog(.home)),
        Declaration("GET", "/categories", [.cacheable],
                    make: { parameters in
                        guard let query = parameters.queryValue("q"),
                              !query.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
                        return .catalog(.categorySearch(query: query))
                    },
                    match: { if case let .catalog(.categorySearch(query)) = $0 { Parameters(query: ["q": query]) } else { nil } }),
        fixed("GET", "/categories", [.cacheable], .catalog(.categories)),
        Declaration("GET", "/categories/{handle}", [.cacheable],
                    make: { parameters in
                        Listing.parse(parameters.queryValue).map { .catalog(.category(handle: parameters["handle"], listing: $0)) }
                    },
                    match: { route in
                        guard case let .catalog(.category(handle, listing)) = route else { return nil }
                        return Parameters(["handle": handle], query: listingItems(listing))
                    }),
        Declaration("GET", "/search", [.cacheable],
                    make: { parameters in
                        Listing.parse(parameters.queryValue).map { .catalog(.search(query: parameters.queryValue("q") ?? "", listing: $0)) }
                    },
                    match: { route in
                        guard case let .catalog(.search(query, listing)) = route else { return nil }
                        return Parameters(query: [RouteRequest.QueryItem("q", query)] + listingItems(listing))
                    }),
        Declaration("GET", "/products/{handle}", [.cacheable],
                    make: { parameters in
                        let variant = parameters.queryValue("variant").flatMap { Int64($0) }.map(Variant.ID.init(rawValue:))
                        return .catalog(.product(handle: parameters["handle"], variant: variant))
                    },
                    match: { route in
                        guard case let .catalog(.product(handle, variant)) = route else { return nil }
                        return Parameters(["handle": handle], query: ["variant": variant.map { String($0.rawValue) }])
                    }),
        Declaration("GET", "/layout", [],
                    make: { parameters in
                        guard let value = parameters.queryValue("set"), ["grid", "list"].contains(value) else { return nil }
                        return .catalog(.layout(value, returnTo: parameters.queryValue("return_to")))
                    },
                    match: { route in
                        guard case let .catalog(.layout(value, returnTo)) = route else { return nil }
                        return Parameters(query: ["set": value, "return_to": returnTo])
                    }),
        fixed("GET", "/badge", [], .catalog(.badge)),
    ]

    private static let cartRoutes: [Declaration] = [
        fixed("GET", "/cart", [], .cart(.show)),
        fixed("POST", "/cart/add", [], .cart(.add)),
        fixed("POST", "/cart/voucher", [], .cart(.voucher)),
        fixed("POST", "/cart/voucher/remove", [], .cart(.voucherRemove)),
        fixed("POST", "/cart/select-all", [], .cart(.selectAll)),
        numbered("POST", "/cart/lines/{id}", make: { .cart(.updateLine(Variant.ID(rawValue: $0))) },
                 id: { if case let .cart(.updateLine(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/cart/lines/{id}/remove", make: { .cart(.removeLine(Variant.ID(rawValue: $0))) },
                 id: { if case let .cart(.removeLine(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/cart/lines/{id}/select", make: { .cart(.selectLine(Variant.ID(rawValue: $0))) },
                 id: { if case let .cart(.selectLine(id)) = $0 { id.rawValue } else { nil } }),
    ]

    private static let favoritesRoutes: [Declaration] = [
        fixed("GET", "/favorites", [], .favorites(.list)),
        numbered("POST", "/favorites/{id}", make: { .favorites(.toggle(Product.ID(rawValue: $0))) },
                 id: { if case let .favorites(.toggle(id)) = $0 { id.rawValue } else { nil } }),
    ]

    private static let accountRoutes: [Declaration] = [
        fixed("GET", "/account", [.requiresSignIn], .account(.show)),
        fixed("GET", "/account/register", [], .account(.register)),
        fixed("POST", "/account/register", [], .account(.registerSubmit)),
        Declaration("GET", "/account/sign-in", [],
                    make: { .account(.signIn(next: $0.queryValue("next"))) },
                    match: { if case let .account(.signIn(next)) = $0 { Parameters(query: ["next": next]) } else { nil } }),
        fixed("POST", "/account/sign-in", [], .account(.signInSubmit)),
        fixed("POST", "/account/sign-out", [], .account(.signOut)),
        fixed("POST", "/account/sign-out-everywhere", [], .account(.signOutEverywhere)),  // signed out: nothing to do, home
        Declaration("GET", "/account/verify", [],
                    make: { .account(.verifyEmail(token: $0.queryValue("token") ?? "")) },
                    match: { if case let .account(.verifyEmail(token)) = $0 { Parameters(query: ["token": token]) } else { nil } }),
        fixed("POST", "/account/verify/resend", [], .account(.verifyResend)),
        fixed("GET", "/account/password/forgot", [], .account(.forgotPassword)),
        fixed("POST", "/account/password/forgot", [], .account(.forgotPasswordSubmit)),
        Declaration("GET", "/account/password/reset", [],
                    make: { .account(.resetPassword(token: $0.queryValue("token") ?? "")) },
                    match: { if case let .account(.resetPassword(token)) = $0 { Parameters(query: ["token": token]) } else { nil } }),
        fixed("POST", "/account/password/reset", [], .account(.resetPasswordSubmit)),
        fixed("POST", "/account/password", [.requiresSignIn], .account(.changePassword)),
        fixed("GET", "/account/addresses", [.requiresSignIn], .account(.addresses)),
        fixed("GET", "/account/addresses/new", [.requiresSignIn], .account(.addressNew)),
        fixed("POST", "/account/addresses", [.requiresSignIn], .account(.addressCreate)),
        numbered("GET", "/account/addresses/{id}", [.requiresSignIn], make: { .account(.addressEdit(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressEdit(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/account/addresses/{id}", [.requiresSignIn], make: { .account(.addressUpdate(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressUpdate(id)) = $0 { id.rawValue } else { nil } }),
        numbered("GET", "/account/addresses/{id}/delete", [.requiresSignIn],
                 make: { .account(.addressDeleteConfirm(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressDeleteConfirm(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/account/addresses/{id}/delete", [.requiresSignIn],
                 make: { .account(.addressDelete(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressDelete(id)) = $0 { id.rawValue } else { nil } }),
    ]

    private static let checkoutRoutes: [Declaration] = [
        fixed("GET", "/checkout", [], .checkout(.start)),
        fixed("GET", "/checkout/address", [], .checkout(.address)),
        fixed("POST", "/checkout/address", [], .checkout(.addressSubmit)),
        fixed("GET", "/checkout/shipping", [], .checkout(.shipping)),
        fixed("POST", "/checkout/shipping", [], .checkout(.shippingSubmit)),
        fixed("GET", "/checkout/review", [], .checkout(.review)),
        fixed("POST", "/checkout/place", [], .checkout(.place)),
    ]

    private static let ordersRoutes: [Declaration] = [
        fixed("GET", "/orders", [.requiresSignIn], .orders(.list)),
        Declaration("GET", "/orders/{number}", [],
                    make: { .orders(.order(number: $0["number"], token: $0.queryValue("token"))) },
                    match: { route in
                        guard case let .orders(.order(number, token)) = route else { return nil }
                        return Parameters(["number": number], query: ["token": token])
                    }),
    ]

    private static let campaignsRoutes: [Declaration] = [
        fixed("GET", "/campaigns", [.cacheable], .campaigns(.list)),
        Declaration("GET", "/campaigns/{id}", [.cacheable],
                    make: { .campaigns(.campaign(Campaign.ID(rawValue: $0["id"]))) },
                    match: { if case let .campaigns(.campaign(id)) = $0 { Parameters(["id": id.rawValue]) } else { nil } }),
    ]

    private static let assetsRoutes: [Declaration] = [
        fixed("GET", "/healthz", [], .assets(.health)),
        Declaration("GET", "/static/{path...}", [],
                    make: { parameters in
                        let path = parameters["path"]
                        guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return nil }
                        return .assets(.asset(path: path))
                    },
                    match: { if case let .assets(.asset(path)) = $0 { Parameters(["path": path]) } else { nil } }),
        Declaration("GET", "/media/{file}", [],
                    make: { $0["file"].hasPrefix(".") ? nil : .assets(.media(file: $0["file"])) },
                    match: { if case let .assets(.media(file)) = $0 { Parameters(["file": file]) } else { nil } }),
    ]
}
