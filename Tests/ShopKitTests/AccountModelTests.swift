import Foundation
import HTTPServer
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import ShopTestSupport
import ShopWeb
import Testing

private let account = V1Account(id: 7, email: "ana@example.com", name: "Ana Lima", verified: false, role: "shopper")
private let credentials = Credentials(accessToken: "access", refreshToken: "refresh")

/// The registration cases of one problem each: the field, what is typed there, the problem.
private let oneProblem: [(Registration.Field, String, AccountFieldError)] = [
    (.name, "", .nameMissing),
    (.email, "ana@example", .emailInvalid),
    (.password, "a1b", .passwordTooShort(minimum: PasswordRules.minimumLength)),
    (.password, "abcdefgh", .passwordNeedsLetterAndDigit),
    (.password, "lima9x8q", .passwordContainsName),
    (.password, "blue1234", .passwordHasSequentialDigits),
]

@MainActor
private func typed(_ field: Registration.Field, _ value: String, _ model: RegisterModel) {
    model.name = "Ana Lima"
    model.email = "ana@example.com"
    model.password = "Blue9sky!"
    switch field {
    case .name: model.name = value
    case .email: model.email = value
    case .password: model.password = value
    case .passwordConfirmation: break
    }
    model.passwordConfirmation = model.password
}

@MainActor
@Suite("ShopKit: registration and sign-in")
struct AccountModelTests {
    /// The model's message for each problem is the server's, word for word, in every language:
    /// the same function (`AccountFieldError.message(in:)`) answers both.
    @Test(arguments: Language.allCases, oneProblem.indices)
    func fieldMessagesAreTheServersInEveryLanguage(language: Language, index: Int) async throws {
        let (field, value, problem) = oneProblem[index]
        let model = RegisterModel(shop: .failing, language: language)
        typed(field, value, model)
        model.name = field == .name ? value : "Ana Lima"
        #expect(model.problems[field] == (field == .name ? nil : [problem]), "before submitting, only typed fields")
        await model.register()  // refused locally: `.failing` would fail the test if it were sent
        #expect(model.problems == [field: [problem]])

        let shop = try TestShop()
        let body = try JSONEncoder().encode(V1Registration(email: model.email, password: model.password, name: model.name))
        let answer = try shop.api(.post, "/api/v1/account", json: String(decoding: body, as: UTF8.self),
                                  headers: ["Accept-Language": language.rawValue])
        let envelope = try JSONDecoder().decode(APIErrorEnvelope.self, from: Data(answer.response.body))
        #expect(model.errors(for: field) == [envelope.error.message])
        #expect(envelope.error.message == Localizer(language: language).message(for: problem))
        if language != .english { #expect(envelope.error.message != problem.message(in: .english)) }
    }

    @Test func mismatchedConfirmationShowsOnTheConfirmationField() {
        let model = RegisterModel(shop: .failing, language: .spanish)
        model.password = "Blue9sky!"
        model.passwordConfirmation = "Blue9sky"
        #expect(model.errors(for: .passwordConfirmation) == ["Las dos contraseñas no coinciden."])
        #expect(!model.canRegister)
    }

    @Test func registeringSignsInAndThenVerifies() async {
        var shop = ShopOperations.failing
        let stored = Box<Credentials?>(nil)
        shop.register = { email, password, name in
            #expect((email, password, name) == ("ana@example.com", "Blue9sky!", "Ana Lima"))
            return account
        }
        shop.signIn = { _, _ in credentials }
        shop.setCredentials = { stored.value = $0 }
        shop.resendVerificationEmail = { V1Accepted(message: "We sent it again.") }
        shop.confirmEmail = { token in
            guard token == "good" else { throw NetworkError.serverError(status: 400, code: "invalid_token", message: "Link not valid") }
            return V1Account(id: 7, email: "ana@example.com", name: "Ana Lima", verified: true, role: "shopper")
        }
        let model = RegisterModel(shop: shop)
        typed(.name, "Ana Lima", model)
        #expect(model.canRegister)
        await model.register()
        #expect(model.stage == .registered(account))
        #expect(model.verification == .unverified)
        #expect(stored.value == credentials)
        #expect(model.password.isEmpty, "the password is not kept")

        await model.resendVerificationEmail()
        #expect(model.verification == .sent("We sent it again."))
        await model.confirmEmail(token: "used")
        #expect(model.verification == .failed("Link not valid"))
        await model.confirmEmail(token: "good")
        #expect(model.verification == .verified)
    }

    @Test(arguments: Language.allCases)
    func aTakenEmailShowsOnTheEmailFieldUntilItChanges(language: Language) async {
        var shop = ShopOperations.failing
        shop.register = { _, _, _ in throw NetworkError.serverError(status: 409, code: "email_taken", message: "taken") }
        let model = RegisterModel(shop: shop, language: language)
        typed(.name, "Ana Lima", model)
        await model.register()
        #expect(model.stage == .form)
        #expect(model.errors(for: .email) == [Localizer(language: language).message(for: .emailTaken)])
        #expect(!model.canRegister)
        model.email = "ana2@example.com"
        #expect(model.errors(for: .email) == [] && model.canRegister)
    }

    @Test func otherRefusalsAndOfflineAreTheirOwnStages() async {
        var shop = ShopOperations.failing
        let answer = Box<NetworkError>(.serverError(status: 429, code: "too_many_attempts", message: "Too many attempts."))
        shop.register = { _, _, _ in throw answer.value }
        let model = RegisterModel(shop: shop)
        typed(.name, "Ana Lima", model)
        await model.register()
        #expect(model.stage == .failed("Too many attempts."))
        answer.value = .offline
        await model.register()
        #expect(model.stage == .offline)
    }

    @Test func signingInStoresTheCredentials() async {
        var shop = ShopOperations.failing
        let stored = Box<Credentials?>(nil)
        shop.signIn = { email, password in
            guard password == "Blue9sky!" else {
                throw NetworkError.serverError(status: 401, code: "invalid_credentials", message: "Wrong email or password.")
            }
            return credentials
        }
        shop.setCredentials = { stored.value = $0 }
        let model = SignInModel(shop: shop, language: .turkish)
        model.email = "ana@example"
        #expect(model.emailError == AccountFieldError.emailInvalid.message(in: .turkish))
        #expect(!model.canSignIn)
        model.email = "ana@example.com"
        model.password = "wrong"
        await model.signIn()
        #expect(model.status == .failed("Wrong email or password.") && stored.value == nil)
        model.password = "Blue9sky!"
        await model.signIn()
        #expect(model.status == .signedIn && stored.value == credentials)
    }

    @Test func passwordResetRequestAndConfirm() async {
        var shop = ShopOperations.failing
        let reset = Box<[String]>([])
        shop.requestPasswordReset = { V1Accepted(message: "If \($0) has an account, we sent a link.") }
        shop.resetPassword = { token, password in reset.update { $0 += [token, password] } }
        let model = SignInModel(shop: shop)
        model.email = "ana@example.com"
        await model.requestPasswordReset()
        #expect(model.reset == .requested("If ana@example.com has an account, we sent a link."))
        model.newPassword = "shor7"
        #expect(model.newPasswordErrors == [AccountFieldError.passwordTooShort(minimum: 8).message(in: .english)])
        await model.resetPassword(token: "t")
        #expect(reset.value == [], "a password breaking the rules is not sent")
        model.newPassword = "Green7leaf"
        await model.resetPassword(token: "t")
        #expect(model.reset == .done && reset.value == ["t", "Green7leaf"])
    }
}
