import Foundation
import ShopCore

/// The storefront's string tables: `Localizable/<code>.json` in ShopWeb's bundle, read by
/// ShopCore's `StringTable` once per process, each key an `L10nKey` case's raw value. (The
/// messages of ShopCore's own errors are in ShopCore's tables: `AccountFieldError.message(in:)`.)
extension StringTable {
    /// ShopWeb's bundled file of `language`.
    static func resourceURL(_ language: Language) -> URL? { resourceURL(language, in: .module) }

    /// ShopWeb's texts of `language` as its file holds them (no fallback).
    /// - Throws: `StringTable.FileError` when the file is missing or malformed.
    static func load(_ language: Language) throws -> StringTable { try load(language, from: .module) }

    /// Keys in the table that no `L10nKey` case names (none in a complete table).
    var unknownKeys: [String] { entries.keys.filter { L10nKey(rawValue: $0) == nil } }

    /// Every language's storefront table, read once: a key a translation lacks falls back to
    /// English (the completeness test keeps that from happening in a release).
    private static let storefront = StringTable.loadAll(from: .module)

    /// The storefront table of `language`, read from the bundle at first use.
    static func bundled(_ language: Language) -> StringTable { storefront[language] ?? storefront[.english]! }
}
