import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

/// `CatalogStore.cachingProductsByID()`: answers from memory while the catalog version stays, and
/// never older than the store — on every engine.
@Suite("Products by id, kept per catalog version")
struct ProductCacheTests {
    /// The ids of each `productsByID` call that reached the store.
    private final class Calls: Sendable {
        let log = Mutex<[[Product.ID]]>([])
        func withLock<T>(_ body: (inout [[Product.ID]]) -> T) -> T { log.withLock { body(&$0) } }
    }

    /// The store with its `productsByID` calls counted, and the cache over it.
    private static func counted(_ stores: StoreHarness) -> (cached: CatalogStore, calls: Calls) {
        let calls = Calls()
        var base = stores.catalog
        let lookUp = base.productsByID
        base.productsByID = { ids in
            calls.withLock { $0.append(ids) }
            return try lookUp(ids)
        }
        return (base.cachingProductsByID(), calls)
    }

    @Test(arguments: StoreKind.allCases)
    func aSecondLookUpIsAnsweredFromMemoryUntilTheCatalogChanges(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([ProductDraft.mock(handle: "lamp", variants: [.mock(sku: "L1")]),
                                       ProductDraft.mock(handle: "mug", variants: [.mock(sku: "M1")])])
        let lamp = try stores.product("lamp").id, mug = try stores.product("mug").id
        let (cached, calls) = Self.counted(stores)
        let gone = Product.ID(rawValue: 9_999)

        #expect(try cached.productsByID([lamp, gone]).keys.sorted() == [lamp])
        #expect(try cached.productsByID([lamp, gone]).keys.sorted() == [lamp], "the same answer, from memory")
        #expect(try cached.productsByID([lamp, mug]).count == 2)
        #expect(calls.withLock { $0 } == [[lamp, gone], [mug]], "only what was not known is asked for")

        // Any catalog write — here the lamp's stock — makes the next look-up ask again.
        var draft = ProductDraft(try stores.product("lamp"), categoryName: nil)
        draft.variants[0].inventory = .tracked(quantity: 0, allowsBackorder: false)
        _ = try stores.catalog.upsert([draft])
        let after = try #require(try cached.productsByID([lamp])[lamp])
        #expect(after.variants[0].inventory == .tracked(quantity: 0, allowsBackorder: false))
        #expect(calls.withLock { $0.count } == 3)

        // Unpublished: gone from the answer at once.
        draft.isPublished = false
        _ = try stores.catalog.upsert([draft])
        #expect(try cached.productsByID([lamp, mug]).keys.sorted() == [mug])
    }

    @Test(arguments: StoreKind.allCases)
    func pastItsLimitTheCacheStartsOverAndStillAnswersRight(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert((1...5).map { ProductDraft.mock(handle: "p\($0)", variants: [.mock(sku: "S\($0)")]) })
        let ids = try (1...5).map { try stores.product("p\($0)").id }
        let cached = stores.catalog.cachingProductsByID(limit: 2)
        for id in ids + ids {
            #expect(try cached.productsByID([id])[id]?.id == id)
        }
        #expect(try cached.productsByID(ids).count == 5)
    }
}
