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

    /// The key `ProductQuery.Sort.name` orders by in `locale`, compared as UTF-8 bytes: the title
    /// folded (`SearchFolding.fold`, so case, most diacritics and punctuation do not count), except
    /// that the letters the language's alphabet keeps apart are written as their base letter
    /// followed by `~` (U+007E, above every ASCII letter), so each sorts after all words of its
    /// base letter and before the next letter:
    /// - Turkish: `ç`→`c~`, `ğ`→`g~`, `ı`→`h~` (between `h` and `i`), `ö`→`o~`, `ş`→`s~`,
    ///   `ü`→`u~`; `I`/`İ` lower-case to `ı`/`i`. "cam" < "çay" < "dut"; "ılık" < "içki".
    /// - Spanish: `ñ`→`n~`. "nube" < "nz" < "ñandú" < "oso".
    /// - English: the folded title. "éclair" sorts as "eclair".
    /// This is the primary strength of each language's CLDR collation for the letters of its
    /// alphabet (what `String.compare(_:locale:)` gives); ties fall to the product id.
    public static func sortTitle(_ title: String, locale: SearchLocale = .english) -> String {
        let letters: [Character: String]
        switch locale {
        case .english: return SearchFolding.fold(title, locale: .english)
        case .turkish: letters = ["ç": "c~", "ğ": "g~", "ı": "h~", "ö": "o~", "ş": "s~", "ü": "u~"]
        case .spanish: letters = ["ñ": "n~"]
        }
        let lower = locale.keepsDotlessI
            ? title.replacingOccurrences(of: "İ", with: "i").replacingOccurrences(of: "I", with: "ı").lowercased()
            : title.lowercased()
        guard lower.contains(where: { letters[$0] != nil }) else { return SearchFolding.fold(lower, locale: locale) }
        // Character by character, so a kept letter stays where it was among the folded words.
        var key = ""
        var pendingSpace = false
        for character in lower {
            let piece = letters[character] ?? SearchFolding.fold(String(character), locale: locale)
            if piece.isEmpty { pendingSpace = true; continue }
            if pendingSpace && !key.isEmpty { key += " " }
            pendingSpace = false
            key += piece
        }
        return key
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
