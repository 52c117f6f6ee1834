public import Foundation
public import Observation
import ShopAPI

/// The app's tabs, in the tab bar's order.
public enum Tab: String, CaseIterable, Hashable, Sendable {
    case home, categories, campaigns, cart, favorites, account
}

/// A screen pushed onto a tab's navigation stack. A SwiftUI app maps each case to a view in
/// `.navigationDestination(for: Destination.self)`; a UIKit coordinator to a view controller.
public enum Destination: Hashable, Sendable {
    /// A category's product list.
    case category(handle: String)
    /// Search results for the words.
    case search(String)
    /// A product page.
    case product(handle: String)
    /// A campaign's page (by id or handle: the shop's campaign links use either).
    case campaign(String)
    /// The account's orders.
    case orders
    /// One order.
    case order(number: String)
    /// The address book.
    case addresses
    /// Checkout (address → shipping → review → place order).
    case checkout
    /// Sign in (and from there, register or reset the password).
    case signIn
    /// Register.
    case register
}

/// A place in the app: a tab and the screens pushed on it.
public struct Route: Hashable, Sendable {
    public var tab: Tab
    public var path: [Destination]

    /// The place `path` on `tab`.
    public init(tab: Tab, path: [Destination] = []) {
        self.tab = tab
        self.path = path
    }
}

/// A link into the app: `shoppable://products/oak-chair`, or the same path on the shop's own web
/// address (`https://shop.example/products/oak-chair`, a universal link). Parsed and printed by
/// one ``Router`` of `ShopAPI` — the route mechanism the server and the client use — so every
/// link the app accepts it can also print, and the round-trip test covers both.
///
/// ```swift
/// DeepLink(url: URL(string: "shoppable://orders/SH-1042")!)   // .order(number: "SH-1042")
/// DeepLink.product(handle: "oak-chair").url                    // shoppable://products/oak-chair
/// DeepLink(url: URL(string: "shoppable://nowhere")!)           // nil
/// ```
public enum DeepLink: Hashable, Sendable {
    /// `/products/{handle}`.
    case product(handle: String)
    /// `/campaigns/{id-or-handle}`.
    case campaign(String)
    /// `/orders/{number}`.
    case order(number: String)
    /// `/categories/{handle}`.
    case category(handle: String)
    /// `/search?q=`.
    case search(String)
    /// `/cart`.
    case cart
    /// `/favorites`.
    case favorites

    /// The app's URL scheme.
    public static let scheme = "shoppable"

    /// The link of `url`, or nil when the app has no screen for it (never a crash).
    /// - Parameters:
    ///   - url: `shoppable://…`, or an `http(s)` URL.
    ///   - shopHost: the shop's web host (`shop.my-brand.com`): `http(s)` links are accepted only
    ///     on it; nil accepts no web links.
    public init?(url: URL, shopHost: String? = nil) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased() else { return nil }
        var segments = components.percentEncodedPath.split(separator: "/").map {
            String($0).removingPercentEncoding ?? String($0)
        }
        switch scheme {
        case Self.scheme:
            // shoppable://products/oak-chair: the host is the first segment.
            if let host = components.host, !host.isEmpty { segments.insert(host, at: 0) }
        case "http", "https":
            guard let shopHost, components.host?.lowercased() == shopHost.lowercased() else { return nil }
        default:
            return nil
        }
        let query = (components.queryItems ?? []).map { RouteRequest.QueryItem($0.name, $0.value ?? "") }
        guard let (link, _) = Self.router.parse(RouteRequest(method: "GET", segments: segments, query: query)) else {
            return nil
        }
        self = link
    }

    /// The link as a `shoppable://` URL.
    public var url: URL {
        // Printed segments are percent-encoded by the router; the first becomes the host.
        URL(string: Self.scheme + ":/" + Self.router.url(for: self))!
    }

    /// Where the link leads: the tab and the screens on it.
    public var route: Route {
        switch self {
        case let .product(handle): Route(tab: .home, path: [.product(handle: handle)])
        case let .campaign(id): Route(tab: .campaigns, path: [.campaign(id)])
        case let .order(number): Route(tab: .account, path: [.orders, .order(number: number)])
        case let .category(handle): Route(tab: .categories, path: [.category(handle: handle)])
        case let .search(words): Route(tab: .home, path: [.search(words)])
        case .cart: Route(tab: .cart)
        case .favorites: Route(tab: .favorites)
        }
    }

    /// The links the app answers, declared once for parsing and printing.
    static let router = Router<DeepLink>([
        .init("GET", "/products/{handle}", make: { nonEmpty($0["handle"]).map { .product(handle: $0) } },
              match: { if case let .product(handle) = $0 { RouteParameters(["handle": handle]) } else { nil } }),
        .init("GET", "/campaigns/{id}", make: { nonEmpty($0["id"]).map { .campaign($0) } },
              match: { if case let .campaign(id) = $0 { RouteParameters(["id": id]) } else { nil } }),
        .init("GET", "/orders/{number}", make: { nonEmpty($0["number"]).map { .order(number: $0) } },
              match: { if case let .order(number) = $0 { RouteParameters(["number": number]) } else { nil } }),
        .init("GET", "/categories/{handle}", make: { nonEmpty($0["handle"]).map { .category(handle: $0) } },
              match: { if case let .category(handle) = $0 { RouteParameters(["handle": handle]) } else { nil } }),
        .init("GET", "/search", make: { $0.queryValue("q").flatMap(nonEmpty).map { .search($0) } },
              match: { if case let .search(words) = $0 { RouteParameters(query: [.init("q", words)]) } else { nil } }),
        .init("GET", "/cart", make: { _ in .cart }, match: { $0 == .cart ? RouteParameters() : nil }),
        .init("GET", "/favorites", make: { _ in .favorites }, match: { $0 == .favorites ? RouteParameters() : nil }),
    ])

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The navigation stack of each tab (a value, so `NavigationStack(path: $coordinator.paths.home)`
/// binds to one of them).
public struct TabPaths: Hashable, Sendable {
    public var home: [Destination] = []
    public var categories: [Destination] = []
    public var campaigns: [Destination] = []
    public var cart: [Destination] = []
    public var favorites: [Destination] = []
    public var account: [Destination] = []

    /// No screen pushed on any tab.
    public init() {}

    /// The stack of `tab`.
    public subscript(tab: Tab) -> [Destination] {
        get {
            switch tab {
            case .home: home
            case .categories: categories
            case .campaigns: campaigns
            case .cart: cart
            case .favorites: favorites
            case .account: account
            }
        }
        set {
            switch tab {
            case .home: home = newValue
            case .categories: categories = newValue
            case .campaigns: campaigns = newValue
            case .cart: cart = newValue
            case .favorites: favorites = newValue
            case .account: account = newValue
            }
        }
    }
}

/// Navigation as data (the "C" of MVVM-C): the selected tab and each tab's stack of screens.
///
/// A SwiftUI app binds `TabView(selection: $coordinator.selectedTab)` and, per tab,
/// `NavigationStack(path: $coordinator.paths.home)`; a UIKit coordinator observes it and pushes
/// view controllers. Models and links ask it to move — ``push(_:)``, ``open(_:)`` — and never
/// hold views.
///
/// ```swift
/// coordinator.push(.product(handle: "oak-chair"))            // on the selected tab
/// coordinator.open(url: URL(string: "shoppable://orders/SH-1042")!)  // account tab → orders → order
/// ```
@MainActor
@Observable
public final class Coordinator {
    /// The selected tab.
    public var selectedTab: Tab
    /// Each tab's stack.
    public var paths: TabPaths

    /// A coordinator on `tab` with nothing pushed.
    public init(tab: Tab = .home) {
        selectedTab = tab
        paths = TabPaths()
    }

    /// The selected tab's stack.
    public var path: [Destination] { paths[selectedTab] }

    /// Where the app is now.
    public var route: Route { Route(tab: selectedTab, path: path) }

    /// Pushes `destination` on the selected tab.
    public func push(_ destination: Destination) { paths[selectedTab].append(destination) }

    /// Pops the top screen of the selected tab, if any.
    public func pop() {
        if !paths[selectedTab].isEmpty { paths[selectedTab].removeLast() }
    }

    /// Selects `tab`; selecting the tab already selected pops it to its root (as a tab bar does).
    public func select(_ tab: Tab) {
        if tab == selectedTab { paths[tab] = [] } else { selectedTab = tab }
    }

    /// Goes to `route`: its tab, with exactly its screens.
    public func open(_ route: Route) {
        selectedTab = route.tab
        paths[route.tab] = route.path
    }

    /// Opens a link's place.
    /// - Parameters:
    ///   - url: a `shoppable://` URL or a web link on `shopHost`.
    ///   - shopHost: the shop's web host, for universal links.
    /// - Returns: `false` (and nothing moves) when the app has no screen for the link.
    @discardableResult
    public func open(url: URL, shopHost: String? = nil) -> Bool {
        guard let link = DeepLink(url: url, shopHost: shopHost) else { return false }
        open(link.route)
        return true
    }
}
