import Foundation

/// Strict RFC 3339 date-times (`2026-12-01T00:00:00+03:00`, `2026-11-30T21:00:00Z`), as campaign
/// files need them: a time zone is REQUIRED, so that a start or end is one instant wherever the
/// server runs. Parsed by hand into Unix seconds (no formatter, no floating point, no locale).
///
/// Accepted: `YYYY-MM-DD`, `T` (or `t` or one space), `HH:MM:SS`, then `Z`/`z` or `±HH:MM`.
/// Refused: a missing time zone, a missing time, fractional seconds (stores keep whole seconds,
/// so `.5` could only be rounded), leap seconds (`:60`), and impossible dates (`02-30`).
enum DateTimeText {
    /// Why a text is not a usable date-time.
    enum Problem: Error, Equatable {
        /// A date and time without `Z` or an offset.
        case missingTimeZone
        /// Only a date.
        case missingTime
        /// `.123` after the seconds.
        case fractionalSeconds
        /// A month, day, hour, minute, second or offset outside its range.
        case outOfRange
        /// Anything else.
        case malformed
    }

    /// The instant `text` names.
    /// - Throws: `Problem`.
    static func parse(_ text: String) throws(Problem) -> Date {
        let bytes = Array(text.utf8)
        var index = 0

        func digits(_ count: Int) throws(Problem) -> Int {
            guard index + count <= bytes.count else { throw .malformed }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= 48 && byte <= 57 else { throw .malformed }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ character: Character) throws(Problem) {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { throw .malformed }
            index += 1
        }

        let year = try digits(4)
        try expect("-")
        let month = try digits(2)
        try expect("-")
        let day = try digits(2)
        guard index < bytes.count else { throw .missingTime }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[index]) else { throw .malformed }
        index += 1
        let hour = try digits(2)
        try expect(":")
        let minute = try digits(2)
        try expect(":")
        let second = try digits(2)
        guard index < bytes.count else { throw .missingTimeZone }
        if bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") { throw .fractionalSeconds }

        var offsetSeconds = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            let offsetHours = try digits(2)
            try expect(":")
            let offsetMinutes = try digits(2)
            guard offsetHours <= 23, offsetMinutes <= 59 else { throw .outOfRange }
            offsetSeconds = sign * (offsetHours * 3_600 + offsetMinutes * 60)
        default:
            throw .malformed
        }
        guard index == bytes.count else { throw .malformed }

        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { throw .outOfRange }
        let days = daysFromCivil(year: year, month: month, day: day)
        let local = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
        return Date(timeIntervalSince1970: TimeInterval(local - Int64(offsetSeconds)))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant, "chrono-Compatible
    /// Low-Level Date Algorithms", `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
