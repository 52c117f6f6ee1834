public import Foundation

/// An amount of money: a whole number of minor units (cents for USD) in one ISO 4217 currency.
///
/// Money never passes through `Double`. Arithmetic is checked: mixing currencies or overflowing
/// `Int64` throws instead of trapping or wrapping. Amounts are turned into text only at the
/// presentation edge, by `MoneyFormatter`.
///
/// ```swift
/// let price = Money(minorUnits: 49_90, currency: .usd)          // $49.90
/// let line = try price.multiplied(by: 3)                         // $149.70
/// let parsed = try Money.parse("49.9", currency: .usd)           // 4990 minor units
/// ```
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in the currency's minor unit (e.g. cents). May be negative for discounts.
    public var minorUnits: Int64
    /// The currency the amount is in.
    public var currency: Currency

    /// Creates an amount of `minorUnits` (e.g. cents) in `currency`.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// `true` when the amount is zero.
    public var isZero: Bool { minorUnits == 0 }

    /// A plain, locale-independent rendering such as `"49.90 USD"`, for logs and CLI output.
    public var description: String {
        "\(Money.decimalString(minorUnits, digits: currency.minorUnitDigits)) \(currency.code)"
    }

    /// The amount as a plain decimal string in major units with a `.` separator (`"49.90"`),
    /// independent of locale; used for machine-readable output.
    /// The amount in major units, exactly (`49_90` cents → `49.9`): for JSON numbers of APIs that
    /// speak major units (Fake Store's `price`). Never compute with it.
    public var majorUnits: Decimal {
        Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: -currency.minorUnitDigits,
                significand: Decimal(minorUnits.magnitude))
    }

    public var decimalString: String { Money.decimalString(minorUnits, digits: currency.minorUnitDigits) }

    // MARK: Checked arithmetic

    /// The sum of two amounts.
    /// - Throws: `MoneyError.currencyMismatch` or `MoneyError.overflow`.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    /// The difference `self - other`.
    /// - Throws: `MoneyError.currencyMismatch` or `MoneyError.overflow`.
    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: difference, currency: currency)
    }

    /// The amount times a whole `factor` (a quantity).
    /// - Throws: `MoneyError.overflow`.
    public func multiplied(by factor: Int) throws(MoneyError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: Int64(factor))
        guard !overflow else { throw .overflow }
        return Money(minorUnits: product, currency: currency)
    }

    /// Sums `amounts`, all in `currency`; an empty sequence gives zero.
    /// - Throws: `MoneyError.currencyMismatch` or `MoneyError.overflow`.
    public static func sum(_ amounts: some Sequence<Money>, currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts { total = try total.adding(amount) }
        return total
    }

    // MARK: Parsing

    /// Parses a decimal amount in major units, as merchants write it in catalog files:
    /// `"49.9"`, `"1,299.00"` (comma thousands separators), `"$12"`, `" 7.5 "`, `"1.2E+3"`.
    ///
    /// Digits beyond the currency's minor unit are rounded half-up (away from zero), once.
    /// No floating point is involved.
    /// - Parameters:
    ///   - text: the amount; a leading currency symbol and surrounding spaces are ignored.
    ///   - currency: the currency of the amount.
    /// - Returns: the amount in minor units.
    /// - Throws: `MoneyError.invalidAmount` when `text` is not a decimal number,
    ///   `MoneyError.overflow` when it does not fit.
    public static func parse(_ text: String, currency: Currency) throws(MoneyError) -> Money {
        guard let decimal = DecimalNumber(text) else { throw .invalidAmount(text) }
        guard let minor = decimal.rounded(toFractionDigits: currency.minorUnitDigits) else { throw .overflow }
        return Money(minorUnits: minor, currency: currency)
    }

    static func decimalString(_ minorUnits: Int64, digits: Int) -> String {
        let negative = minorUnits < 0
        let magnitude = minorUnits.magnitude
        guard digits > 0 else { return (negative ? "-" : "") + String(magnitude) }
        var divisor: UInt64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let whole = magnitude / divisor
        var fraction = String(magnitude % divisor)
        while fraction.count < digits { fraction = "0" + fraction }
        return (negative ? "-" : "") + "\(whole).\(fraction)"
    }
}

/// A decimal number parsed from text without floating point: `digits × 10^exponent`.
struct DecimalNumber {
    var negative: Bool
    /// The significant digits, most significant first, without leading zeros.
    var digits: [UInt8]
    var exponent: Int

    /// Parses `[sign][currency symbol]digits[.digits][e[sign]digits]`, allowing `,` thousands
    /// separators in the integer part. Returns nil for anything else.
    init?(_ text: String) {
        var bytes = Array(text.trimmedOfWhiteSpace.utf8)
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        // Drop a leading currency symbol such as "$", "€", "£" (non-digit, non-dot bytes).
        while let first = bytes.first, !(first >= 48 && first <= 57), first != UInt8(ascii: "."),
              first == UInt8(ascii: "$") || first >= 0x80 || first == UInt8(ascii: " ") {
            bytes.removeFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var seenDot = false
        var seenDigit = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 48 && byte <= 57 {
                digits.append(byte - 48)
                if seenDot { exponent -= 1 }
                seenDigit = true
            } else if byte == UInt8(ascii: ".") && !seenDot {
                seenDot = true
            } else if byte == UInt8(ascii: ",") && !seenDot && seenDigit {
                // thousands separator: must be followed by exactly three digits
                let rest = bytes[(index + 1)...].prefix(while: { $0 >= 48 && $0 <= 57 })
                guard rest.count == 3 else { return nil }
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard seenDigit else { return nil }
                var expText = String(decoding: bytes[(index + 1)...], as: UTF8.self)
                if expText.hasPrefix("+") { expText.removeFirst() }
                guard let value = Int(expText), abs(value) < 100 else { return nil }
                exponent += value
                index = bytes.count
                break
            } else {
                return nil
            }
            index += 1
        }
        guard seenDigit else { return nil }
        while let first = digits.first, first == 0, digits.count > 1 { digits.removeFirst() }
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    /// The value times 10^fractionDigits, rounded half-up (away from zero) to an integer;
    /// nil on overflow.
    func rounded(toFractionDigits fractionDigits: Int) -> Int64? {
        let shift = exponent + fractionDigits
        var kept = digits
        var roundUp = false
        if shift >= 0 {
            kept += Array(repeating: 0, count: shift)
        } else {
            let drop = -shift
            if drop > kept.count {
                kept = []
            } else {
                roundUp = kept[kept.count - drop] >= 5
                kept.removeLast(drop)
            }
        }
        var value: Int64 = 0
        for digit in kept {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(Int64(digit))
            if o1 || o2 { return nil }
            value = next
        }
        if roundUp {
            let (next, overflow) = value.addingReportingOverflow(1)
            if overflow { return nil }
            value = next
        }
        return negative ? -value : value
    }
}

/// Errors from money arithmetic and parsing.
public enum MoneyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two amounts are in different currencies.
    case currencyMismatch(Currency, Currency)
    /// The result does not fit in `Int64` minor units.
    case overflow
    /// The text is not a decimal amount.
    case invalidAmount(String)
    /// The text is not a three-letter ISO 4217 code.
    case invalidCurrencyCode(String)
    /// The typed amount has more decimals than the currency's minor unit, not all zeros.
    case tooManyDecimals(String, allowed: Int)

    public var description: String {
        switch self {
        case let .currencyMismatch(a, b): "cannot combine amounts in \(a.code) and \(b.code)"
        case .overflow: "amount is too large"
        case let .invalidAmount(text): "“\(text)” is not a decimal amount such as 12.50"
        case let .invalidCurrencyCode(code): "“\(code)” is not an ISO 4217 currency code such as USD"
        case let .tooManyDecimals(text, allowed): "“\(text)” has more than \(allowed) decimals"
        }
    }
}
