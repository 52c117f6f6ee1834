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
        /// Each key's digit pattern (`Pattern.learn`), `.some(nil)` when it has none.
        var patterns: [Key: Pattern?] = [:]
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
        let pattern = cache.withLock { cache in
            if let known = cache.patterns[key] { return known }
            let style = cache.styles[key] ?? MoneyFormatter.style(money.currency, locale: locale)
            cache.styles[key] = style
            let learned = Pattern.learn(digits: money.currency.minorUnitDigits) { minor in
                Money(minorUnits: minor, currency: money.currency).majorUnits.formatted(style)
            }
            cache.patterns[key] = .some(learned)
            return learned
        }
        if let pattern, money.minorUnits >= 0 { return pattern.string(money.minorUnits) }
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

    /// How Foundation writes amounts of one currency in one locale, learned from Foundation
    /// itself, so that most amounts are written without it: Foundation's currency style cost
    /// ~4 % of an uncached category page's CPU on a catalog with more distinct prices than the
    /// string cache holds (issue #14).
    ///
    /// Learned from `1234567` with the currency's fraction digits (`$1,234,567.89`): the text
    /// before and after the digits, the grouping separator, the decimal separator; and from
    /// `1234` whether four integer digits are grouped (Spanish groups only from five). Kept only
    /// when it writes a set of probe amounts — zero, one digit to eleven, the grouping edges —
    /// exactly as Foundation does; otherwise (another digit system, other group sizes) Foundation
    /// writes every amount. Negative amounts are always Foundation's.
    struct Pattern: Sendable, Equatable {
        var prefix: String
        var suffix: String
        var groupingSeparator: String
        var decimalSeparator: String
        /// The fewest integer digits that are grouped: 4 (`1,234`) or 5 (`1234`, `12.345`).
        var groupingFrom: Int
        var fractionDigits: Int

        /// 10^`fractionDigits`: minor units per major unit.
        private var scale: Int64 { Self.scales[fractionDigits] }
        private static let scales: [Int64] = [1, 10, 100, 1_000, 10_000]

        /// The amount of `minorUnits` (not negative) as Foundation would write it.
        func string(_ minorUnits: Int64) -> String {
            let integer = String(minorUnits / scale)
            var text = prefix
            text.reserveCapacity(prefix.utf8.count + integer.utf8.count + 8 + suffix.utf8.count)
            if integer.utf8.count >= groupingFrom {
                let digits = Array(integer.utf8)
                for (index, digit) in digits.enumerated() {
                    if index > 0 && (digits.count - index) % 3 == 0 { text += groupingSeparator }
                    text.unicodeScalars.append(Unicode.Scalar(digit))
                }
            } else {
                text += integer
            }
            if fractionDigits > 0 {
                text += decimalSeparator
                let fraction = String(minorUnits % scale)
                for _ in fraction.utf8.count..<fractionDigits { text += "0" }
                text += fraction
            }
            return text + suffix
        }

        /// The pattern of `format` (Foundation's text of an amount in minor units), or nil when
        /// none writes every probe amount as `format` does.
        static func learn(digits: Int, format: (Int64) -> String) -> Pattern? {
            guard scales.indices.contains(digits) else { return nil }
            let scale = scales[digits]
            let fraction = String("8901".prefix(digits))
            let probe = format(1_234_567 * scale + (Int64(fraction) ?? 0))
            // "…1<g>234<g>567<d>89…": the text around the digits and between their runs.
            guard let one = probe.range(of: "1"), let two = probe.range(of: "234", range: one.upperBound..<probe.endIndex),
                  let five = probe.range(of: "567", range: two.upperBound..<probe.endIndex) else { return nil }
            let end: String.Index
            let decimalSeparator: String
            if digits > 0 {
                guard let last = probe.range(of: fraction, range: five.upperBound..<probe.endIndex) else { return nil }
                decimalSeparator = String(probe[five.upperBound..<last.lowerBound])
                end = last.upperBound
            } else {
                decimalSeparator = ""
                end = five.upperBound
            }
            let groupingSeparator = String(probe[one.upperBound..<two.lowerBound])
            guard !groupingSeparator.isEmpty, probe[two.upperBound..<five.lowerBound] == groupingSeparator else { return nil }
            let four = format(1_234 * scale)
            var pattern = Pattern(prefix: String(probe[..<one.lowerBound]), suffix: String(probe[end...]),
                                  groupingSeparator: groupingSeparator, decimalSeparator: decimalSeparator,
                                  groupingFrom: 4, fractionDigits: digits)
            if four != pattern.string(1_234 * scale) { pattern.groupingFrom = 5 }
            let probes: [Int64] = [0, 1, 5, 9, 10, 99, 100, 999, 1_000, 1_001, 9_999, 10_000, 12_345, 99_999, 100_000,
                                   123_456, 999_999, 1_000_000, 12_345_678, 123_456_789, 1_234_567_890, 98_765_432_101]
            for amount in probes {
                for minor in [amount * scale, amount * scale + scale / 2, amount * scale + scale - 1] where minor >= 0 {
                    guard pattern.string(minor) == format(minor) else { return nil }
                }
            }
            return pattern
        }
    }
}
