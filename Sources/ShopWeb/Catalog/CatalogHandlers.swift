import Foundation
import HTML
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// Browsing: home, categories, a category's listing, search and product pages (cached pages).
extension ShopApp {
    static func catalog(_ route: SiteRoute.CatalogRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .home: return try home(&context)
        case .homeRecommendations: return try homeRecommendations(&context)
        case .categories: return try categories(&context, query: nil)
        case let .categorySearch(query): return try categories(&context, query: query)
        case let .category(handle, listing): return try category(&context, handle: handle, listing: listing)
        case let .allProducts(filter, listing): return try allProducts(&context, filter: filter, listing: listing)
        case let .search(query, filter, listing): return try search(&context, query: query, filter: filter, listing: listing)
        case let .product(handle, variant): return try product(&context, handle: handle, variant: variant)
        case .badge:
            return JSONText.response(["cart": .int(try context.cartItemCount()), "favorites": .int(try context.favoriteIDs().count)])
        case let .layout(value, returnTo):
            context.setCookies.append(context.cookie(layoutCookie, value, maxAge: 60 * 60 * 24 * 365))
            return .redirect(to: SafeRedirect.localPath(returnTo) ?? SiteRoute.catalog(.home).path)
        case let .theme(value, returnTo):
            // "system" is the default: the cookie is deleted rather than kept.
            let theme = Theme(cookie: value)
            context.setCookies.append(context.cookie(themeCookie, theme == .system ? "" : theme.rawValue,
                                                     maxAge: theme == .system ? 0 : 60 * 60 * 24 * 365))
            return .redirect(to: SafeRedirect.localPath(returnTo) ?? SiteRoute.catalog(.home).path)
        }
    }

    static func home(_ context: inout RequestContext) throws -> Response {
        try cachedPage(&context) { context in
            let catalog = context.environment.catalog
            let categories = try catalog.categories()
            let page = context.models.homePage(categories: categories,
                                               featured: try featuredProducts(context.environment, for: context.listingShopper()),
                                               campaigns: try context.campaignSchedule().active, showingRecommendations: false,
                                               timeZone: context.environment.timeZone)
            return PageContent(title: context.l10n(.homeTitle), tab: .home,
                               node: Views.home(page, l10n: context.l10n, returnTo: SiteRoute.catalog(.home).path))
        }
    }

    static func categories(_ context: inout RequestContext, query: String?) throws -> Response {
        try cachedPage(&context) { context in
            var summaries = try context.environment.catalog.categories()
            if let query {
                let words = query.split(whereSeparator: \.isWhitespace)
                summaries = summaries.filter { summary in
                    words.allSatisfy { summary.category.name.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
                }
            }
            let page = CategoriesPage(categories: summaries.map(context.models.categoryLink), query: query ?? "")
            return PageContent(title: context.l10n(.categoriesTitle), tab: .categories,
                               node: Views.categories(page, l10n: context.l10n))
        }
    }

    static func category(_ context: inout RequestContext, handle: String, listing: Listing) throws -> Response {
        // Handles are lower-case: `/categories/Chairs` (typed, or from a link that capitalized
        // it) is `/categories/chairs` (a fresh tester's was a 404).
        if let lowered = Self.lowerCased(handle) {
            return .redirect(to: SiteRoute.catalog(.category(handle: lowered, listing: listing)).path, status: .movedPermanently)
        }
        // The name sort follows the shopper's language, like search (the cache key says which).
        // The name sort follows the page's language (the page cache is kept per language).
        let locale = context.l10n.language.searchLocale
        return try cachedPage(&context) { context in
            let catalog = context.environment.catalog
            guard let category = try catalog.categoryByHandle(handle),
                  var query = listing.productQuery(pageSize: pageSize, currency: context.environment.currency,
                                                   locale: locale, typedIn: context.l10n.language, defaultSort: .featured) else { return nil }
            query.categoryID = category.id
            let result = try context.listing(query)
            if result.products.isEmpty && listing.page > 1 { return nil }
            let model = context.models.categoryPage(category: category, page: result, listing: listing, pageSize: pageSize)
            return PageContent(title: category.name, tab: .categories,
                               node: Views.category(model, l10n: context.l10n, returnTo: context.canonicalPath))
        }
    }

    /// `GET /products`: every listed product, like a category page, with a category filter
    /// (issue #13: products without a category are reachable by browsing too).
    static func allProducts(_ context: inout RequestContext, filter: ProductsCategoryFilter?,
                            listing: Listing) throws -> Response {
        let locale = context.l10n.language.searchLocale
        return try cachedPage(&context) { context in
            let catalog = context.environment.catalog
            guard var query = listing.productQuery(pageSize: pageSize, currency: context.environment.currency,
                                                   locale: locale, typedIn: context.l10n.language, defaultSort: .featured) else { return nil }
            guard try narrow(&query, to: filter, catalog) else { return nil }
            let result = try context.listing(query)
            if result.products.isEmpty && listing.page > 1 { return nil }
            let model = context.models.allProductsPage(filter: filter, categories: try catalog.categories(), page: result,
                                                       listing: listing, pageSize: pageSize)
            return PageContent(title: model.name, tab: .categories,
                               node: Views.category(model, l10n: context.l10n, returnTo: context.canonicalPath))
        }
    }

    /// Narrows `query` to the products of one category, or to those without one; false when the
    /// category does not exist (the page is then a 404).
    private static func narrow(_ query: inout ProductQuery, to filter: ProductsCategoryFilter?,
                               _ catalog: CatalogStore) throws -> Bool {
        switch filter {
        case nil: return true
        case .uncategorized: query.uncategorizedOnly = true
        case let .category(handle):
            guard let category = try catalog.categoryByHandle(handle) else { return false }
            query.categoryID = category.id
        }
        return true
    }

    /// `GET /search?q=…`: ranked, paginated, filterable; the words are echoed back escaped.
    static func search(_ context: inout RequestContext, query text: String, filter: ProductsCategoryFilter?,
                       listing: Listing) throws -> Response {
        let locale = context.l10n.language.searchLocale
        return try cachedPage(&context, keySuffix: " " + locale.rawValue) { context in
            let l10n = context.l10n
            let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let catalog = context.environment.catalog
            // Without a letter or digit there is nothing to search for: show the search box.
            guard ProductQuery.isSearchable(words) else {
                return PageContent(title: l10n(.searchTitle), tab: nil,
                                   node: Views.search(SearchPage(query: "", heading: l10n(.searchPrompt), cards: [],
                                                                 pagination: nil, controls: nil, suggestions: []),
                                                      l10n: l10n, returnTo: context.canonicalPath))
            }
            guard var query = listing.productQuery(pageSize: pageSize, currency: context.environment.currency,
                                                   locale: locale, typedIn: context.l10n.language, defaultSort: .relevance) else { return nil }
            query.text = String(words.prefix(200))
            guard try narrow(&query, to: filter, catalog) else { return nil }
            // Cards shared by every visitor show stock net of everyone's holds, as on category
            // pages (a fresh tester found search cards offering what checkouts held).
            let result = try context.listing(query)
            if result.products.isEmpty && listing.page > 1 { return nil }
            let models = context.models
            // Read once: the categories to browse when nothing matched.
            let allCategories = result.totalCount == 0 ? try catalog.categories() : nil
            let page = SearchPage(
                query: words,
                heading: result.totalCount == 0 ? l10n(.searchEmptyTitle, ["query": words])
                    : result.totalCountIsCapped
                    ? l10n(.searchResultsCapped, ["query": words, "count": l10n.number(result.totalCount)])
                    : l10n.count(result.totalCount, .searchResults, ["query": words]),
                cards: result.products.map(models.card),
                pagination: models.pagination(total: result.totalCount, pageSize: pageSize, page: listing.page) {
                    SiteRoute.catalog(.search(query: words, category: filter, listing: listing.onPage($0))).path
                },
                controls: result.totalCount == 0 && !listing.hasFilters ? nil
                    : models.listingControls(listing, page: result, action: "/search",
                                             hidden: [("q", words)] + (filter.map { [("category", $0.queryValue)] } ?? []),
                                             sorts: [.relevance, .priceAscending, .priceDescending, .newest, .rating, .name],
                                             defaultSort: .relevance),
                suggestions: Self.browsingSuggestions(allCategories ?? []).map(models.categoryLink),
                moreCategories: (allCategories?.count ?? 0) > Self.browsingSuggestionCount,
                didYouMean: result.suggestion.map { words in
                    (words, SiteRoute.catalog(.search(query: words, listing: Listing())).path)
                },
                filterLinks: result.totalCount == 0 && filter == nil ? []
                    : models.categoryFilterLinks(filter, categories: try catalog.categories(), page: result,
                                                 hidingEmpty: true) { choice in
                        SiteRoute.catalog(.search(query: words, category: choice, listing: listing.onPage(1))).path
                    })
            return PageContent(title: l10n(.searchTitle) + ": " + words, tab: nil,
                               node: Views.search(page, l10n: l10n, returnTo: context.canonicalPath))
        }
    }

    static func product(_ context: inout RequestContext, handle: String, variant: Variant.ID?) throws -> Response {
        if let lowered = Self.lowerCased(handle) {
            return .redirect(to: SiteRoute.catalog(.product(handle: lowered, variant: variant)).path, status: .movedPermanently)
        }
        // A shopper holding some of this product at checkout sees it as theirs to buy, not as
        // "sold out" by their own hold: that page is theirs alone, rendered without the cache.
        if let shopper = try context.shopper(), let orders = context.environment.orders,
           try !context.cart().lines.isEmpty,  // most shoppers' pages stop here, with no extra query
           let listed = try context.environment.catalog.productByHandle(handle),
           try context.cart().lines.contains(where: { $0.productID == listed.id }) {
            let ids = listed.variants.map(\.id)
            if try orders.available(ids, shopper, context.now) != orders.available(ids, nil, context.now) {
                return try page(&context, productContent(try context.availableToShopper(listed), variant, context))
            }
        }
        return try cachedPage(&context) { context in
            guard let listed = try context.environment.catalog.productByHandle(handle), !listed.variants.isEmpty else {
                return nil
            }
            return try productContent(try context.availableToEveryone([listed])[0], variant, context)
        }
    }

    /// `handle` lower-cased when it has an upper-case ASCII letter (no stored handle has one,
    /// `Handle.make`), else nil.
    static func lowerCased(_ handle: String) -> String? {
        handle.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? handle.lowercased() : nil
    }

    /// How many categories a search that found nothing offers to browse.
    static let browsingSuggestionCount = 6

    /// The categories a search that found nothing offers: the largest, in the list's order.
    static func browsingSuggestions(_ categories: [CategorySummary]) -> [CategorySummary] {
        let largest = Set(categories.enumerated().sorted { ($0.element.productCount, -$0.offset) > ($1.element.productCount, -$1.offset) }
            .prefix(browsingSuggestionCount).map(\.offset))
        return categories.enumerated().filter { largest.contains($0.offset) }.map(\.element)
    }

    static func productContent(_ product: Product, _ variant: Variant.ID?, _ context: RequestContext) throws -> PageContent {
        let page = context.models.productPage(product, category: try context.category(of: product), selected: variant,
                                              timeZone: context.environment.timeZone)
        let related = try context.availableToEveryone(try relatedProducts(to: product, context.environment))
            .map(context.models.card)
        return PageContent(title: product.title, tab: .categories, mainClass: "product-page",
                           node: Views.product(page, related: related, l10n: context.l10n))
    }

    /// Up to 8 products from the same category, those sharing the most tags first, then those in
    /// stock, then the best rated; never the product itself (issue #4).
    ///
    /// The candidates — the category's 100 best rated — are the same for every product of the
    /// category: their ids are kept per category and catalog version (`relatedCandidates`) and
    /// the products come from the ones kept by id. Reading them per product page was 18 % of a
    /// product page the page cache did not have (issue #14: "related products computed once per
    /// catalog version").
    static func relatedProducts(to product: Product, _ environment: AppEnvironment) throws -> [Product] {
        guard let categoryID = product.categoryID else { return [] }
        let catalog = environment.catalog
        let version = try catalog.version()
        let ids: [Product.ID]
        if let kept = environment.relatedCandidates.read(at: version, { $0[categoryID] }) ?? nil {
            ids = kept
        } else {
            ids = try catalog.products(ProductQuery(categoryID: categoryID, sort: .rating, limit: 100)).products.map(\.id)
            environment.relatedCandidates.update(at: version, empty: [:]) { $0[categoryID] = ids }
        }
        let byID = try catalog.productsByID(ids)
        // Kept products may be of a newer version than the ids: one that has left the category is skipped.
        let candidates = ids.compactMap { byID[$0] }.filter { $0.categoryID == categoryID }
        let tags = Set(product.tags.map { $0.lowercased() })
        return candidates.enumerated()
            .filter { $0.element.id != product.id }
            .map { (index: $0.offset, product: $0.element,
                    shared: $0.element.tags.filter { tags.contains($0.lowercased()) }.count) }
            .sorted { lhs, rhs in
                if lhs.shared != rhs.shared { return lhs.shared > rhs.shared }
                if lhs.product.isSoldOut != rhs.product.isSoldOut { return !lhs.product.isSoldOut }
                return lhs.index < rhs.index
            }
            .prefix(8).map(\.product)
    }

    /// The home page's featured row (and `GET /api/v1/featured`): up to 12, best rated first, but
    /// what can be bought now before what is sold out (stock net of checkouts' holds — but for
    /// `shopper`'s own, which stay buyable to them, as on every list: `CartService.listing`).
    static func featuredProducts(_ environment: AppEnvironment, for shopper: Shopper? = nil) throws -> [Product] {
        let rated = try environment.carts.listing(ProductQuery(sort: .rating, limit: 24), for: shopper).products
        return Array((rated.filter { !$0.isSoldOut } + rated.filter(\.isSoldOut)).prefix(12))
    }

    /// The home page's recommendations for the request's shopper (and
    /// `GET /api/v1/featured?view=recommendations`): up to 12 best-rated products they can buy and
    /// have not got in the cart; when they have favorites, products from their favorites'
    /// categories first. Personal, so never cached.
    static func recommendedProducts(_ context: inout RequestContext) throws -> [Product] {
        let inCart = Set(try context.cart().lines.map(\.productID))
        let favoriteIDs = try context.favoriteIDs()
        let favoriteCategories = Set(try context.products(favoriteIDs).values.compactMap(\.categoryID))
        let candidates = try bestRatedInStock(context.environment).filter { !inCart.contains($0.id) }
        let ranked = candidates.enumerated().sorted { lhs, rhs in
            let left = lhs.element.categoryID.map(favoriteCategories.contains) ?? false
            let right = rhs.element.categoryID.map(favoriteCategories.contains) ?? false
            return left != right ? left : lhs.offset < rhs.offset
        }.map(\.element)
        return Array(ranked.prefix(12))
    }

    /// The 60 best-rated products that can be bought now: the same for every shopper, read once per
    /// shared version (the catalog's and the holds' ends: `SharedVersion`; the cart page's
    /// recommendations ran this query on every request: 9 % of its CPU, issue #14). Each
    /// shopper's list filters and orders it.
    static func bestRatedInStock(_ environment: AppEnvironment) throws -> [Product] {
        try environment.bestRatedInStock.value(at: environment.sharedVersion(at: environment.now())) {
            try environment.carts.listing(ProductQuery(sort: .rating, inStockOnly: true, limit: 60)).products
        }
    }

    /// The home page with the visitor's recommendations in the featured row.
    static func homeRecommendations(_ context: inout RequestContext) throws -> Response {
        let featured = try recommendedProducts(&context)
        let categories = try context.environment.catalog.categories()
        let schedule = try context.campaignSchedule()
        let page = context.models.homePage(categories: categories, featured: featured,
                                           campaigns: schedule.active, showingRecommendations: true,
                                               timeZone: context.environment.timeZone)
        return try self.page(&context, PageContent(title: context.l10n(.homeTitle), tab: .home,
                                                   node: Views.home(page, l10n: context.l10n,
                                                                    returnTo: SiteRoute.catalog(.homeRecommendations).path)))
    }
}
