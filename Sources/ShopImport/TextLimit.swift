import Foundation
import ShopCore

/// The longest text the importer accepts in each kind of field, in UTF-8 bytes (an ASCII letter
/// is one byte, `é` two, most CJK characters three, an emoji four).
///
/// Every field a reader takes from a catalog file is checked against one of these before it is
/// used; a longer value stops the import with an `ImportError` naming the file, line and column
/// (or JSON field). Bytes, not `Character`s: one `Character` can hold any number of combining
/// marks, and a byte count of a Swift string costs nothing. The table is in `docs/IMPORT.md`.
public enum TextLimit: String, CaseIterable, Hashable, Sendable, Codable {
    /// A product title (Shopify `Title`, WooCommerce `Name`, JSON `title` or `name`).
    case title
    /// A handle as written in the file (Shopify `Handle`, shoppable-json `handle`).
    case handle
    /// A vendor, product type, category, option name or option value.
    case name
    /// One tag.
    case tag
    /// A SKU.
    case sku
    /// An image URL or local path.
    case imageURL
    /// An image's alternative text.
    case altText
    /// Any other single value: ids, parent references, prices, quantities, dates, booleans,
    /// statuses, currencies.
    case value
    /// A whole comma list as written in one cell (`Tags`, `Categories`, `Images`, attribute
    /// values, a category path); each item also has its own limit.
    case list
    /// A product description (HTML or plain text).
    case description

    /// The limit in UTF-8 bytes.
    public var maximumBytes: Int {
        switch self {
        case .title, .altText: 1_000
        case .handle: Handle.maximumLength
        case .name, .tag, .sku, .value: 255
        case .imageURL: 2_048
        case .list: 65_536
        case .description: 262_144
        }
    }

    /// The problem of `text` when it is over the limit or holds a NUL character (U+0000:
    /// PostgreSQL's `text` cannot store it — a fresh tester's title got a 500 there), else nil.
    func violation(by text: some StringProtocol) -> ImportProblem? {
        let bytes = text.utf8.count
        if bytes > maximumBytes { return .textTooLong(bytes: bytes, limit: self) }
        if Self.holdsNUL(text) { return .textHoldsNUL(limit: self) }
        return nil
    }

    /// Whether `text` holds U+0000: `memchr` over contiguous UTF-8 (every field of a 100 000-row
    /// import passes here), byte by byte otherwise.
    private static func holdsNUL(_ text: some StringProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        } ?? text.utf8.contains(0)
    }
}
