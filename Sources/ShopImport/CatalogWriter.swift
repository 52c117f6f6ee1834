public import Foundation
public import ShopCore

/// Writes a catalog as a file of one of the formats `CatalogImporter` reads, in the columns,
/// fields and value spellings its reader reads — so that importing the file gives back every
/// field the format carries (docs/IMPORT.md, "Exporting").
///
/// The output is deterministic: the products in the order given, their variants and images in
/// theirs; CSV rows end with CRLF and fields are quoted per RFC 4180 (`CSVWriter`); prices are
/// written from their integer minor units (`Money.decimalString`), never through floating point.
///
/// ```swift
/// let writer = CatalogWriter(currency: .usd)
/// let csv = try writer.write(drafts, as: .shopifyCSV)
/// ```
public struct CatalogWriter: Sendable {
    /// The formats a catalog can be written in.
    public static let formats: [CatalogFormat] = [.shopifyCSV, .wooCommerceCSV, .shoppableJSON]

    /// The shop currency (shoppable-json names it; every price is in it).
    public var currency: Currency

    /// Creates a writer for a shop in `currency`.
    public init(currency: Currency) {
        self.currency = currency
    }

    /// The file's bytes.
    /// - Parameters:
    ///   - products: the products, as drafts (`ProductDraft(_:categoryName:)` of stored ones).
    ///   - format: one of `CatalogWriter.formats`.
    /// - Returns: the file (UTF-8, no byte order mark).
    /// - Throws: `CatalogExportError` when the format is not one a catalog is written in, or a
    ///   product cannot be written in it (more than three options in a Shopify CSV).
    public func write(_ products: [ProductDraft], as format: CatalogFormat) throws(CatalogExportError) -> Data {
        // A description stored before `HTMLSanitizer.sanitize` made line ends `\n` is written as
        // the import will store it, so that importing the file changes nothing (a fresh tester).
        // Drafts are copied only when one holds a CR (none, once every description is stored
        // through the sanitizer).
        let holdsCR = products.contains { $0.descriptionHTML.utf8.contains(UInt8(ascii: "\r")) }
        let products = !holdsCR ? products : products.map { product in
            var product = product
            product.descriptionHTML = HTMLSanitizer.normalizedLineEnds(product.descriptionHTML)
            return product
        }
        switch format {
        case .shopifyCSV: return Data(try ShopifyCSVWriter.write(products).utf8)
        case .wooCommerceCSV: return Data(WooCommerceCSVWriter.write(products).utf8)
        case .shoppableJSON: return Data(ShoppableJSONWriter.write(products, currency: currency).utf8)
        case .fakeStore, .seedJSON:
            throw CatalogExportError(.notWritable(format))
        }
    }
}

/// Why a catalog cannot be written in the format asked for.
public struct CatalogExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, in values a page can word in its own language (the back office's export).
    public enum Reason: Hashable, Sendable {
        /// A Shopify CSV holds at most three options; the product has `count`.
        case tooManyOptions(handle: String, count: Int)
        /// A variant whose `option` the shopper picks (WooCommerce "any"), which a Shopify CSV
        /// cannot hold.
        case openVariant(handle: String, sku: String?, option: String)
        /// The format is one files are read in, not written (`CatalogWriter.formats`).
        case notWritable(CatalogFormat)
    }

    /// Why.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// What is wrong, in English, naming the product when it is about one (the CLI's message).
    public var message: String {
        switch reason {
        case let .tooManyOptions(handle, count):
            "“\(handle)” has \(count) options; a Shopify CSV holds at most 3"
        case let .openVariant(handle, sku, option):
            "“\(handle)” has a variant\(sku.map { " (SKU \($0))" } ?? "") whose “\(option)” the shopper picks "
                + "(WooCommerce “any”); a Shopify CSV cannot hold it — export as woocommerce-csv or shoppable-json"
        case let .notWritable(format):
            "a catalog cannot be written as \(format.rawValue); choose "
                + CatalogWriter.formats.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// The message.
    public var description: String { message }
}

/// RFC 4180 output: fields separated by `,`, records ended by CRLF; a field is quoted (`"…"`,
/// inner quotes doubled) when it holds a comma, a quote, a line break, U+2028/U+2029, or
/// starts or ends with white space — everything `CSVReader` would otherwise read differently.
///
/// Text starting with `=`, `+`, `-` or `@` is written as it is: the readers keep it as it is,
/// and an export exists to be imported again (docs/IMPORT.md says why there is no spreadsheet
/// formula guard).
enum CSVWriter {
    /// One record, CRLF-terminated.
    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when needed.
    static func field(_ text: String) -> String {
        let needsQuotes = text.unicodeScalars.contains { scalar in
            switch scalar {
            case ",", "\"", "\r", "\n", "\u{2028}", "\u{2029}": true
            default: false
            }
        } || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
