import Foundation
import Testing
@testable import ShopCore

@Suite("Email rules")
struct EmailRulesTests {
    @Test(arguments: [
        ("ana@example.com", "ana@example.com"), ("  Ana@Example.COM ", "ana@example.com"),
        ("first.last+shop@mail.co.uk", "first.last+shop@mail.co.uk"), ("ayşe@örnek.com.tr", "ayşe@örnek.com.tr"),
        ("x@a-b.io", "x@a-b.io"),
        // NFKC: full-width letters and a ligature are the plain ones, so they name one account.
        ("ana@\u{FF45}xample.com", "ana@example.com"), ("\u{FF21}na@example.com", "ana@example.com"),
        ("\u{FB01}le@example.com", "file@example.com"),
        // A Turkish keyboard's capital dotted İ is an i, as ILKER is ilker: lower-cased alone it
        // would be "i" and a combining dot (a fresh tester could not sign in with İLKER@…).
        ("İLKER@EXAMPLE.COM", "ilker@example.com"), ("İlker@Örnek.com.TR", "ilker@örnek.com.tr"),
        ("ılgaz@example.com", "ılgaz@example.com"),
    ])
    func acceptsRealAddressesAndNormalizesThem(input: String, normalized: String) throws {
        #expect(try EmailRules.normalize(input) == normalized)
    }

    @Test(arguments: [
        "", "ana", "ana@", "@example.com", "ana@example", "ana example@x.com", "ana@@example.com",
        "ana@ex ample.com", "ana@-example.com", "ana@example.c", "ana@.com", ".ana@example.com",
        "an..a@example.com", "ana@example..com", "ana@1.2.3.4",
        // Invisible scalars: a mail server drops or refuses them, so mail would go elsewhere.
        "nul\u{0}x@example.com", "inj3\u{1}@example.com", "ana\u{7F}@example.com", "a\u{200B}na@example.com",
        "ana@exa\u{200D}mple.com", "ana\u{00A0}lima@example.com", "ana\u{E000}@example.com",
    ])
    func refusesMistypedAddresses(input: String) {
        #expect(throws: AccountFieldError.emailInvalid) { try EmailRules.normalize(input) }
    }

    @Test func refusesOverlongAddresses() {
        let long = String(repeating: "a", count: 60) + "@" + String(repeating: "b", count: 200) + ".com"
        #expect(throws: AccountFieldError.emailTooLong(maximum: 254)) { try EmailRules.normalize(long) }
    }
}

@Suite("Password rules")
struct PasswordRulesTests {
    @Test(arguments: [
        ("correct horse 7 battery", "Ana Lima"), ("Blue9sky!", "Ana Lima"), ("zq8vmrp4", "Jo Li"),
        ("river8-2-4", "Mehmet Öz"), ("grüne7Wiese", "Ayşe Yılmaz"),
    ])
    func acceptsGoodPasswords(password: String, name: String) {
        #expect(PasswordRules.problems(password, name: name).isEmpty)
    }

    @Test func needsEightCharactersAndAtMost128() {
        #expect(PasswordRules.problems("ab7", name: "Ana Lima").contains(.passwordTooShort(minimum: 8)))
        let long = String(repeating: "a7", count: 65)
        #expect(PasswordRules.problems(long, name: "Ana Lima") == [.passwordTooLong(maximum: 128)])
        #expect(PasswordRules.problems(String(repeating: "a7", count: 64), name: "Ana Lima").isEmpty)
    }

    @Test(arguments: ["onlyletters", "24681357", "!!!!????"])
    func needsALetterAndADigit(password: String) {
        #expect(PasswordRules.problems(password, name: "Ana Lima").contains(.passwordNeedsLetterAndDigit))
    }

    @Test(arguments: [
        ("lima2468x", "Ana Lima"), ("xxANA...LIMA", "Ana Lima"), ("ozturk975a", "Şule Öztürk"),
        ("SULE8642b", "Şule Öztürk"), ("isik9753z", "Işık Demir"), ("IŞIK9753z", "ışık demir"),
        ("istanbul97a", "İstanbul Kaya"), ("jose8642q", "José García"), ("GARCIA8642q", "José García"),
        ("x9y5nunez", "Ana Núñez"),
    ])
    func mustNotContainTheFirstOrLastName(password: String, name: String) {
        #expect(PasswordRules.problems(password, name: name).contains(.passwordContainsName))
    }

    @Test func shortNamesAndMiddleNamesAreNotChecked() {
        #expect(!PasswordRules.problems("jo86x4li", name: "Jo Li").contains(.passwordContainsName))
        #expect(!PasswordRules.problems("maria8642x", name: "Ana Maria Lima").contains(.passwordContainsName))
    }

    @Test(arguments: ["abc123xyz", "pass8765", "x987y", "a0123", "zz345zz", "q٣٤٥q"])
    func mustNotContainThreeSequentialDigits(password: String) {
        #expect(PasswordRules.problems(password, name: "Ana Lima").contains(.passwordHasSequentialDigits))
    }

    @Test(arguments: ["a1357924", "b9024681", "x12x34x", "c1122334", "d9090909"])
    func nonSequentialDigitsAreFine(password: String) {
        #expect(!PasswordRules.problems(password, name: "Ana Lima").contains(.passwordHasSequentialDigits))
    }

    @Test(arguments: ["Tulip9garden\u{0}", "Tulip9\tgarden", "Tulip9garden\n", "Tulip9\u{7F}garden", "Tulip9\u{85}garden"])
    func mustNotContainControlCharacters(password: String) {
        #expect(PasswordRules.problems(password, name: "Bob Stone") == [.passwordHasControlCharacters])
    }

    @Test(arguments: ["Tulip9 garden", "Tulip9garden\u{200D}", "Tulip9 👨‍👩‍👧 garden"])
    func spacesAndJoinersAreNotControlCharacters(password: String) {
        #expect(PasswordRules.problems(password, name: "Bob Stone").isEmpty)
    }

    @Test func foldingTreatsEveryTurkishIAlike() {
        #expect(PasswordRules.fold("İIıi") == "iiii")
        #expect(PasswordRules.fold("ŞÜĞÖÇ") == "sugoc")
    }
}

@Suite("Registration form")
struct RegistrationTests {
    @Test func validFormIsCleaned() throws {
        let form = try Registration.validate(name: "  Ana Lima ", email: " Ana@Example.com",
                                             password: "Blue9sky!", passwordConfirmation: "Blue9sky!")
        #expect(form == Registration(name: "Ana Lima", email: "ana@example.com", password: "Blue9sky!"))
    }

    @Test func everyFieldsProblemsAreReportedAtOnce() {
        do {
            _ = try Registration.validate(name: " ", email: "nope", password: "123", passwordConfirmation: "124")
            Issue.record("expected errors")
        } catch {
            #expect(error.byField[.name] == [.nameMissing])
            #expect(error.byField[.email] == [.emailInvalid])
            #expect(error.byField[.password] == [.passwordTooShort(minimum: 8), .passwordNeedsLetterAndDigit,
                                                 .passwordHasSequentialDigits])
            #expect(error.byField[.passwordConfirmation] == [.passwordsDoNotMatch])
        }
    }

    @Test func theNameRuleUsesTheNameFromTheForm() {
        #expect(throws: RegistrationErrors(byField: [.password: [.passwordContainsName]])) {
            try Registration.validate(name: "Şule Öztürk", email: "sule@example.com",
                                      password: "sule-2468-x", passwordConfirmation: "sule-2468-x")
        }
    }
}

@Suite("Rate limits")
struct RateLimitTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func fiveAttemptsWithinFifteenMinutesLockUntilTheOldestLeavesTheWindow() {
        let limit = AccountThrottles().signIn
        let attempts = (0..<5).map { now.addingTimeInterval(Double(-60 * (10 - $0))) }  // 10…6 min ago
        #expect(limit.retryAfter(attempts: Array(attempts.prefix(4)), now: now) == nil)
        #expect(limit.retryAfter(attempts: attempts, now: now) == attempts[0].addingTimeInterval(900))
    }

    @Test func oldAttemptsDoNotCountSoNoOneIsLockedOutForGood() {
        let limit = AccountThrottles().signIn
        let old = (0..<50).map { now.addingTimeInterval(Double(-900 - $0)) }
        #expect(limit.retryAfter(attempts: old, now: now) == nil)
    }

    @Test func everyThrottleKeysItsOwnCounterAndTheLongestWindowCoversThemAll() {
        let throttles = AccountThrottles()
        let keys = throttles.signIn(email: "ana@example.com", client: "203.0.113.9")
            + throttles.registration(client: "203.0.113.9") + throttles.registrationNotice(email: "ana@example.com")
            + throttles.passwordReset(email: "ana@example.com", client: "203.0.113.9")
            + throttles.verificationEmail(user: 7, client: "203.0.113.9")
        #expect(Set(keys.map(\.key)).count == keys.count, "no two throttles share a counter")
        #expect(keys.allSatisfy { $0.limit.window <= throttles.longestWindow })
        #expect(throttles.signIn(email: nil, client: "203.0.113.9").map(\.key) == ["sign-in:ip:203.0.113.9"])
    }
}

@Suite("A greeting's first name")
struct FirstNameTests {
    @Test(arguments: [
        ("Ayşe Yılmaz", "Ayşe"), ("\"Quote, Comma\" <a@b.c>", "Quote"), ("(Ana) Lima", "Ana"), ("José", "José"),
        ("O'Brien Sean", "O'Brien"), ("...", "..."), ("", ""),
    ])
    func theFirstWordWithoutThePunctuationAroundIt(name: String, firstName: String) {
        let user = User(id: 1, email: "a@example.com", name: name, createdAt: Date(timeIntervalSince1970: 0))
        #expect(user.firstName == firstName)
    }
}
