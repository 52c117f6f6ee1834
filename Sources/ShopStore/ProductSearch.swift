public import ShopCore
import Foundation

/// The search and filter rules every `CatalogStore` applies, shared so that every SQL engine
/// indexes the same text and compares the same keys.
public enum ProductSearchRules {
    /// The rule families a product's text is indexed with: Turkish folding differs from the
    /// others only in its `I`/`ı` rule, so two foldings cover all `SearchLocale`s.
    public enum Family: Sendable, CaseIterable {
        /// English and Spanish (`SearchLocale.english` rules).
        case standard
        /// Turkish (`SearchLocale.turkish` rules).
        case turkish

        /// The family of a locale.
        public init(_ locale: SearchLocale) { self = locale.keepsDotlessI ? .turkish : .standard }

        /// The locale whose folding this family indexes with.
        public var locale: SearchLocale { self == .turkish ? .turkish : .english }
    }

    /// The key the tag filter compares (`ProductQuery.tag`): the tag with `İ` written as `i`,
    /// lower-cased with Unicode's default mapping, in NFC. `"Oak"`, `"OAK"` → `"oak"`;
    /// `"İndirim"` → `"indirim"`. Diacritics and punctuation count (`"çay"` ≠ `"cay"`).
    public static func tagKey(_ tag: String) -> String {
        tag.replacingOccurrences(of: "İ", with: "i").lowercased().precomposedStringWithCanonicalMapping
    }

    /// The key `ProductQuery.Sort.name` orders by: the title folded with English rules
    /// (`SearchFolding.fold(title, locale: .english)`), compared as UTF-8 bytes.
    public static func sortTitle(_ title: String) -> String {
        SearchFolding.fold(title, locale: .english)
    }
}

/// A product's searchable text in one rule family, folded (`SearchFolding.fold`), in the three
/// fields relevance ranks by. Stores index exactly these strings.
public struct ProductSearchDocument: Hashable, Sendable {
    /// The folded title.
    public var title: String
    /// The folded vendor, tags and category name, space-separated.
    public var meta: String
    /// The folded description text.
    public var body: String

    /// Folds a product's fields with the rules of `family`.
    /// - Parameters:
    ///   - title: the product title.
    ///   - vendor: the vendor ("" when unknown).
    ///   - tags: the tags.
    ///   - categoryName: the name of the product's category, nil when it has none.
    ///   - descriptionText: the plain-text description.
    ///   - family: the folding rules.
    public init(title: String, vendor: String, tags: [String], categoryName: String?, descriptionText: String,
                family: ProductSearchRules.Family) {
        let locale = family.locale
        self.title = SearchFolding.fold(title, locale: locale)
        self.meta = ([vendor] + tags)
            .map { SearchFolding.fold($0, locale: locale) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        self.body = SearchFolding.fold(descriptionText, locale: locale)
        addCategory(categoryName, family: family)
    }

    /// Adds a category name to `meta`, as `init` does. A store folds a draft without its
    /// category (`categoryName: nil`) before its write transaction and adds the stored category
    /// name, known only inside it, there: the long texts are folded outside the transaction.
    public mutating func addCategory(_ categoryName: String?, family: ProductSearchRules.Family) {
        let folded = SearchFolding.fold(categoryName ?? "", locale: family.locale)
        guard !folded.isEmpty else { return }
        meta = meta.isEmpty ? folded : meta + " " + folded
    }
}
