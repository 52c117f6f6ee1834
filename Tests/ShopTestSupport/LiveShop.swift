public import Foundation
public import HTTPServer
public import ShopClient
public import ShopCore
import ShopWeb
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Shoppable server on a free loopback port: `ShopApp.handle` over `HTTPServer`, with a
/// `TestShop`'s SQLite `:memory:` stores. Product image URLs point back at this server.
public final class LiveShop: Sendable {
    public let shop: TestShop
    public let server: HTTPServer

    public init(_ drafts: [ProductDraft] = LiveShop.catalog) throws {
        let shop = try TestShop(drafts)
        self.shop = shop
        server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 2), logger: { _ in },
                            refusal: { ShopApp.refusal($0, $1, target: $2, headers: $3, shop.environment) },
                            handler: { ShopApp.handle($0, shop.environment) })
        try server.start()
        shop.environment.publicURL = "http://127.0.0.1:\(server.port)"
    }

    /// Stops the server (tests `defer` it, which also keeps the shop alive to the end of the test).
    public func stop() { server.stop() }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// A client of this shop over `transport`, retrying with `retry`.
    public func client(_ transport: HTTPTransport = .urlSession(), retry: RetryPolicy = .standard) -> ShopClient {
        ShopClient(environment: .custom(baseURL), transport: transport, retry: retry)
    }

    /// Registers an account through the sign-up form, as a shopper on the web would.
    public func register(email: String, password: String) throws {
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", email), ("password", password),
                                            ("password_confirmation", password)])
    }

    public static let chairImage = "/static/images/demo/oak-dining-chair-natural-oak.svg"

    /// Three products in two categories, each with a shipped demo image.
    public static let catalog: [ProductDraft] = [
        .mock(handle: "oak-chair", title: "Oak Chair", category: "Men's chairs", variants: [.mock(price: .usd(129_00))],
              images: [ProductImage(url: chairImage)]),
        .mock(handle: "arc-lamp", title: "Arc Lamp", category: "Lamps", variants: [.mock(price: .usd(49_90))],
              images: [ProductImage(url: "/static/images/demo/arc-floor-lamp.svg")]),
        .mock(handle: "desk-lamp", title: "Desk Lamp", category: "Lamps",
              images: [ProductImage(url: "/static/images/demo/ceramic-table-lamp-sage.svg")]),
    ]
}

