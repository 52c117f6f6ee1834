import Foundation
import HTTPServer
import ShopCore
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import ShopWeb
import Synchronization
import Testing

private let goodPassword = "Blue9sky!"

/// A shop over a migrated SQLite file with a pool of 8 connections, whose password checks are
/// counted and take a few milliseconds like a real argon2id hash.
private final class RacingShop {
    var shop: TestShop { sqlite.shop }
    /// How many times a password was checked.
    var passwordChecks: Int { checks.value.load(ordering: .relaxed) }
    private let checks = Tally()
    private let sqlite: SQLiteTestShop

    init() throws {
        sqlite = try SQLiteTestShop()
        let real = sqlite.shop.environment.crypto
        let checks = self.checks
        sqlite.shop.environment.crypto.verifyPassword = { password, hash in
            checks.value.add(1, ordering: .relaxed)
            Thread.sleep(forTimeInterval: 0.005)  // the hash's cost: the window a check-then-count race needs
            return real.verifyPassword(password, hash)
        }
    }

    /// `count` visitors, each holding the CSRF token of a page they loaded.
    func visitors(_ count: Int) throws -> [TestShop] {
        try (0..<count).map { _ in
            let visitor = try shop.visitor()
            try visitor.get("/account/sign-in")
            return visitor
        }
    }
}

/// A shared count.
private final class Tally: Sendable {
    let value = Atomic<Int>(0)
}

@Suite("Throttles under concurrent requests (issue #8)")
struct ConcurrentThrottleTests {
    @Test func sixtySimultaneousWrongPasswordsAreCheckedOnlyFiveTimes() throws {
        let racing = try RacingShop()
        _ = try racing.shop.accounts.createUser(
            NewAccount(email: "ana@example.com", name: "Ana Lima", passwordHash: try Crypto.testing.hashPassword(goodPassword),
                       createdAt: racing.shop.clock.now), true)
        let visitors = try racing.visitors(60)
        let statuses = try ConcurrentRun.together(60) { index in
            let visitor = visitors[index]
            return try visitor.send(.post, "/account/sign-in",
                                    form: [("email", "ana@example.com"), ("password", "Wrong9pass\(index)"),
                                           ("csrf_token", visitor.csrfToken ?? "")],
                                    remoteAddress: "10.0.\(index / 200).\(index % 200)").status
        }
        #expect(racing.passwordChecks == 5)
        #expect(statuses.count { $0 == 401 } == 5)
        #expect(statuses.count { $0 == 429 } == 55)
    }
}

/// An account created directly in the store (verified or not), signed in to nobody.
@discardableResult
private func account(_ shop: TestShop, _ email: String, name: String = "Ana Lima", verified: Bool = true) throws -> User {
    try shop.accounts.createUser(NewAccount(email: email, name: name, passwordHash: try Crypto.testing.hashPassword(goodPassword),
                                            createdAt: shop.clock.now), verified)
}

private func signIn(_ shop: TestShop, _ email: String, from address: String) throws -> TestResponse {
    try shop.send(.post, "/account/sign-in", form: [("email", email), ("password", goodPassword)], remoteAddress: address)
}

private func forgot(_ shop: TestShop, _ email: String, from address: String) throws -> TestResponse {
    try shop.send(.post, "/account/password/forgot", form: [("email", email)], remoteAddress: address)
}

private func resend(_ shop: TestShop, from address: String) throws -> TestResponse {
    try shop.send(.post, "/account/verify/resend", form: [], remoteAddress: address)
}

@Suite("Email rate limits (issue #8)")
struct EmailRateLimitTests {
    private func resetEmails(_ shop: TestShop, to address: String) throws -> Int {
        try shop.outbox().count { $0.draft.toAddress == address && $0.draft.subject.contains("Reset your") }
    }

    @Test func resetEmailsToOneAccountStopAtThreeAnHourWhereverTheyAreAskedFrom() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com")
        for index in 0..<3 {
            #expect(try forgot(shop, "ana@example.com", from: "10.0.0.\(index)").status == 200)
        }
        let refused = try forgot(shop, "Ana@Example.com", from: "10.0.0.9")
        #expect(refused.status == 429 && refused.text.contains("Too many attempts. Please try again in 60 minutes."))
        #expect(refused.header("Retry-After") == "3600")
        #expect(try resetEmails(shop, to: "ana@example.com") == 3)
        shop.clock.advance(by: 3600)
        #expect(try forgot(shop, "ana@example.com", from: "10.0.0.9").status == 200, "the limit ends by itself")
        #expect(try resetEmails(shop, to: "ana@example.com") == 4)
    }

    @Test func anUnknownEmailIsThrottledExactlyLikeAKnownOne() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com")
        for email in ["ana@example.com", "nobody@example.com"] {
            let statuses = try (0..<4).map { try forgot(shop, email, from: "10.0.1.\($0)").status }
            #expect(statuses == [200, 200, 200, 429], "\(email)")
        }
    }

    @Test func oneAddressAsksForTenResetsAnHourAtMost() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com")
        for index in 0..<10 {
            #expect(try forgot(shop, "user\(index)@example.com", from: "203.0.113.9").status == 200)
        }
        #expect(try forgot(shop, "ana@example.com", from: "203.0.113.9").status == 429)
        #expect(try resetEmails(shop, to: "ana@example.com") == 0)
        #expect(try forgot(shop, "ana@example.com", from: "198.51.100.7").status == 200, "other addresses are not affected")
        #expect(try resetEmails(shop, to: "ana@example.com") == 1)
    }

    @Test func verificationEmailsAreSentAgainThreeTimesAnHourPerAccount() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com", verified: false)
        #expect(try signIn(shop, "ana@example.com", from: "10.0.0.1").status == 303)
        for index in 0..<3 { #expect(try resend(shop, from: "10.0.0.\(index)").status == 303) }
        let refused = try resend(shop, from: "10.0.0.9")
        #expect(refused.status == 303 && refused.header("Retry-After") == "3600")
        #expect(try shop.get("/account").text.contains("Too many attempts. Please try again in 60 minutes."))
        #expect(try shop.outbox().count { $0.draft.subject.contains("Confirm your email") } == 3)
    }

    @Test func oneAddressGetsTenVerificationEmailsAnHourAtMost() throws {
        let shop = try TestShop()
        var statuses: [Int] = []
        for index in 0..<11 {
            let visitor = try shop.visitor()
            try account(shop, "user\(index)@example.com", verified: false)
            #expect(try signIn(visitor, "user\(index)@example.com", from: "10.0.2.\(index)").status == 303)
            statuses.append(try resend(visitor, from: "203.0.113.9").header("Retry-After") == nil ? 200 : 429)
        }
        #expect(statuses == Array(repeating: 200, count: 10) + [429])
        #expect(try shop.outbox().count { $0.draft.subject.contains("Confirm your email") } == 10)
    }

    @Test func fiftySimultaneousResetRequestsQueueThreeEmails() throws {
        let racing = try RacingShop()
        try account(racing.shop, "ana@example.com")
        let visitors = try racing.visitors(50)
        let statuses = try ConcurrentRun.together(50) { index in
            try visitors[index].send(.post, "/account/password/forgot",
                                     form: [("email", "ana@example.com"), ("csrf_token", visitors[index].csrfToken ?? "")],
                                     remoteAddress: "10.1.0.\(index)").status
        }
        #expect(try racing.shop.outbox().count == 3)
        #expect(statuses.count { $0 == 200 } == 3 && statuses.count { $0 == 429 } == 47)
    }

    @Test func twentySimultaneousResendsQueueThreeEmails() throws {
        let racing = try RacingShop()
        try account(racing.shop, "ana@example.com", verified: false)
        let ana = racing.shop
        #expect(try signIn(ana, "ana@example.com", from: "10.0.0.1").status == 303)
        try ana.get("/account")
        let token = try #require(ana.csrfToken)
        let cookies = ana.cookies
        let tabs = try (0..<20).map { _ in
            let tab = try ana.visitor()
            tab.cookies = cookies  // the same browser: one session, many tabs
            return tab
        }
        _ = try ConcurrentRun.together(20) { index in
            try tabs[index].send(.post, "/account/verify/resend", form: [("csrf_token", token)], remoteAddress: "10.0.0.1").status
        }
        #expect(try ana.outbox().count { $0.draft.subject.contains("Confirm your email") } == 3)
    }
}

@Suite("Registration is no enumeration oracle (issue #8)")
struct RegistrationThrottleTests {
    private func register(_ shop: TestShop, _ email: String, from address: String) throws -> TestResponse {
        try shop.send(.post, "/account/register", form: [("name", "Bo Berg"), ("email", email), ("password", goodPassword),
                                                         ("password_confirmation", goodPassword)],
                      remoteAddress: address)
    }

    @Test func tenRegistrationsFromOneAddressThenTryAgainIn15Minutes() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com")
        shop.clock.advance(by: AccountService.repeatedRegistrationWindow)  // not Ana sending her form again
        for index in 0..<9 {
            #expect(try register(shop.visitor(), "user\(index)@example.com", from: "203.0.113.9").status == 303)
        }
        #expect(try register(shop.visitor(), "ana@example.com", from: "203.0.113.9").status == 422, "a taken email counts too")
        let refused = try register(shop.visitor(), "ana@example.com", from: "203.0.113.9")
        #expect(refused.status == 429 && refused.text.contains("Too many attempts. Please try again in 15 minutes."))
        #expect(!refused.text.contains("There is already an account"), "a refused attempt tells nothing about the email")
        #expect(refused.header("Retry-After") == "900")
        #expect(try register(shop.visitor(), "late@example.com", from: "203.0.113.9").status == 429)
        #expect(try shop.accounts.credentials("late@example.com") == nil)
        #expect(try register(shop.visitor(), "late@example.com", from: "198.51.100.7").status == 303,
                "other addresses are not affected")
        shop.clock.advance(by: 15 * 60)
        #expect(try register(shop.visitor(), "later@example.com", from: "203.0.113.9").status == 303, "the limit ends by itself")
    }

    @Test func theOwnerIsToldSomeoneTriedToRegisterWithTheirEmail() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com", name: "Ana Lima")
        shop.clock.advance(by: AccountService.repeatedRegistrationWindow)  // not Ana sending her form again
        let before = try shop.outbox().count
        let attempt = try register(shop, "  ANA@example.com ", from: "198.51.100.7")
        #expect(attempt.status == 422 && attempt.text.contains("There is already an account with this email."))
        #expect(shop.cookies["shoppable_session"] == nil, "nobody was signed in")
        let sent = try shop.outbox().dropFirst(before)
        let notice = try #require(sent.first)
        #expect(sent.count == 1, "the notice only: no verification email for an account that was not created")
        #expect(notice.draft.toAddress == "ana@example.com" && notice.draft.toName == "Ana Lima")
        #expect(notice.draft.subject == "Someone tried to create a Shoppable account with your email")
        #expect(notice.draft.textBody.hasPrefix("Hi Ana,\n\nsomeone just tried to create a new Shoppable account"))
        #expect(notice.draft.textBody.contains("https://shop.test/account/sign-in\n"))
        #expect(notice.draft.textBody.contains("https://shop.test/account/password/forgot\n"))
        #expect(try shop.accounts.users().count == 1)
    }

    @Test func ownersGetThreeNoticesAnHourAtMost() throws {
        let shop = try TestShop()
        try account(shop, "ana@example.com")
        shop.clock.advance(by: AccountService.repeatedRegistrationWindow)  // not Ana sending her form again
        for index in 0..<5 {
            #expect(try register(shop.visitor(), "ana@example.com", from: "10.0.3.\(index)").status == 422)
        }
        #expect(try shop.outbox().count { $0.draft.subject.hasPrefix("Someone tried") } == 3)
    }
}
