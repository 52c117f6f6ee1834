import Foundation
import Synchronization
public import ShopAPI
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
    case appShell(AppShellRoute)

    /// The site-relative URL of the route (path and query, percent-encoded).
    public var path: String {
        // The links every page prints the same are printed once: the router's scan for each of
        // them (every card's "Add" form, the tab bar) was ~2 % of an uncached category page.
        switch self {
        case .cart(.add): Self.printed.cartAdd
        case .cart(.show): Self.printed.cart
        case .catalog(.home): Self.printed.home
        case .catalog(.categories): Self.printed.categories
        case .campaigns(.list): Self.printed.campaigns
        case .favorites(.list): Self.printed.favorites
        case .appShell(.manifest): Self.printed.manifest
        // Every card prints its product's link and its heart's action: the router's scan and
        // parameter table for each were ~4 % of an uncached category page. The router printed
        // both once, around a probe value; only the value is encoded here, as it encodes it.
        case let .catalog(.product(handle, nil)):
            Self.printed.product.with(RouteRequest.encodeSegment(handle))
        case let .favorites(.toggle(id)):
            Self.printed.favoriteToggle.with(String(id.rawValue))
        // A cart page prints three forms per line and five more: through the router they were
        // ~10 % of the page.
        case .cart(.selectAll): Self.printed.cartForms.selectAll
        case .cart(.voucher): Self.printed.cartForms.voucher
        case .cart(.voucherRemove): Self.printed.cartForms.voucherRemove
        case .checkout(.start): Self.printed.cartForms.checkout
        case let .cart(.updateLine(id)): Self.printed.cartForms.updateLine.with(String(id.rawValue))
        case let .cart(.removeLine(id)): Self.printed.cartForms.removeLine.with(String(id.rawValue))
        case let .cart(.selectLine(id)): Self.printed.cartForms.selectLine.with(String(id.rawValue))
        default: areaRouter.url(for: self)
        }
    }

    /// The routes `path` answers without the router, printed by it once.
    private static let printed = (
        cartAdd: SiteRoute.cart(.add).routed, cart: SiteRoute.cart(.show).routed, home: SiteRoute.catalog(.home).routed,
        categories: SiteRoute.catalog(.categories).routed, campaigns: SiteRoute.campaigns(.list).routed,
        favorites: SiteRoute.favorites(.list).routed, manifest: SiteRoute.appShell(.manifest).routed,
        product: SiteRoute.catalog(.product(handle: probe, variant: nil)).routed.around(probe),
        favoriteToggle: SiteRoute.favorites(.toggle(Product.ID(rawValue: 987_654_321))).routed.around("987654321"),
        cartForms: (
            selectAll: SiteRoute.cart(.selectAll).routed, voucher: SiteRoute.cart(.voucher).routed,
            voucherRemove: SiteRoute.cart(.voucherRemove).routed, checkout: SiteRoute.checkout(.start).routed,
            updateLine: SiteRoute.cart(.updateLine(Variant.ID(rawValue: 987_654_321))).routed.around("987654321"),
            removeLine: SiteRoute.cart(.removeLine(Variant.ID(rawValue: 987_654_321))).routed.around("987654321"),
            selectLine: SiteRoute.cart(.selectLine(Variant.ID(rawValue: 987_654_321))).routed.around("987654321")))

    /// A value printed as it is (no byte to encode), found once in the routes printed around it.
    private static let probe = "probe-value-2f7c"


    /// The URL as the router prints it.
    var routed: String { areaRouter.url(for: self) }

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
        case .appShell: SiteRoute.areaRouters[8]
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
                                campaignsRoutes, assetsRoutes, appShellRoutes]
    private static let areaRouters = areas.map(Router<SiteRoute>.init)

    typealias Declaration = RouteDeclaration<SiteRoute>
    typealias Parameters = RouteParameters

    /// A declaration for a route without parameters.
    static func fixed(_ method: String, _ pattern: String, _ traits: RouteTraits = [],
                              _ route: SiteRoute) -> Declaration {
        Declaration(method, pattern, method == "POST" ? traits.union(.changesState) : traits,
                    make: { _ in route }, match: { $0 == route ? Parameters() : nil })
    }

    /// A declaration whose one path parameter `{id}` is a whole number.
    static func numbered(_ method: String, _ pattern: String, _ traits: RouteTraits = [],
                                 make: @escaping @Sendable (Int64) -> SiteRoute,
                                 id: @escaping @Sendable (SiteRoute) -> Int64?) -> Declaration {
        Declaration(method, pattern, method == "POST" ? traits.union(.changesState) : traits,
                    make: { $0.int64("id").map(make) },
                    match: { route in id(route).map { Parameters(["id": String($0)]) } })
    }

    static func listingItems(_ listing: Listing) -> [RouteRequest.QueryItem] {
        listing.queryItems.map { RouteRequest.QueryItem($0.0, $0.1) }
    }

}

/// A route printed around a probe value: the text before and after it.
private struct PrintedAround: Sendable {
    let before: String
    let after: String

    /// The route with `value` (already encoded as the router encodes it) in the probe's place.
    func with(_ value: String) -> String { before + value + after }
}

extension String {
    /// The text before and after the one occurrence of `probe` (a route printed around a value).
    fileprivate func around(_ probe: String) -> PrintedAround {
        let ranges = ranges(of: probe)
        precondition(ranges.count == 1, "the probe \(probe) is printed once in \(self)")
        return PrintedAround(before: String(self[..<ranges[0].lowerBound]), after: String(self[ranges[0].upperBound...]))
    }
}

/// What `SiteRoute.parse` and `SiteRoute.path` answered for a request's method, path and
/// query, kept for the next request that asks the same (issue #14): parsing and writing the
/// canonical path again were ~10 % of a first visit's CPU. Both are pure functions of those
/// three, so the answers never go stale; only parses that found a route are kept, at most
/// `capacity`, all dropped when it is reached (unbounded sets of URLs cycle through it), and
/// only for addresses of at most `longestKept` bytes (8 KB ones could otherwise hold ~64 MB).
final class ParsedRoutes: Sendable {
    struct Key: Hashable, Sendable {
        var method: String
        var path: String
        var query: [RouteRequest.QueryItem]
    }

    /// A request's route as parsed: the route, its canonical path, and its declaration's traits
    /// (read once here: `SiteRoute.traits` looks the declaration up again, ~4 % of a first visit
    /// when asked three times a request).
    struct Parsed: Sendable {
        var route: SiteRoute
        var canonicalPath: String
        var traits: RouteTraits
    }

    private let kept = Mutex<[Key: Parsed]>([:])
    let capacity: Int
    /// The longest path and query, in bytes, whose answers are kept.
    static let longestKept = 512

    init(capacity: Int = 4_096) { self.capacity = capacity }

    /// The route of `method` `path`?`query` and its canonical path, or nil when it is no route.
    func route(method: String, path: String, query: [RouteRequest.QueryItem]) -> Parsed? {
        let key = Key(method: method, path: path, query: query)
        if let known = kept.withLock({ $0[key] }) { return known }
        guard let (route, declaration) = SiteRoute.router.parse(RouteRequest(method: method, path: path, query: query))
        else { return nil }
        let parsed = Parsed(route: route, canonicalPath: route.path, traits: declaration.traits)
        let length = path.utf8.count + query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        guard length <= Self.longestKept else { return parsed }
        kept.withLock { kept in
            if kept.count >= capacity { kept.removeAll(keepingCapacity: true) }
            kept[key] = parsed
        }
        return parsed
    }

    /// Routes kept (tests).
    var count: Int { kept.withLock { $0.count } }
}
