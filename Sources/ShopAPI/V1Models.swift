public import Foundation

/// An amount of money on the wire: integer minor units of an ISO 4217 currency (never a
/// floating-point number), with the shop's formatting for display.
///
/// ```json
/// {"minorUnits": 1999, "currency": "USD", "formatted": "$19.99"}
/// ```
public struct V1Money: Codable, Hashable, Sendable {
    /// Minor units (cents for USD, whole yen for JPY).
    public var minorUnits: Int64
    /// ISO 4217 code.
    public var currency: String
    /// The amount as the shop shows it (for display only; compute with `minorUnits`).
    public var formatted: String

    public init(minorUnits: Int64, currency: String, formatted: String) {
        self.minorUnits = minorUnits
        self.currency = currency
        self.formatted = formatted
    }
}

/// `GET /api/v1/categories`: one category.
public struct V1Category: Codable, Hashable, Sendable {
    public var id: Int64
    /// URL key: `GET /api/v1/products?category={handle}`.
    public var handle: String
    public var name: String
    /// Published products in it.
    public var productCount: Int
    /// An image for its tile (absolute URL), if any.
    public var image: String?

    public init(id: Int64, handle: String, name: String, productCount: Int, image: String?) {
        self.id = id
        self.handle = handle
        self.name = name
        self.productCount = productCount
        self.image = image
    }
}

/// A product's average rating.
public struct V1Rating: Codable, Hashable, Sendable {
    /// Hundredths of a star, 0–500 (integer: `392` is 3.92).
    public var rateHundredths: Int
    public var count: Int

    public init(rateHundredths: Int, count: Int) {
        self.rateHundredths = rateHundredths
        self.count = count
    }
}

/// A product in a list: what a card shows.
public struct V1ProductSummary: Codable, Hashable, Sendable {
    public var id: Int64
    public var handle: String
    public var title: String
    public var vendor: String
    /// The lowest variant price.
    public var price: V1Money?
    /// Absolute URL of the main image: for an image the shop stores, its 1280-pixel JPEG/PNG
    /// copy (not the original); a remote image's own URL.
    public var image: String?
    public var rating: V1Rating?
    /// `true` when no variant can be bought.
    public var soldOut: Bool

    public init(id: Int64, handle: String, title: String, vendor: String, price: V1Money?, image: String?,
                rating: V1Rating?, soldOut: Bool) {
        self.id = id
        self.handle = handle
        self.title = title
        self.vendor = vendor
        self.price = price
        self.image = image
        self.rating = rating
        self.soldOut = soldOut
    }
}

/// `GET /api/v1/products`: one page and the cursor of the next.
public struct V1ProductPage: Codable, Hashable, Sendable {
    public var products: [V1ProductSummary]
    /// All products matching the query.
    public var totalCount: Int
    /// Pass as `cursor` for the next page; nil on the last page.
    public var nextCursor: String?
    /// "Did you mean": when a search (`q`) finds nothing, words that would find something
    /// (folded: lower case, no accents); nil otherwise.
    public var suggestion: String?
    /// The filter values with their counts, only when asked for (`facets=1`).
    public var facets: V1Facets?
    /// `true` when a search (`q`) matched more products than it counts (1 000): at least
    /// `totalCount` match and the cursor stops there; absent otherwise.
    public var totalCountIsCapped: Bool?
    /// `true` when `facets` come from a search's first 1 000 matches only (it matched more):
    /// their counts are lower bounds; absent otherwise.
    public var facetsAreSampled: Bool?

    public init(products: [V1ProductSummary], totalCount: Int, nextCursor: String?, suggestion: String? = nil,
                facets: V1Facets? = nil, totalCountIsCapped: Bool? = nil, facetsAreSampled: Bool? = nil) {
        self.products = products
        self.totalCountIsCapped = totalCountIsCapped
        self.facetsAreSampled = facetsAreSampled
        self.totalCount = totalCount
        self.nextCursor = nextCursor
        self.suggestion = suggestion
        self.facets = facets
    }
}

/// The facets of `GET /api/v1/products?facets=1`: each value with how many products it would
/// list. A facet's counts keep every other filter of the query but not its own (choosing a
/// vendor still shows the other vendors' counts).
public struct V1Facets: Codable, Hashable, Sendable {
    /// A category and its count.
    public struct CategoryCount: Codable, Hashable, Sendable {
        public var handle: String
        public var name: String
        public var count: Int

        public init(handle: String, name: String, count: Int) {
            self.handle = handle
            self.name = name
            self.count = count
        }
    }

    /// A vendor and its count.
    public struct VendorCount: Codable, Hashable, Sendable {
        public var vendor: String
        public var count: Int

        public init(vendor: String, count: Int) {
            self.vendor = vendor
            self.count = count
        }
    }

    /// A price band (`price={key}`) and its count: from `min` (inclusive) to `max` (exclusive).
    public struct PriceBandCount: Codable, Hashable, Sendable {
        public var key: String
        public var min: V1Money
        /// Nil for the top band.
        public var max: V1Money?
        public var count: Int

        public init(key: String, min: V1Money, max: V1Money?, count: Int) {
            self.key = key
            self.min = min
            self.max = max
            self.count = count
        }
    }

    /// Categories with products, by name.
    public var categories: [CategoryCount]
    /// Products without a category.
    public var uncategorized: Int
    /// Non-empty vendors with products, in code-point order (at most 50).
    public var vendors: [VendorCount]
    /// Every price band of the shop currency, lowest first, zero counts included.
    public var priceBands: [PriceBandCount]
    /// Products that can be bought now (`instock=1`).
    public var inStock: Int

    public init(categories: [CategoryCount], uncategorized: Int, vendors: [VendorCount], priceBands: [PriceBandCount],
                inStock: Int) {
        self.categories = categories
        self.uncategorized = uncategorized
        self.vendors = vendors
        self.priceBands = priceBands
        self.inStock = inStock
    }
}

/// `GET /api/v1/featured`: the home page's product row.
public struct V1Featured: Codable, Hashable, Sendable {
    /// Up to 12 products: best rated first and what can be bought before what is sold out; or,
    /// for recommendations, best rated in stock and not in the caller's cart, products from the
    /// categories of their favorites first.
    public var products: [V1ProductSummary]
    /// `true` when these are the caller's recommendations.
    public var recommendations: Bool

    public init(products: [V1ProductSummary], recommendations: Bool) {
        self.products = products
        self.recommendations = recommendations
    }
}

/// One variant of a product, its stock net of other shoppers' checkout holds.
public struct V1Variant: Codable, Hashable, Sendable {
    public var id: Int64
    public var sku: String?
    /// The option values (`["Red", "M"]`), in the order of the product's `options`.
    public var options: [String]
    public var price: V1Money
    /// The "was" price, when on sale.
    public var compareAtPrice: V1Money?
    /// How many can be bought now; nil when not limited (untracked, or backorders allowed).
    public var available: Int?
    public var soldOut: Bool
    /// The barcode (GTIN, UPC, EAN, ISBN) as the merchant wrote it; nil (left out) without one.
    public var barcode: String?
    /// For a variant with open options (WooCommerce "any", whose value in `options` is `""`): the
    /// values the shopper may pick for each option, in the order of the product's `options` (an
    /// empty list for an option with a fixed value); nil (left out) for other variants.
    public var choices: [[String]]?

    public init(id: Int64, sku: String?, options: [String], price: V1Money, compareAtPrice: V1Money?, available: Int?,
                soldOut: Bool, barcode: String? = nil, choices: [[String]]? = nil) {
        self.id = id
        self.choices = choices
        self.sku = sku
        self.barcode = barcode
        self.options = options
        self.price = price
        self.compareAtPrice = compareAtPrice
        self.available = available
        self.soldOut = soldOut
    }
}

/// An image of a product.
public struct V1Image: Codable, Hashable, Sendable {
    /// Absolute URL of the image as imported (for an image stored by the shop: the original,
    /// up to 32 MiB — pick a rendition to show it).
    public var url: String
    public var altText: String
    /// The original's size in pixels, for an image stored by the shop; nil (left out) for a
    /// remote URL or an image stored before sizes were recorded.
    public var width: Int?
    public var height: Int?
    /// Smaller copies of a stored image, narrowest first, WebP then the JPEG/PNG fallback at each
    /// width; nil (left out) when the shop has none (remote URL, size unknown).
    public var renditions: [V1ImageRendition]?

    public init(url: String, altText: String, width: Int? = nil, height: Int? = nil, renditions: [V1ImageRendition]? = nil) {
        self.url = url
        self.altText = altText
        self.width = width
        self.height = height
        self.renditions = renditions
    }
}

extension V1Image {
    /// The URL to show the image at `pixelWidth` device pixels: the narrowest rendition at least
    /// that wide (the widest when none is), WebP when `webp` is true and there is one, else the
    /// JPEG/PNG copy; the image's own `url` when it has no renditions (a remote image).
    ///
    /// ```swift
    /// image.url(forPixelWidth: 1170)   // ".../3f1c…-1280.webp", never the 25 MB original
    /// ```
    public func url(forPixelWidth pixelWidth: Int, webp: Bool = true) -> String {
        let copies = (renditions ?? []).filter { ($0.type == "image/webp") == webp }
        let usable = copies.isEmpty ? (renditions ?? []) : copies
        return (usable.first { $0.width >= pixelWidth } ?? usable.last)?.url ?? url
    }
}

/// A smaller copy of a stored image (`ShopCore.ImageRenditions`): pick the narrowest at least
/// as wide as the box in device pixels, WebP when the platform decodes it.
public struct V1ImageRendition: Codable, Hashable, Sendable {
    /// Its width in pixels (never wider than the original).
    public var width: Int
    /// Absolute URL (immutable: cache forever).
    public var url: String
    /// Its media type: `image/webp`, `image/jpeg` or `image/png`.
    public var type: String

    public init(width: Int, url: String, type: String) {
        self.width = width
        self.url = url
        self.type = type
    }
}

/// `GET /api/v1/products/{handle}`.
public struct V1Product: Codable, Hashable, Sendable {
    public var id: Int64
    public var handle: String
    public var title: String
    /// Sanitized HTML, as the storefront shows it.
    public var descriptionHTML: String
    public var descriptionText: String
    /// The vendor (author, brand).
    public var vendor: String
    /// The category's handle and name, when it has one.
    public var category: V1CategoryRef?
    public var tags: [String]
    /// ISO 8601, when the merchant gave one.
    public var publishedAt: Date?
    public var images: [V1Image]
    public var rating: V1Rating?
    /// The option names (`["Color", "Size"]`); empty for a product without options.
    public var options: [String]
    public var variants: [V1Variant]
    /// Up to 8 products of the same category, as the product page shows them.
    public var related: [V1ProductSummary]

    public init(id: Int64, handle: String, title: String, descriptionHTML: String, descriptionText: String, vendor: String,
                category: V1CategoryRef?, tags: [String], publishedAt: Date?, images: [V1Image], rating: V1Rating?,
                options: [String], variants: [V1Variant], related: [V1ProductSummary]) {
        self.id = id
        self.handle = handle
        self.title = title
        self.descriptionHTML = descriptionHTML
        self.descriptionText = descriptionText
        self.vendor = vendor
        self.category = category
        self.tags = tags
        self.publishedAt = publishedAt
        self.images = images
        self.rating = rating
        self.options = options
        self.variants = variants
        self.related = related
    }
}

/// A category named by a product.
public struct V1CategoryRef: Codable, Hashable, Sendable {
    public var handle: String
    public var name: String

    public init(handle: String, name: String) {
        self.handle = handle
        self.name = name
    }
}

/// `POST /api/v1/sessions/guest` → a guest token: send it as `Authorization: Bearer <token>`;
/// signing in with it (`POST /api/auth/login`) merges its cart and favorites into the account's.
public struct V1GuestToken: Codable, Hashable, Sendable {
    public var token: String
    public var expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// The body of `POST /api/v1/cart/lines`: a product by `product` (handle) or `productId`, the
/// variant by `variantId` (needed when the product has options), `quantity` (default 1).
public struct V1AddLine: Codable, Hashable, Sendable {
    public var product: String?
    public var productId: Int64?
    public var variantId: Int64?
    /// A whole number ≥ 1 (a fraction is refused with the cart's message).
    public var quantity: Decimal?
    /// The values picked for the variant's open options (WooCommerce "any"); needed for such a
    /// variant (else 422 `value_not_chosen`), ignored for others.
    public var chosenValues: [V1ChosenValue]?

    public init(product: String? = nil, productId: Int64? = nil, variantId: Int64? = nil, quantity: Decimal? = nil,
                chosenValues: [V1ChosenValue]? = nil) {
        self.product = product
        self.productId = productId
        self.variantId = variantId
        self.quantity = quantity
        self.chosenValues = chosenValues
    }
}

/// A value picked for an open option of a variant (WooCommerce "any"): `{"option": "Size", "value": "M"}`.
public struct V1ChosenValue: Codable, Hashable, Sendable {
    /// The option's name, as in the product's `options`.
    public var option: String
    /// One of the variant's `choices` for it.
    public var value: String

    public init(option: String, value: String) {
        self.option = option
        self.value = value
    }

    /// The `chosen` query of `DELETE /api/v1/cart/lines/{variantId}`: `option=value` per entry,
    /// joined by a line feed (`"Size=M"`); nil for no values.
    public static func text(_ values: [V1ChosenValue]?) -> String? {
        guard let values, !values.isEmpty else { return nil }
        return values.map { "\($0.option)=\($0.value)" }.joined(separator: "\n")
    }
}

/// The body of `PATCH /api/v1/cart/lines/{variantId}`: a new `quantity` (0 removes the line),
/// `selected` (ticked for checkout), or both.
public struct V1LineChange: Codable, Hashable, Sendable {
    public var quantity: Decimal?
    public var selected: Bool?
    /// Which line of the variant, when it has open options: the line's `chosenValues`.
    public var chosenValues: [V1ChosenValue]?

    public init(quantity: Decimal? = nil, selected: Bool? = nil, chosenValues: [V1ChosenValue]? = nil) {
        self.quantity = quantity
        self.selected = selected
        self.chosenValues = chosenValues
    }
}

/// The body of `PUT /api/v1/cart/voucher`.
public struct V1Voucher: Codable, Hashable, Sendable {
    public var code: String

    public init(code: String) { self.code = code }
}

/// The cart priced in one pass (`CartQuote`): the same numbers as the cart page.
public struct V1Cart: Codable, Hashable, Sendable {
    /// A cart line that can be bought.
    public struct Line: Codable, Hashable, Sendable {
        public var variantId: Int64
        public var productId: Int64
        public var handle: String
        public var title: String
        /// The variant's option values joined ("Red / M"); empty without options.
        public var variantTitle: String
        public var image: String?
        public var quantity: Int
        /// Ticked: counts toward the totals and goes to checkout.
        public var selected: Bool
        public var unitPrice: V1Money
        /// `unitPrice × quantity`.
        public var amount: V1Money
        /// This line's share of the voucher discount.
        public var discount: V1Money
        /// `amount − discount`.
        public var total: V1Money
        /// The most this line may hold now (stock net of others' holds, and the per-line maximum).
        public var quantityLimit: Int
        /// Why the line cannot be bought as it stands (stock fell below its quantity), if so.
        public var problem: V1Problem?
        /// The values picked for the variant's open options (WooCommerce "any"); left out for
        /// other lines. One variant may have a line per set of chosen values.
        public var chosenValues: [V1ChosenValue]?

        public init(variantId: Int64, productId: Int64, handle: String, title: String, variantTitle: String, image: String?,
                    quantity: Int, selected: Bool, unitPrice: V1Money, amount: V1Money, discount: V1Money, total: V1Money,
                    quantityLimit: Int, problem: V1Problem?, chosenValues: [V1ChosenValue]? = nil) {
            self.chosenValues = chosenValues
            self.variantId = variantId
            self.productId = productId
            self.handle = handle
            self.title = title
            self.variantTitle = variantTitle
            self.image = image
            self.quantity = quantity
            self.selected = selected
            self.unitPrice = unitPrice
            self.amount = amount
            self.discount = discount
            self.total = total
            self.quantityLimit = quantityLimit
            self.problem = problem
        }
    }

    /// What became of the entered voucher code.
    public struct Voucher: Codable, Hashable, Sendable {
        public var code: String
        /// `applied` or `rejected`.
        public var status: String
        /// The applied campaign's title.
        public var campaign: String?
        /// Why it gives no discount (`rejected`), with a stable code.
        public var problem: V1Problem?

        public init(code: String, status: String, campaign: String?, problem: V1Problem?) {
            self.code = code
            self.status = status
            self.campaign = campaign
            self.problem = problem
        }
    }

    /// A line whose product or variant is no longer sold (left out of the totals).
    public struct UnavailableLine: Codable, Hashable, Sendable {
        public var productId: Int64
        public var variantId: Int64
        public var quantity: Int
        /// Which line of an open variant (its pick, which the variant no longer offers); nil for
        /// other variants.
        public var chosenValues: [V1ChosenValue]?

        public init(productId: Int64, variantId: Int64, quantity: Int, chosenValues: [V1ChosenValue]? = nil) {
            self.productId = productId
            self.variantId = variantId
            self.quantity = quantity
            self.chosenValues = chosenValues
        }
    }

    public var lines: [Line]
    /// Sum of the selected lines' amounts, before discount.
    public var subtotal: V1Money
    public var discount: V1Money
    /// `subtotal − discount`.
    public var total: V1Money
    /// Items that can be bought (the badge).
    public var itemCount: Int
    /// Items on the selected lines.
    public var selectedItemCount: Int
    /// nil when no code was entered.
    public var voucher: Voucher?
    public var unavailable: [UnavailableLine]

    public init(lines: [Line], subtotal: V1Money, discount: V1Money, total: V1Money, itemCount: Int, selectedItemCount: Int,
                voucher: Voucher?, unavailable: [UnavailableLine]) {
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.total = total
        self.itemCount = itemCount
        self.selectedItemCount = selectedItemCount
        self.voucher = voucher
        self.unavailable = unavailable
    }
}

/// A refusal or problem with a stable `code` and a message for a person.
public struct V1Problem: Codable, Hashable, Sendable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// `GET /api/v1/favorites`.
public struct V1Favorites: Codable, Hashable, Sendable {
    /// Most recently added first; products no longer sold drop out.
    public var products: [V1ProductSummary]

    public init(products: [V1ProductSummary]) { self.products = products }
}
