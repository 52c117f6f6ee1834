import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

/// `CatalogStore.caching()` and `CatalogMemo`: answers from memory while the catalog version
/// stays, never older than the store — on every engine — and a slower reader of an older version
/// never replaces a newer entry.
@Suite("Catalog answers kept per catalog version")
struct CatalogCachingTests {
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
        return (base.caching(), calls)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
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

    /// A product page or an add to cart looks the product up by handle: answered from memory
    /// while the catalog stays, and right after any change (a new handle, unpublished, gone).
    @Test(.bug(id: "14"), arguments: StoreKind.engines(for: .catalog))
    func aHandleIsLookedUpInMemoryUntilTheCatalogChanges(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([ProductDraft.mock(handle: "lamp", variants: [.mock(sku: "L1")])])
        let asked = Calls()
        var base = stores.catalog
        let byHandle = base.productByHandle, byID = base.productsByID, version = base.version
        let versionReads = Mutex(0)
        base.version = {
            versionReads.withLock { $0 += 1 }
            return try version()
        }
        base.productByHandle = { handle in
            asked.withLock { $0.append([Product.ID(rawValue: Int64(handle.count))]) }
            return try byHandle(handle)
        }
        base.productsByID = { ids in
            asked.withLock { $0.append(ids) }
            return try byID(ids)
        }
        let cached = base.caching()
        let lamp = try #require(try cached.productByHandle("lamp"))
        #expect(try cached.productByHandle("lamp") == lamp)
        #expect(try cached.productByHandle("nope") == nil)
        #expect(try cached.productByHandle("nope") == nil)
        #expect(try cached.productsByID([lamp.id])[lamp.id] == lamp)
        #expect(asked.withLock { $0.count } == 2, "one look-up per handle; the product itself is kept too")
        // A round trip on PostgreSQL: one per look-up, also when the product comes from memory.
        #expect(versionReads.withLock { $0 } == 5)

        // A re-import that moves the product to a new handle (its SKU kept): the old handle
        // finds nothing at once, the new one finds it.
        var renamed = ProductDraft(lamp, categoryName: nil)
        renamed.handle = "desk-lamp"
        _ = try stores.catalog.upsert([renamed])
        #expect(try cached.productByHandle("lamp") == nil)
        #expect(try cached.productByHandle("desk-lamp")?.id == lamp.id)

        // Unpublished: gone at once.
        renamed.isPublished = false
        _ = try stores.catalog.upsert([renamed])
        #expect(try cached.productByHandle("desk-lamp") == nil)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func pastItsLimitTheCacheStartsOverAndStillAnswersRight(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert((1...5).map { ProductDraft.mock(handle: "p\($0)", variants: [.mock(sku: "S\($0)")]) })
        let ids = try (1...5).map { try stores.product("p\($0)").id }
        let cached = stores.catalog.caching(productLimit: 2)
        for id in ids + ids {
            #expect(try cached.productsByID([id])[id]?.id == id)
        }
        #expect(try cached.productsByID(ids).count == 5)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func categorySummariesAreKeptUntilTheCatalogChanges(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a", category: "Lamps")])
        let asked = Calls()
        var base = stores.catalog
        let categories = base.categories
        base.categories = {
            asked.withLock { $0.append([]) }
            return try categories()
        }
        let cached = base.caching()

        #expect(try cached.categories().map(\.productCount) == [1])
        #expect(try cached.categories().map(\.productCount) == [1])
        #expect(asked.withLock { $0.count } == 1, "the second answer comes from memory")

        // A new version is picked up at once.
        _ = try stores.catalog.upsert([.mock(handle: "b", category: "Lamps"), .mock(handle: "c", category: "Rugs")])
        #expect(try cached.categories().map { "\($0.category.name) \($0.productCount)" } == ["Lamps 2", "Rugs 1"])
        #expect(asked.withLock { $0.count } == 2)
    }

    /// What each cached operation answers at a given catalog version, for the race below.
    enum Operation: String, CaseIterable, CustomTestStringConvertible {
        case categories, productsByID
        var testDescription: String { rawValue }
    }

    /// A reader reads version 1, and while its store call runs, a writer moves the catalog to
    /// version 2 and a faster reader keeps version 2's answer. When the slow reader finishes, its
    /// version-1 answer must not replace the newer one: the next call at version 2 is answered
    /// from memory with version 2's answer.
    @Test(arguments: Operation.allCases)
    func aSlowerReaderOfAnOlderVersionNeverReplacesANewerEntry(operation: Operation) throws {
        let version = Mutex<Int64>(1)
        let storeCalls = Mutex(0)
        let cachedStore = Mutex<CatalogStore?>(nil)
        let lamp = Product.ID(rawValue: 1)
        /// The answer of the store at `v`: one category / one product named after the version.
        @Sendable func summaries(_ v: Int64) -> [CategorySummary] {
            [CategorySummary(category: Category(id: 1, handle: "lamps", name: "v\(v)"), productCount: Int(v))]
        }
        @Sendable func products(_ v: Int64) -> [Product.ID: Product] {
            [lamp: Product(id: lamp, handle: "lamp", title: "v\(v)", variants: [])]
        }
        /// On its first call (at version 1) the store lets the catalog move on and a faster
        /// reader through before it answers.
        @Sendable func answer<T>(_ make: (Int64) -> T, fasterReader: (CatalogStore) throws -> Void) rethrows -> T {
            let call = storeCalls.withLock { $0 += 1; return $0 }
            let v = version.withLock { $0 }
            if call == 1 {
                version.withLock { $0 = 2 }
                try fasterReader(cachedStore.withLock { $0! })
            }
            return make(v)
        }
        var base = CatalogStore.failing
        base.version = { version.withLock { $0 } }
        base.categories = { try answer(summaries) { _ = try $0.categories() } }
        base.productsByID = { _ in try answer(products) { _ = try $0.productsByID([lamp]) } }
        let cached = base.caching()
        cachedStore.withLock { $0 = cached }

        switch operation {
        case .categories:
            #expect(try cached.categories() == summaries(1), "the slow reader gets what it read")
            #expect(try cached.categories() == summaries(2))
        case .productsByID:
            #expect(try cached.productsByID([lamp]) == products(1), "the slow reader gets what it read")
            #expect(try cached.productsByID([lamp]) == products(2))
        }
        #expect(storeCalls.withLock { $0 } == 2, "version 2's answer was kept, not replaced by version 1's")
    }

    @Test func aMemoKeepsOnlyTheNewestVersion() {
        let memo = CatalogMemo<String>()
        memo.update(at: 5, empty: "five") { _ in }
        memo.update(at: 4, empty: "four") { $0 += "!" }
        #expect(memo.read(at: 5) { $0 } == "five", "an older version changes nothing")
        #expect(memo.read(at: 4) { $0 } == nil)
        memo.update(at: 6, empty: "six") { $0 += "!" }
        #expect(memo.read(at: 6) { $0 } == "six!", "a newer version replaces what is kept")
        #expect(memo.read(at: 5) { $0 } == nil)
    }
}
