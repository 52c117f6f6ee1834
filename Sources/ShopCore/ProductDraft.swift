public import Foundation

/// A product read from a catalog file, before it has store identifiers.
///
/// Catalog readers (`ShopImport`) produce drafts; the store upserts them: products by `handle`,
/// variants within a product by SKU when given, else by option values.
public struct ProductDraft: Hashable, Sendable {
    /// URL-safe key, trimmed and unique within one import.
    public var handle: String
    /// Display title.
    public var title: String
    /// Sanitized HTML description (safe subset), ready to embed.
    public var descriptionHTML: String
    /// Plain-text description for search.
    public var descriptionText: String
    /// Brand or maker.
    public var vendor: String
    /// The merchant's product type.
    public var productType: String
    /// The category name to list the product under (created when missing), e.g. `"Chairs"`.
    public var categoryName: String?
    /// Tags, trimmed, unique.
    public var tags: [String]
    /// Publication date, if the file has one.
    public var publishedAt: Date?
    /// `false` for drafts, archived or unpublished products.
    public var isPublished: Bool
    /// Which lists and searches the product appears in.
    public var visibility: CatalogVisibility
    /// Images in display order.
    public var images: [ProductImage]
    /// Rating, if the file has one.
    public var rating: Rating?
    /// Option names (empty: no options).
    public var optionNames: [String]
    /// At least one variant.
    public var variants: [VariantDraft]
    /// Where the product starts in the source file (1-based line), for messages.
    public var sourceLine: Int
    /// The fields this draft's file cannot carry (a Shopify CSV has no publication date or
    /// rating): the draft holds defaults for them. A draft that updates a stored product keeps
    /// that product's values for these fields; a new product takes the defaults. Empty (every
    /// field carried) for shoppable-json, the back office and the API.
    public var uncarried: Fields = []

    /// Product fields a catalog format may not carry (`uncarried`).
    public struct Fields: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let vendor = Fields(rawValue: 1 << 0)
        public static let productType = Fields(rawValue: 1 << 1)
        /// The category: a Shopify row whose category comes from its `Type`.
        public static let category = Fields(rawValue: 1 << 2)
        public static let publishedAt = Fields(rawValue: 1 << 3)
        public static let rating = Fields(rawValue: 1 << 4)
        public static let visibility = Fields(rawValue: 1 << 5)
        /// Each image's alt text (kept for an image the stored product has at the same URL).
        public static let imageAltText = Fields(rawValue: 1 << 6)
        // Fields a file of a format that has them leaves out as whole columns (a sheet of SKUs
        // and prices): a fresh tester's `Handle,Title,Variant SKU,Variant Price` wiped the
        // description, images, tags and category, and made tracked stock unlimited.
        public static let description = Fields(rawValue: 1 << 7)
        public static let tags = Fields(rawValue: 1 << 8)
        /// The images, all of them (no image column at all).
        public static let images = Fields(rawValue: 1 << 9)
        public static let published = Fields(rawValue: 1 << 10)
        /// Each variant's compare-at price (kept for a variant matched to a stored one).
        public static let compareAtPrice = Fields(rawValue: 1 << 11)
        /// Each variant's stock, its tracking and backorders (kept for a matched variant).
        public static let inventory = Fields(rawValue: 1 << 12)
        /// Each variant's barcode (kept for a matched variant).
        public static let barcode = Fields(rawValue: 1 << 13)
        /// Whether each tracked variant sells past zero (kept for a matched variant tracked
        /// before too): a stock sheet without a policy column changes quantities only.
        public static let backorders = Fields(rawValue: 1 << 14)
        /// The option names and each variant's option values: a sheet without option columns
        /// (`Handle,Variant SKU,Variant Inventory Qty`). A stored product keeps its options, and
        /// the sheet changes the variants it names by SKU and keeps the others.
        public static let options = Fields(rawValue: 1 << 15)
    }

    /// Creates a draft.
    public init(handle: String, title: String, descriptionHTML: String = "", descriptionText: String = "",
                vendor: String = "", productType: String = "", categoryName: String? = nil,
                tags: [String] = [], publishedAt: Date? = nil, isPublished: Bool = true,
                visibility: CatalogVisibility = .visible,
                images: [ProductImage] = [], rating: Rating? = nil, optionNames: [String] = [],
                variants: [VariantDraft], sourceLine: Int = 0) {
        self.visibility = visibility
        self.handle = handle
        self.title = title
        self.descriptionHTML = descriptionHTML
        self.descriptionText = descriptionText
        self.vendor = vendor
        self.productType = productType
        self.categoryName = categoryName
        self.tags = tags
        self.publishedAt = publishedAt
        self.isPublished = isPublished
        self.images = images
        self.rating = rating
        self.optionNames = optionNames
        self.variants = variants
        self.sourceLine = sourceLine
    }
}

/// A variant read from a catalog file, before it has a store identifier.
public struct VariantDraft: Hashable, Sendable {
    /// The highest price a variant may have, in minor units (a billion in major units of a
    /// two-decimal currency): 99 of it, summed over a cart's lines, stay far from `Int64.max`.
    public static let maximumPriceMinorUnits: Int64 = 100_000_000_000
    /// The largest stock count a variant may have, either way (a negative count is an oversold
    /// one): the back office adds up a product's variants and the dashboard a catalog's, and a
    /// count near the integer limit overflowed those sums (a fresh tester's bulk change to
    /// 9 223 372 036 854 775 807 made the product list answer 500). Every write path checks it:
    /// `CatalogUpsertRules.check`, the product form, the bulk change, `shoppable stock set`.
    public static let maximumStock = 1_000_000_000
    /// Trimmed SKU, or nil when the file gives none; compared by `SKUIdentity.key(_:)`.
    public var sku: String?
    /// Option values in the order of the product's option names.
    public var optionValues: [String]
    /// What the shopper pays (the sale price when on sale).
    public var price: Money
    /// The higher "was" price, if any.
    public var compareAtPrice: Money?
    /// Stock tracking.
    public var inventory: Inventory
    /// Trimmed barcode (GTIN, UPC, EAN, ISBN), or nil when the file gives none (`Variant.barcode`).
    public var barcode: String?
    /// Allowed values of open options (WooCommerce "any"), as `Variant.optionChoices`: empty
    /// without open options.
    public var optionChoices: [[String]]

    /// Creates a variant draft.
    public init(sku: String?, optionValues: [String] = [], price: Money, compareAtPrice: Money? = nil,
                inventory: Inventory = .untracked, barcode: String? = nil, optionChoices: [[String]] = []) {
        self.sku = sku
        self.barcode = barcode
        self.optionChoices = optionChoices
        self.optionValues = optionValues
        self.price = price
        self.compareAtPrice = compareAtPrice
        self.inventory = inventory
    }
}

extension ProductDraft {
    /// The draft that, upserted, leaves `product` as it is: its handle, texts, category (by
    /// name), publication, images, rating, options and variants (SKU, options, prices, stock, barcode).
    /// Edits start from here, so what an edit does not touch stays.
    /// - Parameters:
    ///   - product: the stored product.
    ///   - categoryName: the name of its category, if it has one.
    public init(_ product: Product, categoryName: String?) {
        self.init(handle: product.handle, title: product.title, descriptionHTML: product.descriptionHTML,
                  descriptionText: product.descriptionText, vendor: product.vendor, productType: product.productType,
                  categoryName: categoryName, tags: product.tags, publishedAt: product.publishedAt,
                  isPublished: product.isPublished, visibility: product.visibility, images: product.images, rating: product.rating,
                  optionNames: product.optionNames,
                  variants: product.variants.map(VariantDraft.init))
    }
}

extension VariantDraft {
    /// The draft that, upserted, leaves `variant` as it is (SKU, options, prices, stock, barcode,
    /// open options' choices).
    public init(_ variant: Variant) {
        self.init(sku: variant.sku, optionValues: variant.optionValues, price: variant.price,
                  compareAtPrice: variant.compareAtPrice, inventory: variant.inventory, barcode: variant.barcode,
                  optionChoices: variant.optionChoices)
    }
}

extension ProductDraft {
    /// The draft dated `now` when this change publishes a product that has no published date
    /// (new, or unpublished before): "Newest" lists what staff just published first, and its page
    /// says when. A product already published keeps what it has, so saving it changes nothing.
    /// - Parameters:
    ///   - previous: the product before the change; nil for a new one.
    ///   - now: the time of the change.
    public func datedIfPublished(since previous: ProductDraft?, now: Date) -> ProductDraft {
        guard isPublished, publishedAt == nil, previous?.isPublished != true else { return self }
        var dated = self
        dated.publishedAt = now
        return dated
    }
}
