import Foundation
import HTTPServer
import HTML
import ShopCore
import ShopService
import ShopStore

/// Registration, sign-in and out, email verification, password reset and the account page
/// (issue #3). Every POST here has passed the CSRF check in `ShopApp.route`. The rules live in
/// `AccountService` and `SessionService`; these decode the form, count the throttled attempt,
/// call the service and show its answer (emails are composed here: they are localized).
extension ShopApp {
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
        var user: User
        do {
            let composing = context
            user = try context.environment.accountService.register(registration) { token in
                verificationEmail(to: registration.email, name: registration.name, token: token, composing)
            }
            user = context.remember(context.l10n.language, on: user)
        } catch AccountServiceError.emailTaken {
            if let same = try context.environment.accountService.repeatedRegistration(registration) {
                // The form sent twice: the answer the first one got.
                try completeSignIn(&context, user: same, remember: true,
                                   welcome: context.l10n(.registerDone, ["name": same.firstName, "email": same.email]))
                return .redirect(to: SiteRoute.account(.show).path)
            }
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
        let l10n = context.localizer(for: owner)
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
        switch try environment.accountService.signIn(emailText: emailText, password: password,
                                                     client: context.clientAddress, throttles: environment.throttles) {
        case let .throttled(seconds):
            let throttled = Throttled(retryAfterSeconds: seconds, l10n: context.l10n)
            form.alert = throttled.message
            return throttled.applied(to: try signInPage(&context, next: next, form, status: .tooManyRequests))
        case .refused:
            form.alert = context.l10n(.signInWrong)  // the attempt stays counted
            return try signInPage(&context, next: next, form, status: .unauthorized)
        case let .accepted(user):
            try completeSignIn(&context, user: user, remember: remember,
                               welcome: context.l10n(.signInWelcome, ["name": user.firstName]))
            return .redirect(to: next ?? SiteRoute.account(.show).path)
        }
    }

    /// Signs `user` in with a fresh session (`SessionService.signIn`: a new id, the guest's cart
    /// and favorites merged into the account's in one store transaction), and says so —
    /// including lines capped at stock.
    static func completeSignIn(_ context: inout RequestContext, user: User, remember: Bool, welcome: String) throws {
        let signedIn = try context.sessionService.signIn(user.id, replacing: try context.currentSession(), remember: remember)
        context.replaceSession(with: signedIn.issued)
        var text = welcome
        let products = try context.products(Array(Set(signedIn.cappedLines.map(\.productID))))
        for line in signedIn.cappedLines {
            let title = products[line.productID]?.title ?? ""
            text += " " + context.l10n(.signInCartCapped, ["kept": context.l10n.number(line.kept), "title": title])
        }
        context.setFlash(Flash(kind: .success, text: text))
    }

    static func signOut(_ context: inout RequestContext, everywhere: Bool) throws -> Response {
        try context.sessionService.signOut(try context.currentSession(), everywhere: everywhere)
        context.replaceSession(with: nil)
        context.setFlash(Flash(kind: .success, text: context.l10n(everywhere ? .signOutEverywhereDone : .signOutDone)))
        return .redirect(to: SiteRoute.catalog(.home).path)
    }

    // MARK: Email verification

    static func verificationEmail(to email: String, name: String, token: String, _ context: RequestContext) -> OutboxDraft {
        verificationEmail(to: email, name: name, token: token, l10n: context.l10n, publicURL: context.environment.publicURL,
                          now: context.now)
    }

    /// The verification email in `l10n`'s language (also the back office's "send it again").
    static func verificationEmail(to email: String, name: String, token: String, l10n: Localizer, publicURL: String,
                                  now: Date) -> OutboxDraft {
        let shop = l10n(.shopName)
        let link = publicURL + SiteRoute.account(.verifyEmail(token: token)).path
        let firstName = User.firstName(of: name)
        return OutboxDraft(toAddress: email, toName: name, subject: l10n(.verifyEmailSubject, ["shop": shop]),
                           textBody: l10n(.verifyEmailBody, ["name": firstName, "shop": shop, "link": link]), createdAt: now)
    }

    /// The message to the address an account leaves when its email changes, in the account's
    /// language: the new address (the old one is the account holder's) and what to do if the
    /// change was not theirs.
    static func emailChangedNotice(to account: User, newEmail: String, _ context: RequestContext) -> OutboxDraft {
        let l10n = context.localizer(for: account)
        let shop = l10n(.shopName)
        return OutboxDraft(toAddress: account.email, toName: account.name,
                           subject: l10n(.emailChangedSubject, ["shop": shop]),
                           textBody: l10n(.emailChangedBody, ["name": account.firstName, "shop": shop,
                                                              "email": newEmail]),
                           createdAt: context.now)
    }

    static func verifyEmail(_ context: inout RequestContext, token: String) throws -> Response {
        let l10n = context.l10n
        let user: User
        do {
            user = try context.environment.accountService.verifyEmail(token: token)
        } catch AccountServiceError.linkNotValid {
            // A signed-in shopper opening a used link again (a fresh tester, in a second tab) is
            // told where they stand, not to sign in.
            let account = SiteRoute.account(.show).path
            if let user = try context.currentUser() {
                if user.isVerified {
                    return try page(&context, PageContent(
                        title: l10n(.verifyAlreadyTitle), tab: .account,
                        node: Views.message(title: l10n(.verifyAlreadyTitle), text: l10n(.verifyAlreadyText, ["email": user.email]),
                                            action: (l10n(.accountTitle), account), l10n: l10n)))
                }
                return try page(&context, PageContent(
                    title: l10n(.verifyFailedTitle), tab: .account,
                    node: Views.message(title: l10n(.verifyFailedTitle), text: l10n(.verifyFailedSignedInText),
                                        action: (l10n(.accountTitle), account), l10n: l10n)),
                    status: .gone)
            }
            return try page(&context, PageContent(
                title: l10n(.verifyFailedTitle), tab: .account,
                node: Views.message(title: l10n(.verifyFailedTitle), text: l10n(.verifyFailedText),
                                    action: (l10n(.signInTitle), account), l10n: l10n)),
                status: .gone)
        }
        return try page(&context, PageContent(
            title: l10n(.verifyDoneTitle), tab: .account,
            node: Views.message(title: l10n(.verifyDoneTitle), text: l10n(.verifyDoneText, ["name": user.firstName]),
                                action: (l10n(.errorBackHome), SiteRoute.catalog(.home).path), l10n: l10n)))
    }

    /// Hides the banner for the signed-in shopper in this browser (a cookie naming their id), and
    /// goes back to the page it was closed on.
    static func verifyBannerDismiss(_ context: inout RequestContext) throws -> Response {
        if let user = try context.currentUser() {
            context.setCookies.append(context.cookie(verifyBannerCookie, String(user.id.rawValue), maxAge: 60 * 60 * 24 * 90))
        }
        return .redirect(to: SafeRedirect.localPath(context.request.formValue("return_to")) ?? SiteRoute.account(.show).path)
    }

    /// The picker's choice (CSRF-checked, like every POST): the cookie and, signed in, the
    /// account remember it; back to the page it was made on. An unknown language changes nothing.
    static func chooseLanguage(_ context: inout RequestContext) throws -> Response {
        if let language = context.request.formValue(languageParameter).flatMap(Language.init(rawValue:)) {
            try context.chooseLanguage(language)
        }
        return .redirect(to: SafeRedirect.localPath(context.request.formValue("return_to")) ?? SiteRoute.catalog(.home).path)
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
            let composing = context
            try context.environment.accountService.resendVerification(to: user) { token in
                verificationEmail(to: user.email, name: user.name, token: token, composing)
            }
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
        let composing = context
        try environment.accountService.requestPasswordReset(email: email) { user, token in
            passwordResetEmail(to: user, token: token, composing)
        }
        return try forgotPasswordPage(&context, sentTo: email)
    }

    /// The password-reset email (the form's and the API's): a link to the reset page with `token`.
    static func passwordResetEmail(to user: User, token: String, _ context: RequestContext) -> OutboxDraft {
        passwordResetEmail(to: user, token: token, l10n: context.localizer(for: user), publicURL: context.environment.publicURL,
                           now: context.now)
    }

    /// The password-reset email in `l10n`'s language (also the back office's "send a reset link").
    static func passwordResetEmail(to user: User, token: String, l10n: Localizer, publicURL: String, now: Date) -> OutboxDraft {
        let shop = l10n(.shopName)
        let link = publicURL + SiteRoute.account(.resetPassword(token: token)).path
        return OutboxDraft(toAddress: user.email, toName: user.name, subject: l10n(.resetEmailSubject, ["shop": shop]),
                           textBody: l10n(.resetEmailBody, ["name": user.firstName, "shop": shop, "link": link]), createdAt: now)
    }

    static func resetPasswordPage(_ context: inout RequestContext, token: String) throws -> Response {
        do { _ = try context.environment.accountService.passwordResetUser(token: token) } catch AccountServiceError.linkNotValid {
            return try resetFailed(&context)
        }
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
        let request = context.request
        let token = request.formValue("token") ?? ""
        let user: User
        do {
            user = try context.environment.accountService.resetPassword(
                token: token, password: request.formValue("password") ?? "",
                confirmation: request.formValue("password_confirmation") ?? "")
        } catch AccountServiceError.linkNotValid {
            return try resetFailed(&context)
        } catch let problems as PasswordFormErrors {
            return try page(&context, PageContent(title: context.l10n(.resetTitle), tab: .account,
                                                  node: Views.resetPassword(AccountForm(problems, context.l10n), token: token,
                                                                            l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        context.replaceSession(with: nil)  // every session of the account is gone; start clean
        try completeSignIn(&context, user: user, remember: false, welcome: context.l10n(.resetDone))
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
        let signIn = SiteRoute.account(.signIn(next: SiteRoute.account(.show).path)).path
        guard let user = try context.currentUser(), let session = try context.currentSession() else { return .redirect(to: signIn) }
        let request = context.request
        do {
            try context.environment.accountService.changePassword(
                of: user, keeping: session.id, currentPassword: request.formValue("current_password") ?? "",
                newPassword: request.formValue("password") ?? "", confirmation: request.formValue("password_confirmation") ?? "")
        } catch AccountServiceError.accountNotFound {
            return .redirect(to: signIn)
        } catch let problems as PasswordFormErrors {
            return try accountPage(&context, AccountForm(problems, context.l10n), status: .unprocessableContent)
        }
        context.setFlash(Flash(kind: .success, text: context.l10n(.accountPasswordChanged)))
        return .redirect(to: SiteRoute.account(.show).path)
    }

}

extension AccountForm {
    /// A new-password form showing the service's problems next to their fields.
    init(_ problems: PasswordFormErrors, _ l10n: Localizer) {
        self.init()
        for (field, fieldProblems) in problems.byField { errors[field.rawValue] = fieldProblems.map(l10n.message(for:)) }
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

    /// `["a","b"]`: a list of strings, as a `data-` attribute gives one to the script.
    static func array(_ values: [String]) -> String {
        "[" + values.map(quote).joined(separator: ",") + "]"
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
        case .verifyBannerDismiss: return try verifyBannerDismiss(&context)
        case .language: return try chooseLanguage(&context)
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
