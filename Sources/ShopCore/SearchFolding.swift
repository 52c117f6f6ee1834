import Foundation

/// The languages whose matching rules search knows. Only Turkish (and Azerbaijani, which the
/// shop does not offer) lower-cases `I` differently; English and Spanish share one rule set.
public enum SearchLocale: String, Sendable, CaseIterable {
    /// English: `I`↔`i`, diacritics ignored.
    case english = "en"
    /// Turkish: `I`↔`ı` and `İ`↔`i` are distinct letter pairs; other diacritics ignored.
    case turkish = "tr"
    /// Spanish: like English (`ñ` matches `n`, `é` matches `e`).
    case spanish = "es"

    /// `true` for the languages that keep dotless `ı` apart from `i`.
    public var keepsDotlessI: Bool { self == .turkish }
}

/// Case-, diacritic- and punctuation-insensitive text for search, with Turkish `I` rules.
///
/// `fold(_:locale:)` turns text into lower-case words separated by single spaces. Both the
/// indexed text and the shopper's query are folded with the same locale, so a query matches
/// when its folded words equal (or, for the last word, start) folded words of the text.
///
/// The rules, applied in this order in one pass over the text, so time grows in proportion to its
/// length (Unicode 15 character data, Foundation only):
/// 1. Compatibility decomposition (NFKD): `é` → `e` + U+0301, `ﬁ` → `fi`, `²` → `2`,
///    full-width `Ａ` → `A`, `İ` → `I` + U+0307.
/// 2. Turkish only: `I` followed by U+0307 COMBINING DOT ABOVE (that is, `İ`) becomes `i`;
///    any other `I` becomes `ı`. So "İstanbul" folds to "istanbul" and "IŞIK" to "ısık".
/// 3. Combining marks (general categories Mn, Mc, Me) are removed: `ş` → `s`, `ç` → `c`,
///    `ğ` → `g`, `ö` → `o`, `ü` → `u`, `ñ` → `n`, `é` → `e`, `â` → `a`.
/// 4. Lower-casing with Unicode's default (locale-independent) mapping: `I` → `i`, `Ç` → `ç`.
/// 5. Letters without a decomposition are spelled out: `ß`/`ẞ` → `ss`, `æ` → `ae`, `œ` → `oe`,
///    `ø` → `o`, `ł` → `l`, `đ`/`ð` → `d`, `þ` → `th`; and, except in Turkish, dotless
///    `ı` → `i` (in Turkish `ı` stays a letter of its own, so "ısık" ≠ "isik").
/// 6. Letters (categories L*) and numbers (N*) are kept; every other character (spaces,
///    punctuation, symbols, emoji) separates words. Runs of separators become one space; there
///    is none at either end.
///
/// ```swift
/// SearchFolding.fold("IŞIK Lamba", locale: .turkish)   // "ısık lamba"
/// SearchFolding.fold("Café — Straße!", locale: .english) // "cafe strasse"
/// SearchFolding.terms("Oak, dining-chair", locale: .english) // ["oak", "dining", "chair"]
/// ```
public enum SearchFolding {
    /// The folded form of `text` (rules in the type's documentation): lower-case words joined
    /// by single spaces; empty when `text` has no letters or digits.
    public static func fold(_ text: String, locale: SearchLocale) -> String {
        // Rule 1, in one pass over the text (Foundation's whole-string NFKD is quadratic on Linux).
        fold(decomposed: UnicodeFolding.decomposition(of: text, form: .compatibility), locale: locale)
    }

    /// `fold(text, locale: .english)` and `fold(text, locale: .turkish)` together, decomposing
    /// the text once and folding it once when the two agree: they differ only in rules 2 and 5's
    /// `I` and `ı`, so text without either after decomposition folds alike. A store indexes
    /// every product in both rule families; most text has no `I` (issue #13, point 6).
    /// ```swift
    /// SearchFolding.foldBothFamilies("Ceviz masa")  // ("ceviz masa", "ceviz masa"), one fold
    /// SearchFolding.foldBothFamilies("IŞIK")        // ("isik", "ısık")
    /// ```
    public static func foldBothFamilies(_ text: String) -> (standard: String, turkish: String) {
        let scalars = UnicodeFolding.decomposition(of: text, form: .compatibility)
        let standard = fold(decomposed: scalars, locale: .english)
        guard scalars.contains(where: { $0 == "I" || $0 == "ı" }) else { return (standard, standard) }
        return (standard, fold(decomposed: scalars, locale: .turkish))
    }

    /// Rules 2–6 over the compatibility decomposition (rule 1) of a text.
    private static func fold(decomposed scalars: [Unicode.Scalar], locale: SearchLocale) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        func append(_ scalar: Unicode.Scalar) {
            if pendingSpace && !output.isEmpty { output.append(" ") }
            pendingSpace = false
            output.append(scalar)
        }

        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if locale.keepsDotlessI && scalar == "I" {
                if index < scalars.count && scalars[index] == "\u{0307}" {
                    index += 1
                    append("i")
                } else {
                    append("ı")
                }
                continue
            }
            if scalar.isASCII {
                switch scalar.value {
                case 0x61...0x7A, 0x30...0x39: append(scalar)
                case 0x41...0x5A: append(Unicode.Scalar(scalar.value + 32)!)
                default: pendingSpace = true
                }
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                break
            }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                if let spelled = spelledOut(lower, locale: locale) {
                    spelled.unicodeScalars.forEach(append)
                } else if isWordScalar(lower) {
                    append(lower)
                } else if !isMark(lower) {
                    pendingSpace = true
                }
            }
        }
        return String(output)
    }

    /// The words of `fold(text, locale:)`, in order (duplicates kept); empty when there are none.
    public static func terms(_ text: String, locale: SearchLocale) -> [String] {
        fold(text, locale: locale).split(separator: " ").map(String.init)
    }

    /// Rule 5: letters folded to other letters.
    private static func spelledOut(_ scalar: Unicode.Scalar, locale: SearchLocale) -> String? {
        switch scalar {
        case "ß": "ss"
        case "æ": "ae"
        case "œ": "oe"
        case "ø": "o"
        case "ł": "l"
        case "đ", "ð": "d"
        case "þ": "th"
        case "ı": locale.keepsDotlessI ? nil : "i"
        default: nil
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
