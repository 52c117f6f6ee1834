import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

@Suite("AccountService")
struct AccountServiceTests {
    /// The email the service is handed to queue: the link carries the raw token.
    private static func email(to address: String, token: String, at date: Date) -> OutboxDraft {
        OutboxDraft(toAddress: address, toName: "Ana", subject: "Link", textBody: "token=\(token)", createdAt: date)
    }

    private static func queuedToken(_ shop: ServiceShop) throws -> String? {
        try shop.accounts.dueMessages(.distantFuture, 100).last.map { String($0.draft.textBody.dropFirst("token=".count)) }
    }

    private func register(_ shop: ServiceShop, _ email: String = "ana@example.com") throws -> User {
        let registration = try Registration.validate(name: "Ana Lima", email: email, password: ServiceShop.password,
                                                     passwordConfirmation: ServiceShop.password)
        let now = shop.clock.now
        return try shop.accountService.register(registration) { Self.email(to: email, token: $0, at: now) }
    }

    // MARK: register and verify

    @Test func registeringQueuesAVerificationLinkThatWorksOnce() throws {
        let shop = try ServiceShop()
        let user = try register(shop)
        #expect(!user.isVerified && user.email == "ana@example.com")
        let token = try #require(try Self.queuedToken(shop))
        #expect(try shop.accountService.verifyEmail(token: token).isVerified)
        #expect(throws: AccountServiceError.linkNotValid) { try shop.accountService.verifyEmail(token: token) }
    }

    @Test func registeringATakenEmailIsRefused() throws {
        let shop = try ServiceShop()
        _ = try register(shop)
        #expect(throws: AccountServiceError.emailTaken) { try register(shop) }
    }

    @Test(arguments: ["", "not-a-token"])
    func anUnknownVerificationLinkIsRefused(token: String) throws {
        let shop = try ServiceShop()
        _ = try register(shop)
        #expect(throws: AccountServiceError.linkNotValid) { try shop.accountService.verifyEmail(token: token) }
    }

    @Test func aVerificationLinkExpiresAfterADayAndASecondLinkReplacesTheFirst() throws {
        let shop = try ServiceShop()
        let user = try register(shop)
        let first = try #require(try Self.queuedToken(shop))
        let now = shop.clock.now
        #expect(try shop.accountService.resendVerification(to: user) { Self.email(to: user.email, token: $0, at: now) })
        let second = try #require(try Self.queuedToken(shop))
        #expect(throws: AccountServiceError.linkNotValid) { try shop.accountService.verifyEmail(token: first) }
        shop.clock.advance(by: AccountService.verificationLifetime + 1)
        #expect(throws: AccountServiceError.linkNotValid) { try shop.accountService.verifyEmail(token: second) }
    }

    @Test func aVerifiedAccountGetsNoSecondVerificationEmail() throws {
        let shop = try ServiceShop()
        let user = try shop.account()  // created verified
        let sent = try shop.accountService.resendVerification(to: user) { _ in Issue.record("composed"); return Fixture.email }
        #expect(try !sent && shop.accounts.dueMessages(.distantFuture, 10).isEmpty)
    }

    // MARK: sign-in credentials

    @Test(arguments: [("ana@example.com", ServiceShop.password, true), ("ana@example.com", "quiet lantern 74", false),
                      ("bo@example.com", ServiceShop.password, false), (nil, ServiceShop.password, false)] as [(String?, String, Bool)])
    func credentialsAreCheckedAgainstTheStoredHash(email: String?, password: String, accepted: Bool) throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        #expect(try shop.accountService.authenticate(email: email, password: password) == (accepted ? user : nil))
    }

    /// An account stored before emails were composed (NFKC) under a decomposed or full-width
    /// address still signs in, typed as it was then; a composed account wins when both exist.
    @Test(arguments: ["jose\u{301}@example.com", "ana@\u{FF45}xample.com"])
    func anAccountStoredUnderAnOlderFormOfItsEmailStillSignsIn(stored: String) throws {
        let shop = try ServiceShop()
        let user = try shop.account(stored)
        let composed = try EmailRules.normalize(stored)
        #expect(!composed.utf8.elementsEqual(stored.utf8), "the stored form is not the composed one")
        #expect(try shop.accountService.signInEmail(stored)?.utf8.elementsEqual(stored.utf8) == true)
        let attempt = try shop.accountService.signIn(emailText: stored, password: ServiceShop.password, client: "1.2.3.4",
                                                     throttles: AccountThrottles())
        #expect(attempt == .accepted(user))
        let twin = try shop.account(composed)
        #expect(try shop.accountService.signInEmail(stored)?.utf8.elementsEqual(composed.utf8) == true && twin.id != user.id)
    }

    @Test func aHashMadeWithWeakerSettingsIsReplacedAtSignIn() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let old = try #require(try shop.accounts.credentials(user.email)?.passwordHash)
        shop.crypto.passwordNeedsRehash = { $0 == old }
        #expect(try shop.accountService.authenticate(email: user.email, password: ServiceShop.password) == user)
        let new = try #require(try shop.accounts.credentials(user.email)?.passwordHash)
        #expect(new != old && shop.crypto.verifyPassword(ServiceShop.password, new))
        // A wrong password rehashes nothing.
        shop.crypto.passwordNeedsRehash = { _ in true }
        #expect(try shop.accountService.authenticate(email: user.email, password: "wrong password 1") == nil)
        #expect(try shop.accounts.credentials(user.email)?.passwordHash == new)
    }

    // MARK: password reset

    @Test func aResetLinkIsSentOnlyToAnAccountAndSetsANewPasswordOnce() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let elsewhere = try shop.sessionService.signIn(user.id, replacing: nil, remember: true).issued
        let now = shop.clock.now
        try shop.accountService.requestPasswordReset(email: "nobody@example.com") { _, token in Self.email(to: "x", token: token, at: now) }
        #expect(try shop.accounts.dueMessages(.distantFuture, 10).isEmpty)
        try shop.accountService.requestPasswordReset(email: user.email) { user, token in Self.email(to: user.email, token: token, at: now) }
        let token = try #require(try Self.queuedToken(shop))
        #expect(try shop.accountService.passwordResetUser(token: token) == user)

        #expect(try shop.accountService.resetPassword(token: token, password: "brand new words 58",
                                                      confirmation: "brand new words 58").id == user.id)
        #expect(try shop.accountService.authenticate(email: user.email, password: "brand new words 58")?.id == user.id)
        #expect(try shop.sessions.find(elsewhere.session.id) == nil)  // every session ends
        #expect(throws: AccountServiceError.linkNotValid) {
            try shop.accountService.resetPassword(token: token, password: "another one 62", confirmation: "another one 62")
        }
    }

    @Test(arguments: [
        ("short1", "short1", PasswordFormErrors.Field.password),
        ("quiet lantern 73", "quiet lantern 37", .passwordConfirmation),
    ])
    func aResetWithABadPasswordChangesNothing(password: String, confirmation: String, field: PasswordFormErrors.Field) throws {
        let shop = try ServiceShop()
        let user = try shop.account(password: "the old one 15")
        let now = shop.clock.now
        try shop.accountService.requestPasswordReset(email: user.email) { user, token in Self.email(to: user.email, token: token, at: now) }
        let token = try #require(try Self.queuedToken(shop))
        let error = #expect(throws: PasswordFormErrors.self) {
            try shop.accountService.resetPassword(token: token, password: password, confirmation: confirmation)
        }
        #expect(error?.byField.keys.contains(field) == true)
        #expect(try shop.accountService.passwordResetUser(token: token) == user)  // the link still works
        #expect(try shop.accountService.authenticate(email: user.email, password: "the old one 15") == user)
    }

    @Test func aResetLinkExpiresAfterAnHour() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let now = shop.clock.now
        try shop.accountService.requestPasswordReset(email: user.email) { user, token in Self.email(to: user.email, token: token, at: now) }
        let token = try #require(try Self.queuedToken(shop))
        shop.clock.advance(by: AccountService.resetLifetime + 1)
        #expect(throws: AccountServiceError.linkNotValid) { try shop.accountService.passwordResetUser(token: token) }
    }

    // MARK: change password

    @Test func changingThePasswordSignsOutEveryOtherSession() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let here = try shop.sessionService.signIn(user.id, replacing: nil, remember: true).issued
        let there = try shop.sessionService.signIn(user.id, replacing: nil, remember: true).issued
        try shop.accountService.changePassword(of: user, keeping: here.session.id, currentPassword: ServiceShop.password,
                                               newPassword: "brand new words 58", confirmation: "brand new words 58")
        #expect(try shop.sessions.find(here.session.id) != nil && shop.sessions.find(there.session.id) == nil)
        #expect(try shop.accountService.authenticate(email: user.email, password: "brand new words 58") == user)
    }

    @Test func aWrongCurrentPasswordAndABadNewOneAreAllReported() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let here = try shop.sessionService.signIn(user.id, replacing: nil, remember: true).issued
        let error = #expect(throws: PasswordFormErrors.self) {
            try shop.accountService.changePassword(of: user, keeping: here.session.id, currentPassword: "not it 99",
                                                   newPassword: "short", confirmation: "shorter")
        }
        #expect(error?.byField[.currentPassword] == [.passwordWrong])
        #expect(error?.byField[.passwordConfirmation] == [.passwordsDoNotMatch])
        #expect(error?.byField[.password]?.isEmpty == false)
        #expect(try shop.accountService.authenticate(email: user.email, password: ServiceShop.password) == user)
    }

    private enum Fixture {
        static let email = OutboxDraft(toAddress: "x", toName: "x", subject: "x", textBody: "x", createdAt: .distantPast)
    }
}

/// Issue #14 (cold start): the hash a sign-in with an unknown email is checked against is made
/// on first use, once — not when the server starts — and that sign-in still pays a verification.
@Suite("the dummy password hash")
struct DummyPasswordHashTests {
    final class Counts: Sendable {
        let hashes = Mutex(0), verifications = Mutex(0)
    }

    static func counting(_ counts: Counts) -> Crypto {
        var crypto = Crypto.testing
        let hash = crypto.hashPassword, verify = crypto.verifyPassword
        crypto.hashPassword = { password in counts.hashes.withLock { $0 += 1 }; return try hash(password) }
        crypto.verifyPassword = { password, encoded in counts.verifications.withLock { $0 += 1 }; return verify(password, encoded) }
        return crypto
    }

    @Test func madeOnFirstUseOnceAndCheckedForUnknownEmails() throws {
        let counts = Counts()
        let crypto = Self.counting(counts)
        let dummy = DummyPasswordHash(crypto: crypto)
        #expect(!dummy.isMade && counts.hashes.withLock { $0 } == 0, "nothing made at creation")
        let shop = try ServiceShop()
        let service = AccountService(accounts: shop.accounts, crypto: crypto, now: Date.init, dummyPasswordHash: dummy)
        for attempt in 0..<3 {
            #expect(try service.authenticate(email: "nobody-\(attempt)@example.com", password: "guess \(attempt)") == nil)
        }
        #expect(dummy.isMade && counts.hashes.withLock { $0 } == 1, "made once")
        #expect(counts.verifications.withLock { $0 } == 3, "every unknown email still costs a verification")
        #expect(crypto.verifyPassword("no one's password 7", dummy.value))
    }

    @Test func readersAtOnceWaitForTheOneHash() async throws {
        let counts = Counts()
        let dummy = DummyPasswordHash(crypto: Self.counting(counts))
        let values = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { dummy.value } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values.count == 1 && counts.hashes.withLock { $0 } == 1)
    }
}
