import Foundation
import ShopAPI
import Testing

enum Page: Hashable, Sendable {
    case home
    case product(handle: String, variant: Int64?)
    case file(path: String)
    case buy(Int64)
}

let pageRouter = Router<Page>([
    .init("GET", "/", [.cacheable], make: { _ in .home }, match: { $0 == .home ? RouteParameters() : nil }),
    .init("GET", "/products/{handle}", [.cacheable],
          make: { .product(handle: $0["handle"], variant: $0.queryValue("variant").flatMap { Int64($0) }) },
          match: { route in
              guard case let .product(handle, variant) = route else { return nil }
              return RouteParameters(["handle": handle], query: ["variant": variant.map(String.init)])
          }),
    .init("GET", "/files/{path...}", [], make: { .file(path: $0["path"]) },
          match: { if case let .file(path) = $0 { RouteParameters(["path": path]) } else { nil } }),
    .init("POST", "/products/{id}/buy", [.changesState], make: { $0.int64("id").map(Page.buy) },
          match: { if case let .buy(id) = $0 { RouteParameters(["id": String(id)]) } else { nil } }),
])

@Suite("Router")
struct RouterTests {
    @Test(arguments: [
        Page.home, .product(handle: "oak-chair", variant: nil), .product(handle: "çay bardağı/2", variant: 7),
        .file(path: "css/app.css"), .buy(42),
    ])
    func printingThenParsingGivesTheSameRoute(page: Page) throws {
        let request = pageRouter.request(for: page)
        // Through the URL text and back, as a browser would send it.
        let url = request.url
        let (path, query) = url.split(separator: "?", maxSplits: 1).map(String.init).splitPair()
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding! }
        let items: [RouteRequest.QueryItem] = (query ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding! }
            return RouteRequest.QueryItem(parts[0], parts.count > 1 ? parts[1] : "")
        }
        let parsed = try #require(pageRouter.parse(RouteRequest(method: request.method, segments: segments, query: items)))
        #expect(parsed.route == page)
    }

    @Test func urlsAreEncoded() {
        #expect(pageRouter.url(for: .home) == "/")
        #expect(pageRouter.url(for: .product(handle: "oak chair", variant: nil)) == "/products/oak%20chair")
        #expect(pageRouter.url(for: .product(handle: "mug", variant: 3)) == "/products/mug?variant=3")
        #expect(pageRouter.url(for: .file(path: "a/b c.css")) == "/files/a/b%20c.css")
    }

    @Test func headMatchesGetAndOtherMethodsDoNot() {
        #expect(pageRouter.parse(RouteRequest(method: "HEAD", path: "/"))?.route == .home)
        #expect(pageRouter.parse(RouteRequest(method: "POST", path: "/")) == nil)
        #expect(pageRouter.methods(forPath: ["products", "9", "buy"]) == ["POST"])
        #expect(pageRouter.methods(forPath: ["products", "mug"]) == ["GET"])
    }

    @Test func invalidParametersMatchNothing() {
        #expect(pageRouter.parse(RouteRequest(method: "POST", path: "/products/abc/buy")) == nil)
        #expect(pageRouter.parse(RouteRequest(method: "GET", path: "/files")) == nil, "a rest parameter needs a segment")
        #expect(pageRouter.parse(RouteRequest(method: "GET", path: "/products/a/b")) == nil)
    }

    @Test func declarationsCarryTheirTraits() {
        #expect(pageRouter.declaration(for: .buy(1)).declaration.traits == [.changesState])
        #expect(pageRouter.declaration(for: .home).declaration.traits == [.cacheable])
        #expect(pageRouter.parse(RouteRequest(method: "GET", path: "/products/x"))?.declaration.pattern == "/products/{handle}")
    }
}

extension Array where Element == String {
    fileprivate func splitPair() -> (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
