public import Foundation
public import ShopCore

/// A category with the number of published products listed under it.
public struct CategorySummary: Hashable, Sendable {
    /// The category.
    public var category: Category
    /// Published products in it.
    public var productCount: Int
    /// The main image of its first published product (lowest id) that has one, for tiles.
    public var imageURL: String?

    /// Creates a summary.
    public init(category: Category, productCount: Int, imageURL: String? = nil) {
        self.category = category
        self.productCount = productCount
        self.imageURL = imageURL
    }
}

/// Which products to list, in which order, which page: a category, search words, a list of
/// ids (campaign products), filters and a sort. Unpublished products are never listed; without
/// search text only listed products (`CatalogVisibility.isListed`) are, with it only searchable
/// ones (`.isSearchable`).
///
/// Search (`text`): the words of `SearchFolding.terms(text, locale:)` must ALL be found among
/// the folded words of the product's title, vendor, tags, category name or description text
/// (any mix of fields). Every word must equal a folded word of the product, except the last,
/// which may also be its beginning ("oak cha" finds "Oak Chair"). A word also matches when its
/// stem in the query's `locale` is among the product's stems (`ProductSearchStemmer`: "mugs"
/// finds "Mug"), and, when neither finds anything, through the vocabulary words within its typo
/// budget (`SearchTolerance`: "chiar" finds "Chair"), ranked below every match without typos.
/// Separately, the whole text finds the products with a SKU whose key equals or starts with the
/// text's (`ProductSearchRules.skuKey`), and, when that key is 4 digits or more, the products
/// with a barcode equal to it or starting with it (`ProductSearchRules.barcodeSearchToken`).
/// A text without letters or digits (empty, blanks,
/// punctuation only) searches nothing: the query then lists as if `text` were nil.
///
/// ```swift
/// let page = try catalog.products(ProductQuery(text: "ışık", locale: .turkish, sort: .relevance,
///                                              inStockOnly: true, limit: 12))
/// ```
public struct ProductQuery: Hashable, Sendable {
    /// Sort orders. Every order ends with the product id (ascending) as a tie-break, so pages
    /// never repeat or skip a product. Raw values are short, URL-friendly names.
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        /// With search text: products whose title holds every search word (or stem) or with a
        /// SKU equal to the text first, then those whose title, vendor, tags and category name
        /// together hold every word, then the rest (a word found only in the description, a SKU
        /// prefix), then the products found only through a typo; id within each tier. Without
        /// text: as `.featured`.
        case relevance
        /// Merchant order: as imported (ascending id).
        case featured
        /// Lowest variant price first (products without variants first), then id.
        case priceAscending = "price-asc"
        /// Highest "lowest variant price" first, then id.
        case priceDescending = "price-desc"
        /// Latest `publishedAt` first, products without a date last, then id.
        case newest
        /// Best rated first (rating, then rating count; unrated last), then id.
        case rating
        /// By `ProductSearchRules.sortTitle(_:locale:)` in the query's `locale` (the title folded,
        /// with the language's own letters — Turkish `ç`, `ı`, `ş`…, Spanish `ñ` — in their
        /// alphabet's place), compared by UTF-8 bytes, then id.
        case name
    }

    /// Only products in this category; nil for all.
    public var categoryID: Category.ID?
    /// Only products without a category (the "Uncategorized" filter of All products).
    public var uncategorizedOnly: Bool
    /// Search words (see the type's documentation); nil for no search.
    public var text: String?
    /// Whether `text` holds anything to search for: a letter or a digit. Text without one
    /// (`🪑`, `"`, `-`) finds nothing — the search page shows its box, the API an empty list.
    public static func isSearchable(_ text: some StringProtocol) -> Bool {
        text.contains { $0.isLetter || $0.isNumber }
    }
    /// The language whose folding rules `text` and the products are compared with.
    public var locale: SearchLocale
    /// Only products with these ids (a campaign's list); nil for no restriction, empty for none.
    /// Order and duplicates do not matter: the sort decides the order.
    public var productIDs: [Product.ID]?
    /// The order.
    public var sort: Sort
    /// Only products whose lowest variant price is at least this many minor units (shop currency).
    public var minPriceMinor: Int64?
    /// Only products whose lowest variant price is at most this many minor units (shop currency).
    public var maxPriceMinor: Int64?
    /// Only products whose lowest variant price lies in this band (`PriceBand`; products
    /// without variants are in none). Applied with `minPriceMinor`/`maxPriceMinor` when both are set.
    public var priceBand: PriceBand?
    /// Only products rated at least this (hundredths of a star: 400 = 4.0); unrated ones are left out.
    public var minRatingHundredths: Int?
    /// Only products a shopper can buy now: at least one variant untracked, allowing backorder,
    /// or with stock above zero (`!Product.isSoldOut`).
    public var inStockOnly: Bool
    /// Products whose stock in hand is all held by checkouts (`CartService.heldOutProducts`): left out by
    /// `inStockOnly` and counted as sold out by the in-stock facet, as their cards show them.
    /// Empty by default; `CartService.listing(_:)` fills it for lists every visitor shares.
    public var heldOutProductIDs: [Product.ID] = []
    /// Only products of this vendor, compared exactly (the values of `ProductPage.vendors`).
    public var vendor: String?
    /// Only products with this tag, compared by `ProductSearchRules.tagKey(_:)` (case-insensitive).
    public var tag: String?
    /// Whether to fill `ProductPage.vendors`, `.tags` and `.facets` (more queries over the whole
    /// scope: ask only for pages that show the filter UI).
    public var includesFacets: Bool
    /// Products to skip (page × page size), ≥ 0.
    public var offset: Int
    /// Page size, 1...100.
    public var limit: Int

    /// Creates a query; `offset` is raised to 0 and `limit` clamped to 1...100.
    public init(categoryID: Category.ID? = nil, text: String? = nil, locale: SearchLocale = .english,
                productIDs: [Product.ID]? = nil, sort: Sort = .relevance,
                minPriceMinor: Int64? = nil, maxPriceMinor: Int64? = nil, minRatingHundredths: Int? = nil,
                inStockOnly: Bool = false, vendor: String? = nil, tag: String? = nil, includesFacets: Bool = false,
                offset: Int = 0, limit: Int = 24, uncategorizedOnly: Bool = false, priceBand: PriceBand? = nil) {
        self.categoryID = categoryID
        self.uncategorizedOnly = uncategorizedOnly
        self.text = text
        self.locale = locale
        self.productIDs = productIDs
        self.sort = sort
        self.minPriceMinor = minPriceMinor
        self.maxPriceMinor = maxPriceMinor
        self.minRatingHundredths = minRatingHundredths
        self.priceBand = priceBand
        self.inStockOnly = inStockOnly
        self.vendor = vendor
        self.tag = tag
        self.includesFacets = includesFacets
        self.offset = max(offset, 0)
        self.limit = min(max(limit, 1), 100)
    }

    /// The folded search words of `text` (empty when there is no search).
    public var searchTerms: [String] {
        text.map { SearchFolding.terms($0, locale: locale) } ?? []
    }
}

/// One page of products, the total that match the query, and the filter values on offer.
public struct ProductPage: Sendable {
    /// The products on this page, in query order.
    public var products: [Product]
    /// All published products matching the query (for page counts); for a search, at most
    /// `ProductPage.searchCountLimit` (`totalCountIsCapped` says when more match).
    public var totalCount: Int
    /// Whether a search matched more products than it counted: at least `totalCount` match
    /// ("1,000+"). The page's products are exact; its later pages stop at `totalCount`.
    public var totalCountIsCapped: Bool
    /// Whether `facets`, `vendors` and `tags` come from a search's first
    /// `ProductPage.searchCountLimit` matches only (the search matched more; `tags` from the first
    /// 250 of them): their values are those of that sample and each count is a lower bound.
    public var facetsAreSampled: Bool
    /// The distinct non-empty vendors of the products matching the query when its `vendor`
    /// filter is left out (all other conditions kept: the values of `facets.vendors`): the 50
    /// with the most products (ties by code point), in code-point order. Empty unless the
    /// query `includesFacets`.
    public var vendors: [String]
    /// The distinct tags of the products matching the query when its `vendor` and `tag` filters
    /// are left out, one spelling per `ProductSearchRules.tagKey(_:)`
    /// (the smallest in code-point order): the 50 on the most products (ties by spelling), in
    /// code-point order, so a long tail of one-off tags never hides the common ones. Empty
    /// unless the query `includesFacets`.
    public var tags: [String]
    /// The facets with their counts (category, vendor, price band, in stock); nil unless the
    /// query `includesFacets`.
    public var facets: ProductFacets?
    /// "Did you mean": when a search finds nothing, the search words with each word that found
    /// nothing replaced by its nearest vocabulary word (`SearchTolerance.suggestion`), folded and
    /// space-separated — given only when that text finds a published product; nil otherwise.
    public var suggestion: String?

    /// Creates a page.
    public init(products: [Product], totalCount: Int, vendors: [String] = [], tags: [String] = [],
                suggestion: String? = nil, facets: ProductFacets? = nil, totalCountIsCapped: Bool = false,
                facetsAreSampled: Bool = false) {
        self.products = products
        self.totalCountIsCapped = totalCountIsCapped
        self.facetsAreSampled = facetsAreSampled
        self.facets = facets
        self.totalCount = totalCount
        self.vendors = vendors
        self.tags = tags
        self.suggestion = suggestion
    }

    /// How many values `vendors` and `tags` hold at most.
    public static let facetLimit = 50

    /// How many matches a search counts, and computes its facets, vendors and tags over (issue
    /// #13, point 5: a search page within 20 ms on 100 000 products). A word that matches most of
    /// a catalog would otherwise join, group and sort every match on every page; past this many
    /// the shopper is better served by another word than by an exact count.
    public static let searchCountLimit = 1_000
}

/// The filter values a product list offers, each with the number of products it would list.
///
/// Counts are "disjunctive": a facet's counts keep every condition of the query except that
/// facet's own filter, so choosing a vendor still shows how many products the other vendors
/// have (the counts of `vendors` ignore `ProductQuery.vendor`, those of `categories` ignore
/// `categoryID`/`uncategorizedOnly`, those of `priceBands` ignore `priceBand`, and `inStock`
/// ignores `inStockOnly`); every other condition — search words, visibility, the tag, the
/// rating, min/max prices, the other facets' filters — applies.
public struct ProductFacets: Hashable, Sendable {
    /// One facet value and how many products it would list.
    public struct Count<Value: Hashable & Sendable>: Hashable, Sendable {
        /// The value (a category, a vendor, a price band).
        public var value: Value
        /// The number of products.
        public var count: Int

        /// Creates a count.
        public init(_ value: Value, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// Every category with at least one product, by name, then id (shops have few categories).
    public var categories: [Count<Category>]
    /// Products without a category (same conditions as `categories`).
    public var uncategorized: Int
    /// Non-empty vendors with at least one product: the `ProductPage.facetLimit` with the most
    /// products, in code-point order.
    public var vendors: [Count<String>]
    /// Every `PriceBand.bands(for:)` of the shop currency, lowest first, zero counts included.
    public var priceBands: [Count<PriceBand>]
    /// Products a shopper can buy now (`ProductQuery.inStockOnly`'s condition).
    public var inStock: Int

    /// Creates facets.
    public init(categories: [Count<Category>] = [], uncategorized: Int = 0, vendors: [Count<String>] = [],
                priceBands: [Count<PriceBand>] = [], inStock: Int = 0) {
        self.categories = categories
        self.uncategorized = uncategorized
        self.vendors = vendors
        self.priceBands = priceBands
        self.inStock = inStock
    }
}

/// Hears how far an upsert (or its preview) is: the number of drafts passed so far — written,
/// or found unchanged — out of all of them. It is called on the caller's thread, inside the
/// write transaction, once per draft: it must be quick and must not touch the store. What it
/// throws stops the upsert, which then writes nothing (a server stopping an import).
public typealias UpsertProgress = (_ passed: Int) throws -> Void

/// What an import changed, as counts, and what it did to each product.
public struct CatalogUpsertResult: Hashable, Sendable {
    public var productsCreated = 0
    /// Products that existed and differed from their draft (`CatalogUpsertRules.leavesUnchanged`).
    public var productsUpdated = 0
    /// Products that existed and already were what their draft says: nothing was written.
    public var productsUnchanged = 0
    public var variantsCreated = 0
    /// Variants matched and changed (values or position); unchanged ones are not counted.
    public var variantsUpdated = 0
    public var imagesStored = 0
    public var categoriesCreated = 0
    /// One entry per draft, in the drafts' order.
    public var products: [ProductOutcome] = []

    /// What an upsert did, or would do, to one product.
    public struct ProductOutcome: Hashable, Sendable {
        /// Created, updated or left as it was.
        public enum Change: String, Hashable, Sendable {
            case created, updated, unchanged
        }
        /// The product's handle.
        public var handle: String
        /// What happened to it.
        public var change: Change
        /// The handle the updated product had before, when the draft took it over by its SKUs
        /// under a new handle (`CatalogUpsertRules.target`); nil otherwise.
        public var previousHandle: String?

        /// Creates an outcome.
        public init(handle: String, change: Change, previousHandle: String? = nil) {
            self.handle = handle
            self.change = change
            self.previousHandle = previousHandle
        }
    }

    /// All zero.
    public init() {}
}

/// A product as stored, published or not, with its category's name.
public struct StoredProduct: Hashable, Sendable {
    /// The product.
    public var product: Product
    /// The name of its category, if it has one.
    public var categoryName: String?

    /// Creates the value.
    public init(product: Product, categoryName: String?) {
        self.product = product
        self.categoryName = categoryName
    }
}

/// Reading and writing the catalog. Shoppers only ever see published products; the reads below
/// leave out unpublished ones unless stated.
///
/// A struct of closures (DESIGN.md §2, STYLE.md 3): `ShopStoreSQLite` provides `.sqlite(…)`;
/// unit tests override what they need of `.failing` (`ShopTestSupport`).
public struct CatalogStore: Sendable {
    /// Every category that has at least one published product, by name, with counts.
    public var categories: @Sendable () throws -> [CategorySummary]
    /// The category with this handle, or nil.
    public var categoryByHandle: @Sendable (_ handle: String) throws -> Category?
    /// A page of published products.
    public var products: @Sendable (ProductQuery) throws -> ProductPage
    /// The published product with this handle, or nil.
    public var productByHandle: @Sendable (_ handle: String) throws -> Product?
    /// Published products with these ids (missing and unpublished ones are left out), keyed by id.
    public var productsByID: @Sendable (_ ids: [Product.ID]) throws -> [Product.ID: Product]
    /// Inserts or updates the drafts in one transaction: products by handle, variants by SKU or
    /// option values. All or nothing: on error nothing is written. A product its draft leaves
    /// unchanged (`CatalogUpsertRules.leavesUnchanged`) is not written at all. Each product
    /// written is an `import` entry of the audit log as `actor`'s, in the same transaction
    /// (`ProductAudit.Recorder`); callers use ``upsert(_:by:now:progress:)``. `progress`, when
    /// given, hears how far the write is.
    public var upsertBy: @Sendable (_ drafts: [ProductDraft], _ actor: AuditActor, _ now: Date,
                                    _ progress: UpsertProgress?) throws -> CatalogUpsertResult
    /// What `upsert` would do with the drafts — the same checks, matching and counts, in a write
    /// transaction that is then rolled back: nothing is written. Callers use
    /// ``previewUpsert(_:progress:)``.
    public var previewUpsertWith: @Sendable (_ drafts: [ProductDraft], _ progress: UpsertProgress?) throws -> CatalogUpsertResult
    /// Every product, published or not, with its variants, images and category name, by id
    /// (the order they were created in). For exports.
    public var allProducts: @Sendable () throws -> [StoredProduct]
    /// Creates one product from `draft`, checked like `upsert`, in one transaction — unless a
    /// product (published or not) already has its handle: then nothing is written, so a create
    /// never overwrites another product, however many run at once.
    /// The product is a `create` entry of the audit log as `actor`'s, in the same transaction.
    /// With a `creationKey` (the form's), the key is kept with the product, and a create whose
    /// key is already kept writes nothing and answers the product that key created (a second
    /// submit of one form), however many run at once.
    /// - Throws: `CatalogStoreError.handleTaken`, or a `CatalogStoreError` of `upsert`'s rules.
    public var insertProduct: @Sendable (_ draft: ProductDraft, _ actor: AuditActor, _ now: Date,
                                         _ creationKey: String?) throws -> StoredProduct
    /// Changes one product (published or not) in one write transaction: `change` receives it as
    /// a draft (`ProductDraft(_:categoryName:)`) and returns what it becomes, written with
    /// `upsert`'s rules under the product's own handle (a different handle in the result is
    /// ignored). No other writer runs between the read and the write, so simultaneous changes
    /// of different fields all land. An error thrown by `change` writes nothing. What changed is
    /// an entry of the audit log as `actor`'s, in the same transaction (`ProductAudit`); callers
    /// use ``changeProduct(_:by:now:_:)``.
    /// - Returns: the product after the change; nil when no product has this id.
    /// Several products in one transaction (a bulk change): each is changed as above, and all
    /// are written together or none is. Ids no product has are left out of the result.
    public var changeProductsBy: @Sendable (_ ids: [Product.ID], _ actor: AuditActor, _ now: Date,
                                            _ change: (ProductDraft) throws -> ProductDraft) throws -> [StoredProduct]
    /// A page of every product, published or not, for the back office (`CatalogListQuery`).
    public var findProducts: @Sendable (_ query: CatalogListQuery) throws -> CatalogListPage
    /// The product with this id, published or not, with its category's name; nil when none.
    public var storedProduct: @Sendable (_ id: Product.ID) throws -> StoredProduct?
    /// Number of products, published or not.
    public var productCount: @Sendable () throws -> Int
    /// A number that changes whenever anything in the catalog changes (categories, products,
    /// variants — stock included — or images), whoever wrote it: another process importing into
    /// the same database counts. Caches of catalog pages are valid while it stays the same.
    public var version: @Sendable () throws -> Int64

    /// Creates a store from its operations.
    public init(
        categories: @escaping @Sendable () throws -> [CategorySummary],
        categoryByHandle: @escaping @Sendable (_ handle: String) throws -> Category?,
        products: @escaping @Sendable (ProductQuery) throws -> ProductPage,
        productByHandle: @escaping @Sendable (_ handle: String) throws -> Product?,
        productsByID: @escaping @Sendable (_ ids: [Product.ID]) throws -> [Product.ID: Product],
        upsertBy: @escaping @Sendable (_ drafts: [ProductDraft], _ actor: AuditActor, _ now: Date,
                                       _ progress: UpsertProgress?) throws -> CatalogUpsertResult,
        insertProduct: @escaping @Sendable (_ draft: ProductDraft, _ actor: AuditActor, _ now: Date,
                                            _ creationKey: String?) throws -> StoredProduct,
        changeProductsBy: @escaping @Sendable (_ ids: [Product.ID], _ actor: AuditActor, _ now: Date,
                                               _ change: (ProductDraft) throws -> ProductDraft) throws -> [StoredProduct],
        productCount: @escaping @Sendable () throws -> Int,
        version: @escaping @Sendable () throws -> Int64,
        previewUpsertWith: @escaping @Sendable (_ drafts: [ProductDraft], _ progress: UpsertProgress?) throws -> CatalogUpsertResult,
        allProducts: @escaping @Sendable () throws -> [StoredProduct],
        findProducts: @escaping @Sendable (_ query: CatalogListQuery) throws -> CatalogListPage,
        storedProduct: @escaping @Sendable (_ id: Product.ID) throws -> StoredProduct?
    ) {
        self.findProducts = findProducts
        self.storedProduct = storedProduct
        self.categories = categories
        self.categoryByHandle = categoryByHandle
        self.products = products
        self.productByHandle = productByHandle
        self.productsByID = productsByID
        self.upsertBy = upsertBy
        self.insertProduct = insertProduct
        self.changeProductsBy = changeProductsBy
        self.productCount = productCount
        self.version = version
        self.previewUpsertWith = previewUpsertWith
        self.allProducts = allProducts
    }
}

extension CatalogStore {
    /// Upserts the drafts (``upsertBy``), recorded in the audit log as `actor`'s: the shop
    /// itself unless told (its demo catalog at first start); an import names its operator.
    @discardableResult
    public func upsert(_ drafts: [ProductDraft], by actor: AuditActor = .shop, now: Date = Date(),
                       progress: UpsertProgress? = nil) throws -> CatalogUpsertResult {
        try upsertBy(drafts, actor, now, progress)
    }

    /// What ``upsert(_:by:now:progress:)`` would do with the drafts (``previewUpsertWith``);
    /// nothing is written.
    public func previewUpsert(_ drafts: [ProductDraft], progress: UpsertProgress? = nil) throws -> CatalogUpsertResult {
        try previewUpsertWith(drafts, progress)
    }

    /// Changes one product (``changeProductsBy``), recorded in the audit log as `actor`'s.
    /// - Returns: the product after the change; nil when no product has this id.
    public func changeProduct(_ id: Product.ID, by actor: AuditActor = .cli, now: Date = Date(),
                              _ change: (ProductDraft) throws -> ProductDraft) throws -> StoredProduct? {
        try changeProductsBy([id], actor, now, change).first
    }
}
