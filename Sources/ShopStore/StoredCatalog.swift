public import ShopCore
import Foundation

/// Rows of the catalog's tables ↔ values, the same on every engine: the column lists (the same
/// SQL on SQLite and PostgreSQL) and the decoding of `products p`, `variants` and
/// `product_images` rows, and the values an upsert writes for a variant.
public enum StoredCatalog {
    /// A stored value that does not decode; each engine reports it as its own error.
    public struct CorruptValue: Error, Equatable, Sendable {
        public var table: String
        public var column: String
        public var rowID: Int64
    }

    /// The columns ``product(_:images:variants:)`` reads, of `products p`.
    public static let productColumns = """
        p.id, p.handle, p.title, p.description_html, p.description_text, p.vendor, p.product_type, p.category_id,
        p.tags, p.published_at, p.is_published, p.rating_hundredths, p.rating_count, p.option_names, p.visibility
        """

    /// The columns ``variant(_:currencies:)`` reads, of `variants`.
    public static let variantColumns = """
        id, product_id, sku, option_values, price_minor, compare_at_minor, currency,
        inventory_tracked, stock, allow_backorder, barcode, option_choices
        """

    /// The columns ``image(_:)`` reads, of `product_images`.
    public static let imageColumns = "product_id, url, alt, width, height, has_alpha"

    /// A variant and its product's id from a row of ``variantColumns``.
    /// - Parameter currencies: the currencies parsed so far (a page has one or two).
    public static func variant(_ row: some StoredRow,
                               currencies: inout [String: Currency]) throws -> (productID: Int64, variant: Variant) {
        let id = try row.int64(0)
        let code = try row.string(6)
        let currency: Currency
        if let cached = currencies[code] {
            currency = cached
        } else {
            guard let parsed = try? Currency(code: code) else {
                throw CorruptValue(table: "variants", column: "currency", rowID: id)
            }
            currencies[code] = parsed
            currency = parsed
        }
        guard let optionValues = JSONStringArray.decode(try row.string(3)) else {
            throw CorruptValue(table: "variants", column: "option_values", rowID: id)
        }
        let inventory: Inventory = try row.bool(7)
            ? .tracked(quantity: Int(try row.int64(8)), allowsBackorder: try row.bool(9))
            : .untracked
        return (try row.int64(1), Variant(
            id: Variant.ID(id), sku: try row.optionalString(2), optionValues: optionValues,
            price: Money(minorUnits: try row.int64(4), currency: currency),
            compareAtPrice: try row.optionalInt64(5).map { Money(minorUnits: $0, currency: currency) },
            inventory: inventory, barcode: try row.optionalString(10),
            optionChoices: try optionChoices(try row.optionalString(11), rowID: id)))
    }

    /// An image and its product's id from a row of ``imageColumns``.
    public static func image(_ row: some StoredRow) throws -> (productID: Int64, image: ProductImage) {
        (try row.int64(0), ProductImage(url: try row.string(1), altText: try row.string(2),
                                        width: try row.optionalInt64(3).map { Int($0) },
                                        height: try row.optionalInt64(4).map { Int($0) }, hasAlpha: try row.bool(5)))
    }

    /// A product from a row of ``productColumns``, with its images and variants.
    public static func product(_ row: some StoredRow, images: [ProductImage], variants: [Variant]) throws -> Product {
        let id = try row.int64(0)
        guard let tags = JSONStringArray.decode(try row.string(8)) else {
            throw CorruptValue(table: "products", column: "tags", rowID: id)
        }
        guard let optionNames = JSONStringArray.decode(try row.string(13)) else {
            throw CorruptValue(table: "products", column: "option_names", rowID: id)
        }
        let rating = try row.optionalInt64(11).map { Rating(rateHundredths: Int($0), count: Int(try row.int64(12))) }
        guard let visibility = CatalogVisibility(rawValue: try row.string(14)) else {
            throw CorruptValue(table: "products", column: "visibility", rowID: id)
        }
        return Product(
            id: Product.ID(id), handle: try row.string(1), title: try row.string(2),
            descriptionHTML: try row.string(3), descriptionText: try row.string(4), vendor: try row.string(5),
            productType: try row.string(6), categoryID: try row.optionalInt64(7).map { Category.ID($0) },
            tags: tags, publishedAt: try row.optionalInt64(9).map { StoredTime.date(unixSeconds: $0) },
            isPublished: try row.bool(10), visibility: visibility, images: images, rating: rating,
            optionNames: optionNames, variants: variants)
    }

    /// A variant's open-option choices as stored: `[[],["S","M"]]`, or nil for a variant
    /// without open options.
    public static func encodeOptionChoices(_ choices: [[String]]) -> String? {
        guard choices.contains(where: { !$0.isEmpty }) else { return nil }
        return "[" + choices.map(JSONStringArray.encode).joined(separator: ",") + "]"
    }

    /// The lists of a stored `option_choices` (nil: none).
    public static func optionChoices(_ text: String?, rowID: Int64) throws(CorruptValue) -> [[String]] {
        guard let text else { return [] }
        guard let lists = try? JSONDecoder().decode([[String]].self, from: Data(text.utf8)) else {
            throw CorruptValue(table: "variants", column: "option_choices", rowID: rowID)
        }
        return lists
    }

    /// What an upsert writes for a variant, in the order of ``variantWriteColumns``.
    public static func variantValues(_ draft: VariantDraft, position: Int) -> [StoredValue] {
        let inventory: (tracked: Bool, stock: Int, backorder: Bool) = switch draft.inventory {
        case .untracked: (false, 0, false)
        case let .tracked(quantity, allowsBackorder): (true, quantity, allowsBackorder)
        }
        return [
            .integer(Int64(position)), StoredValue(draft.sku), StoredValue(SKUIdentity.key(draft.sku)),
            .text(JSONStringArray.encode(draft.optionValues)),
            .text(CatalogUpsertRules.optionKey(draft.optionValues)), .integer(draft.price.minorUnits),
            // A "was" price only above the price, as every read shows it (`Variant`): kept below,
            // it vanished from the back office's form yet came back as a sale when the price fell
            // under it (a fresh tester's finding).
            StoredValue(CatalogUpsertRules.normalized(draft).compareAtPrice?.minorUnits), .text(draft.price.currency.code),
            .bool(inventory.tracked), .integer(Int64(inventory.stock)), .bool(inventory.backorder),
            StoredValue(draft.barcode), StoredValue(encodeOptionChoices(draft.optionChoices)),
        ]
    }

    /// The columns ``variantValues(_:position:)`` fills, in order.
    public static let variantWriteColumns = [
        "position", "sku", "sku_key", "option_values", "option_key", "price_minor", "compare_at_minor",
        "currency", "inventory_tracked", "stock", "allow_backorder", "barcode", "option_choices",
    ]
}
