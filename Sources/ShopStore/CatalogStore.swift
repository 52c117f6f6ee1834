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

/// Which products to list, in which order, which page.
public struct ProductQuery: Hashable, Sendable {
    /// Sort orders. Every order ends with the product id as a tie-break, so pages never repeat
    /// or skip a product.
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        /// Merchant order: as imported (ascending id).
        case featured
        /// Best rated first (rating, then rating count), then id.
        case rating
    }

    /// Only products in this category; nil for all.
    public var categoryID: Category.ID?
    /// The order.
    public var sort: Sort
    /// Products to skip (page × page size).
    public var offset: Int
    /// Page size, 1...100.
    public var limit: Int

    /// Creates a query.
    public init(categoryID: Category.ID? = nil, sort: Sort = .featured, offset: Int = 0, limit: Int = 24) {
        self.categoryID = categoryID
        self.sort = sort
        self.offset = max(offset, 0)
        self.limit = min(max(limit, 1), 100)
    }
}

/// One page of products and the total that match the query.
public struct ProductPage: Sendable {
    /// The products on this page, in query order.
    public var products: [Product]
    /// All published products matching the query (for page counts).
    public var totalCount: Int

    /// Creates a page.
    public init(products: [Product], totalCount: Int) {
        self.products = products
        self.totalCount = totalCount
    }
}

/// What an import changed, as counts.
public struct CatalogUpsertResult: Hashable, Sendable {
    public var productsCreated = 0
    public var productsUpdated = 0
    public var variantsCreated = 0
    public var variantsUpdated = 0
    public var imagesStored = 0
    public var categoriesCreated = 0

    /// All zero.
    public init() {}
}

/// Reading and writing the catalog. Shoppers only ever see published products; the reads below
/// leave out unpublished ones unless stated.
///
/// A struct of closures (DESIGN.md §2, STYLE.md 3): `ShopStoreSQLite` provides `.sqlite(…)`,
/// `ShopStore` provides `.inMemory(…)` for tests.
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
    /// option values. All or nothing: on error nothing is written.
    public var upsert: @Sendable (_ drafts: [ProductDraft]) throws -> CatalogUpsertResult
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
        upsert: @escaping @Sendable (_ drafts: [ProductDraft]) throws -> CatalogUpsertResult,
        productCount: @escaping @Sendable () throws -> Int,
        version: @escaping @Sendable () throws -> Int64
    ) {
        self.categories = categories
        self.categoryByHandle = categoryByHandle
        self.products = products
        self.productByHandle = productByHandle
        self.productsByID = productsByID
        self.upsert = upsert
        self.productCount = productCount
        self.version = version
    }
}
