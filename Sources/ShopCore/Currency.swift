import Foundation

/// An ISO 4217 currency: its three-letter code and how many digits its minor unit has.
///
/// The exponent table follows ISO 4217 (list one, 2024 edition) for the currencies a shop is
/// likely to use; any other well-formed code defaults to 2 minor-unit digits.
///
/// ```swift
/// let usd = Currency.usd                  // code "USD", 2 digits: 1 USD = 100 minor units
/// let yen = try Currency(code: "jpy")     // "JPY", 0 digits
/// ```
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The upper-case ISO 4217 alphabetic code, e.g. `"USD"`.
    public let code: String
    /// Digits after the decimal separator in the major unit (2 for USD, 0 for JPY, 3 for KWD).
    public let minorUnitDigits: Int

    /// Creates a currency from its ISO 4217 code (any case, surrounding spaces ignored).
    /// - Throws: `MoneyError.invalidCurrencyCode` unless the code is three ASCII letters.
    public init(code: String) throws(MoneyError) {
        let upper = code.trimmingCharacters(in: .whitespaces).uppercased()
        guard upper.utf8.count == 3, upper.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
            throw .invalidCurrencyCode(code)
        }
        self.code = upper
        self.minorUnitDigits = Currency.exponents[upper] ?? 2
    }

    private init(known code: String, digits: Int) {
        self.code = code
        self.minorUnitDigits = digits
    }

    /// 10^minorUnitDigits: how many minor units make one major unit.
    public var minorUnitsPerMajorUnit: Int64 {
        var result: Int64 = 1
        for _ in 0..<minorUnitDigits { result *= 10 }
        return result
    }

    public var description: String { code }

    /// US dollar, the shop default.
    public static let usd = Currency(known: "USD", digits: 2)
    /// Euro.
    public static let eur = Currency(known: "EUR", digits: 2)
    /// Turkish lira.
    public static let `try` = Currency(known: "TRY", digits: 2)
    /// Swedish krona.
    public static let sek = Currency(known: "SEK", digits: 2)
    /// Japanese yen (no minor unit).
    public static let jpy = Currency(known: "JPY", digits: 0)

    /// ISO 4217 minor-unit exponents that differ from 2, plus common 2-digit ones for clarity.
    private static let exponents: [String: Int] = [
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
        "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "USD": 2, "EUR": 2, "GBP": 2, "TRY": 2, "SEK": 2, "NOK": 2, "DKK": 2, "CHF": 2,
    ]
}
