public import Foundation

/// One language's texts, read from a JSON resource file `<subdirectory>/<code>.json` of a bundle
/// and parsed into templates once, so a lookup never searches a string. ShopCore's own tables
/// (its errors' messages, ``AccountFieldError/message(in:)``) and the storefront's (`Localizer`)
/// are both read by it.
///
/// A file is one JSON object: each key a text's name, each value a text or, for a counted
/// phrase, an object of CLDR plural forms (`one`, `other`, and `many` where the language has it;
/// ``Language/pluralCategory(_:)``). Placeholders are `{name}`:
///
/// ```json
/// { "cartTitle": "Sepetiniz", "cartItemCount": { "one": "1 ürün", "other": "{count} ürün" } }
/// ```
public struct StringTable: Sendable {
    /// A piece of a parsed template: literal text or a `{name}` placeholder.
    public enum Segment: Hashable, Sendable { case literal(String), placeholder(String) }

    /// A key's text: one template, or one per plural category.
    public enum Entry: Sendable {
        case text([Segment])
        case plural([PluralCategory: [Segment]])
    }

    /// The parsed texts by key.
    public var entries: [String: Entry]

    /// A table holding `entries`.
    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// The template of `key` for `category`: a plain text whatever the count; a plural form,
    /// `other` when the table has no form for `category` (Spanish may leave `many` to `other`);
    /// the key itself when the table lacks it.
    public func template(_ key: String, _ category: PluralCategory = .other) -> [Segment] {
        switch entries[key] {
        case let .text(template): template
        case let .plural(forms): forms[category] ?? forms[.other] ?? [.literal(key)]
        case nil: [.literal(key)]
        }
    }

    /// The text of `key` (a counted phrase's `other` form) with its placeholders filled from
    /// `arguments`.
    public func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
        Self.fill(template(key), arguments)
    }

    /// `template` with each `{name}` replaced by `arguments[name]` (left as `{name}` when absent).
    public static func fill(_ template: [Segment], _ arguments: [String: String]) -> String {
        if template.count == 1, case let .literal(text) = template[0] { return text }
        var text = ""
        for segment in template {
            switch segment {
            case let .literal(literal): text += literal
            case let .placeholder(name): text += arguments[name] ?? "{\(name)}"
            }
        }
        return text
    }

    /// `text` split into literals and `{name}` placeholders.
    public static func parse(_ text: String) -> [Segment] {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { segments.append(.literal(String(rest[..<open]))) }
            segments.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty || segments.isEmpty { segments.append(.literal(String(rest))) }
        return segments
    }

    /// The names of `text`'s `{name}` placeholders (a translation must keep English's).
    public static func placeholders(_ text: String) -> Set<String> {
        Set(parse(text).compactMap { if case let .placeholder(name) = $0 { name } else { nil } })
    }

    /// Why a table file could not be read.
    public struct FileError: Error, CustomStringConvertible {
        /// The file, e.g. `Localizable/tr.json`.
        public var file: String
        /// What is wrong with it.
        public var problem: String
        public var description: String { "\(file): \(problem)" }
    }

    /// The file of `language` in `bundle`, if it holds one.
    /// - Parameters:
    ///   - language: whose table.
    ///   - bundle: the module's resource bundle (`Bundle.module`).
    ///   - subdirectory: the copied resource folder.
    public static func resourceURL(_ language: Language, in bundle: Bundle, subdirectory: String = "Localizable") -> URL? {
        bundle.url(forResource: language.rawValue, withExtension: "json", subdirectory: subdirectory)
    }

    /// The texts of `language` as its file in `bundle` holds them (no fallback).
    /// - Parameters:
    ///   - language: whose table.
    ///   - bundle: the module's resource bundle (`Bundle.module`).
    ///   - subdirectory: the copied resource folder.
    /// - Returns: every key of the file, parsed.
    /// - Throws: ``FileError`` when the file is missing, is not JSON, or holds a value that is
    ///   neither a text nor an object of plural forms with an `other` form.
    public static func load(_ language: Language, from bundle: Bundle,
                            subdirectory: String = "Localizable") throws(FileError) -> StringTable {
        let file = "\(subdirectory)/\(language.rawValue).json"
        guard let url = resourceURL(language, in: bundle, subdirectory: subdirectory),
              let data = FileManager.default.contents(atPath: url.path) else {
            throw FileError(file: file, problem: "missing from the bundle")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FileError(file: file, problem: "not a JSON object")
        }
        var table = StringTable()
        for (name, value) in object {
            if let text = value as? String {
                table.entries[name] = .text(parse(text))
            } else if let forms = value as? [String: Any] {
                var parsed: [PluralCategory: [Segment]] = [:]
                for (categoryName, form) in forms {
                    guard let category = PluralCategory(rawValue: categoryName), let text = form as? String else {
                        throw FileError(file: file, problem: "“\(name)” has a form “\(categoryName)” that is not a CLDR category's text")
                    }
                    parsed[category] = parse(text)
                }
                guard parsed[.other] != nil else { throw FileError(file: file, problem: "“\(name)” has no “other” form") }
                table.entries[name] = .plural(parsed)
            } else {
                throw FileError(file: file, problem: "“\(name)” is neither a text nor an object of plural forms")
            }
        }
        return table
    }

    /// Every language's table from `bundle`, each missing key falling back to English's (the
    /// completeness tests keep that from happening in a release).
    /// - Precondition: every language's file is in the bundle and readable (a build error, not
    ///   a runtime condition).
    public static func loadAll(from bundle: Bundle, subdirectory: String = "Localizable") -> [Language: StringTable] {
        func loaded(_ language: Language) -> StringTable {
            do { return try load(language, from: bundle, subdirectory: subdirectory) } catch {
                preconditionFailure("string table \(error)")
            }
        }
        let english = loaded(.english)
        var tables = [Language.english: english]
        for language in Language.allCases where language != .english {
            var table = loaded(language)
            table.entries.merge(english.entries) { own, _ in own }
            tables[language] = table
        }
        return tables
    }
}
