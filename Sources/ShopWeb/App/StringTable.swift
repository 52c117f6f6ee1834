import Foundation
import ShopCore

/// One language's texts, read from its resource file `Localizable/<code>.json` and parsed into
/// templates once per process (`bundled(_:)`), so a lookup never searches a string.
///
/// A file is one JSON object: each key an `L10nKey` case's raw value, each value a text or, for a
/// counted phrase, an object of CLDR plural forms (`one`, `other`, and `many` where the language
/// has it):
///
/// ```json
/// { "cartTitle": "Sepetiniz", "cartItemCount": { "one": "1 ürün", "other": "{count} ürün" } }
/// ```
struct StringTable: Sendable {
    /// A key's text: one template, or one per plural category.
    enum Entry: Sendable {
        case text([Localizer.Segment])
        case plural([PluralCategory: [Localizer.Segment]])
    }

    /// The parsed texts by key.
    var entries: [L10nKey: Entry]
    /// Keys in the file that no `L10nKey` case names (none in a complete table).
    var unknownKeys: [String]

    /// The template of `key` for `category`: a plain text whatever the count; a plural form,
    /// `other` when the table has no form for `category` (Spanish may leave `many` to `other`).
    func template(_ key: L10nKey, _ category: PluralCategory) -> [Localizer.Segment] {
        switch entries[key] {
        case let .text(template): template
        case let .plural(forms): forms[category] ?? forms[.other] ?? [.literal(key.rawValue)]
        case nil: [.literal(key.rawValue)]
        }
    }

    /// Why a table file could not be read.
    struct FileError: Error, CustomStringConvertible {
        var file: String
        var problem: String
        var description: String { "\(file): \(problem)" }
    }

    /// The bundled file of `language`.
    static func resourceURL(_ language: Language) -> URL? {
        Bundle.module.url(forResource: language.rawValue, withExtension: "json", subdirectory: "Localizable")
    }

    /// The texts of `language` as its file holds them (no fallback).
    /// - Throws: `FileError` when the file is missing, is not JSON, or holds a value that is
    ///   neither a text nor an object of plural forms.
    static func load(_ language: Language) throws -> StringTable {
        let file = "Localizable/\(language.rawValue).json"
        guard let url = resourceURL(language), let data = FileManager.default.contents(atPath: url.path) else {
            throw FileError(file: file, problem: "missing from the bundle")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FileError(file: file, problem: "not a JSON object")
        }
        var table = StringTable(entries: [:], unknownKeys: [])
        for (name, value) in object {
            guard let key = L10nKey(rawValue: name) else {
                table.unknownKeys.append(name)
                continue
            }
            if let text = value as? String {
                table.entries[key] = .text(Localizer.parse(text))
            } else if let forms = value as? [String: Any] {
                var parsed: [PluralCategory: [Localizer.Segment]] = [:]
                for (categoryName, form) in forms {
                    guard let category = PluralCategory(rawValue: categoryName), let text = form as? String else {
                        throw FileError(file: file, problem: "“\(name)” has a form “\(categoryName)” that is not a CLDR category's text")
                    }
                    parsed[category] = Localizer.parse(text)
                }
                guard parsed[.other] != nil else { throw FileError(file: file, problem: "“\(name)” has no “other” form") }
                table.entries[key] = .plural(parsed)
            } else {
                throw FileError(file: file, problem: "“\(name)” is neither a text nor an object of plural forms")
            }
        }
        return table
    }

    /// Every language's table, read once: a key a translation lacks falls back to English (the
    /// completeness test keeps that from happening in a release).
    private static let tables: [Language: StringTable] = {
        func loaded(_ language: Language) -> StringTable {
            do { return try load(language) } catch { preconditionFailure("string table \(error)") }
        }
        let english = loaded(.english)
        var tables = [Language.english: english]
        for language in Language.allCases where language != .english {
            var table = loaded(language)
            table.entries.merge(english.entries) { own, _ in own }
            tables[language] = table
        }
        return tables
    }()

    /// The table of `language`, read from the bundle at first use.
    static func bundled(_ language: Language) -> StringTable { tables[language] ?? tables[.english]! }
}
