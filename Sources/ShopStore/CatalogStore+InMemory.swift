public import ShopCore
import Foundation
import Synchronization

extension CatalogStore {
    /// A catalog kept in memory behind a `Mutex`, with the same semantics as the SQL stores
    /// (same validation, variant matching, ordering and id assignment: ids start at 1 and are
    /// never reused). For tests and demos; nothing survives the process.
    /// - Parameter currency: the shop currency; drafts priced in another one are refused.
    public static func inMemory(currency: Currency = .usd) -> CatalogStore {
        let state = Mutex(InMemoryCatalog())
        return CatalogStore(
            categories: { state.withLock { $0.categorySummaries() } },
            categoryByHandle: { handle in state.withLock { $0.categories.first { $0.handle == handle } } },
            products: { query in state.withLock { $0.page(query) } },
            productByHandle: { handle in
                state.withLock { catalog in
                    catalog.productIDByHandle[handle].flatMap { catalog.products[$0] }.flatMap { $0.isPublished ? $0 : nil }
                }
            },
            productsByID: { ids in
                state.withLock { catalog in
                    var found: [Product.ID: Product] = [:]
                    for id in ids {
                        if let product = catalog.products[id], product.isPublished { found[id] = product }
                    }
                    return found
                }
            },
            upsert: { drafts in
                try state.withLock { (catalog: inout InMemoryCatalog) throws(CatalogStoreError) -> CatalogUpsertResult in
                    var copy = catalog
                    let result = try copy.upsert(drafts, currency: currency)
                    copy.version += 1
                    catalog = copy  // all or nothing
                    return result
                }
            },
            productCount: { state.withLock { $0.products.count } },
            version: { state.withLock { $0.version } }
        )
    }
}

private struct InMemoryCatalog {
    var version: Int64 = 1
    var categories: [Category] = []
    var products: [Product.ID: Product] = [:]
    var productIDByHandle: [String: Product.ID] = [:]
    /// What search and the filters compare, per product (unpublished ones included).
    var search: [Product.ID: SearchEntry] = [:]
    var nextCategoryID: Int64 = 1
    var nextProductID: Int64 = 1
    var nextVariantID: Int64 = 1

    func categorySummaries() -> [CategorySummary] {
        var counts: [Category.ID: Int] = [:]
        var images: [Category.ID: (Product.ID, String)] = [:]
        for product in products.values where product.isPublished {
            guard let categoryID = product.categoryID else { continue }
            counts[categoryID, default: 0] += 1
            if let url = product.images.first?.url, images[categoryID].map({ product.id < $0.0 }) ?? true {
                images[categoryID] = (product.id, url)
            }
        }
        return categories
            .compactMap { category in
                counts[category.id].map { CategorySummary(category: category, productCount: $0, imageURL: images[category.id]?.1) }
            }
            .sorted { ($0.category.name, $0.category.id) < ($1.category.name, $1.category.id) }
    }

    /// Lists products as the SQL stores do (see `ProductQuery`): filters, relevance tiers,
    /// sorts with an id tie-break, and facets over the query without its vendor and tag filters.
    func page(_ query: ProductQuery) -> ProductPage {
        let terms = query.searchTerms
        let family = ProductSearchRules.Family(query.locale)
        let allowedIDs = query.productIDs.map(Set.init)
        var scoped: [Candidate] = []
        for product in products.values where product.isPublished {
            guard let entry = search[product.id] else { continue }
            if let categoryID = query.categoryID, product.categoryID != categoryID { continue }
            if let allowedIDs, !allowedIDs.contains(product.id) { continue }
            let lowest = product.variants.map(\.price.minorUnits).min()
            if let minimum = query.minPriceMinor, (lowest ?? .min) < minimum || lowest == nil { continue }
            if let maximum = query.maxPriceMinor, (lowest ?? .max) > maximum || lowest == nil { continue }
            if let minimum = query.minRatingHundredths, (product.rating?.rateHundredths ?? -1) < minimum { continue }
            if query.inStockOnly && product.isSoldOut { continue }
            var tier = 0
            if !terms.isEmpty {
                guard let found = entry.tier(terms, family: family) else { continue }
                tier = found
            }
            scoped.append(Candidate(product: product, entry: entry, lowestPrice: lowest, tier: tier))
        }

        var vendors: [String] = []
        var tags: [String] = []
        if query.includesFacets {
            (vendors, tags) = Self.facets(scoped)
        }

        let vendor = query.vendor.map { Array($0.utf8) }
        let tagKey = query.tag.map { Array(ProductSearchRules.tagKey($0).utf8) }
        var matching = scoped.filter { candidate in
            (vendor.map { candidate.product.vendor.utf8.elementsEqual($0) } ?? true)
                && (tagKey.map { key in candidate.entry.tagKeys.contains { $0.utf8.elementsEqual(key) } } ?? true)
        }
        matching.sort(by: Candidate.areInIncreasingOrder(query.sort, hasText: !terms.isEmpty))
        let slice = matching.dropFirst(query.offset).prefix(query.limit)
        return ProductPage(products: slice.map(\.product), totalCount: matching.count, vendors: vendors, tags: tags)
    }

    /// `ProductPage.vendors` and `.tags` of the scope (the query without vendor and tag filters).
    private static func facets(_ scoped: [Candidate]) -> (vendors: [String], tags: [String]) {
        let vendors = Set(scoped.map { Array($0.product.vendor.utf8) }.filter { !$0.isEmpty })
            .sorted { $0.lexicographicallyPrecedes($1) }
            .prefix(ProductPage.facetLimit)
            .map { String(decoding: $0, as: UTF8.self) }
        var spellingByTagKey: [[UInt8]: [UInt8]] = [:]
        for candidate in scoped {
            for (tag, key) in zip(candidate.product.tags, candidate.entry.tagKeys) {
                let (tag, key) = (Array(tag.utf8), Array(key.utf8))
                if let spelling = spellingByTagKey[key], !tag.lexicographicallyPrecedes(spelling) { continue }
                spellingByTagKey[key] = tag
            }
        }
        let tags = spellingByTagKey.values
            .sorted { $0.lexicographicallyPrecedes($1) }
            .prefix(ProductPage.facetLimit)
            .map { String(decoding: $0, as: UTF8.self) }

        return (vendors, tags)
    }

    mutating func upsert(_ drafts: [ProductDraft], currency: Currency) throws(CatalogStoreError) -> CatalogUpsertResult {
        var result = CatalogUpsertResult()
        var firstLineByHandle: [String: Int] = [:]
        for draft in drafts {
            if let firstLine = firstLineByHandle[draft.handle] {
                throw .duplicateHandle(draft.handle, firstLine: firstLine, line: draft.sourceLine)
            }
            firstLineByHandle[draft.handle] = draft.sourceLine
            try CatalogUpsertRules.check(draft, currency: currency)

            var categoryID: Category.ID?
            if let handle = CatalogUpsertRules.categoryHandle(for: draft.categoryName) {
                if let existing = categories.first(where: { $0.handle == handle }) {
                    categoryID = existing.id
                } else {
                    let category = Category(id: Category.ID(nextCategoryID), handle: handle,
                                            name: draft.categoryName!.trimmingCharacters(in: .whitespacesAndNewlines))
                    nextCategoryID += 1
                    categories.append(category)
                    categoryID = category.id
                    result.categoriesCreated += 1
                }
            }

            let existing = productIDByHandle[draft.handle].flatMap { products[$0] }
            let stored = (existing?.variants ?? []).map {
                CatalogUpsertRules.StoredVariant(id: $0.id, sku: $0.sku, optionKey: CatalogUpsertRules.optionKey($0.optionValues))
            }
            let matches = CatalogUpsertRules.matchVariants(existing: stored, drafts: draft.variants)
            var variants: [Variant] = []
            for (variantDraft, match) in zip(draft.variants, matches) {
                let id: Variant.ID
                if let match {
                    id = match
                    result.variantsUpdated += 1
                } else {
                    id = Variant.ID(nextVariantID)
                    nextVariantID += 1
                    result.variantsCreated += 1
                }
                variants.append(Variant(id: id, sku: variantDraft.sku, optionValues: variantDraft.optionValues,
                                        price: variantDraft.price, compareAtPrice: variantDraft.compareAtPrice,
                                        inventory: variantDraft.inventory))
            }

            let productID: Product.ID
            if let existing {
                productID = existing.id
                result.productsUpdated += 1
            } else {
                productID = Product.ID(nextProductID)
                nextProductID += 1
                result.productsCreated += 1
            }
            result.imagesStored += draft.images.count
            products[productID] = Product(
                id: productID, handle: draft.handle, title: draft.title, descriptionHTML: draft.descriptionHTML,
                descriptionText: draft.descriptionText, vendor: draft.vendor, productType: draft.productType,
                categoryID: categoryID, tags: draft.tags, publishedAt: draft.publishedAt.map(StoredTime.normalized),
                isPublished: draft.isPublished, images: draft.images, rating: draft.rating,
                optionNames: draft.optionNames, variants: variants)
            productIDByHandle[draft.handle] = productID
            search[productID] = SearchEntry(draft, categoryName: categoryID.flatMap { id in
                categories.first { $0.id == id }?.name
            })
        }
        return result
    }
}

/// A product's folded search text in both rule families and its filter keys.
private struct SearchEntry {
    /// Words of one `ProductSearchDocument`, per field.
    struct Words {
        var title: [String]
        var meta: [String]
        var body: [String]

        init(_ document: ProductSearchDocument) {
            func words(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
            title = words(document.title)
            meta = words(document.meta)
            body = words(document.body)
        }
    }

    var standard: Words
    var turkish: Words
    /// `ProductSearchRules.sortTitle(title)`.
    var sortTitle: String
    /// `ProductSearchRules.tagKey` of each tag, in tag order.
    var tagKeys: [String]

    init(_ draft: ProductDraft, categoryName: String?) {
        func document(_ family: ProductSearchRules.Family) -> ProductSearchDocument {
            ProductSearchDocument(title: draft.title, vendor: draft.vendor, tags: draft.tags, categoryName: categoryName,
                                  descriptionText: draft.descriptionText, family: family)
        }
        standard = Words(document(.standard))
        turkish = Words(document(.turkish))
        sortTitle = ProductSearchRules.sortTitle(draft.title)
        tagKeys = draft.tags.map(ProductSearchRules.tagKey)
    }

    /// The relevance tier (`ProductQuery.Sort.relevance`) when every term is found, else nil:
    /// 0 = all in the title, 1 = all in title, vendor, tags and category, 2 = otherwise.
    /// Every term must equal a word; the last may also start one (FTS5 `"term" *`).
    func tier(_ terms: [String], family: ProductSearchRules.Family) -> Int? {
        let words = family == .turkish ? turkish : standard
        var tier = 0
        for (index, term) in terms.enumerated() {
            let isPrefix = index == terms.count - 1
            func found(in field: [String]) -> Bool {
                field.contains { word in
                    isPrefix ? word.utf8.starts(with: term.utf8) : word.utf8.elementsEqual(term.utf8)
                }
            }
            if found(in: words.title) { continue }
            if found(in: words.meta) { tier = max(tier, 1); continue }
            if found(in: words.body) { tier = 2; continue }
            return nil
        }
        return tier
    }
}

/// A product in a query's scope, with what its sort needs.
private struct Candidate {
    var product: Product
    var entry: SearchEntry
    var lowestPrice: Int64?
    var tier: Int

    /// The order of `sort`, ending with the id; the same as the SQL store's `ORDER BY`
    /// (NULL sorts first ascending, last descending; text compared as UTF-8 bytes).
    static func areInIncreasingOrder(_ sort: ProductQuery.Sort, hasText: Bool) -> (Candidate, Candidate) -> Bool {
        func by<Key: Comparable>(_ key: @escaping (Candidate) -> Key, descending: Bool = false) -> (Candidate, Candidate) -> Bool {
            { lhs, rhs in
                let (l, r) = (key(lhs), key(rhs))
                if l != r { return descending ? l > r : l < r }
                return lhs.product.id < rhs.product.id
            }
        }
        switch sort {
        case .relevance:
            return hasText ? by { $0.tier } : by { $0.product.id.rawValue }
        case .featured:
            return by { $0.product.id.rawValue }
        case .priceAscending:
            return by { $0.lowestPrice ?? .min }
        case .priceDescending:
            return by({ $0.lowestPrice ?? .min }, descending: true)
        case .newest:
            return by({ $0.product.publishedAt.map(StoredTime.unixSeconds) ?? .min }, descending: true)
        case .rating:
            return { lhs, rhs in
                let l = (lhs.product.rating?.rateHundredths ?? -1, lhs.product.rating?.count ?? 0)
                let r = (rhs.product.rating?.rateHundredths ?? -1, rhs.product.rating?.count ?? 0)
                return l != r ? l > r : lhs.product.id < rhs.product.id
            }
        case .name:
            return { lhs, rhs in
                let (l, r) = (lhs.entry.sortTitle, rhs.entry.sortTitle)
                if !l.utf8.elementsEqual(r.utf8) { return ProductSearchRules.codePointPrecedes(l, r) }
                return lhs.product.id < rhs.product.id
            }
        }
    }
}
