import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// `/api/v1` account and token routes: registration, email verification, password reset and the
/// profile on `AccountService` (the web forms' use case, rules and emails), sign-in, refresh and
/// sign-out on `APITokenService` over `SessionService` (the web's sessions, throttles and merge).
extension V1Handlers {
    static func accountJSON(_ user: User) -> V1Account {
        V1Account(id: user.id.rawValue, email: user.email, name: user.name, verified: user.isVerified, role: user.role.rawValue)
    }

    /// The token service, or 404 on a shop wired without its store.
    static func tokenService(_ context: RequestContext) throws -> APITokenService {
        guard let service = context.environment.apiTokenService else {
            throw APIError.notFound(.apiNoTokens)
        }
        return service
    }

    static func tokenJSON(_ tokens: APITokens, _ context: RequestContext) -> V1TokenPair {
        V1TokenPair(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                    expiresIn: max(1, Int(tokens.accessExpiresAt.timeIntervalSince(context.now).rounded())))
    }

    /// 204 with no body.
    static var noContent: Response {
        Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    }

    // MARK: Registration and profile

    /// `POST /api/v1/account`: the registration form's rules (`AccountService.register`),
    /// throttle and emails (the verification email; a notice to the owner of a taken email).
    static func register(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(V1Registration.self, of: context.request)
        let environment = context.environment
        if let throttled = try context.countAttempt(environment.throttles.registration(client: context.clientAddress), at: context.now) {
            throw APIError.tooManyAttempts(throttled)
        }
        let user: User
        do {
            user = try FakeStoreHandlers.accountWrite(context) {
                try environment.accountService.register(.init(email: body.email, password: body.password, name: body.name)) {
                    email, name, token in ShopApp.verificationEmail(to: email, name: name, token: token, context)
                }
            }
        } catch let error as APIError where error.code == "email_taken" {
            // The same registration sent again (a retried request): answered as the first was.
            if let email = try? EmailRules.normalize(body.email),
               let same = try environment.accountService.repeatedRegistration(email: email, password: body.password) {
                return try APIApp.json(accountJSON(same), status: .created,
                                       headers: ["Location": environment.publicURL + APIRoute.v1(.account).request.url])
            }
            if let email = try? EmailRules.normalize(body.email) { try ShopApp.noticeRegistrationAttempt(email, context) }
            throw error
        }
        return try APIApp.json(accountJSON(user), status: .created,
                               headers: ["Location": environment.publicURL + APIRoute.v1(.account).request.url])
    }

    /// `GET /api/v1/account`.
    static func account(_ context: RequestContext) throws -> Response {
        try APIApp.json(accountJSON(try APIApp.account(context)))
    }

    /// `POST /api/v1/account/verification`: the web's "send it again" (its throttle and email).
    static func resendVerification(_ context: RequestContext) throws -> Response {
        let user = try APIApp.account(context)
        guard !user.isVerified else { return try APIApp.json(V1Accepted(message: context.l10n(.apiEmailVerifiedAlready)), status: .accepted) }
        if let throttled = try context.countAttempt(
            context.environment.throttles.verificationEmail(user: user.id, client: context.clientAddress), at: context.now) {
            throw APIError.tooManyAttempts(throttled)
        }
        try context.environment.accountService.resendVerification(to: user) { token in
            ShopApp.verificationEmail(to: user.email, name: user.name, token: token, context)
        }
        return try APIApp.json(V1Accepted(message: context.l10n(.verifyResent, ["email": user.email])), status: .accepted)
    }

    /// 400 `invalid_token` for an emailed token that is unknown, used or expired.
    static var invalidToken: APIError {
        APIError(status: .badRequest, code: "invalid_token", .apiLinkNotValid, field: "token")
    }

    /// `POST /api/v1/account/verification/confirm`.
    static func confirmVerification(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(V1TokenBody.self, of: context.request)
        do {
            return try APIApp.json(accountJSON(try context.environment.accountService.verifyEmail(token: body.token)))
        } catch AccountServiceError.linkNotValid {
            throw invalidToken
        }
    }

    // MARK: Password reset

    /// `POST /api/v1/account/password-reset`: 202 whether or not the email has an account; the
    /// web's throttles (per email, known or not, and per client) and email.
    static func requestPasswordReset(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(V1PasswordResetRequest.self, of: context.request)
        let email: String
        do { email = try EmailRules.normalize(body.email) } catch {
            throw APIError(status: .badRequest, code: "invalid_field", message: context.l10n.message(for: error), field: "email")
        }
        let environment = context.environment
        if let throttled = try context.countAttempt(environment.throttles.passwordReset(email: email, client: context.clientAddress),
                                                    at: context.now) {
            throw APIError.tooManyAttempts(throttled)
        }
        try environment.accountService.requestPasswordReset(email: email) { user, token in
            ShopApp.passwordResetEmail(to: user, token: token, context)
        }
        return try APIApp.json(V1Accepted(message: context.l10n(.apiResetRequested, ["email": email])), status: .accepted)
    }

    /// `POST /api/v1/account/password-reset/confirm`: the reset form's rules; every session of
    /// the account ends (and with them every API token).
    static func confirmPasswordReset(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(V1PasswordReset.self, of: context.request)
        do {
            _ = try context.environment.accountService.resetPassword(token: body.token, password: body.password,
                                                                     confirmation: body.password)
        } catch AccountServiceError.linkNotValid {
            throw invalidToken
        } catch let problems as PasswordFormErrors {
            let first = problems.byField[.password]?.first ?? .passwordTooShort(minimum: PasswordRules.minimumLength)
            throw APIError(status: .badRequest, code: "invalid_field", message: context.l10n.message(for: first), field: "password")
        }
        return noContent
    }

    // MARK: Tokens

    /// `POST /api/v1/auth/tokens`: the web's throttled sign-in; with a guest token, its cart and
    /// favorites merge into the account's (`SessionService.signIn`, as the form does).
    static func signIn(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(V1SignIn.self, of: context.request)
        let service = try tokenService(context)
        let user = try APIApp.signIn(body.email, password: body.password, refusal: .apiSignInWrong, context)
        let guest = (try? APIApp.bearerSession(context))?.session
        return try APIApp.json(tokenJSON(try service.signIn(user.id, replacing: guest).tokens, context))
    }

    /// `POST /api/v1/auth/refresh`: rotation, with reuse ending the session.
    static func refreshTokens(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(V1RefreshRequest.self, of: context.request)
        do {
            return try APIApp.json(tokenJSON(try tokenService(context).refresh(body.refreshToken), context))
        } catch APITokenError.refreshTokenNotValid {
            throw refused("invalid_refresh_token", .apiRefreshTokenNotValid)
        } catch APITokenError.refreshTokenReused {
            throw refused("refresh_token_reused", .apiRefreshTokenReused)
        }
    }

    private static func refused(_ code: String, _ message: L10nKey) -> APIError {
        var error = APIError(status: .unauthorized, code: code, message, field: "refreshToken")
        error.headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer")
        return error
    }

    /// `POST /api/v1/auth/sign-out`: ends the bearer's session (`SessionService.signOut`).
    /// `everywhere` is `true` or `false` (left out: `false`); another value is 400
    /// `invalid_parameter` rather than a sign-out of this session alone the caller did not ask for.
    static func signOut(everywhere: Bool, _ context: RequestContext) throws -> Response {
        if let value = context.request.queryValue("everywhere"), value != "true", value != "false" {
            throw invalidParameter("everywhere", .apiInvalidEverywhere, ["value": value])
        }
        guard let bearer = try APIApp.bearerSession(context) else { throw APIError.unauthorized }
        try context.sessionService.signOut(bearer.session, everywhere: everywhere)
        return noContent
    }
}
