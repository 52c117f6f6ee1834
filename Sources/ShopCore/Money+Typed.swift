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
    /// minor unit are refused unless they are zeros (`19.990`): `1.999` typed for dollars is a
    /// slip, not $2.00 (a fresh tester saw the back office round it without a word); the API's
    /// prices are refused the same way. No floating point.
    /// - Throws: `MoneyError.invalidAmount` naming the text as typed, `.tooManyDecimals`,
    ///   `.overflow`.
    public static func parse(typed text: String, language: Language, currency: Currency) throws(MoneyError) -> Money {
        // Spaces of any kind (a no-break space groups digits in Turkish and Spanish), and the
        // minus sign typographers use (U+2212, as in the forms' own hints) read as `-`.
        var spaced = ""
        for character in text {
            spaced.append(character.isWhitespace ? " " : character == "\u{2212}" ? "-" : character)
        }
        var number = Substring(spaced.trimmingCharacters(in: .whitespaces))
        // A currency symbol or code before or after the number (`₺19,99`, `19,99 TRY`, `$5`,
        // `5 TL`) — nothing else: a letter typed by mistake (`l00`, `10O`) or a `%` is refused,
        // not dropped (a fresh tester saved `l00` as 0.00).
        for marker in Self.typedMarkers(currency) {
            if number.uppercased().hasPrefix(marker) { number = number.dropFirst(marker.count) }
            if number.uppercased().hasSuffix(marker) { number = number.dropLast(marker.count) }
        }
        number = Substring(number.trimmingCharacters(in: .whitespaces))
        // Spaces inside only group digits by three (`12 345,00`), never split a number (`19 99`).
        if number.contains(" "), number.wholeMatch(of: #/[-+]?[0-9]{1,3}( [0-9]{3})+([.,][0-9]*)?/#) == nil {
            throw .invalidAmount(text)
        }
        number = Substring(number.filter { $0 != " " })
        guard !number.isEmpty else { throw .invalidAmount(text) }
        let kept = String(number)
        let decimalComma = language.locale.decimalSeparator == ","
        let commas = kept.filter { $0 == "," }.count, dots = kept.filter { $0 == "." }.count
        let decimal: Character?
        switch (commas, dots) {
        case (0, 0): decimal = nil
        case (_, 0): decimal = Self.separatorIsDecimal(",", in: kept, languageDecimal: decimalComma) ? "," : nil
        case (0, _): decimal = Self.separatorIsDecimal(".", in: kept, languageDecimal: !decimalComma) ? "." : nil
        default:
            decimal = kept.lastIndex(of: ",")! > kept.lastIndex(of: ".")! ? "," : "."
            // The other separator groups the whole part by three (`1.299,50`), nowhere else.
            let whole = kept[..<kept.lastIndex(of: decimal!)!]
            guard Self.groupsByThree(whole.split(separator: decimal == "," ? "." : ",", omittingEmptySubsequences: false)) else {
                throw .invalidAmount(text)
            }
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
        if let point = unsigned.firstIndex(of: "."),
           unsigned[unsigned.index(after: point)...].dropFirst(currency.minorUnitDigits).contains(where: { $0 != "0" }) {
            throw .tooManyDecimals(text, allowed: currency.minorUnitDigits)
        }
        do {
            return try parse(plain, currency: currency)
        } catch .invalidAmount {
            throw .invalidAmount(text)
        }
    }

    /// What may stand before or after a typed amount, longest first, upper case: the shop
    /// currency's code, and the codes and symbols of the currencies staff commonly type (the
    /// form names the shop's currency; a symbol typed out of habit is read past, as before).
    private static func typedMarkers(_ currency: Currency) -> [String] {
        (Set([currency.code.uppercased()]).union(commonMarkers)).sorted { $0.count > $1.count }
    }

    private static let commonMarkers: Set<String> = ["TRY", "TL", "₺", "USD", "US$", "$", "EUR", "€", "GBP", "£",
                                                     "JPY", "¥", "￥"]

    private static func separatorIsDecimal(_ separator: Character, in text: String, languageDecimal: Bool) -> Bool {
        let groups = text.split(separator: separator, omittingEmptySubsequences: false)
        if languageDecimal { return true }
        return !(groups.count >= 2 && groupsByThree(groups))
    }

    /// Whether `groups` (a whole part split at a grouping separator) group digits by three: a
    /// first group of one to three digits (after a sign) that does not start with `0`, each
    /// other of exactly three (`1.299`, `1.299.000`; not `0,001`, which is no thousand, nor `1,2`).
    private static func groupsByThree(_ groups: [Substring]) -> Bool {
        guard var first = groups.first else { return false }
        if first.first == "-" || first.first == "+" { first = first.dropFirst() }
        return (1...3).contains(first.count) && first.allSatisfy(\.isNumber) && first.first != "0"
            && groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNumber) }
    }

    /// The amount as a form shows it for editing in `language`: no symbol, no grouping, the
    /// currency's minor digits after the language's decimal separator (`19,99`; `19.99`; `1299`
    /// for yen). ``parse(typed:language:currency:)`` reads it back exactly.
    public func typedString(language: Language) -> String {
        let text = decimalString
        return language.locale.decimalSeparator == "," ? text.replacingOccurrences(of: ".", with: ",") : text
    }
}
