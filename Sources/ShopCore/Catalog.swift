public import Foundation
import Synchronization

/// A product category, e.g. "Chairs". Products belong to at most one category.
public struct Category: Identifiable, Hashable, Sendable {
    /// Store-assigned identifier.
    public typealias ID = Tagged<Category, Int64>

    /// Store-assigned identifier.
    public var id: ID
    /// URL-safe unique name, e.g. `"chairs"` (see `Handle.make(from:)`).
    public var handle: String
    /// Display name as the merchant wrote it, e.g. `"Chairs"`.
    public var name: String

    /// Creates a category.
    public init(id: ID, handle: String, name: String) {
        self.id = id
        self.handle = handle
        self.name = name
    }
}

/// A customer rating summary: the average on a 0–5 scale and the number of ratings.
///
/// The average is kept in hundredths (`rateHundredths` 470 = 4.70 stars) so no floating
/// point is stored; Fake Store API ratings have one decimal.
public struct Rating: Hashable, Sendable {
    /// The average rating × 100, in 0...500.
    public var rateHundredths: Int
    /// How many ratings the average is over (≥ 0).
    public var count: Int

    /// Creates a rating, clamping the average to 0...500 hundredths and the count to ≥ 0.
    public init(rateHundredths: Int, count: Int) {
        self.rateHundredths = min(max(rateHundredths, 0), 500)
        self.count = max(count, 0)
    }

    /// The average with one decimal, e.g. `"4.7"` (locale-independent; the view localizes).
    public var oneDecimal: String {
        "\(tenths / 10).\(tenths % 10)"
    }

    /// The average with one decimal in the locale's separator: "4.7" in en-US, "4,7" in tr-TR and
    /// es-ES — the storefront's and the app's one way to write a rating. Hundredths are rounded to
    /// tenths half-up in integers (`470`…`474` → 4.7, `475` → 4.8) before Foundation writes the
    /// `Decimal`, so no floating point is involved.
    /// - Parameter locale: the shopper's locale.
    /// Each (locale, value) is written by Foundation once and kept: there are 51 values, and a
    /// listing writes one per card (the formatter was 3 % of a cart page's CPU, issue #14).
    public func text(in locale: Locale) -> String {
        let key = RatingTextKey(locale: locale.identifier, tenths: tenths)
        if let kept = Rating.texts.withLock({ $0[key] }) { return kept }
        let text = Decimal(sign: .plus, exponent: -1, significand: Decimal(tenths))
            .formatted(.number.precision(.fractionLength(1)).locale(locale))
        Rating.texts.withLock { $0[key] = text }
        return text
    }

    private struct RatingTextKey: Hashable {
        var locale: String
        var tenths: Int
    }

    private static let texts = Mutex<[RatingTextKey: String]>([:])

    /// The average in tenths of a star, rounded half-up.
    private var tenths: Int { (rateHundredths + 5) / 10 }
}

/// A product image: a URL (absolute `https://…` or a path on this site such as
/// `/images/demo/chair.svg`) and its alternative text.
public struct ProductImage: Hashable, Sendable {
    /// Absolute URL or site-relative path.
    public var url: String
    /// Alternative text for screen readers; empty means "use the product title".
    public var altText: String
    /// The picture's width in pixels, known for an image stored in the media library (nil for a
    /// remote URL): pages give it to the browser, so nothing moves when it loads.
    public var width: Int?
    /// The picture's height in pixels, known when `width` is.
    public var height: Int?
    /// It has transparency: its smaller copies are PNG beside WebP, not JPEG (`ImageRenditions`).
    public var hasAlpha: Bool

    /// Creates an image reference.
    public init(url: String, altText: String = "", width: Int? = nil, height: Int? = nil, hasAlpha: Bool = false) {
        self.url = url
        self.altText = altText
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
    }

    /// The index in `images` of the image that shows `variant`: the first whose alt text names
    /// one of its option values as whole words ("Oak Dining Chair in Smoked Oak" for "Smoked
    /// Oak"), the convention of the demo catalog and of Shopify exports; nil when none does.
    /// The one home of the rule: the product page, the cart page and the API's cart lines.
    public static func index(showing variant: Variant, in images: [ProductImage]) -> Int? {
        let values = variant.optionValues.map { $0.lowercased() }.filter { !$0.isEmpty }
        guard !values.isEmpty else { return nil }
        return images.firstIndex { image in
            let alt = image.altText.lowercased()
            return values.contains { value in
                // Whole words only: "Oak" must not match "Oaken" — but may match a later "Oak"
                // ("Oaken chair in Oak"), so every occurrence is tried. (Foundation's search: the
                // standard library's `ranges(of:)` measured slower on a cart page.)
                var searched = alt.startIndex..<alt.endIndex
                while let range = alt.range(of: value, range: searched) {
                    let before = range.lowerBound == alt.startIndex || !alt[alt.index(before: range.lowerBound)].isLetter
                    let after = range.upperBound == alt.endIndex || !alt[range.upperBound].isLetter
                    if before && after { return true }
                    searched = alt.index(after: range.lowerBound)..<alt.endIndex
                }
                return false
            }
        }
    }
}

extension Product {
    /// The picture of `variant` (``ProductImage/index(showing:in:)``), else the product's first.
    public func image(showing variant: Variant) -> ProductImage? {
        ProductImage.index(showing: variant, in: images).map { images[$0] } ?? images.first
    }
}

/// Whether a variant's stock is counted, and what happens at zero.
public enum Inventory: Hashable, Sendable {
    /// Stock is not tracked: the variant is always available (Shopify: empty
    /// `Variant Inventory Tracker`; WooCommerce: empty `Stock` with "In stock?" = 1).
    case untracked
    /// Stock is tracked. `allowsBackorder` (Shopify `Variant Inventory Policy` = `continue`)
    /// allows selling past zero.
    case tracked(quantity: Int, allowsBackorder: Bool)

    /// How many a shopper can buy now, or nil when there is no stock limit.
    public var availableQuantity: Int? {
        switch self {
        case .untracked: nil
        case let .tracked(quantity, allowsBackorder): allowsBackorder ? nil : max(quantity, 0)
        }
    }

    /// `true` when the variant cannot be bought at all.
    public var isSoldOut: Bool { availableQuantity == 0 }
}

/// One purchasable version of a product (a size/colour combination), with its own SKU, price
/// and stock.
public struct Variant: Identifiable, Hashable, Sendable {
    /// Store-assigned identifier.
    public typealias ID = Tagged<Variant, Int64>

    /// Store-assigned identifier.
    public var id: ID
    /// Stock-keeping unit, trimmed; nil when the merchant gave none (the variant is then
    /// identified by the product handle and its option values).
    public var sku: String?
    /// Values of the product's options, in the order of `Product.optionNames`
    /// (e.g. `["M", "Red"]`); empty for a product without options.
    public var optionValues: [String]
    /// What the shopper pays for one (the sale price when there is a sale).
    public var price: Money
    /// The higher "was" price shown struck through, when greater than `price`; else nil.
    public var compareAtPrice: Money?
    /// Stock tracking and quantity.
    public var inventory: Inventory
    /// The trade item number printed under the bar code (GTIN: EAN-13, UPC-A, ISBN …), trimmed;
    /// nil when the merchant gave none. Shopify's `Variant Barcode`, WooCommerce's `GTIN, UPC,
    /// EAN, or ISBN`. Searchable like the SKU (`ProductQuery`); not unique (two packagings may
    /// share one, a merchant may reuse one).
    public var barcode: String?
    /// The values a shopper may pick for each open option (WooCommerce "any", issue #13): empty
    /// for a variant without open options; otherwise one list per option, in option order, empty
    /// for an option with a fixed value and non-empty where `optionValues` holds `""` (open). The
    /// variant stays ONE sellable item (one SKU, one stock pool); the pick is recorded on the
    /// cart and order line (`ChosenValues`, `Product.chosenValues(for:picked:)`).
    public var optionChoices: [[String]]

    /// Creates a variant. A `compareAtPrice` not above `price` is dropped (nothing to strike through).
    public init(id: ID, sku: String?, optionValues: [String], price: Money,
                compareAtPrice: Money?, inventory: Inventory, barcode: String? = nil, optionChoices: [[String]] = []) {
        self.id = id
        self.sku = sku
        self.barcode = barcode
        self.optionValues = optionValues
        self.optionChoices = optionChoices
        self.price = price
        if let compareAtPrice, compareAtPrice.currency == price.currency,
           compareAtPrice.minorUnits > price.minorUnits {
            self.compareAtPrice = compareAtPrice
        } else {
            self.compareAtPrice = nil
        }
        self.inventory = inventory
    }

    /// The option values joined for display, e.g. `"M / Red"`; empty when there are none. An open
    /// option (Woo "any") reads as its allowed values joined by `, ` (`"S, M, L / Red"`) until
    /// `filling(_:optionNames:)` puts the shopper's pick in.
    public var title: String {
        optionValues.enumerated().map { index, value in
            value.isEmpty && index < optionChoices.count ? optionChoices[index].joined(separator: ", ") : value
        }.joined(separator: " / ")
    }
}

/// A product as shoppers see it: text, media, and one or more variants.
public struct Product: Identifiable, Hashable, Sendable {
    /// Store-assigned identifier.
    public typealias ID = Tagged<Product, Int64>

    /// Store-assigned identifier.
    public var id: ID
    /// URL-safe unique key, e.g. `"oak-dining-chair"`; re-imports update by handle.
    public var handle: String
    /// Display title.
    public var title: String
    /// Description as a sanitized HTML fragment (safe subset only), ready to embed.
    public var descriptionHTML: String
    /// Description as plain text, for search and summaries.
    public var descriptionText: String
    /// Brand or maker; empty when unknown.
    public var vendor: String
    /// The merchant's product type, e.g. `"Chair"`; empty when unknown.
    public var productType: String
    /// The category the product is listed under, if any.
    public var categoryID: Category.ID?
    /// Free-form tags, trimmed, without duplicates.
    public var tags: [String]
    /// When the product was (or will be) published; nil when unknown.
    public var publishedAt: Date?
    /// `false` for drafts, archived or unpublished products: kept, but not shown to shoppers.
    public var isPublished: Bool
    /// Which lists and searches the product appears in (always reachable by its link).
    public var visibility: CatalogVisibility
    /// Images in display order; the first is the main one.
    public var images: [ProductImage]
    /// Customer rating, when the source has one.
    public var rating: Rating?
    /// Option names in order, e.g. `["Size", "Color"]`; empty means a single variant with no
    /// choice (Shopify's `Title` / `Default Title`).
    public var optionNames: [String]
    /// At least one variant.
    public var variants: [Variant]

    /// Creates a product.
    public init(id: ID, handle: String, title: String, descriptionHTML: String = "",
                descriptionText: String = "", vendor: String = "", productType: String = "",
                categoryID: Category.ID? = nil, tags: [String] = [], publishedAt: Date? = nil,
                isPublished: Bool = true, visibility: CatalogVisibility = .visible, images: [ProductImage] = [],
                rating: Rating? = nil, optionNames: [String] = [], variants: [Variant]) {
        self.id = id
        self.visibility = visibility
        self.handle = handle
        self.title = title
        self.descriptionHTML = descriptionHTML
        self.descriptionText = descriptionText
        self.vendor = vendor
        self.productType = productType
        self.categoryID = categoryID
        self.tags = tags
        self.publishedAt = publishedAt
        self.isPublished = isPublished
        self.images = images
        self.rating = rating
        self.optionNames = optionNames
        self.variants = variants
    }

    /// The variant chosen when the shopper has not picked one: the first that is not sold out,
    /// else the first.
    public var defaultVariant: Variant? {
        variants.first(where: { !$0.inventory.isSoldOut }) ?? variants.first
    }

    /// `true` when every variant is sold out.
    public var isSoldOut: Bool { variants.allSatisfy(\.inventory.isSoldOut) }

    /// The lowest variant price ("from $…" on cards).
    public var lowestPrice: Money? { variants.min(by: { $0.price.minorUnits < $1.price.minorUnits })?.price }

    /// `true` when the shopper must choose among options.
    public var hasOptions: Bool { !optionNames.isEmpty }
}

/// Handles: URL-safe keys derived from names (`"Oak Dining Chair!"` → `"oak-dining-chair"`).
public enum Handle {
    /// The longest handle an import reads, in bytes (`TextLimit.handle`). The back office and the
    /// API make new products' handles within it (``shortened(_:to:)``, ``joining(_:_:)``), so the
    /// shop's own export imports again: a fresh tester's 1 000-character title made a 1 000-byte
    /// handle, and the whole export was refused.
    public static let maximumLength = 255

    /// Lower-cases, folds diacritics (`é`→`e`, `ı`→`i`), keeps ASCII letters and digits and joins
    /// the runs with `-`. Returns `"item"` when nothing is left. One pass over the text: time and
    /// memory grow in proportion to its length (`UnicodeFolding`). Not cut to a length: imports
    /// match products by the handle their title makes, and a stored one must keep matching.
    public static func make(from text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingDash = false
        for scalar in UnicodeFolding.strippingDiacritics(text).lowercased().unicodeScalars {
            let mapped: Unicode.Scalar = scalar == "ı" ? "i" : scalar
            if mapped.isASCII, mapped.properties.isAlphabetic || ("0"..."9").contains(mapped) {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(mapped)
            } else {
                pendingDash = true
            }
        }
        return result.isEmpty ? "item" : String(result)
    }

    /// `base-suffix` within ``maximumLength`` bytes: `base` is cut to leave room for the suffix
    /// (`-2`, `-sku-1`), so a numbered handle never outgrows what an import reads.
    public static func joining(_ base: String, _ suffix: String) -> String {
        shortened(base, to: max(maximumLength - suffix.utf8.count - 1, 1)) + "-" + suffix
    }

    /// `handle` (a ``make(from:)`` result) cut to `length` bytes — at the last `-` within them when
    /// that keeps more than half — without a trailing `-`.
    public static func shortened(_ handle: String, to length: Int = maximumLength) -> String {
        guard handle.utf8.count > length else { return handle }
        var kept = Substring(handle.utf8.prefix(length))
        if let dash = kept.lastIndex(of: "-"), kept.distance(from: kept.startIndex, to: dash) > length / 2 {
            kept = kept[..<dash]
        }
        while kept.last == "-" { kept = kept.dropLast() }
        return kept.isEmpty ? "item" : String(kept)
    }
}
