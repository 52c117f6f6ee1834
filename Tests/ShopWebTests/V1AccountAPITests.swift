import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// Registers through `POST /api/v1/account` and signs in through `POST /api/v1/auth/tokens`.
private func registerAndSignIn(_ shop: TestShop, _ email: String = "ana@example.com",
                               password: String = "Blue9sky!") throws -> V1TokenPair {
    let registered = try shop.api(.post, "/api/v1/account",
                                  json: #"{"email": "\#(email)", "password": "\#(password)", "name": "Ana Lima"}"#)
    #expect(registered.status == 201, "\(registered.text)")
    return try signIn(shop, email, password: password)
}

private func signIn(_ shop: TestShop, _ email: String, password: String = "Blue9sky!", guest: String? = nil) throws -> V1TokenPair {
    let response = try shop.api(.post, "/api/v1/auth/tokens", token: guest,
                                json: #"{"email": "\#(email)", "password": "\#(password)"}"#)
    #expect(response.status == 200, "\(response.text)")
    return try decoded(V1TokenPair.self, response)
}

private func refresh(_ shop: TestShop, _ refreshToken: String) throws -> TestResponse {
    try shop.api(.post, "/api/v1/auth/refresh", json: #"{"refreshToken": "\#(refreshToken)"}"#)
}

private func errorCode(_ response: TestResponse) throws -> String {
    try decoded(APIErrorEnvelope.self, response).error.code
}

/// The token of the newest emailed link to `address`.
private func emailedToken(_ shop: TestShop, to address: String) throws -> String {
    let message = try #require(try shop.outbox().last { $0.draft.toAddress == address })
    return String(try #require(message.draft.textBody.firstMatch(of: /token=([A-Za-z0-9_\-]+)/)).1)
}

@Suite("API v1: account and tokens")
struct V1AccountAPITests {
    @Test func registeringFollowsTheFormsRulesAndAnswersTheProfile() throws {
        let shop = try TestShop()
        let created = try shop.api(.post, "/api/v1/account",
                                   json: #"{"email": "Ana@Example.com", "password": "Blue9sky!", "name": "Ana Lima"}"#)
        #expect(created.status == 201)
        #expect(created.header("Location") == "https://shop.test/api/v1/account")
        let account = try decoded(V1Account.self, created)
        #expect(account.email == "ana@example.com" && account.name == "Ana Lima" && !account.verified && account.role == "shopper")
        #expect(try shop.outbox().contains { $0.draft.toAddress == "ana@example.com" }, "the web's verification email")

        let weak = try shop.api(.post, "/api/v1/account", json: #"{"email": "bo@example.com", "password": "short", "name": "Bo"}"#)
        let weakError = try decoded(APIErrorEnvelope.self, weak).error
        #expect(weak.status == 400 && weakError.code == "invalid_field" && weakError.field == "password")
        #expect(weakError.message.contains("8"), "the form's message: \(weakError.message)")
        let missing = try shop.api(.post, "/api/v1/account", json: #"{"email": "bo@example.com", "password": "Blue9sky!"}"#)
        #expect(missing.status == 400)
        #expect(try decoded(APIErrorEnvelope.self, missing).error.field == "name")
        #expect(try errorCode(missing) == "missing_field")
        let taken = try shop.api(.post, "/api/v1/account",
                                 json: #"{"email": "ana@example.com", "password": "Other9sky!", "name": "Someone"}"#)
        #expect(taken.status == 409)
        #expect(try errorCode(taken) == "email_taken")
        #expect(try shop.api(.post, "/api/v1/account", json: "{", contentType: "application/json").status == 400)
    }

    /// A registration retried (a lost answer): within a minute, with the same password, it is
    /// answered as the first — 201, no warning mailed to the new customer about themselves.
    @Test func aRetriedRegistrationIsAnsweredAsTheFirstAndWarnsNobody() throws {
        let shop = try TestShop()
        let body = #"{"email": "ana@example.com", "password": "Blue9sky!", "name": "Ana Lima"}"#
        let first = try decoded(V1Account.self, try shop.api(.post, "/api/v1/account", json: body))
        let again = try shop.api(.post, "/api/v1/account", json: body)
        let repeated = try decoded(V1Account.self, again)
        #expect(again.status == 201 && repeated.id == first.id)
        #expect(try shop.outbox().count == 1, "the verification email only")
        shop.clock.advance(by: 60)
        #expect(try shop.api(.post, "/api/v1/account", json: body).status == 409)
        #expect(try shop.outbox().count == 2, "a minute later it is someone trying the email: its owner is told")
    }

    /// A control character in a password or an email (a mail server drops it, so mail would
    /// reach another address) is the field's 400, never a 500; a NUL (libsodium's hash and
    /// PostgreSQL refuse it) is refused with the whole body.
    @Test func controlCharactersAreRefusedAsTheFieldsProblem() throws {
        let shop = try TestShop()
        for (body, code, field) in [
            (#"{"email": "n1@example.com", "password": "Tulip9garden\u0000", "name": "Bob Stone"}"#, "malformed_body", nil),
            (#"{"email": "n1@example.com", "password": "Tulip9\tgarden", "name": "Bob Stone"}"#, "invalid_field", "password"),
            (#"{"email": "nul\u0000x@example.com", "password": "Tulip9garden", "name": "Bob Stone"}"#, "malformed_body", nil),
            (#"{"email": "inj3\u0001@example.com", "password": "Tulip9garden", "name": "Bob Stone"}"#, "invalid_field", "email"),
        ] as [(String, String, String?)] {
            let refused = try shop.api(.post, "/api/v1/account", json: body)
            let error = try decoded(APIErrorEnvelope.self, refused).error
            #expect(refused.status == 400 && error.code == code && error.field == field, "\(body): \(error)")
        }
        // A backslash followed by the text u0000 is not a NUL.
        #expect(try shop.api(.post, "/api/v1/account",
                             json: #"{"email": "n2@example.com", "password": "Tulip9\\u0000", "name": "Bob Stone"}"#).status == 201)
        _ = try registerAndSignIn(shop)
        #expect(try shop.api(.post, "/api/v1/account/password-reset", json: #"{"email": "ana@example.com"}"#).status == 202)
        let token = try emailedToken(shop, to: "ana@example.com")
        let reset = try shop.api(.post, "/api/v1/account/password-reset/confirm",
                                 json: #"{"token": "\#(token)", "password": "Tulip9garden\u0000x"}"#)
        let resetError = try decoded(APIErrorEnvelope.self, reset).error
        #expect(reset.status == 400 && resetError.code == "malformed_body")
        // A full-width letter is the plain one: the same account, taken.
        let twin = try shop.api(.post, "/api/v1/account",
                                json: #"{"email": "ana@\uFF45xample.com", "password": "Other9sky!", "name": "Ana Twin"}"#)
        #expect(twin.status == 409)
    }

    @Test func registeringIsThrottledPerClientAddress() throws {
        let shop = try TestShop()
        shop.environment.throttles.registration = RateLimit(limit: 1, window: 15 * 60)
        #expect(try shop.api(.post, "/api/v1/account",
                             json: #"{"email": "a@example.com", "password": "Blue9sky!", "name": "A"}"#).status == 201)
        let refused = try shop.api(.post, "/api/v1/account", json: #"{"email": "b@example.com", "password": "Blue9sky!", "name": "B"}"#)
        #expect(refused.status == 429 && refused.header("Retry-After") != nil)
        #expect(try errorCode(refused) == "too_many_attempts")
    }

    @Test func theProfileNeedsASignedInToken() throws {
        let shop = try TestShop()
        let tokens = try registerAndSignIn(shop)
        #expect(tokens.tokenType == "Bearer" && tokens.expiresIn == 15 * 60)
        let profile = try shop.api(.get, "/api/v1/account", token: tokens.accessToken)
        #expect(profile.status == 200)
        #expect(try decoded(V1Account.self, profile).email == "ana@example.com")
        let guest = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        #expect(try shop.api(.get, "/api/v1/account", token: guest).status == 403, "a valid token without an account: sign_in_required")
        let anonymous = try shop.api(.get, "/api/v1/account", token: nil)
        #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate") == "Bearer")
        // One character changed (never to itself: a token starting with "x" made this pass as 200, 1 in 64).
        let altered = (tokens.accessToken.first == "x" ? "y" : "x") + tokens.accessToken.dropFirst()
        #expect(try shop.api(.get, "/api/v1/account", token: altered).status == 401)
    }

    @Test func emailVerificationIsResentAndConfirmedWithTheEmailedToken() throws {
        let shop = try TestShop()
        let tokens = try registerAndSignIn(shop)
        let resent = try shop.api(.post, "/api/v1/account/verification", token: tokens.accessToken)
        #expect(resent.status == 202)
        #expect(try shop.outbox().filter { $0.draft.toAddress == "ana@example.com" }.count == 2)
        let token = try emailedToken(shop, to: "ana@example.com")
        let confirmed = try shop.api(.post, "/api/v1/account/verification/confirm", json: #"{"token": "\#(token)"}"#)
        #expect(confirmed.status == 200)
        #expect(try decoded(V1Account.self, confirmed).verified)
        let again = try shop.api(.post, "/api/v1/account/verification/confirm", json: #"{"token": "\#(token)"}"#)
        #expect(again.status == 400)
        #expect(try errorCode(again) == "invalid_token")
        #expect(try shop.api(.post, "/api/v1/account/verification", token: nil).status == 401)
    }

    @Test func resendingVerificationIsThrottled() throws {
        let shop = try TestShop()
        shop.environment.throttles.verificationPerAccount = RateLimit(limit: 1, window: 60 * 60)
        let tokens = try registerAndSignIn(shop)
        #expect(try shop.api(.post, "/api/v1/account/verification", token: tokens.accessToken).status == 202)
        let refused = try shop.api(.post, "/api/v1/account/verification", token: tokens.accessToken)
        #expect(refused.status == 429)
        #expect(try errorCode(refused) == "too_many_attempts")
    }

    @Test func signInRefusesWrongCredentialsAndIsThrottledLikeTheWeb() throws {
        let shop = try TestShop()
        _ = try registerAndSignIn(shop)
        let wrong = try shop.api(.post, "/api/v1/auth/tokens", json: #"{"email": "ana@example.com", "password": "Wrong9sky!"}"#)
        #expect(wrong.status == 401)
        #expect(try errorCode(wrong) == "invalid_credentials")
        for _ in 0..<4 { try shop.api(.post, "/api/v1/auth/tokens", json: #"{"email": "ana@example.com", "password": "Wrong9sky!"}"#) }
        let throttled = try shop.api(.post, "/api/v1/auth/tokens", json: #"{"email": "ana@example.com", "password": "Blue9sky!"}"#)
        #expect(throttled.status == 429 && throttled.header("Retry-After") != nil)
        #expect(try shop.api(.post, "/api/v1/auth/tokens", json: #"{"email": "ana@example.com"}"#).status == 400)
    }

    @Test func anAccessTokenExpiresAndTheRefreshTokenBuysANewPair() throws {
        let shop = try TestShop()
        let first = try registerAndSignIn(shop)
        shop.clock.advance(by: 15 * 60 + 1)
        #expect(try shop.api(.get, "/api/v1/account", token: first.accessToken).status == 401)
        let renewed = try refresh(shop, first.refreshToken)
        #expect(renewed.status == 200)
        let next = try decoded(V1TokenPair.self, renewed)
        #expect(next.accessToken != first.accessToken && next.refreshToken != first.refreshToken)
        #expect(try shop.api(.get, "/api/v1/account", token: next.accessToken).status == 200)
    }

    /// `everywhere` other than `true`/`false` is refused before anything ends: the caller meant
    /// something, and ending only this session would leave the others signed in unnoticed.
    @Test func signOutRefusesAnEverywhereItCannotRead() throws {
        let shop = try TestShop()
        let phone = try registerAndSignIn(shop)
        let laptop = try signIn(shop, "ana@example.com")
        let refused = try shop.api(.post, "/api/v1/auth/sign-out?everywhere=yes", token: phone.accessToken)
        #expect(try refused.status == 400 && errorCode(refused) == "invalid_parameter")
        #expect(try shop.api(.get, "/api/v1/account", token: phone.accessToken).status == 200, "nothing ended")
        #expect(try shop.api(.post, "/api/v1/auth/sign-out?everywhere=false", token: phone.accessToken).status == 204)
        #expect(try shop.api(.get, "/api/v1/account", token: phone.accessToken).status == 401)
        #expect(try shop.api(.get, "/api/v1/account", token: laptop.accessToken).status == 200, "only the phone's session")
    }

    @Test func refreshTokensRotateAndAReusedOneEndsTheSession() throws {
        let shop = try TestShop()
        let first = try registerAndSignIn(shop)
        let second = try decoded(V1TokenPair.self, try refresh(shop, first.refreshToken))
        #expect(try shop.api(.get, "/api/v1/account", token: second.accessToken).status == 200)

        let reused = try refresh(shop, first.refreshToken)
        #expect(reused.status == 401)
        #expect(try errorCode(reused) == "refresh_token_reused")
        #expect(try shop.api(.get, "/api/v1/account", token: second.accessToken).status == 401, "the whole session ended")
        let afterReuse = try refresh(shop, second.refreshToken)
        #expect(afterReuse.status == 401)
        #expect(try errorCode(afterReuse) == "invalid_refresh_token")
        #expect(try errorCode(try refresh(shop, "not-a-token")) == "invalid_refresh_token")
        // Another sign-in of the same account is another session: untouched.
        let other = try signIn(shop, "ana@example.com")
        #expect(try shop.api(.get, "/api/v1/account", token: other.accessToken).status == 200)
    }

    @Test func signingOutEndsTheSessionsTokens() throws {
        let shop = try TestShop()
        let phone = try registerAndSignIn(shop)
        let tablet = try signIn(shop, "ana@example.com")
        #expect(try shop.api(.post, "/api/v1/auth/sign-out", token: phone.accessToken).status == 204)
        #expect(try shop.api(.get, "/api/v1/account", token: phone.accessToken).status == 401)
        #expect(try refresh(shop, phone.refreshToken).status == 401)
        #expect(try shop.api(.get, "/api/v1/account", token: tablet.accessToken).status == 200, "only that session")

        let fakeStore = try shop.apiToken("ana@example.com")
        #expect(try shop.api(.post, "/api/v1/auth/sign-out?everywhere=true", token: tablet.accessToken).status == 204)
        #expect(try shop.api(.get, "/api/v1/account", token: tablet.accessToken).status == 401)
        #expect(try shop.api(.get, "/api/users", token: fakeStore).status == 401, "every session of the account")
        #expect(try shop.api(.post, "/api/v1/auth/sign-out", token: nil).status == 401)
    }

    @Test func aPasswordResetAlwaysAnswers202AndItsConfirmationEndsEveryToken() throws {
        let shop = try TestShop()
        let tokens = try registerAndSignIn(shop)
        let before = try shop.outbox().count
        let unknown = try shop.api(.post, "/api/v1/account/password-reset", json: #"{"email": "nobody@example.com"}"#)
        #expect(unknown.status == 202)
        #expect(try shop.outbox().count == before)
        #expect(try shop.api(.post, "/api/v1/account/password-reset", json: #"{"email": "ana@example.com"}"#).status == 202)
        #expect(try shop.outbox().count == before + 1)
        #expect(try errorCode(try shop.api(.post, "/api/v1/account/password-reset", json: #"{"email": "not an email"}"#))
                == "invalid_field")

        let token = try emailedToken(shop, to: "ana@example.com")
        let weak = try shop.api(.post, "/api/v1/account/password-reset/confirm", json: #"{"token": "\#(token)", "password": "short"}"#)
        #expect(weak.status == 400)
        #expect(try decoded(APIErrorEnvelope.self, weak).error.field == "password")
        let done = try shop.api(.post, "/api/v1/account/password-reset/confirm",
                                json: #"{"token": "\#(token)", "password": "New9sky!!"}"#)
        #expect(done.status == 204)
        #expect(try shop.api(.get, "/api/v1/account", token: tokens.accessToken).status == 401)
        #expect(try refresh(shop, tokens.refreshToken).status == 401)
        _ = try signIn(shop, "ana@example.com", password: "New9sky!!")
        let used = try shop.api(.post, "/api/v1/account/password-reset/confirm", json: #"{"token": "\#(token)", "password": "New9sky!!"}"#)
        #expect(used.status == 400)
        #expect(try errorCode(used) == "invalid_token")
    }

    @Test func passwordResetRequestsAreThrottled() throws {
        let shop = try TestShop()
        shop.environment.throttles.passwordResetPerAccount = RateLimit(limit: 1, window: 60 * 60)
        #expect(try shop.api(.post, "/api/v1/account/password-reset", json: #"{"email": "x@example.com"}"#).status == 202)
        #expect(try shop.api(.post, "/api/v1/account/password-reset", json: #"{"email": "x@example.com"}"#).status == 429)
    }

    @Test func signingInWithAGuestTokenMergesItsCartAndFavorites() throws {
        let shop = try TestShop(v1Catalog())
        _ = try registerAndSignIn(shop)
        let guest = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        #expect(try shop.api(.post, "/api/v1/cart/lines", token: guest, json: #"{"product": "night-light", "quantity": 2}"#).status == 200)
        let lamp = try #require(try shop.catalog.productByHandle("brass-lamp"))
        #expect(try shop.api(.put, "/api/v1/favorites/\(lamp.id.rawValue)", token: guest).status == 200)

        let tokens = try signIn(shop, "ana@example.com", guest: guest)
        let cart = try decoded(V1Cart.self, try shop.api(.get, "/api/v1/cart", token: tokens.accessToken))
        #expect(cart.lines.map(\.quantity) == [2])
        let favorites = try decoded(V1Favorites.self, try shop.api(.get, "/api/v1/favorites", token: tokens.accessToken))
        #expect(favorites.products.map(\.handle) == ["brass-lamp"])
        #expect(try shop.api(.get, "/api/v1/cart", token: guest).status == 401, "the guest session is gone")
    }

    @Test func theFakeStoreLoginStillGivesALongLivedToken() throws {
        let shop = try TestShop()
        _ = try registerAndSignIn(shop)
        let token = try shop.apiToken("ana@example.com")
        shop.clock.advance(by: 60 * 60 * 24)
        #expect(try shop.api(.get, "/api/v1/account", token: token).status == 200)
    }
}
