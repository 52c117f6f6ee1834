import Foundation
public import HTTPServer
import HTML
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// The back office (issue #16): `/admin`, for staff, on the storefront's mechanisms — routes
/// declared once (`AdminRoute`), the HTML module, the security headers — but with its own
/// accounts (`StaffService`), its own session cookie scoped to `/admin` (a shopper's cookie never
/// opens it, and its cookie never reaches the storefront), CSRF tokens and a flash message.
///
/// Every request goes: route → CSRF (actions) → signed in? → the role's permission
/// (`AdminRoute.access`) → handler. A refusal by role is a 403 page naming the role and what it
/// cannot do.
enum AdminApp {
    /// The staff session's cookie (`Path=/admin`, `SameSite=Strict`).
    static let sessionCookie = "shoppable_staff"
    /// The raw CSRF token of the back office's forms: before sign-in, the double-submit token of
    /// the sign-in form; after, the one whose hash the staff session keeps.
    static let csrfCookie = "shoppable_staff_csrf"
    /// A one-time message for the next page.
    static let flashCookie = "shoppable_staff_flash"
    static let cookiePath = "/admin"
    /// Orders per page of the list.
    static let pageSize = 50

    /// `true` for `/admin` and everything under it.
    static func owns(_ path: String) -> Bool { path == "/admin" || path.hasPrefix("/admin/") }

    /// Answers one back-office request. Never throws: failures become error pages.
    static func handle(_ request: Request, _ environment: AppEnvironment) -> Response {
        var context = AdminContext(request: request, environment: environment)
        var response: Response
        do {
            response = try route(&context)
        } catch {
            environment.log("error request_id=\(request.id) \(request.method.rawValue) \(request.path): \(error)")
            response = context.errorPage(ShopApp.answerable(error).status)
        }
        for cookie in context.setCookies { response.setCookie(cookie) }
        // Nothing of the back office is kept by a browser or a proxy, or indexed.
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "X-Robots-Tag", value: "noindex, nofollow")
        SecurityHeaders.apply(to: &response, environment: environment)
        return response
    }

    private static func route(_ context: inout AdminContext) throws -> Response {
        let request = context.request
        guard context.environment.staff != nil else { return context.errorPage(.notFound) }
        // Resumed first, so an address that is not a page answers in the staff member's
        // language and with the menu (a fresh tester's 404 was English and a dead end).
        let signedIn = try context.resumeSession()
        let query = request.query.map { RouteRequest.QueryItem($0.name, $0.value) }
        guard let route = AdminRoute.parse(method: request.method.rawValue, path: request.path, query: query) else {
            let allowed = AdminRoute.allowedMethods(path: request.path, query: query)
            guard !allowed.isEmpty else { return context.errorPage(.notFound) }
            var response = context.errorPage(.methodNotAllowed)
            response.headers.replaceOrAdd(name: "Allow", value: allowed.map { $0 == "GET" ? "GET, HEAD" : $0 }.joined(separator: ", "))
            return response
        }
        if route.isAction, !context.hasValidCSRFToken() {
            context.environment.log("csrf request_id=\(request.id) \(request.path): missing or wrong token")
            return context.errorPage(.forbidden)
        }
        // A session still waiting for its code opens only the code's form (and signing out).
        let awaitingCode = context.session?.needsSecondFactor == true
        if awaitingCode, route.access != .awaitingCode, route != .signOut {
            return .redirect(to: AdminRoute.signInCode.path)
        }
        switch route.access {
        case .anyone: break
        case .awaitingCode:
            guard awaitingCode else { return .redirect(to: signedIn == nil ? AdminRoute.signIn(next: nil).path : AdminRoute.home.path) }
        case .signedIn, .permission, .orderStep:
            guard let member = signedIn else {
                // A page asked for: back to it after signing in; an action: to the page it was on.
                let next = request.method == .get ? route.path : AdminRoute.home.path
                return .redirect(to: AdminRoute.signIn(next: next).path)
            }
            if case let .permission(permission) = route.access, !member.may(permission) {
                return context.forbidden(permission)
            }
        }
        switch route {
        case .home: return try home(&context)
        case let .signIn(next): return context.signInPage(next: next, form: AccountForm())
        case .signInSubmit: return try signIn(&context)
        case .signInCode: return context.page(title: context.l10n(.adminCodeTitle), nav: nil,
                                              AdminViews.codeForm(alert: nil, csrfToken: context.maskedCSRFToken(), l10n: context.l10n))
        case .signInCodeSubmit: return try signInCode(&context)
        case .secondFactor: return try secondFactorPage(&context, secret: nil, alert: nil)
        case .secondFactorEnable: return try secondFactorEnable(&context)
        case .secondFactorDisable: return try secondFactorDisable(&context)
        case .signOut: return try signOut(&context)
        case .account: return context.page(title: context.l10n(.adminAccountTitle), nav: nil,
                                           AdminViews.account(AccountForm(), member: context.member, csrfToken: context.maskedCSRFToken(),
                                                              l10n: context.l10n))
        case .accountPassword: return try changePassword(&context)
        case let .orders(filter): return try ordersPage(&context, filter: filter)
        case let .order(number): return try orderPage(&context, number: number)
        case let .orderAction(number, action): return try orderAction(&context, number: number, action: action)
        case .staff: return try staffPage(&context)
        case let .staffRole(id): return try staffChange(&context, id: id, role: context.request.formValue("role"), remove: false)
        case let .staffRemove(id): return try staffChange(&context, id: id, role: nil, remove: true)
        case let .audit(filter): return try auditPage(&context, filter: filter)
        case let .customers(query, page): return try customersPage(&context, query: query, page: page)
        case let .customer(id): return try customerPage(&context, id: id)
        case let .customerVerificationEmail(id): return try customerEmail(&context, id: id, passwordReset: false)
        case let .customerPasswordReset(id): return try customerEmail(&context, id: id, passwordReset: true)
        case let .products(filter): return try productsPage(&context, filter: filter)
        case let .product(id): return try productPage(&context, id: id)
        case let .productsExport(format): return try productsExport(&context, format: format)
        case .productsBulk: return try productsBulk(&context)
        case .productsImport: return productsImportPage(&context, outcome: nil)
        case .productsImportRun: return try productsImport(&context)
        case let .productsImportJob(id): return try productsImportJob(&context, id: id)
        case .productNew: return try productNewPage(&context)
        case .productCreate: return try productCreate(&context)
        case let .productSave(id): return try productSave(&context, id: id)
        case .campaigns: return try campaignsPage(&context)
        case .campaignNew: return try campaignForm(&context, editing: nil, form: AdminCampaignForm.blank(context))
        case .campaignCreate: return try campaignSave(&context, id: nil)
        case let .campaignEdit(id): return try campaignEditPage(&context, id: id)
        case let .campaignSave(id): return try campaignSave(&context, id: id)
        case let .campaignPause(id): return try campaignPause(&context, id: id, paused: true)
        case let .campaignResume(id): return try campaignPause(&context, id: id, paused: false)
        case let .campaignDelete(id): return try campaignDelete(&context, id: id)
        }
    }

    // MARK: Sign-in

    private static func signIn(_ context: inout AdminContext) throws -> Response {
        let request = context.request
        let email = request.formValue("email") ?? "", password = request.formValue("password") ?? ""
        let next = AdminRoute.localNext(request.formValue("next"))
        var form = AccountForm(values: ["email": email])
        switch try context.service.signIn(emailText: email, password: password, client: request.remoteAddress,
                                          throttles: context.environment.throttles) {
        case let .throttled(seconds):
            form.alert = Throttled(retryAfterSeconds: seconds, l10n: context.l10n).message
            var response = context.signInPage(next: next, form: form, status: .tooManyRequests)
            response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds))
            return response
        case .refused:
            form.alert = context.l10n(.signInWrong)
            return context.signInPage(next: next, form: form, status: .unprocessableContent)
        case let .accepted(issued):
            context.startSession(issued)
            if issued.session.needsSecondFactor {
                context.environment.log("staff sign-in \(issued.member.email): password right, code asked")
                return .redirect(to: AdminRoute.signInCode.path)
            }
            context.environment.log("staff sign-in \(issued.member.email) (\(issued.member.role.rawValue))")
            return .redirect(to: next ?? AdminRoute.home.path)
        }
    }

    /// The second step of a sign-in with TOTP.
    private static func signInCode(_ context: inout AdminContext) throws -> Response {
        guard let session = context.session, let member = context.member else { return context.errorPage(.forbidden) }
        let request = context.request
        switch try context.service.completeSignIn(session, member: member, code: request.formValue("code") ?? "",
                                                  client: request.remoteAddress, throttles: context.environment.throttles) {
        case let .throttled(seconds):
            let alert = Throttled(retryAfterSeconds: seconds, l10n: context.l10n).message
            var response = context.page(title: context.l10n(.adminCodeTitle), nav: nil,
                                        AdminViews.codeForm(alert: alert, csrfToken: context.maskedCSRFToken(), l10n: context.l10n),
                                        status: .tooManyRequests)
            response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds))
            return response
        case .refused:
            return context.page(title: context.l10n(.adminCodeTitle), nav: nil,
                                AdminViews.codeForm(alert: context.l10n(.adminCodeWrong), csrfToken: context.maskedCSRFToken(),
                                                    l10n: context.l10n),
                                status: .unprocessableContent)
        case .accepted:
            context.environment.log("staff sign-in \(member.email) (\(member.role.rawValue)) with a code")
            return .redirect(to: AdminRoute.home.path)
        }
    }

    /// The enrolment: a new secret as a QR code and as text, and the form that turns it on with
    /// a first code; or, when it is on, the form that turns it off.
    private static func secondFactorPage(_ context: inout AdminContext, secret: String?, alert: String?,
                                         status: HTTPStatus = .ok) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let service = context.service
        guard service.offersSecondFactor else { return context.errorPage(.notFound) }
        let isOn = try service.staff.secondFactor(member.id) != nil
        var key: String?
        var picture: (size: Int, modules: [Bool])?
        if !isOn {
            key = secret ?? service.newSecondFactorSecret().map(Base32.encode)
            if let key, let bytes = Base32.decode(key) {
                // The app lists the account under the shop's host name ("shop.example").
                let issuer = URL(string: context.environment.publicURL)?.host ?? "Shoppable"
                picture = context.environment.qrCode?(TOTP.provisioningURI(secret: bytes, issuer: issuer, account: member.email))
            }
        }
        return context.page(title: context.l10n(.adminSecondFactorTitle), nav: nil,
                            AdminViews.secondFactor(isOn: isOn, secret: key, picture: picture, alert: alert,
                                                    csrfToken: context.maskedCSRFToken(), l10n: context.l10n),
                            status: status)
    }

    private static func secondFactorEnable(_ context: inout AdminContext) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let secret = context.request.formValue("secret") ?? ""
        guard try context.service.enableSecondFactor(member, secret: secret, code: context.request.formValue("code") ?? "") else {
            return try secondFactorPage(&context, secret: Base32.decode(secret) == nil ? nil : secret,
                                        alert: context.l10n(.adminCodeWrong), status: .unprocessableContent)
        }
        context.environment.log("staff \(member.email) turned the second factor on")
        context.setFlash(context.l10n(.adminSecondFactorOn))
        return .redirect(to: AdminRoute.account.path)
    }

    private static func secondFactorDisable(_ context: inout AdminContext) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        guard try context.service.disableSecondFactor(member, code: context.request.formValue("code") ?? "") else {
            return try secondFactorPage(&context, secret: nil, alert: context.l10n(.adminCodeWrong), status: .unprocessableContent)
        }
        context.environment.log("staff \(member.email) turned the second factor off")
        context.setFlash(context.l10n(.adminSecondFactorOff))
        return .redirect(to: AdminRoute.account.path)
    }

    private static func signOut(_ context: inout AdminContext) throws -> Response {
        if let session = context.session { try context.service.signOut(session) }
        context.endSession()
        context.setFlash(context.l10n(.adminSignedOut))
        return .redirect(to: AdminRoute.signIn(next: nil).path)
    }

    /// A staff member changes their own password; their other sessions end.
    private static func changePassword(_ context: inout AdminContext) throws -> Response {
        guard let member = context.member, let session = context.session else { return context.errorPage(.forbidden) }
        let request = context.request
        do {
            try context.service.changePassword(of: member, in: session, current: request.formValue("current_password") ?? "",
                                               new: request.formValue("password") ?? "",
                                               confirmation: request.formValue("password_confirmation") ?? "",
                                               client: request.remoteAddress, throttles: context.environment.throttles)
        } catch let throttled as StaffThrottled {
            var form = AccountForm()
            form.errors["current_password"] = [Throttled(retryAfterSeconds: throttled.retryAfterSeconds, l10n: context.l10n).message]
            var response = context.page(title: context.l10n(.adminAccountTitle), nav: nil,
                                        AdminViews.account(form, member: member, csrfToken: context.maskedCSRFToken(), l10n: context.l10n),
                                        status: .tooManyRequests)
            response.headers.replaceOrAdd(name: "Retry-After", value: String(throttled.retryAfterSeconds))
            return response
        } catch let problems as StaffFormErrors {
            var form = AccountForm()
            let fields = ["current": "current_password", "password": "password", "confirmation": "password_confirmation"]
            for (field, errors) in problems.byField {
                form.errors[fields[field] ?? field] = errors.map { context.l10n.message(for: $0) }
            }
            return context.page(title: context.l10n(.adminAccountTitle), nav: nil,
                                AdminViews.account(form, member: member, csrfToken: context.maskedCSRFToken(), l10n: context.l10n),
                                status: .unprocessableContent)
        }
        context.environment.log("staff \(member.email) changed their password")
        context.setFlash(context.l10n(.adminPasswordChanged))
        return .redirect(to: AdminRoute.account.path)
    }

    // MARK: Pages

    /// The dashboard: orders by status, sales today and over 30 days with a chart of orders per
    /// day, best sellers, low stock and emails that failed (issue #16, point 7).
    private static func home(_ context: inout AdminContext) throws -> Response {
        var counts: [(OrderStatus, Int)] = []
        var summary: SalesSummary?
        let environment = context.environment
        if let orders = environment.orders, context.member?.may(.viewOrders) == true {
            for status in OrderStatus.allCases {
                counts.append((status, try orders.findOrders(OrderQuery(status: status, limit: 1)).total))
            }
            // The last 30 days' orders, a page of 500 at a time (a shop's month fits in a few).
            let now = context.now
            let since = Calendar.gregorian(environment.timeZone).date(byAdding: .day, value: -30, to: now) ?? now
            var placed: [Order] = []
            while placed.count < 20_000 {
                let page = try orders.findOrders(OrderQuery(placedFrom: since, limit: 500, offset: placed.count))
                placed += page.orders
                if page.orders.count < 500 { break }
            }
            summary = SalesSummary(orders: placed, now: now, timeZone: environment.timeZone, currency: environment.currency)
        }
        let lowStock = try environment.dashboard?.lowStock(5, 10) ?? []
        let failing = try environment.dashboard?.failingEmails() ?? 0
        return context.page(title: context.l10n(.adminHomeTitle), nav: .home,
                            AdminViews.home(counts: counts, summary: summary, lowStock: lowStock, failingEmails: failing,
                                            l10n: context.l10n, timeZone: environment.timeZone))
    }

    private static func staffPage(_ context: inout AdminContext) throws -> Response {
        let members = try context.service.staff.members()
        return context.page(title: context.l10n(.adminStaffTitle), nav: .staff,
                            AdminViews.staff(members, csrfToken: context.maskedCSRFToken(), l10n: context.l10n,
                                             timeZone: context.environment.timeZone))
    }

    /// An owner changes a staff member's role or removes them (their sessions end with them); the
    /// shop's last owner stays (`StaffStoreError.lastOwner`).
    private static func staffChange(_ context: inout AdminContext, id: StaffMember.ID, role text: String?,
                                    remove: Bool) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let staff = context.service.staff
        do {
            if remove {
                try staff.remove(id, .staff(member.email), context.now)
                if id == member.id {
                    context.endSession()
                    return .redirect(to: AdminRoute.signIn(next: nil).path)
                }
                context.setFlash(context.l10n(.adminStaffRemoved))
            } else {
                guard let role = text.flatMap(StaffRole.init(rawValue:)) else { return context.errorPage(.badRequest) }
                let changed = try staff.setRole(id, role, .staff(member.email), context.now)
                context.setFlash(context.l10n(.adminStaffRoleChanged, ["email": changed.email, "role": AdminViews.roleName(role, context.l10n)]))
            }
        } catch StaffStoreError.staffNotFound {
            return context.errorPage(.notFound)
        } catch StaffStoreError.lastOwner {
            context.setFlash(context.l10n(.adminStaffLastOwner), error: true)
        }
        return .redirect(to: AdminRoute.staff.path)
    }

    // MARK: Customers

    private static func customersPage(_ context: inout AdminContext, query: String, page: Int) throws -> Response {
        // Every account, filtered here: fine for a shop's thousands of accounts; a store-side
        // search is the next step when that grows (noted on issue #16).
        // Folded as the storefront's search folds (case, accents, Turkish ı/İ): `yilmaz` finds Yılmaz.
        let needle = SearchFolding.foldBothFamilies(query)
        let typed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        func matches(_ user: User) -> Bool {
            guard !typed.isEmpty else { return true }
            return [user.email, user.name].contains { text in
                // Only punctuation (`%`, `_`): folding leaves nothing to look for, which matched
                // every account (a fresh tester's find); it is looked for as typed.
                guard !needle.standard.isEmpty else { return text.localizedCaseInsensitiveContains(typed) }
                let folded = SearchFolding.foldBothFamilies(text)
                return folded.standard.contains(needle.standard) || folded.turkish.contains(needle.turkish)
            }
        }
        let matching = try context.environment.accounts.users().filter(matches)
            .sorted { ($0.createdAt, $0.id.rawValue) > ($1.createdAt, $1.id.rawValue) }
        let shown = Array(matching.dropFirst((page - 1) * pageSize).prefix(pageSize))
        return context.page(title: context.l10n(.adminCustomersTitle), nav: .customers,
                            AdminViews.customers(shown, total: matching.count, query: query, page: page, pageSize: pageSize,
                                                 l10n: context.l10n, timeZone: context.environment.timeZone))
    }

    private static func customerPage(_ context: inout AdminContext, id: User.ID) throws -> Response {
        guard let user = try context.environment.accounts.user(id) else { return context.errorPage(.notFound) }
        let addresses = try context.environment.addresses?.list(id) ?? []
        let orders = try context.environment.orders?.orders(id) ?? []
        let mayEmail = context.member?.may(.emailCustomers) == true
        return context.page(title: context.l10n(.adminCustomerTitle, ["name": user.name]), nav: .customers,
                            AdminViews.customer(user, addresses: addresses, orders: orders, mayEmail: mayEmail,
                                                csrfToken: context.maskedCSRFToken(), l10n: context.l10n,
                                                timeZone: context.environment.timeZone))
    }

    /// Emails the customer a new confirmation link or a password-reset link, written in their
    /// language; the token goes only into the email (the store keeps its hash).
    private static func customerEmail(_ context: inout AdminContext, id: User.ID, passwordReset: Bool) throws -> Response {
        guard let user = try context.environment.accounts.user(id) else { return context.errorPage(.notFound) }
        let environment = context.environment
        let l10n = Localizer(language: user.locale ?? environment.defaultLanguage)
        let now = context.now
        let service = environment.accountService
        // The customers' own limits (per email or account, and per staff member as the client):
        // no one can flood a customer's inbox from the back office either.
        let checks = passwordReset ? environment.throttles.passwordReset(email: user.email, client: "staff:\(context.member?.email ?? "")")
            : environment.throttles.verificationEmail(user: user.id, client: "staff:\(context.member?.email ?? "")")
        if let wait = try environment.accounts.secondsToWait(checks, at: now) {
            context.setFlash(Throttled(retryAfterSeconds: wait, l10n: context.l10n).message, error: true)
            return .redirect(to: AdminRoute.customer(id).path)
        }
        if passwordReset {
            try service.requestPasswordReset(email: user.email, by: context.actor) { user, token in
                ShopApp.passwordResetEmail(to: user, token: token, l10n: l10n, publicURL: environment.publicURL, now: now)
            }
            context.setFlash(context.l10n(.adminCustomerResetSent, ["email": user.email]))
        } else {
            let sent = try service.resendVerification(to: user, by: context.actor) { token in
                ShopApp.verificationEmail(to: user.email, name: user.name, token: token, l10n: l10n,
                                          publicURL: environment.publicURL, now: now)
            }
            context.setFlash(context.l10n(sent ? .adminCustomerVerificationSent : .adminCustomerAlreadyVerified, ["email": user.email]))
        }
        environment.log("staff \(context.member?.email ?? "?") sent customer \(id.rawValue) a \(passwordReset ? "password reset" : "confirmation") email")
        return .redirect(to: AdminRoute.customer(id).path)
    }

    private static func auditPage(_ context: inout AdminContext, filter: AdminAuditFilter) throws -> Response {
        guard let audit = context.environment.audit else { return context.errorPage(.notFound) }
        let found = try audit.entries(AuditQuery(source: filter.source, subject: filter.subject, actor: filter.actor,
                                                 subjectID: filter.subjectID, limit: pageSize, offset: (filter.page - 1) * pageSize))
        return context.page(title: context.l10n(.adminAuditTitle), nav: .audit,
                            AdminViews.audit(found, filter: filter, pageSize: pageSize, l10n: context.l10n,
                                             timeZone: context.environment.timeZone))
    }

    private static func ordersPage(_ context: inout AdminContext, filter: AdminOrderFilter) throws -> Response {
        guard let orders = context.environment.orders else { return context.errorPage(.notFound) }
        let timeZone = context.environment.timeZone
        let from = AdminDates.day(filter.from, timeZone: timeZone), to = AdminDates.day(filter.to, timeZone: timeZone)
        var dateErrors: Set<String> = []
        if from == nil && !filter.from.isEmpty { dateErrors.insert("from") }
        if to == nil && !filter.to.isEmpty { dateErrors.insert("to") }
        let query = OrderQuery(status: filter.status, placedFrom: from,
                               placedBefore: to.map { Calendar.gregorian(timeZone).date(byAdding: .day, value: 1, to: $0) ?? $0 },
                               customer: filter.customer, number: filter.number,
                               limit: pageSize, offset: (filter.page - 1) * pageSize)
        // A date that is not one filters nothing: no list, rather than every order under the error.
        let found = dateErrors.isEmpty ? try orders.findOrders(query) : OrderPage(orders: [], total: 0)
        return context.page(title: context.l10n(.adminOrdersTitle), nav: .orders,
                            AdminViews.orders(found, filter: filter, dateErrors: dateErrors, pageSize: pageSize,
                                              l10n: context.l10n, timeZone: timeZone),
                            status: dateErrors.isEmpty ? .ok : .unprocessableContent)
    }

    private static func orderPage(_ context: inout AdminContext, number: String) throws -> Response {
        guard let orders = context.environment.orders, let order = try orders.order(number.uppercased()) else {
            return context.errorPage(.notFound)
        }
        let history = try orders.history(order.id)
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let steps = AdminRoute.orderActions.filter { action in
            order.allows(action) && member.may(StaffRole.permission(for: action, from: order.status))
        }
        return context.page(title: context.l10n(.adminOrderTitle, ["number": order.number]), nav: .orders,
                            AdminViews.order(order, history: history, steps: steps, csrfToken: context.maskedCSRFToken(),
                                             payment: context.environment.paymentInstructions.text(in: context.l10n.language),
                                             l10n: context.l10n, timeZone: context.environment.timeZone))
    }

    private static func orderAction(_ context: inout AdminContext, number: String, action: OrderAction) throws -> Response {
        guard let orders = context.environment.orders, let order = try orders.order(number.uppercased()) else {
            return context.errorPage(.notFound)
        }
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let request = context.request
        let orderPath = AdminRoute.order(number: order.number).path
        // What the staff member saw when they pressed the button: if the order moved on since,
        // nothing is done (`OrderActionError.statusChanged`).
        var expecting = order.status
        if let text = request.formValue("expecting") {
            guard let status = OrderStatus(rawValue: text) else { return context.errorPage(.badRequest) }
            expecting = status
        }
        let permission = StaffRole.permission(for: action, from: expecting)
        guard member.may(permission) else { return context.forbidden(permission) }
        var refund: RefundPlan?
        var refundLines: [LineRefund] = []
        if action == .refund {
            // `line-N` fields: units of line N (from 1); empty or 0 leaves the line alone.
            var unreadable: (line: Int, text: String)?
            refundLines = order.lines.indices.compactMap { index in
                let text = request.formValue("line-\(index + 1)")?.trimmingCharacters(in: .whitespaces) ?? ""
                guard !text.isEmpty, text != "0" else { return nil }
                guard let quantity = Int(text) else {
                    unreadable = unreadable ?? (index + 1, text)
                    return nil
                }
                return LineRefund(line: index + 1, quantity: quantity)
            }
            // Not a number (`abc`): said so, not "line 1 has 1 unit left" (a fresh tester's).
            if let unreadable {
                context.setFlash(context.l10n(.adminRefundNotANumber, ["line": context.l10n.number(unreadable.line),
                                                                        "value": unreadable.text]), error: true)
                return .redirect(to: orderPath)
            }
            do {
                refund = try order.refundPlan(refundLines)
            } catch {
                context.setFlash(AdminViews.refundProblem(error, context.l10n), error: true)
                return .redirect(to: orderPath)
            }
        }
        var fulfilment: Fulfilment?
        if action == .fulfil {
            do {
                fulfilment = try Fulfilment(carrier: request.formValue("carrier") ?? "", trackingNumber: request.formValue("tracking") ?? "")
            } catch {
                context.setFlash(context.l10n(.adminFulfilmentInvalid), error: true)
                return .redirect(to: orderPath)
            }
        }
        do {
            let email = expecting == order.status
                ? OrderEmails.step(action, order: order, fulfilment: fulfilment, refund: refund,
                                   publicURL: context.environment.publicURL, now: context.now) : nil
            var asked = OrderActionRequest(number: order.number, action: action, fulfilment: fulfilment, actor: member.email,
                                           expecting: expecting, notification: email)
            asked.refundLines = refundLines
            asked.expectedRefundMinor = refund?.total.minorUnits
            if action == .refund {
                // The refunds as the form saw them; a form without them (a page open since before
                // they were sent, a hand-made request) is taken as stale, never as unguarded (a
                // tester's form without the field refunded at every send).
                guard let seen = request.formValue("refunded") else {
                    context.setFlash(context.l10n(.adminRefundChanged), error: true)
                    return .redirect(to: orderPath)
                }
                guard let units = Int(seen), units >= 0 else { return context.errorPage(.badRequest) }
                asked.refundedUnitsSeen = units
            }
            let result = try orders.apply(asked, context.now)
            context.environment.log("order \(order.number) \(action.rawValue) by \(member.email): \(result.event.from.rawValue) → \(result.event.to.rawValue)")
            if let refund {
                context.setFlash(context.l10n(.adminRefundDone, ["number": order.number, "amount": context.l10n.money(refund.total)]))
            } else {
                context.setFlash(context.l10n(.adminActionDone, ["number": order.number,
                                                                 "status": Views.statusText(result.order.status, context.l10n)]))
            }
        } catch let refused as OrderTransitionRefused {
            context.setFlash(context.l10n(.adminActionNotAllowed, ["status": Views.statusText(refused.from, context.l10n)]), error: true)
        } catch let error as RefundError {
            context.setFlash(AdminViews.refundProblem(error, context.l10n), error: true)
        } catch let error as OrderActionError {
            switch error {
            case let .statusChanged(now):
                if action != .refund, (try? expecting.transition(action))?.to == now {
                    // A double click: the first press did what this one asks.
                    context.setFlash(context.l10n(.adminActionDone, ["number": order.number, "status": Views.statusText(now, context.l10n)]))
                } else {
                    context.setFlash(context.l10n(.adminStatusChanged, ["status": Views.statusText(now, context.l10n)]), error: true)
                }
            case .fulfilmentMissing:
                context.setFlash(context.l10n(.adminFulfilmentInvalid), error: true)
            case .orderNotFound:
                return context.errorPage(.notFound)
            case .refundChanged:
                context.setFlash(context.l10n(.adminRefundChanged), error: true)
            case .nothingToShip:
                context.setFlash(context.l10n(.adminNothingToShip, ["number": order.number]), error: true)
            }
        }
        return .redirect(to: orderPath)
    }
}

/// Dates typed in the order filters.
enum AdminDates {
    /// The start of the day `YYYY-MM-DD` in `timeZone`, or nil when the text is not such a date.
    static func day(_ text: String, timeZone: TimeZone) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let calendar = Calendar.gregorian(timeZone)
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }  // 2026-02-31 is not a day
        return date
    }
}

extension Calendar {
    /// The Gregorian calendar in `timeZone`.
    static func gregorian(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

extension AdminRoute {
    /// `next` when it is a back-office path (after signing in, only back there).
    static func localNext(_ next: String?) -> String? {
        guard let path = SafeRedirect.localPath(next) else { return nil }
        let pathPart = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        // `/admin/../account` would leave the back office once the browser resolves it.
        guard AdminApp.owns(pathPart), !pathPart.split(separator: "/").contains(where: { $0 == "." || $0 == ".." || $0.contains("%") })
        else { return nil }
        return path
    }
}
