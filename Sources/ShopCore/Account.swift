public import Foundation

/// A shopper's account.
public struct User: Identifiable, Hashable, Sendable {
    /// Store-assigned identifier.
    public typealias ID = Tagged<User, Int64>

    /// Store-assigned identifier.
    public var id: ID
    /// The sign-in email, normalized by `EmailRules.normalize(_:)` (trimmed, NFKC, lower-cased), unique.
    public var email: String
    /// The name as the shopper typed it, trimmed, e.g. `"Ayşe Yılmaz"`.
    public var name: String
    /// When the email address was confirmed through the emailed link; nil until then.
    public var emailVerifiedAt: Date?
    /// When the account was created.
    public var createdAt: Date
    /// What the account may do beyond shopping.
    public var role: Role
    /// Username, phone and address (the Fake Store user fields).
    public var profile: AccountProfile
    /// The language the shopper last chose on the storefront (pages and emails), nil until
    /// they choose one (`Language.forShopper`).
    public var locale: Language?

    /// What an account may do. Stored by its raw value.
    public enum Role: String, Hashable, Sendable, CaseIterable {
        /// Shops: its own cart, favorites, orders and account.
        case shopper
        /// Runs the shop: writes the catalog and sees every account (`shoppable users create --operator`).
        case `operator`
    }

    /// Creates a user value.
    public init(id: ID, email: String, name: String, emailVerifiedAt: Date? = nil, createdAt: Date, role: Role = .shopper,
                profile: AccountProfile = AccountProfile(), locale: Language? = nil) {
        self.id = id
        self.locale = locale
        self.profile = profile
        self.email = email
        self.name = name
        self.emailVerifiedAt = emailVerifiedAt
        self.createdAt = createdAt
        self.role = role
    }

    /// `true` for an account with the operator role.
    public var isOperator: Bool { role == .operator }

    /// `true` once the email address is confirmed.
    public var isVerified: Bool { emailVerifiedAt != nil }

    /// The first word of the name, for greetings ("Hi, Ayşe"), without the punctuation around
    /// it (`"Quote, Comma"` greets `Quote`, not `"Quote,`); the whole name when that leaves nothing.
    public var firstName: String { Self.firstName(of: name) }

    /// ``firstName`` of any name (an account's before it is stored, a guest's).
    public static func firstName(of name: String) -> String {
        let word = name.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? name
        let trimmed = word.trimmingCharacters(in: .punctuationCharacters.union(.symbols))
        return trimmed.isEmpty ? word : trimmed
    }
}

/// Email address rules for accounts.
public enum EmailRules {
    /// Longest address accepted (RFC 5321 §4.5.3.1.3 path limit less the angle brackets).
    public static let maximumLength = 254

    /// Trims, checks the shape, and lower-cases an email address so that `Ana@Example.com` and
    /// `ana@example.com` are the same account — in Unicode's compatibility form (NFKC), so that
    /// a full-width `ａｎａ@ｅｘａｍｐｌｅ.com` is `ana@example.com` too, and a Turkish capital `İ`
    /// is `i` (`İLKER@…` is `ilker@…`).
    ///
    /// Shape: one `@`; a local part of 1–64 characters without spaces; a domain of at least two
    /// dot-separated labels of letters (any script), digits and inner hyphens; nothing invisible
    /// (control or format characters, such as NUL or a zero-width joiner: a mail server drops or
    /// refuses them, so the address would not be the one mail goes to). This accepts what
    /// real people type and refuses typos such as `ana@example`, `ana example.com`, `ana@@x.com`.
    /// - Throws: `AccountFieldError.emailInvalid` or `.emailTooLong`.
    public static func normalize(_ email: String) throws(AccountFieldError) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping
        guard trimmed.count <= maximumLength else { throw .emailTooLong(maximum: maximumLength) }
        guard !trimmed.unicodeScalars.contains(where: { isInvisible($0) }) else { throw .emailInvalid }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .emailInvalid }
        let local = parts[0], domain = parts[1]
        guard (1...64).contains(local.count), !local.contains(where: { $0.isWhitespace || $0.isNewline }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { throw .emailInvalid }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw .emailInvalid }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { throw .emailInvalid }
        }
        guard let last = labels.last, last.count >= 2, !last.allSatisfy(\.isNumber) else { throw .emailInvalid }
        // `İ` (a Turkish keyboard's capital i, or its auto-capitalized first letter) lower-cases
        // to `i` and a combining dot above: it is an `i`, as `I` is.
        return trimmed.replacingOccurrences(of: "İ", with: "I").lowercased()
    }

    /// Control, format, separator, private-use and unassigned scalars: none belongs in an address.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate, .unassigned:
            true
        default:
            false
        }
    }
}

/// Password rules for accounts (issue #3, after the seed app's registration rules).
///
/// A password must:
/// - be 8–128 characters long;
/// - contain at least one letter and one digit;
/// - not contain the person's first or last name when that name has 3 or more letters, compared
///   case- and diacritic-insensitively with Turkish dotted/dotless i folded together
///   (`İ`, `I`, `ı`, `i` all match each other; `José` matches `jose`);
/// - not contain 3 or more consecutive digits that go up or down by one (`123`, `876`);
/// - not contain control characters (NUL, tab, line breaks, …): nobody types them into a
///   password field, and NUL ends a C string (libsodium's hash refuses it).
public enum PasswordRules {
    /// Shortest password accepted.
    public static let minimumLength = 8
    /// Longest password accepted (argon2 hashing cost stays bounded).
    public static let maximumLength = 128

    /// Every rule `password` breaks, in the order above; empty when it is acceptable.
    /// - Parameters:
    ///   - password: the password as typed (not trimmed: spaces count).
    ///   - name: the person's full name; its first and last words are checked.
    public static func problems(_ password: String, name: String) -> [AccountFieldError] {
        var problems: [AccountFieldError] = []
        if password.count < minimumLength { problems.append(.passwordTooShort(minimum: minimumLength)) }
        if password.count > maximumLength { problems.append(.passwordTooLong(maximum: maximumLength)) }
        if !password.contains(where: \.isLetter) || !password.contains(where: { $0.wholeNumberValue != nil }) {
            problems.append(.passwordNeedsLetterAndDigit)
        }
        let folded = fold(password)
        let words = name.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        let candidates = [words.first, words.count > 1 ? words.last : nil].compactMap { $0 }
        if candidates.contains(where: { $0.filter(\.isLetter).count >= 3 && folded.contains(fold($0)) }) {
            problems.append(.passwordContainsName)
        }
        if hasSequentialDigits(password) { problems.append(.passwordHasSequentialDigits) }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problems.append(.passwordHasControlCharacters)
        }
        return problems
    }

    /// Case, diacritics and Turkish i-forms folded away: `"IŞIK"` and `"ışık"` → `"isik"`.
    static func fold(_ text: String) -> String {
        var unified = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "İ", "I", "ı": unified.unicodeScalars.append("i")
            default: unified.unicodeScalars.append(scalar)
            }
        }
        return UnicodeFolding.strippingDiacritics(unified).lowercased()
    }

    /// `true` when three adjacent characters are digits stepping by +1 or −1 (`345`, `210`).
    static func hasSequentialDigits(_ text: String) -> Bool {
        let values = text.map(\.wholeNumberValue)
        guard values.count >= 3 else { return false }
        for index in 0...(values.count - 3) {
            guard let a = values[index], let b = values[index + 1], let c = values[index + 2] else { continue }
            if (b - a == 1 && c - b == 1) || (b - a == -1 && c - b == -1) { return true }
        }
        return false
    }
}

/// The registration form, checked as a whole: every field's problems at once.
public struct Registration: Sendable, Equatable {
    /// The name, trimmed.
    public var name: String
    /// The email, normalized.
    public var email: String
    /// The password as typed.
    public var password: String

    /// Longest name accepted.
    public static let maximumNameLength = 100

    /// Which field a problem belongs to, so the page can show it next to that field.
    public enum Field: String, Sendable, Hashable, CaseIterable { case name, email, password, passwordConfirmation }

    /// Checks the form (issue #3 rules) and returns the cleaned values.
    /// - Throws: `RegistrationErrors` with every problem by field when anything is wrong.
    public static func validate(name: String, email: String, password: String,
                                passwordConfirmation: String) throws(RegistrationErrors) -> Registration {
        var errors: [Field: [AccountFieldError]] = [:]
        let trimmedName = TextRules.singleLine(name)
        if trimmedName.isEmpty { errors[.name] = [.nameMissing] }
        else if trimmedName.count > maximumNameLength { errors[.name] = [.nameTooLong(maximum: maximumNameLength)] }
        var normalizedEmail = ""
        do { normalizedEmail = try EmailRules.normalize(email) } catch { errors[.email] = [error] }
        let passwordProblems = PasswordRules.problems(password, name: trimmedName)
        if !passwordProblems.isEmpty { errors[.password] = passwordProblems }
        if password != passwordConfirmation { errors[.passwordConfirmation] = [.passwordsDoNotMatch] }
        guard errors.isEmpty else { throw RegistrationErrors(byField: errors) }
        return Registration(name: trimmedName, email: normalizedEmail, password: password)
    }
}

/// Every problem of a registration form, by field.
public struct RegistrationErrors: Error, Sendable, Equatable {
    /// Problems by field; fields without problems are absent.
    public var byField: [Registration.Field: [AccountFieldError]]

    /// Creates the error.
    public init(byField: [Registration.Field: [AccountFieldError]]) { self.byField = byField }
}

/// One problem with an account form field. The storefront localizes by case.
public enum AccountFieldError: Error, Hashable, Sendable {
    case nameMissing
    case nameTooLong(maximum: Int)
    case emailInvalid
    case emailTooLong(maximum: Int)
    case emailTaken
    case passwordTooShort(minimum: Int)
    case passwordTooLong(maximum: Int)
    case passwordNeedsLetterAndDigit
    case passwordContainsName
    case passwordHasSequentialDigits
    case passwordHasControlCharacters
    case passwordsDoNotMatch
    case passwordWrong
}
