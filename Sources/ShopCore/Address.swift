import Foundation

/// A shipping address in the shopper's address book (issue #5): the contacts book of the seed
/// apps, for deliveries. Phone and postal code are text, trimmed (never parsed as numbers).
public struct Address: Hashable, Sendable {
    /// Store-assigned identifier.
    public typealias ID = Tagged<Address, Int64>

    /// Nil until stored.
    public var id: ID?
    public var firstName: String
    public var lastName: String
    public var phone: String
    /// Optional contact email for the courier.
    public var email: String?
    public var line1: String
    public var line2: String
    public var city: String
    public var postalCode: String
    /// State, province or county, when the country uses one.
    public var region: String?
    /// ISO 3166-1 alpha-2 code, upper case (`"TR"`, `"US"`).
    public var countryCode: String
    /// The address checkout offers first; at most one per account.
    public var isDefault: Bool

    /// Creates an address value.
    public init(id: ID? = nil, firstName: String, lastName: String, phone: String, email: String? = nil, line1: String,
                line2: String = "", city: String, postalCode: String, region: String? = nil, countryCode: String,
                isDefault: Bool = false) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.email = email
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.postalCode = postalCode
        self.region = region
        self.countryCode = countryCode
        self.isDefault = isDefault
    }

    /// "First Last".
    public var fullName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }

    /// The letter the address book groups it under: the first letter of the full name, upper-cased
    /// without diacritics (`"Şule"` → `"S"`), or `"#"` when it does not start with a letter.
    public var initial: String {
        guard let first = fullName.first, first.isLetter else { return "#" }
        let folded = String(first).applyingTransform(.stripDiacritics, reverse: false) ?? String(first)
        return folded.uppercased()
    }

    /// Sort order of the address book: by full name, case- and diacritic-insensitive, then id.
    public static func bookOrder(_ lhs: Address, _ rhs: Address) -> Bool {
        let order = lhs.fullName.compare(rhs.fullName, options: [.caseInsensitive, .diacriticInsensitive])
        if order != .orderedSame { return order == .orderedAscending }
        return (lhs.id?.rawValue ?? 0) < (rhs.id?.rawValue ?? 0)
    }

    /// The address as lines for labels and order pages, the country named in English.
    public var lines: [String] { lines(in: .english) }

    /// The address as lines for labels, order pages and emails, the country named in `language`.
    public func lines(in language: Language) -> [String] {
        [fullName, line1, line2, [postalCode, city].filter { !$0.isEmpty }.joined(separator: " "),
         region ?? "", Countries.name(of: countryCode, in: language) ?? countryCode].filter { !$0.isEmpty }
    }
}

/// Fields of the address form.
public enum AddressField: String, Hashable, Sendable, CaseIterable {
    case firstName = "first_name", lastName = "last_name", phone, email = "address_email", line1, line2, city
    case postalCode = "postal_code", region, countryCode = "country"
}

/// One problem with an address field; the storefront localizes by case.
public enum AddressProblem: Error, Hashable, Sendable {
    case missing
    case tooLong(maximum: Int)
    case invalidEmail
    case invalidPhone
    case unknownCountry
    /// Not a postal code of the address's country, where its form is fixed (`PostalCodes`);
    /// `example` is one that is.
    case invalidPostalCode(example: String)
}

/// Postal codes of the countries whose codes have one fixed form that cannot be mistaken: a typo
/// there makes a parcel undeliverable (a tester's `ABCDE` for Turkey went through). Every other
/// country's code is taken as typed — a wrong refusal would stop a real order.
public enum PostalCodes {
    /// `nil` when `code` (trimmed) has the form of `country`'s codes, or the country's form is
    /// not one checked; else an example of that form.
    public static func problem(_ code: String, country: String) -> String? {
        let characters = Array(code)
        func digits(_ slice: ArraySlice<Character>) -> Bool { slice.allSatisfy { $0.isASCII && $0.isNumber } }
        switch country {
        case "US":
            // 12345 or ZIP+4: 12345-6789
            let ok = (characters.count == 5 && digits(characters[...]))
                || (characters.count == 10 && digits(characters[0..<5]) && characters[5] == "-" && digits(characters[6...]))
            return ok ? nil : "94103"
        case "TR", "ES", "DE", "FR", "IT", "MX":
            guard characters.count == 5 && digits(characters[...]) else { return examples[country] }
            return nil
        case "NL":
            // 1234 AB, the space optional
            let letters = characters.count == 7 ? characters[5...] : characters.dropFirst(4)
            let ok = (characters.count == 6 || (characters.count == 7 && characters[4] == " ")) && digits(characters[0..<4])
                && letters.allSatisfy { $0.isASCII && $0.isLetter }
            return ok ? nil : "1012 AB"
        default:
            return nil
        }
    }

    private static let examples = ["TR": "34000", "ES": "28012", "DE": "10115", "FR": "75001", "IT": "00184", "MX": "06600"]
}

/// Every problem of an address form, by field.
public struct AddressErrors: Error, Hashable, Sendable {
    public var byField: [AddressField: [AddressProblem]]
    public init(byField: [AddressField: [AddressProblem]]) { self.byField = byField }
}

/// Address form rules (issue #5): first and last name, phone, street line 1, city, postal code and
/// country are required; email and region optional; everything trimmed; at most 100 characters a
/// field (phone 30, postal code 20); a phone has 5–20 digits and only `+ ( ) - . /` and spaces
/// besides; the country is an ISO 3166-1 alpha-2 code from `Countries`; a postal code has its
/// country's form where that form is fixed (`PostalCodes`).
public enum AddressRules {
    /// Checks `fields` (as typed, by field) and returns the cleaned address.
    /// - Throws: `AddressErrors` with every problem.
    public static func validate(_ fields: [AddressField: String], isDefault: Bool, id: Address.ID? = nil) throws(AddressErrors) -> Address {
        var errors: [AddressField: [AddressProblem]] = [:]
        func value(_ field: AddressField, required: Bool, maximum: Int = 100) -> String {
            // Line breaks and other control characters become spaces: an address is one line per
            // field (and must not smuggle lines into emails or operator output).
            let text = TextRules.singleLine(fields[field] ?? "")
            if required && text.isEmpty { errors[field, default: []].append(.missing) }
            if text.count > maximum { errors[field, default: []].append(.tooLong(maximum: maximum)) }
            return text
        }
        let firstName = value(.firstName, required: true), lastName = value(.lastName, required: true)
        let phone = value(.phone, required: true, maximum: 30)
        if !phone.isEmpty {
            let digits = phone.filter(\.isASCII).filter(\.isNumber).count
            let allowed = phone.allSatisfy { ($0.isASCII && $0.isNumber) || "+()-./ ".contains($0) }
            if !allowed || !(5...20).contains(digits) { errors[.phone, default: []].append(.invalidPhone) }
        }
        let emailText = value(.email, required: false, maximum: 254)
        var email: String?
        if !emailText.isEmpty {
            do { email = try EmailRules.normalize(emailText) } catch { errors[.email, default: []].append(.invalidEmail) }
        }
        let line1 = value(.line1, required: true), line2 = value(.line2, required: false)
        let city = value(.city, required: true), postalCode = value(.postalCode, required: true, maximum: 20)
        let region = value(.region, required: false)
        let country = value(.countryCode, required: true, maximum: 2).uppercased()
        if !country.isEmpty && !Countries.isKnown(country) { errors[.countryCode, default: []].append(.unknownCountry) }
        if !postalCode.isEmpty, let example = PostalCodes.problem(postalCode, country: country) {
            errors[.postalCode, default: []].append(.invalidPostalCode(example: example))
        }
        guard errors.isEmpty else { throw AddressErrors(byField: errors) }
        return Address(id: id, firstName: firstName, lastName: lastName, phone: phone, email: email, line1: line1,
                       line2: line2, city: city, postalCode: postalCode, region: region.isEmpty ? nil : region,
                       countryCode: country, isDefault: isDefault)
    }
}

/// ISO 3166-1 alpha-2 countries with English names, from Foundation's region data.
public enum Countries {
    /// `(code, English name)` sorted by name.
    public static let all: [(code: String, name: String)] = english
        .sorted { $0.1.localizedStandardCompare($1.1) == .orderedAscending }

    /// `(code, English name)` in Foundation's order. Checking a code needs no sorting: sorting by
    /// `localizedStandardCompare` was 8 % of a server's start (the shop file's shipping
    /// countries are checked there; issue #14, cold start).
    private static let english: [(code: String, name: String)] = {
        let english = Locale(identifier: "en_US")
        return Locale.Region.isoRegions
            .map(\.identifier)
            .filter { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isUppercase } && !notCountries.contains($0) }
            .compactMap { code in english.localizedString(forRegionCode: code).map { (code, $0) } }
    }()

    /// Region codes Foundation knows that are not ISO 3166-1 countries (unions, reserved and
    /// exceptionally reserved codes).
    private static let notCountries: Set<String> = ["EU", "EZ", "UN", "QO", "CP", "DG", "EA", "IC", "AC", "TA",
                                                    "XA", "XB", "ZZ", "CQ"]

    private static let names: [String: String] = Dictionary(english.map { ($0.code, $0.name) }, uniquingKeysWith: { a, _ in a })

    /// `true` for a known two-letter code (upper case).
    public static func isKnown(_ code: String) -> Bool { names[code] != nil }

    /// The English name of a code.
    public static func name(of code: String) -> String? { names[code] }

    /// `(code, name)` in `language`, sorted as that language sorts (the address form's list).
    public static func all(in language: Language) -> [(code: String, name: String)] {
        switch language {
        case .english: all
        case .turkish: turkish
        case .spanish: spanish
        }
    }

    /// The name of a code in `language` ("Almanya" for DE in Turkish).
    public static func name(of code: String, in language: Language) -> String? {
        language == .english ? names[code] : localizedNames[language]?[code]
    }

    private static let turkish = named(in: .turkish)
    private static let spanish = named(in: .spanish)
    private static let localizedNames: [Language: [String: String]] = [
        .turkish: Dictionary(turkish.map { ($0.code, $0.name) }, uniquingKeysWith: { a, _ in a }),
        .spanish: Dictionary(spanish.map { ($0.code, $0.name) }, uniquingKeysWith: { a, _ in a }),
    ]

    private static func named(in language: Language) -> [(code: String, name: String)] {
        let locale = Locale(identifier: language.localeIdentifier)
        return all.map { (code: $0.code, name: locale.localizedString(forRegionCode: $0.code) ?? $0.name) }
            .sorted { $0.name.compare($1.name, locale: locale) == .orderedAscending }
    }
}

/// Text that must stay on one line.
public enum TextRules {
    /// `text` with every line break and control character turned into a space, runs of spaces
    /// collapsed, the ends trimmed, and the invisible controls of text direction dropped.
    ///
    /// A right-to-left override (U+202E) in an address line showed "1 live" for the typed
    /// "1 <RLO>evil" on the order page and in the email (a fresh tester); the embeddings,
    /// overrides and isolates (U+202A–U+202E, U+2066–U+2069) carry no text of their own, and
    /// without them the line still reads in each script's own direction. The marks (U+200E,
    /// U+200F) and joiners stay: they change no order beyond their neighbours.
    public static func singleLine(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isDirectionControl(scalar) { continue }
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar == "\u{2028}" || scalar == "\u{2029}" {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The embeddings, overrides and isolates of text direction (U+202A–U+202E, U+2066–U+2069).
    static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
