import ShopStore
import Synchronization

/// A value worked out from the catalog alone (the same for every visitor), kept while
/// `CatalogStore.version()` — which changes with any catalog write, stock included, by any
/// process — stays the same.
final class CatalogMemo<Value: Sendable>: Sendable {
    private let kept = Mutex<(version: Int64, value: Value)?>(nil)

    init() {}

    /// The kept value when the catalog has not changed since it was made; else `make()`'s, kept.
    ///
    /// The version is read before `make` runs: a write landing meanwhile leaves the value under
    /// the older version, so the next call makes it again — a change is never hidden.
    func value(_ catalog: CatalogStore, make: () throws -> Value) throws -> Value {
        let version = try catalog.version()
        if let hit = kept.withLock({ $0 }), hit.version == version { return hit.value }
        let value = try make()
        kept.withLock { $0 = (version, value) }
        return value
    }
}
