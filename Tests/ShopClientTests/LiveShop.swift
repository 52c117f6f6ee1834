import Foundation
import HTTPServer
import ShopClient
import ShopCore
import ShopTestSupport
import ShopWeb
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Shoppable server on a free loopback port: `ShopApp.handle` over `HTTPServer`, with a
/// `TestShop`'s SQLite `:memory:` stores. Product image URLs point back at this server.
final class LiveShop: Sendable {
    let shop: TestShop
    let server: HTTPServer

    init(_ drafts: [ProductDraft] = LiveShop.catalog) throws {
        let shop = try TestShop(drafts)
        self.shop = shop
        server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 2), logger: { _ in },
                            refusal: { ShopApp.refusal($0, $1, shop.environment) },
                            handler: { ShopApp.handle($0, shop.environment) })
        try server.start()
        shop.environment.publicURL = "http://127.0.0.1:\(server.port)"
    }

    /// Stops the server (tests `defer` it, which also keeps the shop alive to the end of the test).
    func stop() { server.stop() }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// A client of this shop over `transport`, retrying with `retry`.
    func client(_ transport: HTTPTransport = .urlSession(), retry: RetryPolicy = .standard) -> ShopClient {
        ShopClient(environment: .custom(baseURL), transport: transport, retry: retry)
    }

    /// Registers an account through the sign-up form, as a shopper on the web would.
    func register(email: String, password: String) throws {
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", email), ("password", password),
                                            ("password_confirmation", password)])
    }

    static let chairImage = "/static/images/demo/oak-dining-chair-natural-oak.svg"

    /// Three products in two categories, each with a shipped demo image.
    static let catalog: [ProductDraft] = [
        .mock(handle: "oak-chair", title: "Oak Chair", category: "Men's chairs", variants: [.mock(price: .usd(129_00))],
              images: [ProductImage(url: chairImage)]),
        .mock(handle: "arc-lamp", title: "Arc Lamp", category: "Lamps", variants: [.mock(price: .usd(49_90))],
              images: [ProductImage(url: "/static/images/demo/arc-floor-lamp.svg")]),
        .mock(handle: "desk-lamp", title: "Desk Lamp", category: "Lamps",
              images: [ProductImage(url: "/static/images/demo/ceramic-table-lamp-sage.svg")]),
    ]
}

/// Runs `body` with a bare `HTTPServer` answering with `handler` on a free port.
func withServer<T>(_ handler: @escaping @Sendable (Request) -> Response,
                   _ body: (URL) async throws -> T) async throws -> T {
    let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 2), logger: { _ in },
                            handler: handler)
    try server.start()
    defer { server.stop() }
    return try await body(URL(string: "http://127.0.0.1:\(server.port)")!)
}

/// A port nothing listens on: one a server just bound and released.
func closedPort() throws -> Int {
    let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 1), logger: { _ in },
                            handler: { _ in .text("") })
    try server.start()
    let port = server.port
    server.stop()
    return port
}

/// A transport that forwards to `URLSession` and remembers every request it sent.
final class Recorder: Sendable {
    private let sent = Mutex<[URLRequest]>([])
    let live = HTTPTransport.urlSession()

    var requests: [URLRequest] { sent.withLock { $0 } }

    var transport: HTTPTransport {
        HTTPTransport { [self] request in
            sent.withLock { $0.append(request) }
            return try await live.send(request)
        }
    }
}

/// A retry policy that records its waits instead of sleeping.
final class Sleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    var recorded: [Duration] { waits.withLock { $0 } }

    func policy(maxAttempts: Int = 3) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, sleep: { [self] duration in waits.withLock { $0.append(duration) } })
    }
}

/// Counts calls across the server's threads.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    /// Adds one and returns the new count.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}
