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

    /// The hour ``time(_:timeZone:)`` writes for `date` in `timeZone`, on the locale's clock:
    /// 1 for 13:05 in en-US ("1:05 PM"), 13 in tr-TR and es-ES ("13:05"). A sentence whose words
    /// agree with the hour counts by it: Spanish says "hasta la 1:00" but "hasta las 13:00".
    public func clockHour(_ date: Date, timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let hour = calendar.component(.hour, from: date)
        return switch locale.hourCycle {
        case .zeroToEleven: hour % 12
        case .oneToTwelve: hour % 12 == 0 ? 12 : hour % 12
        case .zeroToTwentyThree: hour
        case .oneToTwentyFour: hour == 0 ? 24 : hour
        @unknown default: hour
        }
    }
}
