/// The languages the shop speaks: English (the source), Turkish and Spanish.
///
/// One rule decides a request's language from its `Accept-Language` header (``accepted(_:)``);
/// the API's messages and the search's folding rules both follow it.
public enum Language: String, CaseIterable, Sendable {
    case english = "en"
    case turkish = "tr"
    case spanish = "es"

    /// The first language of `acceptLanguage` (RFC 9110 §12.5.4) the shop speaks, by weight
    /// (`q`, default 1; `q=0` means "not this one"), ties in the order given; nil when the header
    /// names none of them (the caller falls back to the shop's default). Only the primary subtag
    /// counts: `tr-TR` and `tr` are Turkish, `es-419` Spanish.
    public static func accepted(_ acceptLanguage: String?) -> Language? {
        guard let acceptLanguage, !acceptLanguage.isEmpty else { return nil }
        var best: (language: Language, weight: Double)?
        for range in acceptLanguage.split(separator: ",") {
            let parts = range.split(separator: ";")
            guard let tag = parts.first else { continue }
            let primary = tag.split(separator: "-").first.map { $0.trimmed.lowercased() } ?? ""
            guard let language = Language(rawValue: primary) else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmed.lowercased() == "q" { weight = Double(pair[1].trimmed) ?? 0 }
            }
            if weight > 0, weight > (best?.weight ?? 0) { best = (language, weight) }
        }
        return best?.language
    }

    /// The language a shopper is served in — the one rule, for pages and emails alike: the
    /// language they chose in this browser (the picker's cookie), else the one their account
    /// remembers, else the first their browser asks for (`Accept-Language`) that the shop speaks,
    /// else the shop's default (`serve --locale`).
    ///
    /// ```swift
    /// Language.forShopper(chosen: nil, account: .spanish, acceptLanguage: "tr", shopDefault: .english) // .spanish
    /// ```
    public static func forShopper(chosen: Language?, account: Language?, acceptLanguage: String?,
                                  shopDefault: Language) -> Language {
        chosen ?? account ?? accepted(acceptLanguage) ?? shopDefault
    }

    /// The language's own name, as a picker shows it ("Türkçe").
    public var nativeName: String {
        switch self {
        case .english: "English"
        case .turkish: "Türkçe"
        case .spanish: "Español"
        }
    }

    /// The folding rules a search in this language uses.
    public var searchLocale: SearchLocale {
        switch self {
        case .english: .english
        case .turkish: .turkish
        case .spanish: .spanish
        }
    }

    /// The locale numbers, money and dates are written in.
    public var localeIdentifier: String {
        switch self {
        case .english: "en_US"
        case .turkish: "tr_TR"
        case .spanish: "es_ES"
        }
    }
}

extension Substring {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
