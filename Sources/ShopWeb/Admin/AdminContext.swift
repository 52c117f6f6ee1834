import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopService
import ShopStore

/// Per-request state of the back office: the request, the staff member signed in (resumed once),
/// the language, the CSRF token of its forms and the cookies to set.
struct AdminContext {
    let request: Request
    let environment: AppEnvironment
    private(set) var l10n: Localizer
    var setCookies: [Cookie] = []
    private(set) var session: StaffSession?
    private(set) var member: StaffMember?
    /// The signed-in staff member as the audit log names them; nil before sign-in.
    var actor: AuditActor? { member.map { .staff($0.email) } }
    /// The raw CSRF token this response's forms carry.
    private var formToken: String?

    init(request: Request, environment: AppEnvironment) {
        self.request = request
        self.environment = environment
        self.l10n = Localizer(language: Self.language(request, environment, account: nil))
        // A language picked with `?lang=` is remembered (the storefront's cookie), so the next
        // page and the redirect after a step speak it too.
        if request.method == .get, let asked = request.queryValue(ShopApp.languageParameter).flatMap(Language.init(rawValue:)),
           request.cookies[ShopApp.languageCookie] != asked.rawValue {
            setCookies.append(Cookie(name: ShopApp.languageCookie, value: asked.rawValue,
                                     maxAge: RequestContext.languageCookieLifetime, secure: environment.secureCookies))
        }
    }

    var now: Date { environment.now() }
    // Only reached once `AdminApp` has checked the store is there.
    var service: StaffService { environment.staffService! }

    /// The staff member's language, by the storefront's rule (`?lang=`, the language cookie,
    /// their account's, `Accept-Language`, the shop's).
    private static func language(_ request: Request, _ environment: AppEnvironment, account: Language?) -> Language {
        let asked = request.method == .get ? request.queryValue(ShopApp.languageParameter).flatMap(Language.init(rawValue:)) : nil
        let chosen = asked ?? request.cookies[ShopApp.languageCookie].flatMap(Language.init(rawValue:))
        return Language.forShopper(chosen: chosen, account: account, acceptLanguage: request.headers["Accept-Language"],
                                   shopDefault: environment.defaultLanguage)
    }

    /// A back-office cookie: `Path=/admin`, `HttpOnly`, `SameSite=Strict`, `Secure` over https.
    func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: AdminApp.cookiePath, secure: environment.secureCookies,
               sameSite: .strict)
    }

    // MARK: Session

    /// The signed-in staff member, when the cookie names a live session and the CSRF cookie
    /// holds that session's token (a session whose token the browser lost is signed out).
    mutating func resumeSession() throws -> StaffMember? {
        guard let token = request.cookies[AdminApp.sessionCookie] else { return nil }
        guard let found = try service.resume(token: token),
              let csrf = request.cookies[AdminApp.csrfCookie], service.isCSRFToken(csrf, of: found.session) else {
            setCookies.append(cookie(AdminApp.sessionCookie, "", maxAge: 0))
            return nil
        }
        session = found.session
        member = found.member
        formToken = csrf
        l10n = Localizer(language: Self.language(request, environment, account: found.member.language))
        return found.member
    }

    /// Sets the cookies of a session just started.
    mutating func startSession(_ issued: IssuedStaffSession) {
        session = issued.session
        member = issued.member
        formToken = issued.csrfToken
        let lifetime = Int(StaffService.sessionLifetime)
        setCookies.append(cookie(AdminApp.sessionCookie, issued.token, maxAge: lifetime))
        setCookies.append(cookie(AdminApp.csrfCookie, issued.csrfToken, maxAge: lifetime))
    }

    /// Deletes the session's cookies.
    mutating func endSession() {
        session = nil
        member = nil
        formToken = nil
        setCookies.append(cookie(AdminApp.sessionCookie, "", maxAge: 0))
        setCookies.append(cookie(AdminApp.csrfCookie, "", maxAge: 0))
    }

    // MARK: CSRF

    /// The token this response's forms carry (before sign-in, the cookie's, made when missing).
    mutating func csrfToken() -> String {
        if let formToken { return formToken }
        let token: String
        if let existing = request.cookies[AdminApp.csrfCookie], (32...128).contains(existing.count) {
            token = existing
        } else {
            token = environment.crypto.randomToken()
            setCookies.append(cookie(AdminApp.csrfCookie, token, maxAge: nil))
        }
        formToken = token
        return token
    }

    /// The token masked afresh for this response (`CSRFMask`: the page's bytes never repeat it).
    mutating func maskedCSRFToken() -> String {
        let token = csrfToken()
        var pad = ""
        while pad.utf8.count < token.utf8.count { pad += environment.crypto.randomToken() }
        return CSRFMask.mask(token, pad: pad)
    }

    /// `true` when the form carries the token of this browser's session (or, before sign-in, of
    /// its CSRF cookie).
    func hasValidCSRFToken() -> Bool {
        guard let posted = request.formValue(ShopApp.csrfField), !posted.isEmpty else { return false }
        let sent = CSRFMask.unmask(posted) ?? posted
        if let session { return service.isCSRFToken(sent, of: session) }
        guard let expected = request.cookies[AdminApp.csrfCookie], !expected.isEmpty else { return false }
        return environment.crypto.constantTimeEquals(sent, expected)
    }

    // MARK: Messages and pages

    /// Sets a one-time message for the next back-office page.
    mutating func setFlash(_ text: String, error: Bool = false) {
        let encoded = (error ? "e." : "s.") + URLEncoding.percentEncodeAlphanumerics(text)
        setCookies.append(cookie(AdminApp.flashCookie, SignedCookie.seal(encoded, name: AdminApp.flashCookie, environment.crypto),
                                 maxAge: 60))
    }

    /// The message from the previous request, clearing it.
    mutating func takeFlash() -> (text: String, isError: Bool)? {
        guard let sealed = request.cookies[AdminApp.flashCookie] else { return nil }
        setCookies.append(cookie(AdminApp.flashCookie, "", maxAge: 0))
        guard let value = SignedCookie.open(sealed, name: AdminApp.flashCookie, environment.crypto) else { return nil }
        let parts = value.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let text = String(parts[1]).removingPercentEncoding, !text.isEmpty else { return nil }
        return (text, parts[0] == "e")
    }

    /// A whole back-office page.
    /// - Parameter refreshAfter: seconds after which the browser loads the page again (a job's
    ///   progress, without script); nil for none.
    mutating func page(title: String, nav: AdminViews.NavItem?, _ content: Node, status: HTTPStatus = .ok,
                       refreshAfter: Int? = nil) -> Response {
        let frame = AdminViews.Frame(title: title, nav: nav, member: member, showsMenu: session?.needsSecondFactor != true,
                                     flash: takeFlash(), csrfToken: maskedCSRFToken(),
                                     stylesheetHref: environment.assets.stylesheetPath,
                                     theme: Theme(cookie: request.cookies[ShopApp.themeCookie]), l10n: l10n,
                                     refreshAfter: refreshAfter)
        return .html(AdminViews.document(frame, content), status: status)
    }

    /// The sign-in form.
    mutating func signInPage(next: String?, form: AccountForm, status: HTTPStatus = .ok) -> Response {
        let next = AdminRoute.localNext(next)
        let csrf = maskedCSRFToken()
        return page(title: l10n(.adminSignInTitle), nav: nil,
                    AdminViews.signIn(form: form, next: next, csrfToken: csrf, l10n: l10n), status: status)
    }

    /// The 403 page of a role without `permission`.
    mutating func forbidden(_ permission: StaffPermission) -> Response {
        environment.log("refused request_id=\(request.id) \(request.method.rawValue) \(request.path): "
                        + "\(member?.email ?? "?") (\(member?.role.rawValue ?? "?")) cannot \(permission.summary)")
        let role = member.map { AdminViews.roleName($0.role, l10n) } ?? ""
        return page(title: l10n(.adminForbiddenTitle), nav: nil,
                    AdminViews.message(title: l10n(.adminForbiddenTitle), code: "403",
                                       text: l10n(.adminForbiddenText, ["role": role, "what": AdminViews.permissionText(permission, l10n)]),
                                       l10n: l10n),
                    status: .forbidden)
    }

    /// A styled error page (404, 403 for a bad CSRF token, 405, 5xx).
    mutating func errorPage(_ status: HTTPStatus) -> Response {
        let (title, text): (String, String) = switch status.code {
        case 404: (l10n(.adminNotFoundTitle), l10n(.adminNotFoundText))
        case 403: (l10n(.adminExpiredTitle), l10n(.adminExpiredText))
        case 400..<500: (l10n(.errorBadRequestTitle), l10n(.errorBadRequestText))
        default: (l10n(.adminErrorTitle), l10n(.adminErrorText))
        }
        return page(title: title, nav: nil, AdminViews.message(title: title, code: String(status.code), text: text, l10n: l10n),
                    status: status)
    }
}
