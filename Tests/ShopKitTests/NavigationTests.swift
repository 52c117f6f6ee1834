import Foundation
@testable import ShopKit
import Testing

@MainActor
@Suite("Navigation and deep links")
struct NavigationTests {
    nonisolated static let good: [(String, DeepLink)] = [
        ("shoppable://products/oak-chair", .product(handle: "oak-chair")),
        ("shoppable://products/oak%20chair", .product(handle: "oak chair")),
        ("shoppable://campaigns/save15", .campaign("save15")),
        ("shoppable://campaigns/42", .campaign("42")),
        ("shoppable://orders/SH-1042", .order(number: "SH-1042")),
        ("SHOPPABLE://orders/SH-1042", .order(number: "SH-1042")),
        ("shoppable://categories/lamps", .category(handle: "lamps")),
        ("shoppable://search?q=oak%20lamp", .search("oak lamp")),
        ("shoppable://cart", .cart),
        ("shoppable://favorites/", .favorites),
        ("https://shop.example/products/arc-lamp", .product(handle: "arc-lamp")),
        ("https://SHOP.example/orders/SH-7?token=abc", .order(number: "SH-7")),
    ]

    @Test(arguments: good)
    func aGoodLinkParsesAndPrintsBack(_ text: String, _ expected: DeepLink) throws {
        let link = DeepLink(url: try #require(URL(string: text)), shopHost: "shop.example")
        #expect(link == expected)
        #expect(DeepLink(url: expected.url) == expected)
    }

    nonisolated static let bad = [
        "shoppable://",
        "shoppable://nowhere",
        "shoppable://products",
        "shoppable://products/",
        "shoppable://products/oak-chair/reviews",
        "shoppable://orders/%20",
        "shoppable://search",
        "shoppable://search?q=",
        "https://elsewhere.example/products/oak-chair",
        "http://shop.example.evil.com/products/oak-chair",
        "ftp://shop.example/products/oak-chair",
        "mailto:ana@example.com",
        "products/oak-chair",
    ]

    @Test(arguments: bad)
    func anUnknownLinkIsNil(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(DeepLink(url: url, shopHost: "shop.example") == nil)
        let coordinator = Coordinator()
        #expect(coordinator.open(url: url, shopHost: "shop.example") == false)
        #expect(coordinator.route == Route(tab: .home))
    }

    @Test func webLinksNeedTheShopsHost() throws {
        #expect(DeepLink(url: try #require(URL(string: "https://shop.example/cart"))) == nil)
    }

    @Test func aLinkOpensItsTabWithItsScreens() throws {
        let coordinator = Coordinator()
        coordinator.push(.category(handle: "lamps"))
        #expect(coordinator.open(url: try #require(URL(string: "shoppable://orders/SH-1042"))))
        #expect(coordinator.selectedTab == .account && coordinator.path == [.orders, .order(number: "SH-1042")])
        // The home tab keeps its own stack.
        #expect(coordinator.paths.home == [.category(handle: "lamps")])
    }

    @Test func tabsKeepTheirStacksAndReselectingPopsToRoot() {
        let coordinator = Coordinator()
        coordinator.push(.product(handle: "oak-chair"))
        coordinator.select(.cart)
        coordinator.push(.checkout)
        coordinator.select(.home)
        #expect(coordinator.path == [.product(handle: "oak-chair")] && coordinator.paths.cart == [.checkout])
        coordinator.select(.home)
        #expect(coordinator.path.isEmpty)
        coordinator.pop() // nothing to pop: no crash
        coordinator.select(.cart)
        coordinator.pop()
        #expect(coordinator.route == Route(tab: .cart))
    }
}
