import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// Browsing: home, categories, search, products.
    public enum CatalogRoute: Hashable, Sendable {
        /// `GET /` — campaign banners, categories, featured products.
        case home
        /// `GET /?view=recommendations` — the home page with recommendations for this visitor.
        case homeRecommendations
        /// `GET /categories` — every category with its product count.
        case categories
        /// `GET /categories?q=…` — categories whose name contains the words (works without
        /// JavaScript; with it the list filters as you type).
        case categorySearch(query: String)
        /// `GET /categories/{handle}?sort=…&page=N` — a category's products, sorted and filtered.
        case category(handle: String, listing: Listing)
        /// `GET /products?category=…&sort=…&page=N` — every listed product (issue #13), sorted and
        /// filtered like a category, optionally narrowed to one category or to those without one.
        case allProducts(category: ProductsCategoryFilter?, listing: Listing)
        /// `GET /search?q=…&category=…&sort=…` — products matching the words, optionally in one
        /// category or among those without one.
        case search(query: String, category: ProductsCategoryFilter? = nil, listing: Listing)
        /// `GET /products/{handle}?variant={id}` — a product, optionally with a variant chosen.
        case product(handle: String, variant: Variant.ID?)
        /// `GET /layout?set=grid|list&return_to=…` — remembers the product list layout in a cookie.
        case layout(String, returnTo: String?)
        /// `GET /theme?set=system|light|dark&return_to=…` — remembers the colour theme in a cookie.
        case theme(String, returnTo: String?)
        /// `GET /badge` — the visitor's cart and favorites counts as JSON, for the live badges.
        case badge
    }

    /// The declarations of ``CatalogRoute``, tried in this order.
    static let catalogRoutes: [Declaration] = [
        Declaration("GET", "/", [],
                    make: { $0.queryValue("view") == "recommendations" ? .catalog(.homeRecommendations) : nil },
                    match: { $0 == .catalog(.homeRecommendations) ? Parameters(query: ["view": "recommendations"]) : nil }),
        fixed("GET", "/", [.cacheable], .catalog(.home)),
        Declaration("GET", "/categories", [.cacheable],
                    make: { parameters in
                        guard let query = parameters.queryValue("q"),
                              !query.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
                        return .catalog(.categorySearch(query: query))
                    },
                    match: { if case let .catalog(.categorySearch(query)) = $0 { Parameters(query: ["q": query]) } else { nil } }),
        fixed("GET", "/categories", [.cacheable], .catalog(.categories)),
        Declaration("GET", "/categories/{handle}", [.cacheable],
                    make: { parameters in
                        Listing.parse(parameters.queryValue).map { .catalog(.category(handle: parameters["handle"], listing: $0)) }
                    },
                    match: { route in
                        guard case let .catalog(.category(handle, listing)) = route else { return nil }
                        return Parameters(["handle": handle], query: listingItems(listing))
                    }),
        Declaration("GET", "/products", [.cacheable],
                    make: { parameters in
                        let filter = parameters.queryValue("category").flatMap(ProductsCategoryFilter.init(queryValue:))
                        return Listing.parse(parameters.queryValue).map { .catalog(.allProducts(category: filter, listing: $0)) }
                    },
                    match: { route in
                        guard case let .catalog(.allProducts(filter, listing)) = route else { return nil }
                        return Parameters(query: (filter.map { [RouteRequest.QueryItem("category", $0.queryValue)] } ?? [])
                                          + listingItems(listing))
                    }),
        Declaration("GET", "/search", [.cacheable],
                    make: { parameters in
                        let filter = parameters.queryValue("category").flatMap(ProductsCategoryFilter.init(queryValue:))
                        return Listing.parse(parameters.queryValue).map {
                            .catalog(.search(query: parameters.queryValue("q") ?? "", category: filter, listing: $0))
                        }
                    },
                    match: { route in
                        guard case let .catalog(.search(query, filter, listing)) = route else { return nil }
                        return Parameters(query: [RouteRequest.QueryItem("q", query)]
                                          + (filter.map { [RouteRequest.QueryItem("category", $0.queryValue)] } ?? [])
                                          + listingItems(listing))
                    }),
        Declaration("GET", "/products/{handle}", [.cacheable],
                    make: { parameters in
                        let variant = parameters.queryValue("variant").flatMap { Int64($0) }.map(Variant.ID.init(rawValue:))
                        return .catalog(.product(handle: parameters["handle"], variant: variant))
                    },
                    match: { route in
                        guard case let .catalog(.product(handle, variant)) = route else { return nil }
                        return Parameters(["handle": handle], query: ["variant": variant.map { String($0.rawValue) }])
                    }),
        Declaration("GET", "/layout", [],
                    make: { parameters in
                        guard let value = parameters.queryValue("set"), ["grid", "list"].contains(value) else { return nil }
                        return .catalog(.layout(value, returnTo: parameters.queryValue("return_to")))
                    },
                    match: { route in
                        guard case let .catalog(.layout(value, returnTo)) = route else { return nil }
                        return Parameters(query: ["set": value, "return_to": returnTo])
                    }),
        Declaration("GET", "/theme", [],
                    make: { parameters in
                        guard let value = parameters.queryValue("set"), Theme(rawValue: value) != nil else { return nil }
                        return .catalog(.theme(value, returnTo: parameters.queryValue("return_to")))
                    },
                    match: { route in
                        guard case let .catalog(.theme(value, returnTo)) = route else { return nil }
                        return Parameters(query: ["set": value, "return_to": returnTo])
                    }),
        fixed("GET", "/badge", [], .catalog(.badge)),
    ]
}

/// The category filter of All products (`/products?category=…`).
public enum ProductsCategoryFilter: Hashable, Sendable {
    /// One category, by handle.
    case category(handle: String)
    /// Products without a category.
    case uncategorized

    /// The query value for "no category": `_none`, which no handle can be (handles are
    /// lower-case letters, digits and `-`).
    static let uncategorizedValue = "_none"

    /// Reads `?category=`; nil for an empty value (no filter).
    init?(queryValue value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        self = trimmed == Self.uncategorizedValue ? .uncategorized : .category(handle: trimmed)
    }

    /// The `?category=` value.
    var queryValue: String {
        switch self {
        case let .category(handle): handle
        case .uncategorized: Self.uncategorizedValue
        }
    }
}
