import Foundation
import ShopCore

/// Writes shoppable-json, version 1, as `ShoppableJSONReader` reads it: every field a product
/// has (handle, texts, vendor, type, category, tags, publication and its date, images with alt
/// text, rating, options, variants with SKU and barcode, prices as decimal strings, stock and backorders).
/// Two-space indentation, fields in a fixed order, so the same catalog gives the same bytes.
enum ShoppableJSONWriter {
    static func write(_ products: [ProductDraft], currency: Currency) -> String {
        var out = "{\n  \"format\": \"shoppable-catalog\",\n  \"version\": 1,\n  \"currency\": \(string(currency.code)),\n"
        out += "  \"products\": ["
        out += products.map { "\n" + product($0) }.joined(separator: ",")
        out += products.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    private static func product(_ product: ProductDraft) -> String {
        var fields: [(String, String)] = [
            ("handle", string(product.handle)), ("title", string(product.title)),
            ("description", string(product.descriptionHTML)), ("vendor", string(product.vendor)),
            ("productType", string(product.productType)),
        ]
        if let category = product.categoryName { fields.append(("category", string(category))) }
        fields.append(("tags", "[" + product.tags.map(string).joined(separator: ", ") + "]"))
        if let date = product.publishedAt {
            fields.append(("publishedAt", string(ISO8601DateFormatter().string(from: date))))
        }
        fields.append(("published", product.isPublished ? "true" : "false"))
        // Written only when not the default, so catalogs without it export as before.
        if product.visibility != .visible { fields.append(("visibility", string(product.visibility.rawValue))) }
        fields.append(("images", array(product.images.map { image in
            "{\"url\": \(string(image.url)), \"alt\": \(string(image.altText))}"
        })))
        if let rating = product.rating {
            // Hundredths of a star written as the reader parses them: a 2-digit amount.
            let rate = Money(minorUnits: Int64(rating.rateHundredths), currency: .usd)
            fields.append(("rating", "{\"rate\": \(rate.decimalString), \"count\": \(rating.count)}"))
        }
        fields.append(("options", "[" + product.optionNames.map(string).joined(separator: ", ") + "]"))
        fields.append(("variants", array(product.variants.map { variant($0, optionNames: product.optionNames) })))
        return "    {\n" + fields.map { "      \(string($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n    }"
    }

    private static func variant(_ variant: VariantDraft, optionNames: [String]) -> String {
        var fields: [(String, String)] = []
        if let sku = variant.sku { fields.append(("sku", string(sku))) }
        if let barcode = variant.barcode { fields.append(("barcode", string(barcode))) }
        fields.append(("options", "[" + variant.optionValues.map(string).joined(separator: ", ") + "]"))
        // Open options (WooCommerce "any"): value "" in options, allowed values by option name.
        let open = zip(optionNames, variant.optionChoices).filter { !$0.1.isEmpty }
        if !open.isEmpty {
            fields.append(("choices", "{" + open.map { name, values in
                string(name) + ": [" + values.map(string).joined(separator: ", ") + "]"
            }.joined(separator: ", ") + "}"))
        }
        fields.append(("price", string(variant.price.decimalString)))
        if let compareAt = variant.compareAtPrice { fields.append(("compareAtPrice", string(compareAt.decimalString))) }
        if case let .tracked(quantity, allowsBackorder) = variant.inventory {
            fields.append(("stock", String(quantity)))
            fields.append(("allowBackorder", allowsBackorder ? "true" : "false"))
        }
        return "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Items one per line, indented under a product field.
    private static func array(_ items: [String]) -> String {
        items.isEmpty ? "[]" : "[\n" + items.map { "        " + $0 }.joined(separator: ",\n") + "\n      ]"
    }

    /// A JSON string literal, as Foundation's encoder writes it (`/` left as it is).
    static func string(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a String cannot fail; the fallback only keeps the signature non-throwing.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
