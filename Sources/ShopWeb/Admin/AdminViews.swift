import Foundation
import HTML
import ShopCore
import ShopStore

/// The back office's pages: one frame (top bar with the staff member and sign-out, a navigation
/// row, the flash) around each page's content. Mobile-first like the storefront: tables scroll
/// sideways inside their card on a phone.
enum AdminViews {
    enum NavItem { case home, orders, customers, products, campaigns, staff, audit }

    /// What every page's frame shows.
    struct Frame {
        var title: String
        var nav: NavItem?
        /// The staff member signed in; during the second step of a sign-in (the code), the one
        /// whose password was right.
        var member: StaffMember?
        /// The back office's menu and who is signed in: only once the sign-in is complete (a
        /// fresh tester saw both on the code step, before any code was given; its form has its
        /// own way out).
        var showsMenu = true
        var flash: (text: String, isError: Bool)?
        var csrfToken: String
        var stylesheetHref: String
        var theme: Theme
        var l10n: Localizer
        /// Seconds after which the page reloads itself; nil for never.
        var refreshAfter: Int? = nil
    }

    static func document(_ frame: Frame, _ content: Node) -> [UInt8] {
        let l10n = frame.l10n
        let title = "\(frame.title) · \(l10n(.adminTitle))"
        let page: Node = HTML.document(lang: l10n.language.rawValue, .data("theme", frame.theme.rawValue)) {
            head {
                meta(.charset("utf-8"))
                meta(.name("viewport"), .content("width=device-width, initial-scale=1, viewport-fit=cover"))
                meta(.name("color-scheme"), .content(frame.theme == .system ? "light dark" : frame.theme.rawValue))
                meta(.name("robots"), .content("noindex, nofollow"))
                if let seconds = frame.refreshAfter { meta(.attribute("http-equiv", "refresh"), .content(String(seconds))) }
                HTML.title { title }
                link(.rel("stylesheet"), .href(frame.stylesheetHref))
                link(.rel("icon"), .href("/static/images/icon.svg"), .type("image/svg+xml"))
            }
            body(.class("admin")) {
                a(.class("skip-link"), .href("#main")) { l10n(.skipToContent) }
                header(.class("top-bar admin-bar")) {
                    a(.class("brand"), .href(AdminRoute.home.path)) {
                        span(.class("brand-mark"), .aria("hidden", "true")) { "S" }
                        l10n(.adminTitle)
                    }
                    if let member = frame.member, frame.showsMenu {
                        div(.class("admin-who")) {
                            a(.class("admin-member"), .href(AdminRoute.account.path)) {
                                l10n(.adminSignedInAs, ["name": member.name, "role": roleName(member.role, l10n)])
                            }
                            form(.method("post"), .action(AdminRoute.signOut.path)) {
                                csrfInput(frame.csrfToken)
                                button(.type("submit"), .class("button button-small")) { l10n(.adminSignOut) }
                            }
                        }
                    }
                }
                if let member = frame.member, frame.showsMenu {
                    nav(.class("admin-nav"), .aria("label", l10n(.adminNavLabel))) {
                        navLink(.home, AdminRoute.home.path, l10n(.adminNavHome), frame.nav)
                        if member.may(.viewOrders) {
                            navLink(.orders, AdminRoute.orders(AdminOrderFilter()).path, l10n(.adminNavOrders), frame.nav)
                        }
                        if member.may(.viewCustomers) {
                            navLink(.customers, AdminRoute.customers(query: "", page: 1).path, l10n(.adminNavCustomers), frame.nav)
                        }
                        if member.may(.manageCatalog) {
                            navLink(.products, AdminRoute.products(AdminProductFilter()).path, l10n(.adminNavProducts), frame.nav)
                        }
                        if member.may(.manageCampaigns) {
                            navLink(.campaigns, AdminRoute.campaigns.path, l10n(.adminNavCampaigns), frame.nav)
                        }
                        if member.may(.manageStaff) {
                            navLink(.staff, AdminRoute.staff.path, l10n(.adminNavStaff), frame.nav)
                        }
                        if member.may(.viewAudit) {
                            navLink(.audit, AdminRoute.audit(AdminAuditFilter()).path, l10n(.adminNavAudit), frame.nav)
                        }
                        a(.href(SiteRoute.catalog(.home).path)) { l10n(.adminNavStorefront) }
                    }
                }
                if let flash = frame.flash {
                    div(.class(flash.isError ? "flash flash-error" : "flash flash-success"), .role(flash.isError ? "alert" : "status")) {
                        span { flash.text }
                    }
                }
                main(.id("main"), .class("content admin-content")) { content }
            }
        }
        return render(page, reservingCapacity: 16_384)
    }

    private static func navLink(_ item: NavItem, _ href: String, _ label: String, _ current: NavItem?) -> Node {
        a(.href(href), item == current ? .aria("current", "page") : .boolean("data-inactive", false)) { label }
    }

    /// The second step of signing in: the authenticator app's code.
    static func codeForm(alert: String?, csrfToken: String, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.adminCodeTitle) }
            p(.class("muted")) { l10n(.adminCodeIntro) }
            HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.signInCodeSubmit.path), .boolean("novalidate")) {
                csrfInput(csrfToken)
                if let alert { p(.class("form-alert"), .role("alert")) { alert } }
                div(.class("field")) {
                    label(.for("code")) { l10n(.adminCodeLabel) }
                    input(.type("text"), .name("code"), .id("code"), .inputmode("numeric"), .autocomplete("one-time-code"),
                          .pattern("[0-9 ]*"), .maxlength(7), .required(true))
                }
                button(.type("submit"), .class("button button-primary")) { l10n(.adminCodeSubmit) }
            }
            HTML.form(.method("post"), .action(AdminRoute.signOut.path)) {
                csrfInput(csrfToken)
                button(.type("submit"), .class("button")) { l10n(.adminSignOut) }
            }
        }
    }

    /// The second factor's page: on (a form to turn it off with a code) or off (a new secret as
    /// a QR code drawn as SVG on the server and as text, and the form to turn it on).
    static func secondFactor(isOn: Bool, secret: String?, picture: (size: Int, modules: [Bool])?, alert: String?,
                             csrfToken: String, l10n: Localizer) -> Node {
        section(.class("stack")) {
            p { a(.href(AdminRoute.account.path)) { "← " + l10n(.adminAccountTitle) } }
            h1(.class("page-title")) { l10n(.adminSecondFactorTitle) }
            if let alert { p(.class("form-alert"), .role("alert")) { alert } }
            if isOn {
                HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.secondFactorDisable.path), .boolean("novalidate")) {
                    csrfInput(csrfToken)
                    p { l10n(.adminSecondFactorIsOn) }
                    codeField(l10n)
                    button(.type("submit"), .class("button button-danger")) { l10n(.adminSecondFactorTurnOff) }
                }
            } else if let secret {
                HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.secondFactorEnable.path), .boolean("novalidate")) {
                    csrfInput(csrfToken)
                    input(.type("hidden"), .name("secret"), .value(secret))
                    p { l10n(.adminSecondFactorScan) }
                    if let picture { qrSVG(picture, label: l10n(.adminSecondFactorQRLabel)) }
                    p(.class("muted small")) { l10n(.adminSecondFactorKey) }
                    p { code(.class("totp-key")) { stride(from: 0, to: secret.count, by: 4).map { offset in
                        String(secret.dropFirst(offset).prefix(4)) }.joined(separator: " ") } }
                    codeField(l10n)
                    button(.type("submit"), .class("button button-primary")) { l10n(.adminSecondFactorTurnOn) }
                }
            }
        }
    }

    private static func codeField(_ l10n: Localizer) -> Node {
        div(.class("field")) {
            label(.for("code")) { l10n(.adminCodeLabel) }
            input(.type("text"), .name("code"), .id("code"), .inputmode("numeric"), .autocomplete("one-time-code"),
                  .pattern("[0-9 ]*"), .maxlength(7), .required(true))
        }
    }

    /// A QR code as one SVG path (a square of 1×1 per dark module, 4 modules of quiet zone).
    static func qrSVG(_ picture: (size: Int, modules: [Bool]), label: String) -> Node {
        let quiet = 4, side = picture.size + 2 * quiet
        var path = ""
        path.reserveCapacity(picture.modules.count * 4)
        for y in 0..<picture.size {
            for x in 0..<picture.size where picture.modules[y * picture.size + x] {
                path += "M\(x + quiet) \(y + quiet)h1v1h-1z"
            }
        }
        return .element("svg", [.attribute("xmlns", "http://www.w3.org/2000/svg"), .attribute("viewbox", "0 0 \(side) \(side)"),
                                .class("totp-qr"), .role("img"), .aria("label", label), .attribute("shape-rendering", "crispedges")], [
            .element("rect", [.attribute("width", String(side)), .attribute("height", String(side)), .attribute("fill", "#fff")], []),
            .element("path", [.attribute("d", path), .attribute("fill", "#000")], []),
        ])
    }

    static func account(_ form: AccountForm, member: StaffMember?, csrfToken: String, l10n: Localizer) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminAccountTitle) }
            if let member {
                p { member.name + " · " + member.email + " · " + roleName(member.role, l10n) }
            }
            HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.accountPassword.path), .boolean("novalidate")) {
                h2 { l10n(.accountChangePassword) }
                csrfInput(csrfToken)
                FormField(label: l10n(.fieldCurrentPassword), name: "current_password", id: "current_password", type: "password",
                          errors: form.errors("current_password"), autocomplete: "current-password")
                FormField(label: l10n(.fieldNewPassword), name: "password", id: "password", type: "password",
                          errors: form.errors("password"), autocomplete: "new-password", hint: l10n(.passwordHint))
                FormField(label: l10n(.fieldPasswordConfirmation), name: "password_confirmation", id: "password_confirmation",
                          type: "password", errors: form.errors("password_confirmation"), autocomplete: "new-password")
                p(.class("muted small")) { l10n(.adminPasswordHint) }
                button(.type("submit"), .class("button button-primary")) { l10n(.accountChangePassword) }
            }
            div(.class("form-card")) {
                h2 { l10n(.adminSecondFactorTitle) }
                p(.class("muted small")) { l10n(.adminSecondFactorIntro) }
                a(.class("button"), .href(AdminRoute.secondFactor.path)) { l10n(.adminSecondFactorManage) }
            }
        }
    }

    static func csrfInput(_ token: String) -> Node {
        input(.type("hidden"), .name(ShopApp.csrfField), .value(token))
    }

    static func roleName(_ role: StaffRole, _ l10n: Localizer) -> String {
        switch role {
        case .owner: l10n(.adminRoleOwner)
        case .manager: l10n(.adminRoleManager)
        case .support: l10n(.adminRoleSupport)
        }
    }

    static func permissionText(_ permission: StaffPermission, _ l10n: Localizer) -> String {
        switch permission {
        case .viewOrders: l10n(.adminPermissionViewOrders)
        case .manageOrders: l10n(.adminPermissionManageOrders)
        case .cancelUnpaidOrders: l10n(.adminPermissionCancelUnpaidOrders)
        case .viewCustomers: l10n(.adminPermissionViewCustomers)
        case .manageCatalog: l10n(.adminPermissionManageCatalog)
        case .manageCampaigns: l10n(.adminPermissionManageCampaigns)
        case .manageStaff: l10n(.adminPermissionManageStaff)
        case .viewAudit: l10n(.adminPermissionViewAudit)
        case .emailCustomers: l10n(.adminPermissionEmailCustomers)
        }
    }

    static func actionLabel(_ action: OrderAction, _ l10n: Localizer) -> String {
        switch action {
        case .markPaid: l10n(.adminActionMarkPaid)
        case .fulfil: l10n(.adminActionFulfil)
        case .markDelivered: l10n(.adminActionMarkDelivered)
        case .cancel: l10n(.adminActionCancel)
        case .refund: l10n(.adminActionRefund)
        }
    }

    /// What was wrong with a refund, for the staff member.
    static func refundProblem(_ error: RefundError, _ l10n: Localizer) -> String {
        switch error {
        case .nothingToRefund, .unknownLine, .repeatedLine: l10n(.adminRefundNothing)
        case let .quantityNotAvailable(line, remaining):
            l10n.count(remaining, .adminRefundTooMany, ["line": l10n.number(line)])
        }
    }

    static func statusPill(_ status: OrderStatus, _ l10n: Localizer) -> Node {
        span(.class("status-pill \(Views.statusClass(status))")) { Views.statusText(status, l10n) }
    }

    // MARK: Pages

    static func signIn(form: AccountForm, next: String?, csrfToken: String, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.adminSignInTitle) }
            p(.class("muted")) { l10n(.adminSignInIntro) }
            HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.signInSubmit.path), .boolean("novalidate")) {
                csrfInput(csrfToken)
                if let next { input(.type("hidden"), .name("next"), .value(next)) }
                if let alert = form.alert { p(.class("form-alert"), .role("alert")) { alert } }
                FormField(label: l10n(.fieldEmail), name: "email", id: "email", type: "email", value: form.value("email"),
                          autocomplete: "username")
                FormField(label: l10n(.fieldPassword), name: "password", id: "password", type: "password",
                          autocomplete: "current-password")
                button(.type("submit"), .class("button button-primary")) { l10n(.signInSubmit) }
            }
        }
    }

    /// An error or refusal: its code, what happened, and the way back to the overview.
    static func message(title: String, code: String, text: String, l10n: Localizer) -> Node {
        div(.class("empty-state")) {
            p(.class("error-code"), .aria("hidden", "true")) { code }
            h1 { title }
            p { text }
            a(.class("button button-primary"), .href(AdminRoute.home.path)) { l10n(.adminNavHome) }
        }
    }

    static func home(counts: [(OrderStatus, Int)], summary: SalesSummary?, lowStock: [LowStockVariant], failingEmails: Int,
                     l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminHomeTitle) }
            if let summary {
                ul(.class("admin-stats")) {
                    li(.class("admin-stat")) {
                        span(.class("muted small")) { l10n(.adminDashToday) }
                        strong { l10n.count(summary.today.orders, .adminHomeOrderCount) }
                        span { l10n.money(summary.today.sales) }
                    }
                    li(.class("admin-stat")) {
                        span(.class("muted small")) { l10n(.adminDashLast30) }
                        strong { l10n.count(summary.orders, .adminHomeOrderCount) }
                        span { l10n(.adminDashSales) + ": " + l10n.money(summary.sales) }
                    }
                    li(.class("admin-stat")) {
                        span(.class("muted small")) { l10n(.adminDashAverage) }
                        strong { summary.averageOrder.map { l10n.money($0) } ?? "—" }
                    }
                }
                div(.class("form-card")) {
                    h2 { l10n(.adminDashChartTitle) }
                    ordersChart(summary, l10n: l10n, timeZone: timeZone)
                }
                div(.class("admin-columns")) {
                    div(.class("form-card")) {
                        h2 { l10n(.adminDashTop) }
                        if summary.topProducts.isEmpty { p(.class("muted")) { l10n(.adminDashNoSales) } }
                        for product in summary.topProducts {
                            div(.class("summary-row admin-row")) {
                                span { product.title }
                                span(.class("muted small")) { l10n.count(product.units, .adminDashUnits) + " · " + l10n.money(product.sales) }
                            }
                        }
                    }
                    div(.class("form-card")) {
                        h2 { l10n(.adminDashLowStock) }
                        if lowStock.isEmpty { p(.class("muted")) { l10n(.adminDashLowStockNone) } }
                        for variant in lowStock {
                            div(.class("summary-row admin-row")) {
                                span { variant.productTitle + (variant.sku.map { " · " + $0 } ?? "") }
                                // Oversold (below zero, backorders) warns like none left; the number keeps its
                                // sign ("-1 left", not the "one" form's "1 left": a fresh tester's).
                                span(.class(variant.stock <= 0 ? "status-pill status-warn" : "muted small")) {
                                    l10n.count(variant.stock, .adminDashLeft)
                                }
                            }
                        }
                        h2 { l10n(.adminDashEmails) }
                        p(.class(failingEmails > 0 ? "form-alert" : "muted"), .role(failingEmails > 0 ? "alert" : "status")) {
                            failingEmails > 0 ? l10n.count(failingEmails, .adminDashEmailsFailing) : l10n(.adminDashEmailsNone)
                        }
                    }
                }
            }
            if !counts.isEmpty {
                h2(.class("admin-subtitle")) { l10n(.adminHomeByStatus) }
                ul(.class("admin-stats")) {
                    for (status, count) in counts {
                        li {
                            a(.class("admin-stat"), .href(AdminRoute.orders(AdminOrderFilter(status: status)).path)) {
                                statusPill(status, l10n)
                                strong { l10n.count(count, .adminHomeOrderCount) }
                            }
                        }
                    }
                }
            }
        }
    }

    static func staff(_ members: [StaffMember], csrfToken: String, l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminStaffTitle) }
            div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminStaffTitle))) {
                table(.class("admin-table")) {
                    thead {
                        tr {
                            th(.scope("col")) { l10n(.adminColumnEmail) }
                            th(.scope("col")) { l10n(.adminColumnName) }
                            th(.scope("col")) { l10n(.adminColumnRole) }
                            th(.scope("col")) { l10n(.adminStaffRemove) }
                        }
                    }
                    tbody {
                        for member in members {
                            tr {
                                td { member.email }
                                td { member.name }
                                td {
                                    HTML.form(.class("admin-inline"), .method("post"), .action(AdminRoute.staffRole(member.id).path)) {
                                        csrfInput(csrfToken)
                                        select(.name("role"), .aria("label", l10n(.adminColumnRole) + ": " + member.email)) {
                                            for role in StaffRole.allCases {
                                                option(.value(role.rawValue), .selected(role == member.role)) { roleName(role, l10n) }
                                            }
                                        }
                                        button(.type("submit"), .class("button button-small")) { l10n(.adminStaffChangeRole) }
                                    }
                                }
                                td {
                                    HTML.form(.method("post"), .action(AdminRoute.staffRemove(member.id).path)) {
                                        csrfInput(csrfToken)
                                        button(.type("submit"), .class("button button-small button-danger"),
                                               .aria("label", l10n(.adminStaffRemove) + ": " + member.email)) { l10n(.adminStaffRemove) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            p(.class("muted small")) { l10n(.adminStaffHint) }
        }
    }

    static func orders(_ found: OrderPage, filter: AdminOrderFilter, dateErrors: Set<String>, pageSize: Int,
                       l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminOrdersTitle) }
            HTML.form(.class("form-card admin-filters"), .method("get"), .action(AdminRoute.orders(AdminOrderFilter()).path)) {
                div(.class("field")) {
                    label(.for("status")) { l10n(.adminFilterStatus) }
                    select(.name("status"), .id("status")) {
                        option(.value(""), .selected(filter.status == nil)) { l10n(.adminFilterAnyStatus) }
                        for status in OrderStatus.allCases {
                            option(.value(status.rawValue), .selected(filter.status == status)) { Views.statusText(status, l10n) }
                        }
                    }
                }
                dateField("from", l10n(.adminFilterFrom), filter.from, invalid: dateErrors.contains("from"), l10n)
                dateField("to", l10n(.adminFilterTo), filter.to, invalid: dateErrors.contains("to"), l10n)
                FormField(label: l10n(.adminFilterCustomer), name: "customer", id: "customer", type: "text", value: filter.customer,
                          autocomplete: "off", required: false)
                FormField(label: l10n(.adminFilterNumber), name: "number", id: "number", type: "text", value: filter.number,
                          autocomplete: "off", required: false)
                div(.class("admin-filter-buttons")) {
                    button(.type("submit"), .class("button button-primary")) { l10n(.adminFilterApply) }
                    a(.class("button"), .href(AdminRoute.orders(AdminOrderFilter()).path)) { l10n(.adminFilterClear) }
                }
            }
            if found.orders.isEmpty {
                div(.class("empty-state")) { p { l10n(.adminOrdersEmpty) } }
            } else {
                pageRange(page: filter.page, pageSize: pageSize, shown: found.orders.count, total: found.total, l10n)
                div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminOrdersTitle))) {
                    table(.class("admin-table")) {
                        thead {
                            tr {
                                th(.scope("col")) { l10n(.adminColumnNumber) }
                                th(.scope("col")) { l10n(.adminColumnPlaced) }
                                th(.scope("col")) { l10n(.adminColumnCustomer) }
                                th(.scope("col"), .class("numeric")) { l10n(.adminColumnTotal) }
                                th(.scope("col")) { l10n(.adminColumnStatus) }
                            }
                        }
                        tbody {
                            for order in found.orders {
                                tr {
                                    td { a(.href(AdminRoute.order(number: order.number).path)) { strong { order.number } } }
                                    td { l10n.date(order.placedAt, timeZone: timeZone) + " " + l10n.time(order.placedAt, timeZone: timeZone) }
                                    td { order.email }
                                    td(.class("numeric")) { l10n.money(order.total) }
                                    td { statusPill(order.status, l10n) }
                                }
                            }
                        }
                    }
                }
                pager(page: filter.page, pageSize: pageSize, total: found.total, label: l10n(.adminOrdersTitle), l10n) { page in
                    var other = filter
                    other.page = page
                    return AdminRoute.orders(other).path
                }
            }
        }
    }

    /// An audit entry's action in the staff member's language: an order step by its button's
    /// label, the others by name; anything unknown as stored.
    static func auditAction(_ action: String, _ l10n: Localizer) -> String {
        if let step = OrderAction(rawValue: action) { return actionLabel(step, l10n) }
        return switch action {
        case "create": l10n(.adminAuditActionCreate)
        case "update": l10n(.adminAuditActionUpdate)
        case "delete": l10n(.adminAuditActionDelete)
        case "set": l10n(.adminAuditActionSet)
        case "import": l10n(.adminAuditActionImport)
        case "send-verification-email": l10n(.adminAuditActionSendVerification)
        case "send-password-reset": l10n(.adminAuditActionSendReset)
        default: action
        }
    }

    /// A changed field's name in the staff member's language, for the fields the shop's own
    /// entries use and a campaign's (named by `Mirror`); anything unknown as stored.
    static func auditField(_ field: String, _ l10n: Localizer) -> String {
        if let line = field.wholeMatch(of: /line (\d+) refunded/) {
            return l10n(.adminAuditFieldLineRefunded, ["line": String(line.1)])
        }
        // A product's fields (`ProductAudit`): per variant and per image.
        if let variant = field.wholeMatch(of: /variant (.+) (sku|price|compareAtPrice|stock)/) {
            let label = switch variant.2 {
            case "sku": l10n(.adminFieldSKU)
            case "price": l10n(.adminColumnPrice)
            case "compareAtPrice": l10n(.adminFieldCompareAt, ["currency": ""]).replacingOccurrences(of: " ()", with: "")
            default: l10n(.adminColumnStock)
            }
            // A variant without a SKU is named by its position.
            return (Int(variant.1) != nil ? "#\(variant.1)" : String(variant.1)) + ": \(label)"
        }
        if let image = field.wholeMatch(of: /image (\d+) alt/) { return l10n(.adminFieldAltText, ["number": String(image.1)]) }
        return switch field {
        case "status": l10n(.adminAuditFieldStatus)
        case "carrier": l10n(.adminAuditFieldCarrier)
        case "trackingNumber": l10n(.adminAuditFieldTracking)
        case "itemsReturnedToStock": l10n(.adminAuditFieldItemsBack)
        case "refundOwed": l10n(.adminAuditFieldRefund)
        case "stock": l10n(.adminAuditFieldStock)
        case "tracked": l10n(.adminAuditFieldTracked)
        case "email": l10n(.adminColumnEmail)
        // An account's fields (`AccountAudit`).
        case "phone": l10n(.fieldPhone)
        case "password": l10n(.fieldPassword)
        case "username": l10n(.adminAuditFieldUsername)
        case "address": l10n(.adminAuditFieldAddress)
        case "name": l10n(.adminColumnName)
        case "role": l10n(.adminColumnRole)
        // A campaign's fields, by the labels of the campaign form.
        case "title": l10n(.adminFieldTitle)
        case "description": l10n(.adminFieldDescription)
        case "imageURL": l10n(.adminFieldImage)
        case "startsAt": l10n(.adminFieldStarts)
        case "endsAt": l10n(.adminFieldEnds)
        case "discount": l10n(.adminAuditFieldDiscount)
        case "target": l10n(.adminAuditFieldTarget)
        case "minimumSubtotal": l10n(.adminFieldMinimum, ["currency": ""]).replacingOccurrences(of: " ()", with: "")
        case "voucherCode": l10n(.adminFieldCode)
        case "usageLimitPerAccount": l10n(.adminFieldLimit)
        case "isPaused": l10n(.adminCampaignStatePaused)
        case "vendor": l10n(.adminFieldVendor)
        case "category": l10n(.adminFieldCategory)
        case "tags": l10n(.adminFieldTags)
        case "published": l10n(.adminVisibilityPublished)
        case "language": l10n(.languageLabel)
        default: field
        }
    }

    /// A value as the staff member reads it: an order status by its name, a role by its name,
    /// `N CUR minor units` as money, nothing as "none", a time in the shop's time zone, a
    /// campaign's discount and target as its list says them, a language by its name; anything
    /// else as stored. (A fresh tester read `percentage(20)`, `category(handle: "textiles")`,
    /// `none` and `2027-02-28T23:00:00Z` on Spanish pages.)
    static func auditValue(_ value: String?, of field: String = "", _ l10n: Localizer, timeZone: TimeZone) -> String {
        guard let value, value != "none" else { return l10n(.adminAuditNone) }
        if let text = campaignAuditValue(value, l10n) { return text }
        if value.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil,
           let date = ISO8601DateFormatter().date(from: value) {
            return l10n.date(date, timeZone: timeZone) + " " + l10n.time(date, timeZone: timeZone)
        }
        if field == "language", let language = Language(rawValue: value) { return language.nativeName }
        if let status = OrderStatus(rawValue: value) { return Views.statusText(status, l10n) }
        if let role = StaffRole(rawValue: value) { return roleName(role, l10n) }
        if let money = value.wholeMatch(of: /(-?\d+) ([A-Z]{3}) minor units/), let minor = Int64(money.1),
           let currency = try? Currency(code: String(money.2)) {
            return l10n.money(Money(minorUnits: minor, currency: currency))
        }
        if let units = value.wholeMatch(of: /(\d+) × \((-?\d+) ([A-Z]{3}) minor units\)/), let minor = Int64(units.2),
           let currency = try? Currency(code: String(units.3)) {
            return "\(units.1) · " + l10n.money(Money(minorUnits: minor, currency: currency))
        }
        // The few words the shop's own entries use (`published`, a password "changed").
        return switch value {
        case "true": l10n(.adminYes)
        case "false": l10n(.adminNo)
        case "changed": l10n(.adminAuditValueChanged)
        case "untracked": l10n(.adminAuditValueUntracked)
        case "shopper": l10n(.adminAuditValueShopper)
        case "operator": l10n(.adminAuditValueOperator)
        default: value
        }
    }

    /// A campaign's discount or target as the audit stores it (`AuditChange.text`: the value's
    /// description), as the campaign list says it; nil for another value.
    static func campaignAuditValue(_ value: String, _ l10n: Localizer) -> String? {
        if value == "wholeCart" { return targetText(.wholeCart, l10n) }
        if let match = value.wholeMatch(of: /percentage\((\d+)\)/), let percent = Int(match.1) {
            return discountText(.percentage(percent), l10n)
        }
        if let match = value.wholeMatch(of: /fixedAmount\((.+)\)/),
           let amount = try? Money.parse(String(match.1.split(separator: " ").first ?? ""),
                                         currency: Currency(code: String(match.1.split(separator: " ").last ?? ""))) {
            return discountText(.fixedAmount(amount), l10n)
        }
        if let match = value.wholeMatch(of: /category\(handle: "(.*)"\)/) { return targetText(.category(handle: String(match.1)), l10n) }
        if let match = value.wholeMatch(of: /products\(handles: \[(.*)\]\)/) {
            let handles = match.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            return targetText(.products(handles: handles), l10n)
        }
        return nil
    }

    static func sourceName(_ source: AuditSource, _ l10n: Localizer) -> String {
        switch source {
        case .backOffice: l10n(.adminSourceBackOffice)
        case .cli: l10n(.adminSourceCli)
        case .shop: l10n(.adminSourceShop)
        case .api: l10n(.adminSourceApi)
        }
    }

    static func subjectName(_ subject: String, _ l10n: Localizer) -> String {
        switch subject {
        case "order": l10n(.adminSubjectOrder)
        case "staff": l10n(.adminSubjectStaff)
        case "stock": l10n(.adminSubjectStock)
        case "campaign": l10n(.adminSubjectCampaign)
        case "product": l10n(.adminSubjectProduct)
        case "customer": l10n(.adminSubjectCustomer)
        default: subject
        }
    }

    static func audit(_ found: AuditPage, filter: AdminAuditFilter, pageSize: Int, l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminAuditTitle) }
            p(.class("muted")) { l10n(.adminAuditIntro) }
            HTML.form(.class("form-card admin-filters"), .method("get"), .action(AdminRoute.audit(AdminAuditFilter()).path)) {
                div(.class("field")) {
                    label(.for("source")) { l10n(.adminFilterSource) }
                    select(.name("source"), .id("source")) {
                        option(.value(""), .selected(filter.source == nil)) { l10n(.adminFilterAnySource) }
                        for source in AuditSource.allCases {
                            option(.value(source.rawValue), .selected(filter.source == source)) { sourceName(source, l10n) }
                        }
                    }
                }
                div(.class("field")) {
                    label(.for("subject")) { l10n(.adminFilterSubject) }
                    select(.name("subject"), .id("subject")) {
                        option(.value(""), .selected(filter.subject.isEmpty)) { l10n(.adminFilterAnySubject) }
                        for subject in AdminAuditFilter.subjects {
                            option(.value(subject), .selected(filter.subject == subject)) { subjectName(subject, l10n) }
                        }
                    }
                }
                FormField(label: l10n(.adminFilterActor), name: "actor", id: "actor", type: "text", value: filter.actor,
                          autocomplete: "off", required: false)
                FormField(label: l10n(.adminFilterSubjectID), name: "subject_id", id: "subject_id", type: "text",
                          value: filter.subjectID, autocomplete: "off", required: false)
                div(.class("admin-filter-buttons")) {
                    button(.type("submit"), .class("button button-primary")) { l10n(.adminFilterApply) }
                    a(.class("button"), .href(AdminRoute.audit(AdminAuditFilter()).path)) { l10n(.adminFilterClear) }
                }
            }
            if found.entries.isEmpty {
                div(.class("empty-state")) { p { l10n(.adminAuditEmpty) } }
            } else {
                pageRange(page: filter.page, pageSize: pageSize, shown: found.entries.count, total: found.total, l10n)
                div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminAuditTitle))) {
                    table(.class("admin-table admin-audit")) {
                        thead {
                            tr {
                                th(.scope("col")) { l10n(.adminColumnWhen) }
                                th(.scope("col")) { l10n(.adminColumnWho) }
                                th(.scope("col")) { l10n(.adminColumnWhat) }
                                th(.scope("col")) { l10n(.adminColumnChanges) }
                            }
                        }
                        tbody {
                            for entry in found.entries {
                                tr {
                                    td { l10n.date(entry.at, timeZone: timeZone) + " " + l10n.time(entry.at, timeZone: timeZone) }
                                    td {
                                        span { entry.actor }
                                        br()
                                        span(.class("muted small")) { sourceName(entry.source, l10n) }
                                    }
                                    td {
                                        if entry.subject == "order" {
                                            a(.href(AdminRoute.order(number: entry.subjectID).path)) { entry.subjectID }
                                        } else {
                                            span { entry.subjectID }
                                        }
                                        br()
                                        span(.class("muted small")) { subjectName(entry.subject, l10n) + " · " + auditAction(entry.action, l10n) }
                                    }
                                    td {
                                        ul(.class("admin-changes")) {
                                            for change in entry.changes {
                                                li {
                                                    strong { auditField(change.field, l10n) }
                                                    ": " + auditValue(change.before, of: change.field, l10n, timeZone: timeZone) + " → "
                                                        + auditValue(change.after, of: change.field, l10n, timeZone: timeZone)
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                pager(page: filter.page, pageSize: pageSize, total: found.total, label: l10n(.adminAuditTitle), l10n) { page in
                    var other = filter
                    other.page = page
                    return AdminRoute.audit(other).path
                }
            }
        }
    }

    static func customers(_ users: [User], total: Int, query: String, page: Int, pageSize: Int, l10n: Localizer,
                          timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminCustomersTitle) }
            HTML.form(.class("form-card admin-search"), .method("get"), .action(AdminRoute.customers(query: "", page: 1).path)) {
                FormField(label: l10n(.adminCustomersSearch), name: "q", id: "q", type: "search", value: query, autocomplete: "off",
                          required: false)
                div(.class("admin-filter-buttons")) {
                    button(.type("submit"), .class("button button-primary")) { l10n(.adminFilterApply) }
                    a(.class("button"), .href(AdminRoute.customers(query: "", page: 1).path)) { l10n(.adminFilterClear) }
                }
            }
            if users.isEmpty {
                div(.class("empty-state")) { p { l10n(.adminCustomersEmpty) } }
            } else {
                pageRange(page: page, pageSize: pageSize, shown: users.count, total: total, l10n)
                div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminCustomersTitle))) {
                    table(.class("admin-table")) {
                        thead {
                            tr {
                                th(.scope("col")) { l10n(.adminColumnEmail) }
                                th(.scope("col")) { l10n(.adminColumnName) }
                                th(.scope("col")) { l10n(.adminColumnVerified) }
                                th(.scope("col")) { l10n(.adminColumnJoined) }
                            }
                        }
                        tbody {
                            for user in users {
                                tr {
                                    td { a(.href(AdminRoute.customer(user.id).path)) { user.email } }
                                    td { user.name }
                                    td { user.isVerified ? l10n(.adminYes) : l10n(.adminNo) }
                                    td { l10n.date(user.createdAt, timeZone: timeZone) }
                                }
                            }
                        }
                    }
                }
                pager(page: page, pageSize: pageSize, total: total, label: l10n(.adminCustomersTitle), l10n) {
                    AdminRoute.customers(query: query, page: $0).path
                }
            }
        }
    }

    /// An account as staff see it: who, whether the email is confirmed, language, addresses and
    /// orders; never a password's hash or a token (the `User` value holds neither).
    static func customer(_ user: User, addresses: [Address], orders: [Order], mayEmail: Bool, csrfToken: String,
                         l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            h1(.class("page-title")) { l10n(.adminCustomerTitle, ["name": user.name]) }
            div(.class("admin-columns")) {
                div(.class("form-card")) {
                    p { a(.href("mailto:" + user.email)) { user.email } }
                    p(.class("muted small")) {
                        l10n(.adminColumnVerified) + ": " + (user.isVerified ? l10n(.adminYes) : l10n(.adminNo))
                    }
                    p(.class("muted small")) { l10n(.adminColumnJoined) + ": " + l10n.date(user.createdAt, timeZone: timeZone) }
                    if let language = user.locale {
                        p(.class("muted small")) { l10n(.adminCustomerLanguage, ["language": language.nativeName]) }
                    }
                    if !user.profile.phone.isEmpty { p(.class("muted small")) { user.profile.phone } }
                    if user.isOperator { p { span(.class("status-pill status-muted")) { l10n(.adminCustomerOperator) } } }
                }
                if mayEmail {
                    div(.class("form-card")) {
                        h2 { l10n(.adminCustomerEmails) }
                        p(.class("muted small")) { l10n(.adminCustomerEmailsHint) }
                        if !user.isVerified {
                            HTML.form(.method("post"), .action(AdminRoute.customerVerificationEmail(user.id).path)) {
                                csrfInput(csrfToken)
                                button(.type("submit"), .class("button"), .data("action", "verification-email")) {
                                    l10n(.adminCustomerResendVerification)
                                }
                            }
                        }
                        HTML.form(.method("post"), .action(AdminRoute.customerPasswordReset(user.id).path)) {
                            csrfInput(csrfToken)
                            button(.type("submit"), .class("button"), .data("action", "password-reset")) { l10n(.adminCustomerSendReset) }
                        }
                    }
                }
            }
            div(.class("form-card")) {
                h2 { l10n(.adminColumnOrders) }
                if orders.isEmpty { p(.class("muted")) { l10n(.adminCustomerNoOrders) } }
                for order in orders {
                    div(.class("summary-row admin-row")) {
                        span {
                            a(.href(AdminRoute.order(number: order.number).path)) { order.number }
                            " "
                            span(.class("muted small")) { l10n.date(order.placedAt, timeZone: timeZone) }
                        }
                        span {
                            statusPill(order.status, l10n)
                            " " + l10n.money(order.total)
                        }
                    }
                }
            }
            div(.class("form-card")) {
                h2 { l10n(.adminCustomerAddresses) }
                if addresses.isEmpty { p(.class("muted")) { l10n(.adminCustomerNoAddresses) } }
                for address in addresses {
                    p { address.lines(in: l10n.language).joined(separator: ", ") }
                }
            }
        }
    }

    /// Orders per day as bars, drawn on the server as SVG (no script): one bar per day, scaled to
    /// the busiest, with the chart's text for screen readers and a `<title>` per bar. Attribute
    /// names are written in lower case: the HTML parser gives SVG its `viewBox`.
    static func ordersChart(_ summary: SalesSummary, l10n: Localizer, timeZone: TimeZone) -> Node {
        let width = 600, height = 160, gap = 2
        let most = summary.days.map(\.orders).max() ?? 0
        let barWidth = (width - gap * (summary.days.count - 1)) / max(1, summary.days.count)
        let busiest = summary.days.last { $0.orders == most }
        let description = most == 0 ? l10n(.adminDashNoSales)
            : l10n(.adminDashChartDesc, ["most": l10n.number(most), "day": l10n.date(busiest?.start ?? Date(), timeZone: timeZone)])
        var bars: [Node] = []
        for (index, day) in summary.days.enumerated() {
            let barHeight = most == 0 ? 0 : max(day.orders > 0 ? 2 : 0, day.orders * (height - 4) / most)
            bars.append(.element("rect", [
                .attribute("class", index == summary.days.count - 1 ? "chart-bar chart-today" : "chart-bar"),
                .attribute("x", String(index * (barWidth + gap))), .attribute("y", String(height - barHeight)),
                .attribute("width", String(barWidth)), .attribute("height", String(barHeight)),
            ], [.element("title", [], [.text(l10n.date(day.start, timeZone: timeZone) + ": "
                                                   + l10n.count(day.orders, .adminHomeOrderCount))])]))
        }
        bars.append(.element("line", [.attribute("class", "chart-axis"), .attribute("x1", "0"), .attribute("x2", String(width)),
                                      .attribute("y1", String(height)), .attribute("y2", String(height))], []))
        return .element("svg", [.attribute("class", "admin-chart"), .attribute("viewbox", "0 0 \(width) \(height + 1)"),
                                .attribute("role", "img"), .attribute("aria-label", l10n(.adminDashChartTitle) + ". " + description),
                                .attribute("preserveaspectratio", "none")],
                        bars)
    }

    /// "51–100 of 123": which rows of how many this page shows.
    static func pageRange(page: Int, pageSize: Int, shown: Int, total: Int, _ l10n: Localizer) -> Node {
        let first = (page - 1) * pageSize + 1
        return p(.class("muted small"), .role("status")) {
            l10n(.adminOrdersRange, ["from": l10n.number(first), "to": l10n.number(first + shown - 1), "total": l10n.number(total)])
        }
    }

    /// Previous and next links of a paged list; `link` prints the URL of a page.
    static func pager(page: Int, pageSize: Int, total: Int, label: String, _ l10n: Localizer,
                      link: (Int) -> String) -> Node {
        nav(.class("admin-pages"), .aria("label", label)) {
            if page > 1 {
                a(.class("button button-small"), .rel("prev"), .href(link(page - 1))) { l10n(.adminPagePrevious) }
            }
            if page * pageSize < total {
                a(.class("button button-small"), .rel("next"), .href(link(page + 1))) { l10n(.adminPageNext) }
            }
        }
    }

    private static func dateField(_ name: String, _ label: String, _ value: String, invalid: Bool, _ l10n: Localizer) -> Node {
        div(.class(invalid ? "field field-invalid" : "field")) {
            HTML.label(.for(name)) { label }
            input(.type("date"), .name(name), .id(name), .value(value), .aria("invalid", invalid ? "true" : "false"),
                  .aria("describedby", "\(name)-help"))
            div(.id("\(name)-help")) {
                if invalid { ul(.class("field-errors")) { li { l10n(.adminFilterBadDate) } } }
            }
        }
    }

    static func order(_ order: Order, history: [OrderEvent], steps: [OrderAction], csrfToken: String, payment: String,
                      l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack admin-order")) {
            h1(.class("page-title")) { l10n(.adminOrderTitle, ["number": order.number]) }
            p {
                statusPill(order.status, l10n)
                " "
                span(.class("muted small")) { l10n.date(order.placedAt, timeZone: timeZone) + " " + l10n.time(order.placedAt, timeZone: timeZone) }
            }
            div(.class("admin-columns")) {
                div(.class("form-card")) {
                    h2 { l10n(.adminOrderNextSteps) }
                    if steps.allSatisfy({ $0 == .refund }) { p(.class("muted")) { l10n(.adminOrderNoSteps) } }
                    for action in steps where action != .refund {
                        HTML.form(.class("admin-step admin-step-\(action.rawValue)"), .method("post"),
                                  .action(AdminRoute.orderAction(number: order.number, action: action).path)) {
                            csrfInput(csrfToken)
                            input(.type("hidden"), .name("expecting"), .value(order.status.rawValue))
                            if action == .fulfil {
                                FormField(label: l10n(.adminFieldCarrier), name: "carrier", id: "carrier", type: "text",
                                          autocomplete: "off", maxLength: Fulfilment.maximumLength)
                                FormField(label: l10n(.adminFieldTracking), name: "tracking", id: "tracking", type: "text",
                                          autocomplete: "off", maxLength: Fulfilment.maximumLength)
                            }
                            if action == .cancel { p(.class("muted small")) { l10n(.adminActionCancelHint) } }
                            button(.type("submit"), .class(action == .cancel ? "button button-danger" : "button button-primary"),
                                   .data("action", action.rawValue)) { actionLabel(action, l10n) }
                        }
                    }
                }
                div(.class("form-card")) {
                    h2 { l10n(.adminOrderCustomer) }
                    p { a(.href("mailto:" + order.email)) { order.email } }
                    p(.class("muted small")) {
                        order.userID.map { l10n(.adminOrderAccount, ["id": String($0.rawValue)]) } ?? l10n(.adminOrderGuest)
                    }
                    if order.userID != nil {
                        p { a(.href(SiteRoute.orders(.order(number: order.number, token: nil)).path)) { l10n(.adminOrderShopperPage) } }
                    }
                    p(.class("muted small")) { l10n(.orderShipTo) }
                    for line in order.shippingAddress.lines(in: l10n.language) { p { line } }
                    if let fulfilment = order.fulfilment {
                        p { strong { l10n(.orderShippedWith, ["carrier": fulfilment.carrier]) } }
                        p { l10n(.orderTrackingNumber, ["number": fulfilment.trackingNumber]) }
                    }
                }
            }
            Views.orderSummary(order, refunded: order.refundedInAll(history: history), l10n: l10n)
            if steps.contains(.refund), order.lines.contains(where: { $0.refundedQuantity < $0.quantity }) {
                HTML.form(.class("form-card admin-refund"), .method("post"),
                          .action(AdminRoute.orderAction(number: order.number, action: .refund).path)) {
                    h2 { l10n(.adminRefundTitle) }
                    p(.class("muted small")) { l10n(.adminRefundHint) }
                    csrfInput(csrfToken)
                    input(.type("hidden"), .name("expecting"), .value(order.status.rawValue))
                    // The refunds as seen: this form sent twice refunds once (`refundedUnitsSeen`).
                    input(.type("hidden"), .name("refunded"), .value(String(order.refundedUnits)))
                    for (index, line) in order.lines.enumerated() where line.refundedQuantity < line.quantity {
                        let remaining = line.quantity - line.refundedQuantity
                        div(.class("field")) {
                            label(.for("line-\(index + 1)")) {
                                l10n(.adminRefundUnits, ["title": "\(index + 1). \(line.title)", "count": l10n.number(remaining)])
                            }
                            input(.type("number"), .name("line-\(index + 1)"), .id("line-\(index + 1)"), .min(0), .max(remaining),
                                  .value("0"), .inputmode("numeric"))
                            if line.refundedQuantity > 0 {
                                p(.class("field-hint")) { l10n.count(line.refundedQuantity, .orderRefundedUnits) }
                            }
                        }
                    }
                    button(.type("submit"), .class("button"), .data("action", "refund")) { l10n(.adminRefundSubmit) }
                }
            }
            if order.status == .awaitingPayment && !payment.isEmpty {
                div(.class("form-card")) {
                    h2 { l10n(.orderPaymentTitle) }
                    for line in payment.split(separator: "\n", omittingEmptySubsequences: false) { p { String(line) } }
                }
            }
            div(.class("form-card")) {
                h2 { l10n(.adminOrderHistory) }
                if history.isEmpty {
                    p(.class("muted")) { l10n(.adminOrderNoHistory) }
                } else {
                    div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminOrderHistory))) {
                        table(.class("admin-table")) {
                            thead {
                                tr {
                                    th(.scope("col")) { l10n(.adminColumnWhen) }
                                    th(.scope("col")) { l10n(.adminColumnWho) }
                                    th(.scope("col")) { l10n(.adminColumnStep) }
                                    th(.scope("col")) { l10n(.adminColumnStatus) }
                                }
                            }
                            tbody {
                                for event in history {
                                    tr {
                                        td { l10n.date(event.at, timeZone: timeZone) + " " + l10n.time(event.at, timeZone: timeZone) }
                                        td { event.actor }
                                        td {
                                            actionLabel(event.action, l10n)
                                            if let fulfilment = event.fulfilment {
                                                span(.class("muted small")) { " · " + fulfilment.carrier + " " + fulfilment.trackingNumber }
                                            }
                                            if event.itemsReturned > 0 {
                                                span(.class("muted small")) { " · " + l10n.count(event.itemsReturned, .adminItemsReturned) }
                                            }
                                            if event.refundedMinor > 0 {
                                                span(.class("muted small")) {
                                                    " · " + l10n(.adminRefundOwed, ["amount": l10n.money(Money(minorUnits: event.refundedMinor,
                                                                                                              currency: order.total.currency))])
                                                }
                                            }
                                        }
                                        td { Views.statusText(event.from, l10n) + " → " + Views.statusText(event.to, l10n) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
