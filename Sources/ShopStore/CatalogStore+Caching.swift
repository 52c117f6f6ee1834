public import ShopCore

extension CatalogStore {
    /// This store with what every shopper asks for again and again answered from memory while
    /// `version()` is unchanged, above every engine (SQLite today, PostgreSQL next):
    ///
    /// - `productsByID`: the cart badge, the cart page, favorites and checkout look up the same
    ///   few products on every request (the badge's look-up was 8 % of a shopper's category
    ///   page, issue #14); products are kept one by one, at most `productLimit`, then the memory
    ///   starts over;
    /// - `productByHandle`: the product page and every add to cart look a product up by its
    ///   handle (6 % of an add, issue #14); each handle's answer (a product id, or none) is kept,
    ///   at most `productLimit` of them, and the product itself comes from the kept products;
    /// - `categories`: a count and a first picture per category take ~1 s on 100 000 products,
    ///   and every search that finds nothing shows six of them (issue #13, point 5).
    ///
    /// Every other operation is the store's own. The version changes with any catalog write by
    /// any process, stock included, so a kept answer is never older than what the store would
    /// give: the version is read before the answer is, and a write landing in between leaves it
    /// under the older version; a slower reader of an older version never replaces a newer
    /// entry (`CatalogMemo`).
    /// - Parameter productLimit: the most products kept; past it the memory starts over.
    /// - Returns: the caching store.
    public func caching(productLimit: Int = 10_000) -> CatalogStore {
        let products = CatalogMemo<[Product.ID: Product?]>()
        let categorySummaries = CatalogMemo<[CategorySummary]>()
        var store = self
        let base = self
        // The products with `ids` as of `version` (read by the caller, before this).
        let productsAt: @Sendable (_ ids: [Product.ID], _ version: Int64) throws -> [Product.ID: Product] = { ids, version in
            var found: [Product.ID: Product] = [:]
            found.reserveCapacity(ids.count)
            let missing = products.read(at: version) { kept in
                var missing: [Product.ID] = []
                for id in ids {
                    switch kept[id] {
                    case let .some(.some(product)): found[id] = product
                    case .some(.none): break  // known to be gone
                    case .none: missing.append(id)
                    }
                }
                return missing
            } ?? ids
            guard !missing.isEmpty else { return found }
            let fetched = try base.productsByID(missing)
            // Absent ids are kept as gone (nil), so they are not asked for again.
            products.update(at: version, empty: [:]) { kept in
                if kept.count + missing.count > productLimit { kept.removeAll(keepingCapacity: true) }
                for id in missing { kept[id] = fetched[id] }
            }
            found.merge(fetched) { _, new in new }
            return found
        }
        store.productsByID = { ids in try productsAt(ids, try base.version()) }
        // A handle's product id, or none (`.none` inside: no published product has it).
        let productIDs = CatalogMemo<[String: Product.ID?]>()
        store.productByHandle = { handle in
            // One read of the version for both look-ups (on PostgreSQL it is a round trip).
            let version = try base.version()
            if let known = productIDs.read(at: version, { $0[handle] }), let known {
                guard let id = known else { return nil }
                // A product that has lost the handle since is asked for again.
                if let product = try productsAt([id], version)[id], product.handle == handle { return product }
            }
            let product = try base.productByHandle(handle)
            productIDs.update(at: version, empty: [:]) { kept in
                if kept.count >= productLimit { kept.removeAll(keepingCapacity: true) }
                kept[handle] = .some(product?.id)
            }
            if let product {
                products.update(at: version, empty: [:]) { kept in
                    if kept.count >= productLimit { kept.removeAll(keepingCapacity: true) }
                    kept[product.id] = product
                }
            }
            return product
        }
        store.categories = { try categorySummaries.value(base) { try base.categories() } }
        return store
    }
}
