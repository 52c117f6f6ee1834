import Foundation
import ShopAPI
import ShopClient
import Testing

// The example of docs/API.md ("ShopClient"), copied verbatim between the markers: it compiles
// here, runs against the live server below, and `theDocumentShowsThisExample` fails when the
// two copies differ.

// BEGIN docs/API.md example
/// Signs in, then loads the lamps (newest first) and the first one's picture.
func showLamps(using client: ShopClient) async -> String {
    do {
        try await client.login(username: "ana@example.com", password: "Blue9sky!")
        let lamps = try await client.products(inCategory: "Lamps", limit: 10, sort: .desc)
        guard let first = lamps.first else { return "No lamps yet." }
        let picture = try await client.image(of: first)  // memory, then disk, then the shop (ETag)
        return "\(lamps.count) lamps; \(first.title) costs \(first.price) \(first.currency) (\(picture.count) bytes)"
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
        try live.register(email: "ana@example.com", password: "Blue9sky!")
        let answer = await showLamps(using: live.client())
        #expect(answer.hasPrefix("2 lamps; Desk Lamp costs 10 USD ("), "\(answer)")

        let wrongShop = ShopClient(environment: .custom(URL(string: "http://127.0.0.1:\(try closedPort())")!), retry: .never)
        #expect(await showLamps(using: wrongShop) == "You are offline.")
        let noAccounts = try LiveShop()
        defer { noAccounts.stop() }
        #expect(await showLamps(using: noAccounts.client())
                == "The shop answered 401 invalid_credentials: The username or password is wrong.")
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
