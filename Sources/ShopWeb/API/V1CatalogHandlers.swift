import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// Catalog reads: categories, product lists (the storefront listing's sort and filters, search
/// with the same locale-aware folding, cursor pagination) and product detail.
extension V1Handlers {
    /// Default and largest page size of `GET /api/v1/products`.
    static let defaultPageSize = 24
    static let maximumPageSize = 100

    /// `GET /api/v1/categories`.
    static func categories(_ context: RequestContext) throws -> Response {
        let categories = try context.environment.catalog.categories().map {
            V1Category(id: $0.category.id.rawValue, handle: $0.category.handle, name: $0.category.name,
                       productCount: $0.productCount, image: $0.imageURL.map { FakeStoreHandlers.absolute($0, context) })
        }
        return try FakeStoreHandlers.catalogRead(categories, context)
    }

    /// `GET /api/v1/products`: the web listing's rules (`Listing` → `ProductQuery`), one page
    /// from the cursor on, stock net of every live hold (as the category page shows it).
    static func products(_ query: V1ProductQuery, _ context: RequestContext) throws -> Response {
        if let sort = query.sort, ProductQuery.Sort(rawValue: sort) == nil {
            throw invalidParameter("sort", .apiInvalidSort,
                                   ["sort": sort, "sorts": ProductQuery.Sort.allCases.map(\.rawValue).joined(separator: ", ")])
        }
        var pageSize = defaultPageSize
        if let limit = query.limit {
            guard let value = Int(limit), (1...maximumPageSize).contains(value) else {
                throw invalidParameter("limit", .apiInvalidLimit, ["maximum": "\(maximumPageSize)"])
            }
            pageSize = value
        }
        let offset = try query.cursor.map(Cursor.offset) ?? 0
        let words = (query.q ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let searching = ProductQuery.isSearchable(words)
        let listing = Listing.parse { name in
            switch name {
            case "sort": query.sort
            case "min": query.min
            case "max": query.max
            case "rating": query.rating
            case "instock": query.instock
            case "vendor": query.vendor
            case "tag": query.tag
            case "price": query.price
            default: nil
            }
        } ?? Listing()
        let catalog = context.environment.catalog
        guard var productQuery = listing.productQuery(pageSize: pageSize, currency: context.environment.currency,
                                                      locale: context.l10n.language.searchLocale,
                                                      defaultSort: searching ? .relevance : .featured) else {
            throw invalidParameter("cursor", .apiInvalidCursor)
        }
        productQuery.offset = offset
        productQuery.includesFacets = query.facets == "1"

        if let handle = query.category {
            guard let category = try catalog.categoryByHandle(handle) else {
                throw APIError.notFound(.apiNoCategory, ["category": handle])
            }
            productQuery.categoryID = category.id
        }
        if searching {
            productQuery.text = String(words.prefix(200))
        } else if !words.isEmpty {
            productQuery.productIDs = []  // words without a letter or digit find nothing, not everything
        }
        let holder = try holder(context)
        let page = try context.environment.carts.listing(productQuery, for: holder)
        let products = page.products
        let next = offset + products.count
        let answer = V1ProductPage(products: products.map { summary($0, context) }, totalCount: page.totalCount,
                                   nextCursor: !products.isEmpty && next < page.totalCount ? Cursor.make(offset: next) : nil,
                                   suggestion: page.suggestion,
                                   facets: page.facets.map { facets($0, context) },
                                   totalCountIsCapped: page.totalCountIsCapped ? true : nil,
                                   facetsAreSampled: page.facetsAreSampled ? true : nil)
        return try holder != nil ? FakeStoreHandlers.privateRead(answer) : FakeStoreHandlers.catalogRead(answer, context)
    }

    /// The bearer, when their cart has a held product: they get lists of their own, answered
    /// privately (their own hold stays buyable to them, as on the storefront's lists); nil for
    /// every other caller, who gets the shared, cacheable list.
    static func holder(_ context: RequestContext) throws -> Shopper? {
        let carts = context.environment.carts
        guard let shopper = try APIApp.bearerSession(context)?.session.shopper,
              try carts.mayHoldStock({ try carts.cart(of: shopper) }) else { return nil }
        return shopper
    }

    /// The wire form of a page's facets.
    static func facets(_ facets: ProductFacets, _ context: RequestContext) -> V1Facets {
        V1Facets(
            categories: facets.categories.map { .init(handle: $0.value.handle, name: $0.value.name, count: $0.count) },
            uncategorized: facets.uncategorized,
            vendors: facets.vendors.map { .init(vendor: $0.value, count: $0.count) },
            priceBands: facets.priceBands.map { band in
                .init(key: band.value.key, min: money(Money(minorUnits: band.value.lowerMinor, currency: band.value.currency), context),
                      max: band.value.upperMinor.map { money(Money(minorUnits: $0, currency: band.value.currency), context) },
                      count: band.count)
            },
            inStock: facets.inStock)
    }

    /// `GET /api/v1/products/{handle}`: stock net of other shoppers' holds — the caller's own
    /// hold counts as theirs when a token is sent (then the answer is private to them).
    static func product(_ handle: String, _ context: RequestContext) throws -> Response {
        let catalog = context.environment.catalog
        guard let listed = try catalog.productByHandle(handle), !listed.variants.isEmpty else {
            throw APIError.notFound(.apiNoProduct, ["product": "“\(handle)”"])
        }
        let shopper = try APIApp.bearerSession(context)?.session.shopper
        let product = try context.environment.carts.available([listed], to: shopper)[0]
        let category = try product.categoryID.flatMap { id in
            try catalog.categories().first { $0.category.id == id }.map { V1CategoryRef(handle: $0.category.handle, name: $0.category.name) }
        }
        let related = try context.availableToEveryone(try ShopApp.relatedProducts(to: product, context.environment))
        let answer = V1Product(
            id: product.id.rawValue, handle: product.handle, title: product.title, descriptionHTML: product.descriptionHTML,
            descriptionText: product.descriptionText, vendor: product.vendor, category: category, tags: product.tags,
            publishedAt: product.publishedAt,
            images: product.images.map { image($0, context) },
            rating: rating(product.rating),
            options: context.environment.optionNames.names(product.optionNames, in: context.l10n.language),
            variants: product.variants.map { variant in
                V1Variant(id: variant.id.rawValue, sku: variant.sku, options: variant.optionValues, price: money(variant.price, context),
                          compareAtPrice: variant.compareAtPrice.map { money($0, context) },
                          available: variant.inventory.availableQuantity, soldOut: variant.inventory.isSoldOut,
                          barcode: variant.barcode, choices: variant.isOpen ? variant.optionChoices : nil)
            },
            related: related.map { summary($0, context) })
        guard shopper == nil else { return try FakeStoreHandlers.privateRead(answer) }
        return try FakeStoreHandlers.catalogRead(answer, context)
    }

    /// `GET /api/v1/featured?view=recommendations`: the home page's featured row, or the
    /// caller's recommendations (the bearer's cart and favorites, as the home page reads the
    /// visitor's) — the same rules as the page (`ShopApp.featuredProducts`, `recommendedProducts`).
    static func featured(recommendations: Bool, _ context: inout RequestContext) throws -> Response {
        guard recommendations else {
            let holder = try holder(context)
            let featured = V1Featured(products: try ShopApp.featuredProducts(context.environment, for: holder)
                .map { summary($0, context) }, recommendations: false)
            return try holder != nil ? FakeStoreHandlers.privateRead(featured) : FakeStoreHandlers.catalogRead(featured, context)
        }
        if try APIApp.bearerSession(context) != nil { _ = try shopper(&context) }
        let products = try ShopApp.recommendedProducts(&context)
        return try FakeStoreHandlers.privateRead(V1Featured(products: products.map { summary($0, context) }, recommendations: true))
    }

    /// The opaque `cursor` of `GET /api/v1/products`: where the next page starts, base64url.
    /// Clients pass `nextCursor` back unchanged; the format may change.
    enum Cursor {
        static let prefix = "o:"
        /// Far beyond any catalog; keeps the store's offset arithmetic safe.
        static let largestOffset = 10_000_000

        static func make(offset: Int) -> String {
            Data((prefix + String(offset)).utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }

        /// - Throws: 400 `invalid_parameter` (`cursor`) for anything `make` did not give.
        static func offset(_ cursor: String) throws -> Int {
            var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            guard cursor.count <= 64, let data = Data(base64Encoded: base64),
                  let text = String(data: data, encoding: .utf8), text.hasPrefix(prefix),
                  let offset = Int(text.dropFirst(prefix.count)), (0...largestOffset).contains(offset) else {
                throw invalidParameter("cursor", .apiInvalidCursor)
            }
            return offset
        }
    }
}
