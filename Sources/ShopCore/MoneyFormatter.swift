public import Foundation
import Synchronization

/// Formats `Money` for people, in a locale, through Foundation's currency format style.
///
/// The amount goes to Foundation as a `Decimal` made exactly from the integer minor units
/// (`Money.majorUnits`), never through `Double`. The style's precision is the currency's ISO 4217
/// minor unit (`Currency.minorUnitDigits`: 2 for USD, 0 for JPY, 3 for KWD), with the rounding
/// rule named (`.toNearestOrAwayFromZero`) although an amount never has more digits than that.
/// The symbol is CLDR's standard one for the locale (`Decimal.FormatStyle.Currency` with its
/// default presentation), so these are the exact outputs on Linux (swift-corelibs-foundation with ICU):
///
/// | amount | locale | text | note |
/// |---|---|---|---|
/// | 1 234,56 TRY | tr_TR | `₺1.234,56` | |
/// | 1 234,56 EUR | es_ES | `1234,56 €` | U+00A0 before `€`; Spanish groups only from 5 digits |
/// | 12 345,67 EUR | es_ES | `12.345,67 €` | U+00A0 before `€` |
/// | 1 234,56 USD | en_US | `$1,234.56` | |
/// | 1 234 JPY | en_US | `¥1,234` | no decimals |
/// | 1 234,567 KWD | en_US | `KWD 1,234.567` | U+00A0 after `KWD`; three decimals |
/// | 1 234,56 TRY | en_US | `TRY 1,234.56` | CLDR has no `₺` for English |
///
/// Styles and strings are cached per (locale, currency): a catalog has few distinct prices, and a
/// lookup is far cheaper than formatting. Safe to share between threads.
///
/// ```swift
/// MoneyFormatter.shared.string(Money(minorUnits: 1_299_00, currency: .usd),
///                              locale: Locale(identifier: "en_US"))   // "$1,299.00"
/// ```
public final class MoneyFormatter: Sendable {
    /// The process-wide formatter cache.
    public static let shared = MoneyFormatter()

    private struct Key: Hashable {
        var locale: String
        var currency: String
    }

    private struct Cache: Sendable {
        var styles: [Key: Decimal.FormatStyle.Currency] = [:]
        /// Strings already made, by (locale, currency) and minor units.
        var strings: [Key: [Int64: String]] = [:]
        var stringCount = 0
    }

    /// Most formatted strings kept before the string cache starts over.
    private static let stringCacheLimit = 50_000

    private let cache = Mutex(Cache())

    /// Creates an empty cache; most callers use `shared`.
    public init() {}

    /// The amount as a localized currency string, e.g. `"$49.90"` in en-US or `"49,90 €"` in es-ES.
    /// - Parameters:
    ///   - money: the amount.
    ///   - locale: the shopper's locale.
    public func string(_ money: Money, locale: Locale) -> String {
        let key = Key(locale: locale.identifier, currency: money.currency.code)
        return cache.withLock { cache in
            if let text = cache.strings[key]?[money.minorUnits] { return text }
            let style: Decimal.FormatStyle.Currency
            if let cached = cache.styles[key] {
                style = cached
            } else {
                style = MoneyFormatter.style(money.currency, locale: locale)
                cache.styles[key] = style
            }
            let text = money.majorUnits.formatted(style)
            if cache.stringCount >= MoneyFormatter.stringCacheLimit {
                cache.strings.removeAll(keepingCapacity: true)
                cache.stringCount = 0
            }
            cache.strings[key, default: [:]][money.minorUnits] = text
            cache.stringCount += 1
            return text
        }
    }

    /// The currency style: the currency's minor-unit digits exactly, rounding named.
    static func style(_ currency: Currency, locale: Locale) -> Decimal.FormatStyle.Currency {
        Decimal.FormatStyle.Currency(code: currency.code, locale: locale)
            .precision(.fractionLength(currency.minorUnitDigits))
            .rounded(rule: .toNearestOrAwayFromZero)
    }
}
