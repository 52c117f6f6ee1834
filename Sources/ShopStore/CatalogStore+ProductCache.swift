import ShopCore
import Synchronization

extension CatalogStore {
    /// This store with `productsByID` answered from memory while `version()` is unchanged: the
    /// cart badge, the cart page, favorites and checkout look up the same few products on every
    /// request (the badge's lookup was 8 % of a shopper's category page, issue #14).
    ///
    /// Every other operation is the store's own. The version changes with any catalog write by
    /// any process, stock included, so a kept product is never older than what the store would
    /// answer: the version is read before the products it keeps, and a write landing in between
    /// leaves them under the older version, dropped by the next caller that reads the newer one.
    /// - Parameter limit: the most products kept; past it the memory starts over.
    public func cachingProductsByID(limit: Int = 10_000) -> CatalogStore {
        let cache = ProductCache(limit: limit)
        var store = self
        let base = self
        store.productsByID = { ids in
            let version = try base.version()
            var found: [Product.ID: Product] = [:]
            found.reserveCapacity(ids.count)
            let missing = cache.lookUp(ids, version: version, into: &found)
            guard !missing.isEmpty else { return found }
            let fetched = try base.productsByID(missing)
            cache.keep(fetched, asked: missing, version: version)
            found.merge(fetched) { _, new in new }
            return found
        }
        return store
    }
}

/// Products by id (nil: asked for and not published) for one catalog version.
private final class ProductCache: Sendable {
    private struct Kept {
        var version: Int64
        var products: [Product.ID: Product?] = [:]

        init(version: Int64) { self.version = version }
    }

    private let kept = Mutex(Kept(version: .min))
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Copies what is kept for `version` into `found`; returns the ids it does not know.
    func lookUp(_ ids: [Product.ID], version: Int64, into found: inout [Product.ID: Product]) -> [Product.ID] {
        kept.withLock { kept in
            guard kept.version == version else { return ids }
            var missing: [Product.ID] = []
            for id in ids {
                switch kept.products[id] {
                case let .some(.some(product)): found[id] = product
                case .some(.none): break  // known to be gone
                case .none: missing.append(id)
                }
            }
            return missing
        }
    }

    /// Keeps what the store answered for `asked` at `version` (absent ids as gone).
    func keep(_ fetched: [Product.ID: Product], asked: [Product.ID], version: Int64) {
        kept.withLock { kept in
            if kept.version != version {
                // Only a newer version replaces what is kept; an older reader's answer is dropped.
                guard version > kept.version else { return }
                kept = Kept(version: version)
            }
            if kept.products.count + asked.count > limit { kept.products.removeAll(keepingCapacity: true) }
            for id in asked { kept.products[id] = fetched[id] }
        }
    }
}
