import Foundation
import HTTPServer
import HTML
import ShopCore
import ShopService
import ShopStore

/// Registration, sign-in and out, email verification, password reset and the account page
/// (issue #3). Every POST here has passed the CSRF check in `ShopApp.route`.
extension ShopApp {
    /// How long an emailed confirmation link works.
    static let verificationLifetime: TimeInterval = 60 * 60 * 24
    /// How long a password-reset link works.
    static let resetLifetime: TimeInterval = 60 * 60

    // MARK: Register

    static func registerPage(_ context: inout RequestContext, _ form: AccountForm = AccountForm(),
                             status: HTTPStatus = .ok) throws -> Response {
        try page(&context, PageContent(title: context.l10n(.registerTitle), tab: .account,
                                       node: Views.register(form, l10n: context.l10n)), status: status)
    }

    static func registerSubmit(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        let name = request.formValue("name") ?? "", email = request.formValue("email") ?? ""
        let password = request.formValue("password") ?? ""
        var form = AccountForm(values: ["name": name, "email": email])
        let registration: Registration
        do {
            registration = try Registration.validate(name: name, email: email, password: password,
                                                     passwordConfirmation: request.formValue("password_confirmation") ?? "")
        } catch {
            for (field, problems) in error.byField {
                form.errors[field == .passwordConfirmation ? "password_confirmation" : field.rawValue] =
                    problems.map(context.l10n.message(for:))
            }
            return try registerPage(&context, form, status: .unprocessableContent)
        }
        // Registration says whether an email has an account, so it is throttled per client
        // address like sign-in: it must not become the enumeration oracle sign-in and reset avoid.
        if let throttled = try context.countAttempt(context.environment.throttles.registration(client: context.clientAddress), at: context.now) {
            form.alert = throttled.message
            return throttled.applied(to: try registerPage(&context, form, status: .tooManyRequests))
        }
        let now = context.now
        let token = context.environment.crypto.randomToken()
        let user: User
        do {
            user = try context.environment.accounts.register(
                NewAccount(email: registration.email, name: registration.name,
                           passwordHash: try context.environment.crypto.hashPassword(registration.password), createdAt: now),
                TokenDraft(purpose: .emailVerification, tokenHash: context.environment.crypto.sha256Hex(token),
                           expiresAt: now.addingTimeInterval(verificationLifetime)),
                verificationEmail(to: registration.email, name: registration.name, token: token, context))
        } catch AccountStoreError.emailTaken {
            try noticeRegistrationAttempt(registration.email, context)
            form.errors["email"] = [context.l10n.message(for: .emailTaken)]
            return try registerPage(&context, form, status: .unprocessableContent)
        }
        try completeSignIn(&context, user: user, remember: true,
                           welcome: context.l10n(.registerDone, ["name": user.firstName, "email": user.email]))
        return .redirect(to: SiteRoute.account(.show).path)
    }

    /// Tells the owner of `email` that someone tried to register with it (at most
    /// `AccountThrottles.registrationNotice` a window, so the notice cannot flood them either).
    static func noticeRegistrationAttempt(_ email: String, _ context: RequestContext) throws {
        let environment = context.environment
        guard let owner = try environment.accounts.credentials(email)?.user,
              try context.countAttempt(environment.throttles.registrationNotice(email: owner.email), at: context.now) == nil else { return }
        let l10n = context.l10n
        let shop = l10n(.shopName)
        try environment.accounts.enqueue(OutboxDraft(
            toAddress: owner.email, toName: owner.name, subject: l10n(.registerNoticeSubject, ["shop": shop]),
            textBody: l10n(.registerNoticeBody, [
                "name": owner.firstName, "shop": shop,
                "signInLink": environment.publicURL + SiteRoute.account(.signIn(next: nil)).path,
                "resetLink": environment.publicURL + SiteRoute.account(.forgotPassword).path,
            ]),
            createdAt: context.now))
    }

    // MARK: Sign in and out

    static func signInPage(_ context: inout RequestContext, next: String?, _ form: AccountForm = AccountForm(),
                           status: HTTPStatus = .ok) throws -> Response {
        try page(&context, PageContent(title: context.l10n(.signInTitle), tab: .account,
                                       node: Views.signIn(form, next: SafeRedirect.localPath(next), l10n: context.l10n)),
                 status: status)
    }

    static func signInSubmit(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        let environment = context.environment
        let emailText = request.formValue("email") ?? ""
        let password = request.formValue("password") ?? ""
        let remember = request.formValue("remember") == "1"
        let next = SafeRedirect.localPath(request.formValue("next"))
        var form = AccountForm(values: ["email": emailText, "remember": remember ? "1" : ""])
        let now = context.now
        let email = try? EmailRules.normalize(emailText)

        // Counted before the password is looked at, in one store step with the check: a locked
        // key is not tried at all, and simultaneous guesses cannot all slip under the limit.
        let checks = environment.throttles.signIn(email: email, client: context.clientAddress)
        if let throttled = try context.countAttempt(checks, at: now) {
            form.alert = throttled.message
            return throttled.applied(to: try signInPage(&context, next: next, form, status: .tooManyRequests))
        }
        let credentials = try email.flatMap { try environment.accounts.credentials($0) }
        let matches = credentials.map { environment.crypto.verifyPassword(password, $0.passwordHash) }
            ?? { _ = environment.crypto.verifyPassword(password, environment.dummyPasswordHash); return false }()
        guard let email, let credentials, matches else {
            form.alert = context.l10n(.signInWrong)  // the attempt stays counted
            return try signInPage(&context, next: next, form, status: .unauthorized)
        }
        // Success clears the account's count and gives this address its attempt back.
        try environment.accounts.clearAttempts(AccountThrottles.signInAccountKey(email))
        try environment.accounts.uncountAttempt(AccountThrottles.signInClientKey(context.clientAddress), now)
        try completeSignIn(&context, user: credentials.user, remember: remember,
                           welcome: context.l10n(.signInWelcome, ["name": credentials.user.firstName]))
        return .redirect(to: next ?? SiteRoute.account(.show).path)
    }

    /// Starts a fresh session for `user` (a new id: no session fixation), merging the guest's
    /// cart and favorites into the account's, and says so — including lines capped at stock.
    static func completeSignIn(_ context: inout RequestContext, user: User, remember: Bool, welcome: String) throws {
        let environment = context.environment
        let previous = try context.currentSession()
        let guestCart = try previous.flatMap { $0.userID == nil ? try environment.sessions.loadCart(.guest($0.id)) : nil } ?? Cart()
        let accountCart = try environment.sessions.loadCart(.account(user.id))
        let products = try context.products(Array(Set((guestCart.lines + accountCart.lines).map(\.productID))))
        let (merged, capped) = accountCart.merging(guestCart) { line in
            products[line.productID]?.variants.first { $0.id == line.variantID }
        }
        let issued = context.issueSession(userID: user.id, csrfToken: environment.crypto.randomToken(), persistent: remember)
        try environment.sessions.signIn(SignIn(guestSession: previous?.id, newSession: issued.session, accountCart: merged))
        context.replaceSession(with: issued)
        var text = welcome
        for line in capped {
            let title = merged.line(for: line.variantID).flatMap { products[$0.productID]?.title } ?? ""
            text += " " + context.l10n(.signInCartCapped, ["kept": context.l10n.number(line.kept), "title": title])
        }
        context.setFlash(Flash(kind: .success, text: text))
    }

    static func signOut(_ context: inout RequestContext, everywhere: Bool) throws -> Response {
        if let session = try context.currentSession() {
            if everywhere, let userID = session.userID {
                try context.environment.sessions.deleteAll(userID, nil)
            }
            try context.environment.sessions.delete(session.id)
        }
        context.replaceSession(with: nil)
        context.setFlash(Flash(kind: .success, text: context.l10n(everywhere ? .signOutEverywhereDone : .signOutDone)))
        return .redirect(to: SiteRoute.catalog(.home).path)
    }

    // MARK: Email verification

    static func verificationEmail(to email: String, name: String, token: String, _ context: RequestContext) -> OutboxDraft {
        let shop = context.l10n(.shopName)
        let link = context.environment.publicURL + SiteRoute.account(.verifyEmail(token: token)).path
        let firstName = name.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? name
        return OutboxDraft(toAddress: email, toName: name, subject: context.l10n(.verifyEmailSubject, ["shop": shop]),
                           textBody: context.l10n(.verifyEmailBody, ["name": firstName, "shop": shop, "link": link]),
                           createdAt: context.now)
    }

    static func verifyEmail(_ context: inout RequestContext, token: String) throws -> Response {
        let l10n = context.l10n
        guard !token.isEmpty,
              let user = try context.environment.accounts.verifyEmail(context.environment.crypto.sha256Hex(token), context.now) else {
            return try page(&context, PageContent(
                title: l10n(.verifyFailedTitle), tab: .account,
                node: Views.message(title: l10n(.verifyFailedTitle), text: l10n(.verifyFailedText),
                                    action: (l10n(.signInTitle), SiteRoute.account(.show).path), l10n: l10n)),
                status: .gone)
        }
        return try page(&context, PageContent(
            title: l10n(.verifyDoneTitle), tab: .account,
            node: Views.message(title: l10n(.verifyDoneTitle), text: l10n(.verifyDoneText, ["name": user.firstName]),
                                action: (l10n(.errorBackHome), SiteRoute.catalog(.home).path), l10n: l10n)))
    }

    static func verifyResend(_ context: inout RequestContext) throws -> Response {
        guard let user = try context.currentUser() else {
            return .redirect(to: SiteRoute.account(.signIn(next: SiteRoute.account(.show).path)).path)
        }
        if !user.isVerified {
            if let throttled = try context.countAttempt(
                context.environment.throttles.verificationEmail(user: user.id, client: context.clientAddress), at: context.now) {
                context.setFlash(Flash(kind: .error, text: throttled.message))
                return throttled.applied(to: .redirect(to: SafeRedirect.localPath(context.request.formValue("return_to"))
                                                       ?? SiteRoute.account(.show).path))
            }
            let token = context.environment.crypto.randomToken()
            try context.environment.accounts.issueToken(
                user.id,
                TokenDraft(purpose: .emailVerification, tokenHash: context.environment.crypto.sha256Hex(token),
                           expiresAt: context.now.addingTimeInterval(verificationLifetime)),
                verificationEmail(to: user.email, name: user.name, token: token, context))
            context.setFlash(Flash(kind: .success, text: context.l10n(.verifyResent, ["email": user.email])))
        }
        return .redirect(to: SafeRedirect.localPath(context.request.formValue("return_to")) ?? SiteRoute.account(.show).path)
    }

    // MARK: Password reset

    static func forgotPasswordPage(_ context: inout RequestContext, _ form: AccountForm = AccountForm(),
                                   sentTo: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        try page(&context, PageContent(title: context.l10n(.forgotTitle), tab: .account,
                                       node: Views.forgotPassword(form, sentTo: sentTo, l10n: context.l10n)), status: status)
    }

    /// Answers the same whether or not the account exists: the throttles count every address
    /// typed, known or not.
    static func forgotPasswordSubmit(_ context: inout RequestContext) throws -> Response {
        let typed = context.request.formValue("email") ?? ""
        let email: String
        do { email = try EmailRules.normalize(typed) } catch {
            return try forgotPasswordPage(&context, AccountForm(values: ["email": typed],
                                                                errors: ["email": [context.l10n.message(for: error)]]),
                                          status: .unprocessableContent)
        }
        let environment = context.environment
        if let throttled = try context.countAttempt(environment.throttles.passwordReset(email: email, client: context.clientAddress), at: context.now) {
            return throttled.applied(to: try forgotPasswordPage(&context, AccountForm(values: ["email": typed], alert: throttled.message),
                                                                status: .tooManyRequests))
        }
        let token = environment.crypto.randomToken()
        let tokenHash = environment.crypto.sha256Hex(token)
        if let user = try environment.accounts.credentials(email)?.user {
            let shop = context.l10n(.shopName)
            let link = environment.publicURL + SiteRoute.account(.resetPassword(token: token)).path
            try environment.accounts.issueToken(
                user.id, TokenDraft(purpose: .passwordReset, tokenHash: tokenHash, expiresAt: context.now.addingTimeInterval(resetLifetime)),
                OutboxDraft(toAddress: user.email, toName: user.name, subject: context.l10n(.resetEmailSubject, ["shop": shop]),
                            textBody: context.l10n(.resetEmailBody, ["name": user.firstName, "shop": shop, "link": link]),
                            createdAt: context.now))
        }
        return try forgotPasswordPage(&context, sentTo: email)
    }

    static func resetPasswordPage(_ context: inout RequestContext, token: String) throws -> Response {
        guard !token.isEmpty, try context.environment.accounts.passwordResetUser(
            context.environment.crypto.sha256Hex(token), context.now) != nil else { return try resetFailed(&context) }
        return try page(&context, PageContent(title: context.l10n(.resetTitle), tab: .account,
                                              node: Views.resetPassword(AccountForm(), token: token, l10n: context.l10n)))
    }

    static func resetFailed(_ context: inout RequestContext) throws -> Response {
        let l10n = context.l10n
        return try page(&context, PageContent(
            title: l10n(.resetFailedTitle), tab: .account,
            node: Views.message(title: l10n(.resetFailedTitle), text: l10n(.resetFailedText),
                                action: (l10n(.forgotTitle), SiteRoute.account(.forgotPassword).path), l10n: l10n)),
            status: .gone)
    }

    static func resetPasswordSubmit(_ context: inout RequestContext) throws -> Response {
        let environment = context.environment
        let token = context.request.formValue("token") ?? ""
        let tokenHash = environment.crypto.sha256Hex(token)
        guard !token.isEmpty, let user = try environment.accounts.passwordResetUser(tokenHash, context.now) else {
            return try resetFailed(&context)
        }
        let password = context.request.formValue("password") ?? ""
        var form = AccountForm()
        let problems = PasswordRules.problems(password, name: user.name)
        if !problems.isEmpty { form.errors["password"] = problems.map(context.l10n.message(for:)) }
        if password != context.request.formValue("password_confirmation") {
            form.errors["password_confirmation"] = [context.l10n.message(for: .passwordsDoNotMatch)]
        }
        guard form.errors.isEmpty else {
            return try page(&context, PageContent(title: context.l10n(.resetTitle), tab: .account,
                                                  node: Views.resetPassword(form, token: token, l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        guard let updated = try environment.accounts.resetPassword(tokenHash, try environment.crypto.hashPassword(password),
                                                                   context.now) else {
            return try resetFailed(&context)
        }
        context.replaceSession(with: nil)  // every session of the account is gone; start clean
        try completeSignIn(&context, user: updated, remember: false, welcome: context.l10n(.resetDone))
        return .redirect(to: SiteRoute.account(.show).path)
    }

    // MARK: Account page

    static func accountPage(_ context: inout RequestContext, _ form: AccountForm = AccountForm(),
                            status: HTTPStatus = .ok) throws -> Response {
        guard let user = try context.currentUser() else {
            context.setFlash(Flash(kind: .error, text: context.l10n(.signInRequired)))
            return .redirect(to: SiteRoute.account(.signIn(next: SiteRoute.account(.show).path)).path)
        }
        return try page(&context, PageContent(title: context.l10n(.accountTitle), tab: .account,
                                              node: Views.account(user, form: form, l10n: context.l10n)), status: status)
    }

    static func changePassword(_ context: inout RequestContext) throws -> Response {
        let environment = context.environment
        guard let user = try context.currentUser(), let session = try context.currentSession(),
              let credentials = try environment.accounts.credentials(user.email) else {
            return .redirect(to: SiteRoute.account(.signIn(next: SiteRoute.account(.show).path)).path)
        }
        let request = context.request
        let password = request.formValue("password") ?? ""
        var form = AccountForm()
        if !environment.crypto.verifyPassword(request.formValue("current_password") ?? "", credentials.passwordHash) {
            form.errors["current_password"] = [context.l10n.message(for: .passwordWrong)]
        }
        let problems = PasswordRules.problems(password, name: user.name)
        if !problems.isEmpty { form.errors["password"] = problems.map(context.l10n.message(for:)) }
        if password != request.formValue("password_confirmation") {
            form.errors["password_confirmation"] = [context.l10n.message(for: .passwordsDoNotMatch)]
        }
        guard form.errors.isEmpty else { return try accountPage(&context, form, status: .unprocessableContent) }
        try environment.accounts.changePassword(user.id, try environment.crypto.hashPassword(password), session.id)
        context.setFlash(Flash(kind: .success, text: context.l10n(.accountPasswordChanged)))
        return .redirect(to: SiteRoute.account(.show).path)
    }

}

/// Minimal JSON for the few answers the storefront gives to its own script (the JSON API has
/// its own module later).
enum JSONText {
    enum Value { case bool(Bool), int(Int), string(String) }

    /// `{"key": value, …}` with keys in the given order, as a no-store JSON response.
    static func response(_ fields: KeyValuePairs<String, Value>, status: HTTPStatus = .ok) -> Response {
        let body = "{" + fields.map { key, value in
            let text: String = switch value {
            case let .bool(flag): flag ? "true" : "false"
            case let .int(number): String(number)
            case let .string(string): quote(string)
            }
            return quote(key) + ":" + text
        }.joined(separator: ",") + "}"
        return Response(status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                        body: Array(body.utf8))
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case _ where scalar.value < 0x20:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension ShopApp {
    static func account(_ route: SiteRoute.AccountRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .show: return try accountPage(&context)
        case .register: return try registerPage(&context)
        case .registerSubmit: return try registerSubmit(&context)
        case let .signIn(next): return try signInPage(&context, next: next)
        case .signInSubmit: return try signInSubmit(&context)
        case .signOut: return try signOut(&context, everywhere: false)
        case .signOutEverywhere: return try signOut(&context, everywhere: true)
        case let .verifyEmail(token): return try verifyEmail(&context, token: token)
        case .verifyResend: return try verifyResend(&context)
        case .forgotPassword: return try forgotPasswordPage(&context)
        case .forgotPasswordSubmit: return try forgotPasswordSubmit(&context)
        case let .resetPassword(token): return try resetPasswordPage(&context, token: token)
        case .resetPasswordSubmit: return try resetPasswordSubmit(&context)
        case .changePassword: return try changePassword(&context)
        case .addresses: return try addressBook(&context)
        case .addressNew: return try addressForm(&context, id: nil)
        case let .addressEdit(id): return try addressForm(&context, id: id)
        case .addressCreate: return try addressSave(&context, id: nil)
        case let .addressUpdate(id): return try addressSave(&context, id: id)
        case let .addressDeleteConfirm(id): return try addressDelete(&context, id: id, confirmed: false)
        case let .addressDelete(id): return try addressDelete(&context, id: id, confirmed: true)
        }
    }
}
