public import Foundation

/// Amounts as staff type them in a form, in their language (issue #16: "prices typed in the
/// staff member's locale (`19,99` in Turkish and Spanish)").
extension Money {
    /// Reads an amount typed in `language`: its decimal separator (`,` in Turkish and Spanish,
    /// `.` in English) and grouping (`1.299,50`; `1,299.50`), with surrounding spaces, a
    /// currency symbol or code and spaces between groups ignored.
    ///
    /// When only one kind of separator appears, the text decides, as people read it:
    /// - the language's decimal separator is the decimal separator (`19,99` in Turkish);
    /// - the other one is a grouping separator when every group after it has exactly three
    ///   digits (`1.299` in Turkish is 1299; `1,299` in English too), and else the decimal
    ///   separator (`19.99` typed in Turkish is 19.99, not 1999).
    ///
    /// When both appear, the last one is the decimal separator. Digits beyond the currency's
    /// minor unit are rounded half-up, once (``parse(_:currency:)``); no floating point.
    /// - Throws: `MoneyError.invalidAmount` naming the text as typed, `.overflow`.
    public static func parse(typed text: String, language: Language, currency: Currency) throws(MoneyError) -> Money {
        var kept = ""
        for character in text where !(character.isWhitespace || character == "\u{00A0}" || character == "\u{202F}") {
            kept.append(character)
        }
        // A symbol or code before or after the number: `₺19,99`, `19,99 TRY`, `$5`.
        let numberCharacters = Set("0123456789.,-+")
        while let first = kept.first, !numberCharacters.contains(first) { kept.removeFirst() }
        while let last = kept.last, !numberCharacters.contains(last) { kept.removeLast() }
        guard !kept.isEmpty else { throw .invalidAmount(text) }
        let decimalComma = language.locale.decimalSeparator == ","
        let commas = kept.filter { $0 == "," }.count, dots = kept.filter { $0 == "." }.count
        let decimal: Character?
        switch (commas, dots) {
        case (0, 0): decimal = nil
        case (_, 0): decimal = Self.separatorIsDecimal(",", in: kept, languageDecimal: decimalComma) ? "," : nil
        case (0, _): decimal = Self.separatorIsDecimal(".", in: kept, languageDecimal: !decimalComma) ? "." : nil
        default: decimal = kept.lastIndex(of: ",")! > kept.lastIndex(of: ".")! ? "," : "."
        }
        var plain = ""
        for character in kept {
            if character == "," || character == "." {
                if character == decimal { plain.append(".") }  // grouping separators are dropped
            } else {
                plain.append(character)
            }
        }
        // Digits with at most one point, after at most a sign: no exponent (`1e3`), which
        // `parse(_:currency:)` reads for import files but nobody types for a price.
        let unsigned = plain.first == "-" || plain.first == "+" ? plain.dropFirst() : Substring(plain)
        guard unsigned.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }),
              unsigned.filter({ $0 == "." }).count <= 1, !unsigned.hasSuffix("."), !unsigned.hasPrefix(".") else {
            throw .invalidAmount(text)
        }
        do {
            return try parse(plain, currency: currency)
        } catch .invalidAmount {
            throw .invalidAmount(text)
        }
    }

    private static func separatorIsDecimal(_ separator: Character, in text: String, languageDecimal: Bool) -> Bool {
        let groups = text.split(separator: separator, omittingEmptySubsequences: false)
        if languageDecimal { return true }
        // Grouping: each group after the first has three digits (`1.299`, `1.299.000`).
        let isGrouping = groups.count >= 2 && groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNumber) }
        return !isGrouping
    }

    /// The amount as a form shows it for editing in `language`: no symbol, no grouping, the
    /// currency's minor digits after the language's decimal separator (`19,99`; `19.99`; `1299`
    /// for yen). ``parse(typed:language:currency:)`` reads it back exactly.
    public func typedString(language: Language) -> String {
        let text = decimalString
        return language.locale.decimalSeparator == "," ? text.replacingOccurrences(of: ".", with: ",") : text
    }
}
