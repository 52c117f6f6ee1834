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

    func page(_ query: ProductQuery) -> ProductPage {
        var matching = products.values.filter {
            $0.isPublished && (query.categoryID == nil || $0.categoryID == query.categoryID)
        }
        switch query.sort {
        case .featured:
            matching.sort { $0.id < $1.id }
        case .rating:
            // Same order as SQL `rating_hundredths DESC, rating_count DESC, id` with NULL last.
            func key(_ product: Product) -> (Int, Int) {
                (product.rating?.rateHundredths ?? -1, product.rating?.count ?? 0)
            }
            matching.sort { lhs, rhs in
                let (l, r) = (key(lhs), key(rhs))
                return l != r ? l > r : lhs.id < rhs.id
            }
        }
        let slice = matching.dropFirst(query.offset).prefix(query.limit)
        return ProductPage(products: Array(slice), totalCount: matching.count)
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
        }
        return result
    }
}
