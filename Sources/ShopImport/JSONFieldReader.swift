import Foundation
import ShopCore

/// Reading the fields of one JSON object in a merchant's file (campaigns, shop configuration),
/// with every mistake reported as the file's own error type naming the field.
///
/// A conforming type provides the object's fields and how to make an error for a field; the
/// readers below (`string`, `requiredString`, `int`, `money`) are shared.
protocol JSONFieldReader {
    associatedtype Failure: Error
    /// The object's fields by key.
    var fields: [String: JSONNode] { get }
    /// The file's error for `key`, with `message`.
    func error(_ key: String, _ message: String) -> Failure
    /// The file's error for `key` at `line` (a value inside the field, e.g. one language's text).
    func error(_ key: String, line: Int, _ message: String) -> Failure
    /// An example amount for messages, e.g. `"10.00"`.
    var exampleAmount: String { get }
}

extension JSONFieldReader {
    /// The field, or nil when absent or null.
    func node(_ key: String) -> JSONNode? {
        guard let node = fields[key] else { return nil }
        if case .null = node.value { return nil }
        return node
    }

    /// A JSON string, or nil when absent or null.
    func string(_ key: String) throws(Failure) -> String? {
        guard let node = node(key) else { return nil }
        guard case let .string(text) = node.value else { throw error(key, "expected a string, found \(node.kindName)") }
        return text
    }

    /// An array of strings, or nil when absent or null.
    func strings(_ key: String) throws(Failure) -> [String]? {
        guard let node = node(key) else { return nil }
        guard let items = node.array else { throw error(key, "expected an array of strings, found \(node.kindName)") }
        var result: [String] = []
        for item in items {
            guard case let .string(text) = item.value else {
                throw error(key, "expected an array of strings, found \(item.kindName) in it")
            }
            result.append(text)
        }
        return result
    }

    /// A non-empty trimmed string; `hint` says what belongs there.
    func requiredString(_ key: String, hint: String? = nil) throws(Failure) -> String {
        guard let text = try string(key)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw error(key, "is required" + (hint.map { ": \($0)" } ?? ""))
        }
        return text
    }

    /// A merchant's text that may be translated (`LocalizedText`, issue #11): a plain string, or
    /// an object of texts by language code — `{"en": "Standard", "tr": "Standart"}` — whose
    /// `"en"` text is the default (or, with `defaultText`, only translations of it). Texts are
    /// trimmed; nil when absent or null.
    /// - Throws: the file's error naming the field, at the offending entry's line, for a value
    ///   that is neither, a key that is not `en`, `tr` or `es`, a text that is not a string or is
    ///   empty, or a missing `"en"`.
    func localizedText(_ key: String, defaultText: String? = nil) throws(Failure) -> LocalizedText? {
        guard let node = node(key) else { return nil }
        switch node.value {
        case let .string(text) where defaultText == nil:
            return LocalizedText(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case let .object(entries):
            var texts: [(key: String, text: String)] = []
            for (language, value) in entries.sorted(by: { $0.value.line == $1.value.line ? $0.key < $1.key : $0.value.line < $1.value.line }) {
                guard case let .string(text) = value.value else {
                    throw error(key, line: value.line, "the “\(language)” text must be a string, not \(value.kindName)")
                }
                texts.append((language, text.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            do {
                return try LocalizedText(entries: texts, field: key, defaultText: defaultText)
            } catch {
                throw self.error(key, line: error.languageKey.flatMap { entries[$0]?.line } ?? node.line, error.message)
            }
        default:
            let example = defaultText == nil ? "{\"en\": \"Standard\", \"tr\": \"Standart\"}" : "{\"tr\": \"Renk\", \"es\": \"Color\"}"
            throw error(key, "expected \(defaultText == nil ? "a text, or " : "")an object of texts by language such as "
                        + "\(example), found \(node.kindName)")
        }
    }

    /// A `localizedText` whose default is not empty; `hint` says what belongs there.
    func requiredLocalizedText(_ key: String, hint: String? = nil) throws(Failure) -> LocalizedText {
        guard let text = try localizedText(key), !text.isEmpty else {
            throw error(key, "is required" + (hint.map { ": \($0)" } ?? ""))
        }
        return text
    }

    /// `true` or `false`.
    func bool(_ key: String) throws(Failure) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case let .bool(value) = node.value else { throw error(key, "expected true or false, found \(node.kindName)") }
        return value
    }

    /// A whole number written as a JSON number (or, when `acceptsText`, a string holding one).
    func int(_ key: String, acceptsText: Bool = false) throws(Failure) -> Int? {
        guard let node = node(key) else { return nil }
        let text: String
        switch node.value {
        case let .number(number): text = number
        case let .string(string) where acceptsText: text = string.trimmingCharacters(in: .whitespaces)
        default: throw error(key, "expected a whole number, found \(node.kindName)")
        }
        guard let value = Int(text) else { throw error(key, "“\(text)” is not a whole number") }
        return value
    }

    /// An amount in the shop currency: a decimal string such as `"10.00"` (a JSON number is
    /// accepted too; its exact text is used, never a floating-point value).
    func money(_ key: String, currency: Currency) throws(Failure) -> Money? {
        guard let node = node(key) else { return nil }
        let text: String
        switch node.value {
        case let .number(number): text = number
        case let .string(string): text = string
        default: throw error(key, "expected an amount such as \"\(exampleAmount)\", found \(node.kindName)")
        }
        do {
            return try Money.parse(text, currency: currency)
        } catch {
            throw self.error(key, "“\(text)” is not an amount such as \(exampleAmount) (in \(currency.code)): \(error.description)")
        }
    }
}
