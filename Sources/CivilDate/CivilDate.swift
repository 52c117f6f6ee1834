/// Whole-day arithmetic of the proleptic Gregorian calendar, for the date parsers that read
/// dates by hand (campaign files' RFC 3339 times in `ShopImport`, Fake Store's cart dates in
/// `ShopAPI`): one home for the leap-year rule and the day count, with no formatter, locale or
/// floating point. No dependencies, so `ShopAPI` stays embeddable in an app as it is.
///
/// ```swift
/// CivilDate.daysIn(month: 2, year: 2000)                  // 29
/// CivilDate.daysFromEpoch(year: 1970, month: 1, day: 2)   // 1
/// ```
public enum CivilDate {
    /// The days of `month` (1–12) in `year`: 28 or 29 for February (every fourth year, but not
    /// every hundredth, but every four-hundredth).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (negative before it), for a valid `month` and `day`
    /// (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", `days_from_civil`).
    public static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
