import Foundation
import ShopCore
import Testing
@testable import ShopWeb

/// Issue #11, point 2: money, numbers, ratings, dates and times in the shopper's locale
/// (`Language.localeIdentifier`), dates and times in the shop's time zone.
@Suite("Localizer formatting")
struct LocalizerFormattingTests {
    /// Found by a fresh tester: "Solo quedan 1", "Solo hay 1 disponibles", "1 units left to
    /// refund". Stock counts take the language's plural forms.
    @Test(arguments: [
        (Language.spanish, 1, "Solo queda 1", "Solo hay 1 disponible."),
        (.spanish, 2, "Solo quedan 2", "Solo hay 2 disponibles."),
        (.english, 1, "Only 1 left", "Only 1 available."),
        (.turkish, 1, "Son 1 adet", "Yalnızca 1 adet var."),
    ])
    func stockCountsAgreeWithTheirNumber(language: Language, count: Int, left: String, available: String) {
        let l10n = Localizer(language: language)
        #expect(StockLevel.low(count).text(l10n) == left)
        #expect(l10n.message(for: .quantityExceedsStock(available: count, inCart: 0)) == available)
    }

    /// Found by a fresh tester: the dashboard's low-stock list showed a stock of -1 (oversold) as
    /// "1 left" — the `one` form wrote the number out. It keeps its sign in every language.
    @Test(arguments: [(Language.english, "-1 left"), (.turkish, "-1 adet kaldı"), (.spanish, "queda -1")])
    func anOversoldCountKeepsItsSign(language: Language, text: String) {
        #expect(Localizer(language: language).count(-1, .adminDashLeft) == text)
    }

    static let istanbul = TimeZone(identifier: "Europe/Istanbul")!
    /// 2026-06-14 12:00 UTC = 15:00 in Istanbul.
    static let noon = Date(timeIntervalSince1970: 1_781_438_400)

    @Test(arguments: [
        (Language.turkish, Int64(1_234_56), Currency.try, "₺1.234,56"),
        (.spanish, 1_234_56, .eur, "1234,56\u{00A0}€"),
        (.spanish, 12_345_67, .eur, "12.345,67\u{00A0}€"),
        (.english, 1_234_56, .usd, "$1,234.56"),
        (.english, 1_234, .jpy, "¥1,234"),
        (.turkish, 1_234_567, try! Currency(code: "KWD"), "KWD\u{00A0}1.234,567"),
    ])
    func moneyIsTheShopCurrencyInTheShoppersLocale(language: Language, minor: Int64, currency: Currency, expected: String) {
        #expect(Localizer(language: language).money(Money(minorUnits: minor, currency: currency)) == expected)
    }

    @Test(arguments: [
        (Language.english, 470, "4.7"), (.turkish, 470, "4,7"), (.spanish, 470, "4,7"),
        (.english, 475, "4.8"), (.turkish, 474, "4,7"), (.spanish, 500, "5,0"), (.english, 0, "0.0"),
    ])
    func ratingsUseTheLocalesDecimalSeparator(language: Language, hundredths: Int, expected: String) {
        #expect(Localizer(language: language).rating(Rating(rateHundredths: hundredths, count: 3)) == expected)
    }

    @Test(arguments: [
        (Language.english, 1_234, "1,234"), (.turkish, 1_234, "1.234"), (.spanish, 1_234, "1234"),
        (.spanish, 12_345, "12.345"), (.english, 999, "999"), (.turkish, 1_000_000, "1.000.000"),
    ])
    func numbersAreGroupedPerLocale(language: Language, value: Int, expected: String) {
        #expect(Localizer(language: language).number(value) == expected)
    }

    /// `Language.number` groups digits itself (Foundation's formatter was slow): the same
    /// text as Foundation for every language, sign and length.
    @Test(arguments: Language.allCases)
    func numbersAreGroupedAsFoundationGroupsThem(language: Language) {
        var values = [0, 7, 999, 1_000, 1_234, 9_999, 10_000, 12_345, 99_999, 100_000, 123_456, 1_000_000,
                      12_345_678, 123_456_789_012, Int.max, Int.min + 1, Int.min]
        values += values.map { 0 &- $0 }  // wrapping: Int.min stays itself
        for value in values {
            #expect(language.number(value) == value.formatted(.number.locale(language.locale)), "\(value)")
        }
    }

    @Test(arguments: [
        (Language.english, noon, "Jun 14, 2026"), (.turkish, noon, "14 Haz 2026"), (.spanish, noon, "14 jun 2026"),
        // 22:30 UTC is already the next day in the shop's time zone.
        (.english, noon.addingTimeInterval(10.5 * 3600), "Jun 15, 2026"),
    ])
    func datesAreInTheShopsTimeZoneAndTheShoppersLocale(language: Language, date: Date, expected: String) {
        #expect(Localizer(language: language).date(date, timeZone: Self.istanbul) == expected)
    }

    /// ICU puts U+202F NARROW NO-BREAK SPACE before "PM" in English.
    @Test(arguments: [
        (Language.english, "3:00\u{202F}PM"), (.turkish, "15:00"), (.spanish, "15:00"),
    ])
    func holdTimesNameTheShopsClock(language: Language, expected: String) {
        #expect(Localizer(language: language).time(Self.noon, timeZone: Self.istanbul) == expected)
    }

    /// The checkout's hold note reads as a sentence in each language (no "GMT." and no "(15:00)"
    /// stuck to it; the countdown is a separate element).
    @Test(arguments: [
        (Language.english, 15, "We hold these items for you for 15 minutes, until 3:00\u{202F}PM."),
        (.english, 1, "We hold these items for you for 1 minute, until 3:00\u{202F}PM."),
        (.turkish, 15, "Bu ürünleri 15 dakika boyunca, saat 15:00 olana kadar sizin için ayırıyoruz."),
        (.spanish, 15, "Te guardamos estos artículos durante 15 minutos, hasta las 15:00."),
    ])
    func theHoldNoteIsOneNaturalSentence(language: Language, minutes: Int, expected: String) {
        let model = ModelBuilder(localizer: Localizer(language: language))
        #expect(model.holdNote(minutes: minutes, until: Self.noon, timeZone: Self.istanbul) == expected)
    }

    /// Spanish puts "la" before one o'clock and "las" before every other hour of its 24-hour
    /// clock; English and Turkish say the same words at any hour.
    @Test(arguments: [
        (Language.spanish, 1, "Te guardamos estos artículos durante 15 minutos, hasta la 1:00."),
        (.spanish, 0, "Te guardamos estos artículos durante 15 minutos, hasta las 0:00."),
        (.spanish, 13, "Te guardamos estos artículos durante 15 minutos, hasta las 13:00."),
        (.spanish, 21, "Te guardamos estos artículos durante 15 minutos, hasta las 21:00."),
        (.english, 1, "We hold these items for you for 15 minutes, until 1:00\u{202F}AM."),
        (.english, 13, "We hold these items for you for 15 minutes, until 1:00\u{202F}PM."),
        (.turkish, 1, "Bu ürünleri 15 dakika boyunca, saat 1:00 olana kadar sizin için ayırıyoruz."),
    ])
    func theHoldNoteAgreesWithTheHour(language: Language, hour: Int, expected: String) {
        let model = ModelBuilder(localizer: Localizer(language: language))
        // Self.noon is 15:00 in Istanbul.
        let until = Self.noon.addingTimeInterval(TimeInterval((hour - 15) * 3600))
        #expect(model.holdNote(minutes: 15, until: until, timeZone: Self.istanbul) == expected)
    }

    @Test(arguments: [(Language.english, 13, 1), (.english, 0, 12), (.english, 12, 12), (.spanish, 13, 13),
                      (.spanish, 0, 0), (.turkish, 23, 23)])
    func theClockHourIsTheHourTheLocaleWrites(language: Language, hour: Int, expected: Int) {
        let date = Self.noon.addingTimeInterval(TimeInterval((hour - 15) * 3600))
        #expect(language.clockHour(date, timeZone: Self.istanbul) == expected)
    }

    @Test func ratingLabelsOnCardsUseTheLocale() {
        let model = ModelBuilder(localizer: Localizer(language: .turkish))
            .rating(Rating(rateHundredths: 470, count: 12))
        #expect(model?.label.contains("4,7") == true)
    }
}
