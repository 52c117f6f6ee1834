import ShopAPI
import ShopClient
@testable import ShopKit
import Testing

@Suite struct ShopOperationsTests {
    @Test func failingOperationsNameThemselves() async {
        let shop = ShopOperations.failing
        do {
            _ = try await shop.cart()
            Issue.record("a failing operation answered")
        } catch {
            guard case let .unknown(inner)? = error as? NetworkError, let unimplemented = inner as? Unimplemented else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(unimplemented.operation == "cart")
        }
    }

    @Test func memoryStoreKeepsAndForgets() {
        let store = MemoryKeyValueStore()
        store.set("grid", forKey: "layout")
        #expect(store.string(forKey: "layout") == "grid")
        store.set(nil, forKey: "layout")
        #expect(store.string(forKey: "layout") == nil)
    }
}
