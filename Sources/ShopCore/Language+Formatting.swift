public import Foundation

/// How a language writes numbers and dates: one home for the storefront (`Localizer`) and the
/// native app's view models (ShopKit). Money is written by ``MoneyFormatter``.
extension Language {
    /// The locale numbers, money and dates are written in (``localeIdentifier``).
    ///
    /// Made once per language: every storefront answer asks (its `Localizer`), and Foundation
    /// looks a locale up in a locked cache each time one is made (0.6 % of a first visit).
    public var locale: Locale {
        switch self {
        case .english: Self.englishLocale
        case .turkish: Self.turkishLocale
        case .spanish: Self.spanishLocale
        }
    }

    private static let englishLocale = Locale(identifier: Language.english.localeIdentifier)
    private static let turkishLocale = Locale(identifier: Language.turkish.localeIdentifier)
    private static let spanishLocale = Locale(identifier: Language.spanish.localeIdentifier)

    /// A whole number with the locale's grouping: "12,345" in en-US, "12.345" in tr-TR and
    /// es-ES (Spanish leaves four-digit numbers ungrouped: "1234").
    ///
    /// Written here, not by Foundation's formatter: the three locales write Western digits in
    /// groups of three with one separator (CLDR), and the formatter cost ~20 µs a call — a
    /// category page counts its products and each filter's (issue #14).
    /// `numbersAreGroupedAsFoundationGroupsThem` holds it to Foundation's answer.
    public func number(_ value: Int) -> String {
        // Below 1,000 no grouping applies.
        if (0..<1000).contains(value) { return String(value) }
        let separator: UInt8 = self == .english ? UInt8(ascii: ",") : UInt8(ascii: ".")
        // CLDR's minimum grouping digits is 2 for Spanish: 1234, but 12.345.
        let magnitude = value.magnitude
        if self == .spanish && magnitude < 10_000 { return String(value) }
        let digits = Array(String(magnitude).utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count + digits.count / 3 + 1)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { bytes.append(separator) }
            bytes.append(digit)
        }
        return String(decoding: bytes, as: UTF8.self)
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
