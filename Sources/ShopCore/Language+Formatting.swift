public import Foundation

/// How a language writes numbers and dates: one home for the storefront (`Localizer`) and the
/// native app's view models (ShopKit). Money is written by ``MoneyFormatter``.
extension Language {
    /// The locale numbers, money and dates are written in (``localeIdentifier``).
    public var locale: Locale { Locale(identifier: localeIdentifier) }

    /// A whole number with the locale's grouping: "12,345" in en-US, "12.345" in tr-TR and
    /// es-ES (Spanish leaves four-digit numbers ungrouped: "1234").
    public func number(_ value: Int) -> String {
        // Below 1,000 no grouping applies and en/tr/es write Western digits: skip the formatter.
        if (0..<1000).contains(value) { return String(value) }
        return value.formatted(.number.locale(locale))
    }

    /// A date as the locale writes it, abbreviated, in `timeZone` (the shop's): "Jun 14, 2026"
    /// (en-US), "14 Haz 2026" (tr-TR), "14 jun 2026" (es-ES).
    public func date(_ date: Date, timeZone: TimeZone) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale)
        style.timeZone = timeZone
        return date.formatted(style)
    }

    /// A time of day as the locale writes it, in `timeZone`: "3:00 PM" (en-US, with U+202F
    /// NARROW NO-BREAK SPACE before "PM", as ICU writes it), "15:00" (tr-TR, es-ES). No zone
    /// name: it goes inside sentences ("…until 3:00 PM."), in the zone the caller chose (the
    /// shop's on the storefront; a native app may pass the device's).
    public func time(_ date: Date, timeZone: TimeZone) -> String {
        var style = Date.FormatStyle(date: .omitted, time: .shortened, locale: locale)
        style.timeZone = timeZone
        return date.formatted(style)
    }
}
