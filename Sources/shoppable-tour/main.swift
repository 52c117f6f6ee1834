// shoppable-tour: the ShopKit tour against a running shop.
//
//     shoppable-tour [BASE_URL]      (default http://127.0.0.1:8080)
//
// Registers a new account (tour-<random>@example.com), shops, and places an order awaiting
// payment, printing each screen as text. Exit status 0 when the order was placed, 1 otherwise.
import Foundation
import ShopClient
import ShopCore
import ShopKit
import ShopKitTour

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: shoppable-tour [BASE_URL]   (default http://127.0.0.1:8080)")
    exit(0)
}
guard let baseURL = URL(string: arguments.first ?? "http://127.0.0.1:8080"), baseURL.scheme?.hasPrefix("http") == true else {
    FileHandle.standardError.write(Data("shoppable-tour: not an http(s) URL: \(arguments.first ?? "")\n".utf8))
    exit(64)
}

let status = await Task { @MainActor in
    let settings = MemoryKeyValueStore()
    let app = AppModel(shop: .live(ShopClient(environment: .custom(baseURL))), settings: settings,
                       sessions: MemorySessionStore(), language: .english)
    var tour = Tour()
    do {
        let email = "tour-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let result = try await tour.run(app: app, settings: settings, email: email)
        print("order \(result.order.number) placed for \(result.email): \(result.order.charges.total)")
        return Int32(0)
    } catch {
        FileHandle.standardError.write(Data("shoppable-tour: \(error)\n".utf8))
        return Int32(1)
    }
}.value
exit(status)
