public import Foundation

/// A text the merchant writes — a shipping method's name, the payment instructions, a
/// campaign's title — with optional translations (issue #11): the merchant's own text, shown in
/// every language without a translation of its own, plus per-``Language`` overrides.
///
/// In the merchant's files it is either a plain string (no translations, as before) or an object
/// of language codes, whose `"en"` text is the default:
///
/// ```json
/// "name": "Standard delivery"
/// "name": {"en": "Standard delivery", "tr": "Standart teslimat", "es": "Envío estándar"}
/// ```
///
/// ```swift
/// let name = LocalizedText("Standard delivery", translations: [.turkish: "Standart teslimat"])
/// name.text(in: .turkish) // "Standart teslimat"
/// name.text(in: .spanish) // "Standard delivery" (no Spanish text: the default)
/// ```
public struct LocalizedText: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The merchant's text, shown in a language without a translation of its own.
    public var defaultText: String
    /// The texts for particular languages (never an empty one).
    public var translations: [Language: String]

    /// - Parameters:
    ///   - defaultText: the merchant's text.
    ///   - translations: texts for particular languages; empty ones are left out.
    public init(_ defaultText: String, translations: [Language: String] = [:]) {
        self.defaultText = defaultText
        self.translations = translations.filter { !$0.value.isEmpty }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text for `language`: its translation, else the default.
    public func text(in language: Language) -> String {
        translations[language] ?? defaultText
    }

    /// The default text.
    public var description: String { defaultText }

    /// `true` when the default text is empty (a campaign without a description).
    public var isEmpty: Bool { defaultText.isEmpty }

    /// The same texts, each transformed (e.g. trimmed).
    public func map(_ transform: (String) -> String) -> LocalizedText {
        LocalizedText(transform(defaultText), translations: translations.mapValues(transform))
    }

    /// Reads the object form, `{"en": …, "tr": …, "es": …}`, from its entries in file order.
    ///
    /// ```swift
    /// try LocalizedText(entries: [("en", "Standard"), ("tr", "Standart")], field: "shipping[1].name")
    /// ```
    /// - Parameters:
    ///   - entries: the object's keys and string values.
    ///   - field: the field's name in the file, for the error.
    ///   - defaultText: the default when it is written elsewhere (an option-name glossary's key);
    ///     nil when the object's `"en"` text is the default and must be there.
    /// - Throws: `LocalizedTextError` for a key that is not a language the shop speaks, a repeated
    ///   key, an empty text, or (when `defaultText` is nil) a missing `"en"`.
    public init(entries: [(key: String, text: String)], field: String, defaultText: String? = nil) throws(LocalizedTextError) {
        var texts: [Language: String] = [:]
        for (key, text) in entries {
            guard let language = Language(rawValue: key) else { throw .unknownLanguage(field: field, key: key) }
            guard texts[language] == nil else { throw .repeatedLanguage(field: field, key: key) }
            guard !text.isEmpty else { throw .emptyText(field: field, key: key) }
            texts[language] = text
        }
        if let defaultText {
            self.init(defaultText, translations: texts)
        } else {
            guard let english = texts.removeValue(forKey: .english) else { throw .missingDefault(field: field) }
            self.init(english, translations: texts)
        }
    }
}

/// Why the object form of a ``LocalizedText`` was refused; the message names the field.
public enum LocalizedTextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A key that is not the code of a language the shop speaks (`en`, `tr`, `es`).
    case unknownLanguage(field: String, key: String)
    /// The same language twice.
    case repeatedLanguage(field: String, key: String)
    /// A language with an empty text.
    case emptyText(field: String, key: String)
    /// No `"en"` text, the one shown in languages without their own.
    case missingDefault(field: String)
    /// Neither a string nor an object of strings.
    case notText(field: String)

    /// The field it is about.
    public var field: String {
        switch self {
        case let .unknownLanguage(field, _), let .repeatedLanguage(field, _), let .emptyText(field, _),
             let .missingDefault(field), let .notText(field): field
        }
    }

    /// The language key it is about, when it is about one.
    public var languageKey: String? {
        switch self {
        case let .unknownLanguage(_, key), let .repeatedLanguage(_, key), let .emptyText(_, key): key
        case .missingDefault, .notText: nil
        }
    }

    /// What is wrong, without the field's name (the file's error adds it with the line).
    public var message: String {
        let codes = Language.allCases.map { "“\($0.rawValue)”" }.joined(separator: ", ")
        switch self {
        case let .unknownLanguage(_, key):
            return "“\(key)” is not a language the shop speaks: use \(codes)"
        case let .repeatedLanguage(_, key):
            return "gives the “\(key)” text twice"
        case let .emptyText(_, key):
            return "the “\(key)” text is empty"
        case .missingDefault:
            return "needs an “en” text: it is shown in every language without its own"
        case .notText:
            return "expected a text, or an object of texts by language such as {\"en\": \"Standard\", \"tr\": \"Standart\"}"
        }
    }

    public var description: String { "field “\(field)”: \(message)" }
}

extension LocalizedText: Codable {
    /// Decodes a plain string, or an object of texts by language code (``init(entries:field:defaultText:)``);
    /// a refused object is a `DecodingError.dataCorrupted` whose description names the field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.init(text)
            return
        }
        let field = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        guard let object = try? container.decode([String: String].self) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: LocalizedTextError.notText(field: field).description)
        }
        do {
            self = try LocalizedText(entries: object.sorted { $0.key < $1.key }.map { (key: $0.key, text: $0.value) },
                                     field: field)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// A plain string when there are no translations, else the object with `"en"` as the default.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if translations.isEmpty {
            try container.encode(defaultText)
        } else {
            var object = [Language.english.rawValue: defaultText]
            for (language, text) in translations { object[language.rawValue] = text }
            try container.encode(object)
        }
    }
}

/// The merchant's translations of product option names (issue #11): `"Color"` → Turkish
/// `"Renk"`, Spanish `"Color"`. Product data stays as the merchant wrote it; the names are
/// translated where they are shown. A name without an entry is shown as written.
///
/// ```swift
/// let glossary = OptionNameGlossary(["Size": LocalizedText("Size", translations: [.spanish: "Tamaño"])])
/// glossary.name("size", in: .spanish) // "Tamaño"
/// ```
public struct OptionNameGlossary: Hashable, Sendable {
    /// The entries by the name as merchants write it, compared without case.
    public private(set) var entries: [String: LocalizedText]

    /// - Parameter entries: translations by option name (the name is the default text).
    public init(_ entries: [String: LocalizedText] = [:]) {
        self.entries = Dictionary(entries.map { (Self.key($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// `name` in `language`: the glossary's translation, else `name` as written.
    public func name(_ name: String, in language: Language) -> String {
        entries[Self.key(name)]?.translations[language] ?? name
    }

    /// `names` in `language`, in order.
    public func names(_ names: [String], in language: Language) -> [String] {
        names.map { name($0, in: language) }
    }

    private static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
