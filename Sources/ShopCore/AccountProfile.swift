public import Foundation

/// What an account keeps beyond its sign-in email, name and password: the Fake Store user
/// fields (issue #10) — a user name to sign in with, a phone and one postal address.
///
/// The checkout's address book (`AddressBookEntry`) is separate: this address is the account's
/// own, as a Fake Store client reads and writes it.
public struct AccountProfile: Hashable, Sendable {
    /// A second name to sign in with, unique without case (`UsernameRules`); nil for accounts
    /// that sign in with their email only (every account made on the web or by the CLI).
    public var username: String?
    /// As typed (`ProfileRules.phone`), "" when unknown.
    public var phone: String
    /// The account's postal address; every field "" (and the number 0) when unknown.
    public var address: Address

    /// A postal address in Fake Store's terms.
    public struct Address: Hashable, Sendable {
        public var city: String
        public var street: String
        /// The house number (Fake Store's is an integer), 0 when unknown.
        public var number: Int
        public var zipcode: String
        /// Decimal degrees as text (`"-37.3159"`), "" when unknown.
        public var latitude: String
        /// Decimal degrees as text (`"81.1496"`), "" when unknown.
        public var longitude: String

        /// Creates an address.
        public init(city: String = "", street: String = "", number: Int = 0, zipcode: String = "",
                    latitude: String = "", longitude: String = "") {
            self.city = city
            self.street = street
            self.number = number
            self.zipcode = zipcode
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// Creates a profile (empty by default).
    public init(username: String? = nil, phone: String = "", address: Address = Address()) {
        self.username = username
        self.phone = phone
        self.address = address
    }
}

/// One problem with a profile field. `description` is the message (English, like the API's).
public enum ProfileFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    case usernameInvalid
    case usernameTaken
    case phoneInvalid
    case textTooLong(maximum: Int)
    case numberOutOfRange(ClosedRange<Int>)
    case coordinateInvalid(maximum: Int)

    public var description: String {
        switch self {
        case .usernameInvalid:
            "A username has \(UsernameRules.lengths.lowerBound)–\(UsernameRules.lengths.upperBound) characters: "
                + "letters a–z, digits, “_”, “.” or “-”, starting with a letter or digit."
        case .usernameTaken: "This username is taken."
        case .phoneInvalid: "A phone number has at most \(ProfileRules.maximumPhoneLength) digits, spaces and + - ( ) . characters."
        case let .textTooLong(maximum): "At most \(maximum) characters."
        case let .numberOutOfRange(range): "A whole number from \(range.lowerBound) to \(range.upperBound)."
        case let .coordinateInvalid(maximum): "Decimal degrees from -\(maximum) to \(maximum), as text (\"-37.3159\")."
        }
    }
}

/// The rules of user names: 3–30 characters of ASCII letters, digits, `_`, `.` and `-`,
/// starting with a letter or digit. Never an `@`, so a sign-in name is an email or a username,
/// never both. Unique without case (`Ana_L` and `ana_l` are one name); kept as typed.
public enum UsernameRules {
    /// How long a username may be.
    public static let lengths = 3...30

    /// The username trimmed, or the problem with it.
    /// - Throws: `ProfileFieldError.usernameInvalid`.
    public static func validate(_ text: String) throws(ProfileFieldError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard lengths.contains(trimmed.count), let first = trimmed.unicodeScalars.first,
              isAlphanumeric(first), trimmed.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "_.-".unicodeScalars.contains($0) })
        else { throw .usernameInvalid }
        return trimmed
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// `true` when sign-in text names a username rather than an email (it has no `@`).
    public static func isUsername(_ signInText: String) -> Bool { !signInText.contains("@") }
}

/// The rules of the other profile fields: single-line text within limits, a phone of dialing
/// characters, a house number of at most 6 digits, coordinates in range.
public enum ProfileRules {
    public static let maximumPhoneLength = 32
    public static let maximumTextLength = 100
    public static let maximumZipcodeLength = 20
    public static let houseNumbers = 0...999_999

    /// The phone trimmed. - Throws: `.phoneInvalid`.
    public static func phone(_ text: String) throws(ProfileFieldError) -> String {
        let trimmed = TextRules.singleLine(text)
        guard trimmed.count <= maximumPhoneLength,
              trimmed.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || " +-().".unicodeScalars.contains($0) })
        else { throw .phoneInvalid }
        return trimmed
    }

    /// The address with its text on one line each, or the first problem with the name of its
    /// field (`city`, `street`, `number`, `zipcode`, `geolocation.lat`, `geolocation.long`).
    public static func address(_ address: AccountProfile.Address) -> Result<AccountProfile.Address, FieldProblem> {
        var clean = address
        clean.city = TextRules.singleLine(address.city)
        clean.street = TextRules.singleLine(address.street)
        clean.zipcode = TextRules.singleLine(address.zipcode)
        clean.latitude = address.latitude.trimmingCharacters(in: .whitespaces)
        clean.longitude = address.longitude.trimmingCharacters(in: .whitespaces)
        if clean.city.count > maximumTextLength { return .failure(.init("city", .textTooLong(maximum: maximumTextLength))) }
        if clean.street.count > maximumTextLength { return .failure(.init("street", .textTooLong(maximum: maximumTextLength))) }
        if !houseNumbers.contains(clean.number) { return .failure(.init("number", .numberOutOfRange(houseNumbers))) }
        if clean.zipcode.count > maximumZipcodeLength {
            return .failure(.init("zipcode", .textTooLong(maximum: maximumZipcodeLength)))
        }
        if !isCoordinate(clean.latitude, maximum: 90) { return .failure(.init("geolocation.lat", .coordinateInvalid(maximum: 90))) }
        if !isCoordinate(clean.longitude, maximum: 180) {
            return .failure(.init("geolocation.long", .coordinateInvalid(maximum: 180)))
        }
        return .success(clean)
    }

    /// A problem and the field it belongs to.
    public struct FieldProblem: Error, Hashable, Sendable {
        public var field: String
        public var problem: ProfileFieldError
        public init(_ field: String, _ problem: ProfileFieldError) {
            self.field = field
            self.problem = problem
        }
    }

    /// "" or a plain decimal (`-37.3159`, at most 12 characters) within ±`maximum`.
    static func isCoordinate(_ text: String, maximum: Double) -> Bool {
        if text.isEmpty { return true }
        guard text.count <= 12, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." || $0 == "-" }),
              let value = Double(text) else { return false }
        return abs(value) <= maximum
    }
}
