import Foundation

/// Where a published product shows up besides its own page (WooCommerce's "Visibility in
/// catalog"). Every published product stays reachable by its link and orderable; this only
/// decides which lists and which searches it appears in.
///
/// | value | listed (category pages, All products, related strips, featured, API lists) | search |
/// |---|---|---|
/// | `visible` | yes | yes |
/// | `catalog` | yes | no |
/// | `search` | no | yes |
/// | `hidden` | no | no |
public enum CatalogVisibility: String, Hashable, Sendable, CaseIterable {
    /// Listed and found by search (the default).
    case visible
    /// Listed, but not found by search.
    case catalog
    /// Found by search, but not listed.
    case search
    /// Neither listed nor found; reachable by its link only.
    case hidden

    /// Whether the product appears in lists without search words.
    public var isListed: Bool { self == .visible || self == .catalog }
    /// Whether a search can find the product.
    public var isSearchable: Bool { self == .visible || self == .search }
}

/// How SKUs are compared: trimmed and case-insensitively (`" ab-1 "` and `"AB-1"` are one
/// SKU). Importers, every store and stock commands use this one key.
public enum SKUIdentity {
    /// The comparison key of a SKU: trimmed of white space, lower-cased; nil when nothing is left.
    /// ```swift
    /// SKUIdentity.key(" Nw-WSB-S ") // "nw-wsb-s"
    /// ```
    public static func key(_ sku: String?) -> String? {
        guard let trimmed = sku?.trimmedOfWhiteSpace, !trimmed.isEmpty else { return nil }
        return trimmed.lowercased()
    }
}
