import Foundation
import ShopAPI
import ShopClient
import ShopStore
import ShopTestSupport
import Testing

// The example of docs/API.md ("ShopClient"), copied verbatim between the markers: it compiles
// here, runs against the live server below, and `theDocumentShowsThisExample` fails when the
// two copies differ.

// BEGIN docs/API.md example
/// As a guest: the cheapest lamp twice into the cart, a voucher, checkout, the order.
func buyLamps(using client: ShopClient, voucher: String) async -> String {
    do {
        let categories = try await client.v1.categories()
        guard let lamps = categories.first(where: { $0.name == "Lamps" }) else { return "No lamps yet." }
        let page = try await client.v1.products(query: V1ProductQuery(category: lamps.handle, sort: "price-asc"))
        guard let cheapest = page.products.first else { return "No lamps yet." }
        let lamp = try await client.v1.product(handle: cheapest.handle)  // variants, stock, images, related
        try await client.v1.startGuestSession()  // the cart calls now carry the guest token
        _ = try await client.v1.addLine(V1AddLine(product: lamp.handle, quantity: 2))
        let cart = try await client.v1.setVoucher(code: voucher)
        let address = V1Address(firstName: "Ana", lastName: "Lima", phone: "+1 555 0100", line1: "1 Main St",
                                city: "Springfield", postalCode: "12345", country: "US")
        _ = try await client.v1.setAddress(V1CheckoutAddress(address: address, email: "ana@example.com"))
        _ = try await client.v1.setShipping(method: "standard")
        _ = try await client.v1.review()  // holds the stock; its quote is what the order charges
        let order = try await client.v1.placeOrder()  // one Idempotency-Key, reused if it is retried
        return "Order \(order.number): \(order.total.formatted) (cart \(cart.total.formatted) + \(order.shippingCost.formatted))"
    } catch NetworkError.offline {
        return "You are offline."
    } catch let NetworkError.serverError(status, code, message) {
        return "The shop answered \(status) \(code ?? ""): \(message)"
    } catch {
        return error.localizedDescription
    }
}

let shop = ShopClient(environment: .development)  // http://127.0.0.1:8080; .custom(url) for a real shop
// END docs/API.md example

@Suite("docs/API.md example")
struct APIDocExampleTests {
    @Test func theExampleRunsAgainstTheLiveServer() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        try live.sellWithVoucher()
        // Desk Lamp $10.00 × 2, 15 % off: $17.00; standard shipping $4.90.
        let answer = await buyLamps(using: live.client(), voucher: "SAVE15")
        #expect(answer.hasPrefix("Order ") && answer.hasSuffix(": $21.90 (cart $17.00 + $4.90)"), "\(answer)")
        #expect(try live.shop.orders?.findOrders(.everything).orders.count == 1)

        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let wrongShop = ShopClient(environment: .custom(closed.url), retry: .never)
        #expect(await buyLamps(using: wrongShop, voucher: "SAVE15") == "You are offline.")
        let refused = await buyLamps(using: live.client(), voucher: "no spaces!")
        #expect(refused.hasPrefix("The shop answered 400 invalid_voucher_code: "), "\(refused)")
        #expect(shop.environment == .development)
    }

    @Test func theDocumentShowsThisExample() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let document = try String(contentsOf: root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        let example = try #require(source.components(separatedBy: "// BEGIN docs/API.md example\n").last?
            .components(separatedBy: "// END docs/API.md example").first)
        let section = try #require(document.components(separatedBy: "\n## ShopClient\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        #expect(block == "import Foundation\nimport ShopAPI\nimport ShopClient\n\n" + example)
    }
}
