import Foundation
@testable import ShopCore
import Testing

/// ShopCore's string tables (`Sources/ShopCore/Localizable/*.json`): the messages of its own
/// errors, which the storefront, the JSON API and ShopKit's view models all show.
@Suite("ShopCore string tables")
struct CoreMessagesTests {
    /// Each key's text as the file holds it.
    private static func raw(_ language: Language) throws -> [String: String] {
        let url = try #require(StringTable.resourceURL(language, in: CoreMessages.bundle))
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: String])
    }

    @Test(arguments: Language.allCases)
    func everyTableHasExactlyTheKeysOfCoreMessageKey(language: Language) throws {
        let table = try StringTable.load(language, from: CoreMessages.bundle)
        #expect(Set(table.entries.keys) == Set(CoreMessageKey.allCases.map(\.rawValue)), "\(language.rawValue).json")
    }

    @Test(arguments: [Language.turkish, .spanish])
    func translationsKeepEnglishsPlaceholdersAndAreTranslated(language: Language) throws {
        let english = try Self.raw(.english), translation = try Self.raw(language)
        for (key, source) in english {
            let text = try #require(translation[key], "\(language.rawValue).json lacks \(key)")
            #expect(StringTable.placeholders(text) == StringTable.placeholders(source), "\(language.rawValue).json \(key)")
            #expect(text != source, "\(language.rawValue).json \(key) repeats English")
        }
    }

    /// Every error case has its own text, and its number is filled in.
    static let accountErrors: [AccountFieldError] = [
        .nameMissing, .nameTooLong(maximum: 100), .emailInvalid, .emailTooLong(maximum: 254), .emailTaken,
        .passwordTooShort(minimum: 8), .passwordTooLong(maximum: 128), .passwordNeedsLetterAndDigit,
        .passwordContainsName, .passwordHasSequentialDigits, .passwordHasControlCharacters, .passwordsDoNotMatch,
        .passwordWrong,
    ]

    @Test(arguments: Language.allCases)
    func everyAccountErrorHasItsOwnFilledMessage(language: Language) {
        let messages = Self.accountErrors.map { $0.message(in: language) }
        #expect(Set(messages).count == messages.count, "two errors share a text")
        for message in messages {
            #expect(!message.contains("{") && !message.hasPrefix("error"), "\(message)")
        }
    }

    @Test(arguments: [
        (AccountFieldError.passwordTooShort(minimum: 8), Language.english, "Use at least 8 characters."),
        (.passwordTooShort(minimum: 8), .turkish, "En az 8 karakter kullanın."),
        (.passwordTooShort(minimum: 8), .spanish, "Usa al menos 8 caracteres."),
        (.emailTaken, .english, "There is already an account with this email. Sign in instead?"),
        (.nameTooLong(maximum: 1_000), .turkish, "Lütfen en fazla 1.000 karakter kullanın."),
    ] as [(AccountFieldError, Language, String)])
    func accountErrorMessages(error: AccountFieldError, language: Language, expected: String) {
        #expect(error.message(in: language) == expected)
    }

    @Test(arguments: Language.allCases)
    func everyAddressProblemHasItsOwnFilledMessage(language: Language) {
        let problems: [AddressProblem] = [.missing, .tooLong(maximum: 20), .invalidEmail, .invalidPhone, .unknownCountry]
        let messages = problems.map { $0.message(in: language) }
        #expect(Set(messages).count == messages.count)
        #expect(messages.allSatisfy { !$0.contains("{") && !$0.hasPrefix("address") })
        #expect(AddressProblem.tooLong(maximum: 20).message(in: language).contains("20"))
    }

    @Test func templatesParseAndFill() {
        let template = StringTable.parse("{count} of {total}!")
        #expect(template == [.placeholder("count"), .literal(" of "), .placeholder("total"), .literal("!")])
        #expect(StringTable.fill(template, ["count": "1", "total": "2"]) == "1 of 2!")
        #expect(StringTable.fill(template, ["count": "1"]) == "1 of {total}!")
    }
}
