import Foundation

/// The keys of ShopCore's own string tables, `Sources/ShopCore/Localizable/{en,tr,es}.json`:
/// the messages of ShopCore's errors, which every front door (the storefront's pages, the JSON
/// API, a native app through ShopKit) shows in the same words.
///
/// A test keeps the tables complete: exactly these keys in every language, each translation with
/// English's placeholders.
public enum CoreMessageKey: String, CaseIterable, Sendable {
    // AccountFieldError
    case errorNameMissing, errorNameTooLong, errorEmailInvalid, errorEmailTooLong, errorEmailTaken
    case errorPasswordTooShort, errorPasswordTooLong, errorPasswordNeedsLetterAndDigit, errorPasswordContainsName
    case errorPasswordHasSequentialDigits, errorPasswordHasControlCharacters, errorPasswordsDoNotMatch, errorPasswordWrong
    // AddressProblem
    case addressErrorMissing, addressErrorTooLong, addressErrorEmail, addressErrorPhone, addressErrorCountry, addressErrorPostalCode
}

/// ShopCore's string tables, read from its resource bundle at first use.
enum CoreMessages {
    /// The bundle holding `Localizable/<code>.json`.
    static var bundle: Bundle { Bundle.module }

    private static let tables = StringTable.loadAll(from: .module)

    /// The text of `key` in `language`, `{name}` placeholders filled from `arguments`.
    static func text(_ key: CoreMessageKey, in language: Language, _ arguments: [String: String] = [:]) -> String {
        (tables[language] ?? tables[.english]!).text(key.rawValue, arguments)
    }
}

extension AccountFieldError {
    /// The message a shopper sees for this problem, in `language` — the storefront's, the JSON
    /// API's and a native app's alike.
    ///
    /// ```swift
    /// AccountFieldError.passwordTooShort(minimum: 8).message(in: .turkish) // "En az 8 karakter kullanın."
    /// ```
    public func message(in language: Language) -> String {
        switch self {
        case .nameMissing: CoreMessages.text(.errorNameMissing, in: language)
        case let .nameTooLong(maximum): CoreMessages.text(.errorNameTooLong, in: language, ["maximum": language.number(maximum)])
        case .emailInvalid: CoreMessages.text(.errorEmailInvalid, in: language)
        case .emailTooLong: CoreMessages.text(.errorEmailTooLong, in: language)
        case .emailTaken: CoreMessages.text(.errorEmailTaken, in: language)
        case let .passwordTooShort(minimum):
            CoreMessages.text(.errorPasswordTooShort, in: language, ["minimum": language.number(minimum)])
        case let .passwordTooLong(maximum):
            CoreMessages.text(.errorPasswordTooLong, in: language, ["maximum": language.number(maximum)])
        case .passwordNeedsLetterAndDigit: CoreMessages.text(.errorPasswordNeedsLetterAndDigit, in: language)
        case .passwordContainsName: CoreMessages.text(.errorPasswordContainsName, in: language)
        case .passwordHasSequentialDigits: CoreMessages.text(.errorPasswordHasSequentialDigits, in: language)
        case .passwordHasControlCharacters: CoreMessages.text(.errorPasswordHasControlCharacters, in: language)
        case .passwordsDoNotMatch: CoreMessages.text(.errorPasswordsDoNotMatch, in: language)
        case .passwordWrong: CoreMessages.text(.errorPasswordWrong, in: language)
        }
    }
}

extension AddressProblem {
    /// The message a shopper sees for this address field problem, in `language`.
    public func message(in language: Language) -> String {
        switch self {
        case .missing: CoreMessages.text(.addressErrorMissing, in: language)
        case let .tooLong(maximum): CoreMessages.text(.addressErrorTooLong, in: language, ["maximum": language.number(maximum)])
        case .invalidEmail: CoreMessages.text(.addressErrorEmail, in: language)
        case .invalidPhone: CoreMessages.text(.addressErrorPhone, in: language)
        case .unknownCountry: CoreMessages.text(.addressErrorCountry, in: language)
        case let .invalidPostalCode(example): CoreMessages.text(.addressErrorPostalCode, in: language, ["example": example])
        }
    }
}
