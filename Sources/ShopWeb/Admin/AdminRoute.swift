import Foundation
public import ShopAPI
public import ShopCore
public import ShopStore

/// Every page and action of the back office (issue #16), declared once as the storefront's are
/// (`SiteRoute`): the declaration parses requests and prints links. What each route needs — no
/// session, a signed-in staff member, or a permission of their role — is ``access``, the one
/// table the role × route tests read.
public enum AdminRoute: Hashable, Sendable {
    /// `GET /admin` — orders by status, at a glance.
    case home
    /// `GET /admin/sign-in?next=/admin/…` and `POST` (email, password, next).
    case signIn(next: String?)
    case signInSubmit
    /// `GET /admin/sign-in/code` and `POST` (code) — the second step for an account with TOTP.
    case signInCode
    case signInCodeSubmit
    /// `GET /admin/account/second-factor` — a new secret as a QR code; `POST` (secret, code) turns
    /// it on; `POST /admin/account/second-factor/off` (code) turns it off.
    case secondFactor
    case secondFactorEnable
    case secondFactorDisable
    /// `POST /admin/sign-out`.
    case signOut
    /// `GET /admin/account` — the staff member's own account; `POST /admin/account/password`
    /// changes their password.
    case account
    case accountPassword
    /// `GET /admin/orders?status=&from=&to=&customer=&number=&page=`.
    case orders(AdminOrderFilter)
    /// `GET /admin/orders/{number}` — lines, totals, addresses, payment, history and the steps
    /// the order can take.
    case order(number: String)
    /// `POST /admin/orders/{number}/{action}` (expecting, carrier, tracking) — one step of the
    /// order's life (`OrderStatus.transition`).
    case orderAction(number: String, action: OrderAction)
    /// `GET /admin/staff` — who can sign in, with which role.
    case staff
    /// `POST /admin/staff/{id}/role` (role) and `POST /admin/staff/{id}/remove` — owners only.
    case staffRole(StaffMember.ID)
    case staffRemove(StaffMember.ID)
    /// `GET /admin/audit?source=&subject=&actor=&subject_id=&page=` — the audit log, newest first.
    case audit(AdminAuditFilter)
    /// `GET /admin/customers?q=&page=` — shoppers' accounts.
    case customers(query: String, page: Int)
    /// `GET /admin/customers/{id}` — an account: verified or not, addresses, orders.
    case customer(User.ID)
    /// `POST /admin/customers/{id}/verification-email` — the confirmation email again.
    case customerVerificationEmail(User.ID)
    /// `POST /admin/customers/{id}/password-reset` — a password-reset link, by email.
    case customerPasswordReset(User.ID)
    /// `GET /admin/products?q=&shown=&category=&page=` — every product, published or not.
    case products(AdminProductFilter)
    /// `GET /admin/products/export?format=shopify-csv|woocommerce-csv|shoppable-json` — the whole
    /// catalog as a file, as `shoppable export` writes it.
    case productsExport(format: String)
    /// `POST /admin/products/bulk` (product=ID…, change, value) — one change to every variant of
    /// the products ticked on the list, all in one transaction (`BulkChange`).
    case productsBulk
    /// `GET /admin/products/import` — the upload form; `POST` (multipart: `file`, `format`,
    /// `mode=check|import`) checks the file or imports it, all or nothing, as `shoppable import`.
    case productsImport
    case productsImportRun
    /// `GET /admin/products/import/{job}` — a check or import under way (the page reloads itself
    /// every second), then what it did (`ImportJobs`).
    case productsImportJob(String)
    /// `GET /admin/products/new` — a new product's form (one variant); `POST` adds it.
    case productNew
    case productCreate
    /// `GET /admin/products/{id}` — the product's form; `POST` saves it.
    case product(Product.ID)
    case productSave(Product.ID)
    /// `GET /admin/campaigns` — every campaign with its state, code, uses and revenue.
    case campaigns
    /// `GET /admin/campaigns/new` — the form; `POST /admin/campaigns` creates from it.
    case campaignNew
    case campaignCreate
    /// `GET /admin/campaigns/{id}/edit` — the form filled in; `POST` the same path saves it
    /// (with the `revision` the form was read at).
    case campaignEdit(Campaign.ID)
    case campaignSave(Campaign.ID)
    /// `POST /admin/campaigns/{id}/pause`, `…/resume` and `…/delete` (with `revision`).
    case campaignPause(Campaign.ID)
    case campaignResume(Campaign.ID)
    case campaignDelete(Campaign.ID)

    /// The steps the back office offers (a refund names its lines: `line-1=2`, …).
    public static let orderActions: [OrderAction] = [.markPaid, .fulfil, .markDelivered, .cancel, .refund]

    /// What a route needs before it runs.
    public enum Access: Hashable, Sendable {
        /// Nothing: the sign-in form.
        case anyone
        /// A session whose password was right and whose code is still to come.
        case awaitingCode
        /// A signed-in staff member, any role.
        case signedIn
        /// A signed-in staff member whose role has this permission.
        case permission(StaffPermission)
        /// Decided by what the route acts on: an order step needs
        /// `StaffRole.permission(for:from:)` of the order's status (support may cancel an unpaid
        /// order, nothing else), checked once the order is read.
        case orderStep
    }

    /// What this route needs.
    public var access: Access {
        switch self {
        case .signIn, .signInSubmit: .anyone
        case .signInCode, .signInCodeSubmit: .awaitingCode
        case .secondFactor, .secondFactorEnable, .secondFactorDisable: .signedIn
        case .home, .signOut, .account, .accountPassword: .signedIn
        case .orders, .order: .permission(.viewOrders)
        case .orderAction: .orderStep
        case .staff, .staffRole, .staffRemove: .permission(.manageStaff)
        case .audit: .permission(.viewAudit)
        case .customers, .customer: .permission(.viewCustomers)
        case .customerVerificationEmail, .customerPasswordReset: .permission(.emailCustomers)
        case .products, .product, .productSave, .productsExport, .productsBulk, .productsImport, .productsImportRun,
             .productsImportJob, .productNew, .productCreate:
            .permission(.manageCatalog)
        case .campaigns, .campaignNew, .campaignCreate, .campaignEdit, .campaignSave, .campaignPause, .campaignResume,
             .campaignDelete: .permission(.manageCampaigns)
        }
    }

    /// The site-relative URL (path and query, percent-encoded).
    public var path: String { Self.router.url(for: self) }

    /// `true` for routes that change state (POSTed with the back office's CSRF token).
    public var isAction: Bool { Self.router.declaration(for: self).declaration.traits.contains(.changesState) }

    /// Parses a request's method, decoded path and query; nil when nothing matches (404).
    public static func parse(method: String, path: String, query: [RouteRequest.QueryItem]) -> AdminRoute? {
        router.parse(RouteRequest(method: method, path: path, query: query))?.route
    }

    /// The methods under which this path would be a route (for 405's `Allow`).
    public static func allowedMethods(path: String, query: [RouteRequest.QueryItem]) -> [String] {
        ["GET", "POST"].filter { parse(method: $0, path: path, query: query) != nil }
    }

    typealias Declaration = RouteDeclaration<AdminRoute>

    private static func fixed(_ method: String, _ pattern: String, _ route: AdminRoute) -> Declaration {
        Declaration(method, pattern, method == "POST" ? [.changesState] : [],
                    make: { _ in route }, match: { $0 == route ? RouteParameters() : nil })
    }

    /// A route whose one path parameter `{id}` is a customer's account id.
    private static func customer(_ method: String, _ pattern: String, make: @escaping @Sendable (User.ID) -> AdminRoute,
                                 id: @escaping @Sendable (AdminRoute) -> User.ID?) -> Declaration {
        Declaration(method, pattern, method == "POST" ? [.changesState] : [],
                    make: { $0.int64("id").map { make(User.ID($0)) } },
                    match: { route in id(route).map { RouteParameters(["id": String($0.rawValue)]) } })
    }

    /// A route whose one path parameter `{id}` is a campaign's id (anything else is a 404).
    private static func campaign(_ method: String, _ pattern: String, make: @escaping @Sendable (Campaign.ID) -> AdminRoute,
                                 id: @escaping @Sendable (AdminRoute) -> Campaign.ID?) -> Declaration {
        Declaration(method, pattern, method == "POST" ? [.changesState] : [],
                    make: { Campaign.isValidID($0["id"]) ? make(Campaign.ID($0["id"])) : nil },
                    match: { route in id(route).map { RouteParameters(["id": $0.rawValue]) } })
    }

    /// Every back-office route.
    public static let router = Router<AdminRoute>([
        fixed("GET", "/admin", .home),
        Declaration("GET", "/admin/sign-in", [],
                    make: { .signIn(next: $0.queryValue("next")) },
                    match: { if case let .signIn(next) = $0 { RouteParameters(query: ["next": next]) } else { nil } }),
        fixed("POST", "/admin/sign-in", .signInSubmit),
        fixed("GET", "/admin/sign-in/code", .signInCode),
        fixed("POST", "/admin/sign-in/code", .signInCodeSubmit),
        fixed("GET", "/admin/account/second-factor", .secondFactor),
        fixed("POST", "/admin/account/second-factor", .secondFactorEnable),
        fixed("POST", "/admin/account/second-factor/off", .secondFactorDisable),
        fixed("POST", "/admin/sign-out", .signOut),
        fixed("GET", "/admin/account", .account),
        fixed("POST", "/admin/account/password", .accountPassword),
        Declaration("GET", "/admin/orders", [],
                    make: { .orders(AdminOrderFilter(parameters: $0)) },
                    match: { if case let .orders(filter) = $0 { RouteParameters(query: filter.queryItems) } else { nil } }),
        Declaration("GET", "/admin/orders/{number}", [],
                    make: { .order(number: $0["number"]) },
                    match: { if case let .order(number) = $0 { RouteParameters(["number": number]) } else { nil } }),
        Declaration("POST", "/admin/orders/{number}/{action}", [.changesState],
                    make: { parameters in
                        OrderAction(rawValue: parameters["action"]).flatMap { action in
                            orderActions.contains(action) ? .orderAction(number: parameters["number"], action: action) : nil
                        }
                    },
                    match: { route in
                        guard case let .orderAction(number, action) = route else { return nil }
                        return RouteParameters(["number": number, "action": action.rawValue])
                    }),
        fixed("GET", "/admin/staff", .staff),
        Declaration("POST", "/admin/staff/{id}/role", [.changesState],
                    make: { $0.int64("id").map { .staffRole(StaffMember.ID($0)) } },
                    match: { if case let .staffRole(id) = $0 { RouteParameters(["id": String(id.rawValue)]) } else { nil } }),
        Declaration("POST", "/admin/staff/{id}/remove", [.changesState],
                    make: { $0.int64("id").map { .staffRemove(StaffMember.ID($0)) } },
                    match: { if case let .staffRemove(id) = $0 { RouteParameters(["id": String(id.rawValue)]) } else { nil } }),
        Declaration("GET", "/admin/customers", [],
                    make: { .customers(query: $0.queryValue("q") ?? "",
                                       page: max(1, $0.queryValue("page").flatMap { Int($0) }.map { min($0, 100_000) } ?? 1)) },
                    match: { route in
                        guard case let .customers(query, page) = route else { return nil }
                        return RouteParameters(query: ["q": query.isEmpty ? nil : query, "page": page == 1 ? nil : String(page)])
                    }),
        customer("GET", "/admin/customers/{id}", make: AdminRoute.customer) {
            if case let .customer(id) = $0 { id } else { nil }
        },
        customer("POST", "/admin/customers/{id}/verification-email", make: AdminRoute.customerVerificationEmail) {
            if case let .customerVerificationEmail(id) = $0 { id } else { nil }
        },
        customer("POST", "/admin/customers/{id}/password-reset", make: AdminRoute.customerPasswordReset) {
            if case let .customerPasswordReset(id) = $0 { id } else { nil }
        },
        Declaration("GET", "/admin/products", [],
                    make: { .products(AdminProductFilter(parameters: $0)) },
                    match: { if case let .products(filter) = $0 { RouteParameters(query: filter.queryItems) } else { nil } }),
        Declaration("GET", "/admin/products/export", [],
                    make: { .productsExport(format: $0.queryValue("format") ?? "") },
                    match: { if case let .productsExport(format) = $0 { RouteParameters(query: ["format": format]) } else { nil } }),
        fixed("POST", "/admin/products/bulk", .productsBulk),
        fixed("GET", "/admin/products/import", .productsImport),
        fixed("POST", "/admin/products/import", .productsImportRun),
        Declaration("GET", "/admin/products/import/{job}", [],
                    make: { parameters in parameters["job"].isEmpty ? nil : .productsImportJob(parameters["job"]) },
                    match: { if case let .productsImportJob(id) = $0 { RouteParameters(["job": id]) } else { nil } }),
        fixed("GET", "/admin/products/new", .productNew),
        fixed("POST", "/admin/products/new", .productCreate),
        Declaration("GET", "/admin/products/{id}", [],
                    make: { $0.int64("id").map { .product(Product.ID($0)) } },
                    match: { if case let .product(id) = $0 { RouteParameters(["id": String(id.rawValue)]) } else { nil } }),
        Declaration("POST", "/admin/products/{id}", [.changesState],
                    make: { $0.int64("id").map { .productSave(Product.ID($0)) } },
                    match: { if case let .productSave(id) = $0 { RouteParameters(["id": String(id.rawValue)]) } else { nil } }),
        fixed("GET", "/admin/campaigns", .campaigns),
        fixed("POST", "/admin/campaigns", .campaignCreate),
        fixed("GET", "/admin/campaigns/new", .campaignNew),
        campaign("GET", "/admin/campaigns/{id}/edit", make: AdminRoute.campaignEdit) {
            if case let .campaignEdit(id) = $0 { id } else { nil }
        },
        campaign("POST", "/admin/campaigns/{id}/edit", make: AdminRoute.campaignSave) {
            if case let .campaignSave(id) = $0 { id } else { nil }
        },
        campaign("POST", "/admin/campaigns/{id}/pause", make: AdminRoute.campaignPause) {
            if case let .campaignPause(id) = $0 { id } else { nil }
        },
        campaign("POST", "/admin/campaigns/{id}/resume", make: AdminRoute.campaignResume) {
            if case let .campaignResume(id) = $0 { id } else { nil }
        },
        campaign("POST", "/admin/campaigns/{id}/delete", make: AdminRoute.campaignDelete) {
            if case let .campaignDelete(id) = $0 { id } else { nil }
        },
        Declaration("GET", "/admin/audit", [],
                    make: { .audit(AdminAuditFilter(parameters: $0)) },
                    match: { if case let .audit(filter) = $0 { RouteParameters(query: filter.queryItems) } else { nil } }),
    ])
}

/// The order list's filters as the page's form sends them: text as typed, so the form shows it
/// back (dates are `YYYY-MM-DD`, read in the shop's time zone by the page).
public struct AdminOrderFilter: Hashable, Sendable {
    public var status: OrderStatus?
    public var from: String
    public var to: String
    public var customer: String
    public var number: String
    /// 1-based.
    public var page: Int

    public init(status: OrderStatus? = nil, from: String = "", to: String = "", customer: String = "", number: String = "",
                page: Int = 1) {
        self.status = status
        self.from = from
        self.to = to
        self.customer = customer
        self.number = number
        self.page = max(1, page)
    }

    init(parameters: RouteParameters) {
        self.init(status: parameters.queryValue("status").flatMap(OrderStatus.init(rawValue:)),
                  from: parameters.queryValue("from") ?? "", to: parameters.queryValue("to") ?? "",
                  customer: parameters.queryValue("customer") ?? "", number: parameters.queryValue("number") ?? "",
                  page: parameters.queryValue("page").flatMap { Int($0) }.map { min($0, 100_000) } ?? 1)
    }

    /// The query items of the filters set (none for an empty filter: `/admin/orders`).
    var queryItems: KeyValuePairs<String, String?> {
        ["status": status?.rawValue, "from": from.isEmpty ? nil : from, "to": to.isEmpty ? nil : to,
         "customer": customer.isEmpty ? nil : customer, "number": number.isEmpty ? nil : number,
         "page": page == 1 ? nil : String(page)]
    }
}

/// The audit page's filters as its form sends them.
public struct AdminAuditFilter: Hashable, Sendable {
    public var source: AuditSource?
    /// `order`, `staff`, `stock`, `campaign`, or empty for all.
    public var subject: String
    public var actor: String
    public var subjectID: String
    /// 1-based.
    public var page: Int

    /// What the audit log records changes of.
    public static let subjects = ["order", "staff", "stock", "campaign", "product", "customer"]

    public init(source: AuditSource? = nil, subject: String = "", actor: String = "", subjectID: String = "", page: Int = 1) {
        self.source = source
        self.subject = Self.subjects.contains(subject) ? subject : ""
        self.actor = actor
        self.subjectID = subjectID
        self.page = max(1, page)
    }

    init(parameters: RouteParameters) {
        self.init(source: parameters.queryValue("source").flatMap(AuditSource.init(rawValue:)),
                  subject: parameters.queryValue("subject") ?? "", actor: parameters.queryValue("actor") ?? "",
                  subjectID: parameters.queryValue("subject_id") ?? "",
                  page: parameters.queryValue("page").flatMap { Int($0) }.map { min($0, 100_000) } ?? 1)
    }

    var queryItems: KeyValuePairs<String, String?> {
        ["source": source?.rawValue, "subject": subject.isEmpty ? nil : subject, "actor": actor.isEmpty ? nil : actor,
         "subject_id": subjectID.isEmpty ? nil : subjectID, "page": page == 1 ? nil : String(page)]
    }
}

/// The product list's filters as its form sends them.
public struct AdminProductFilter: Hashable, Sendable {
    public var text: String
    public var visibility: CatalogListQuery.Visibility
    public var category: String
    /// 1-based.
    public var page: Int

    public init(text: String = "", visibility: CatalogListQuery.Visibility = .all, category: String = "", page: Int = 1) {
        self.text = text
        self.visibility = visibility
        self.category = category
        self.page = max(1, page)
    }

    init(parameters: RouteParameters) {
        self.init(text: parameters.queryValue("q") ?? "",
                  visibility: parameters.queryValue("shown").flatMap(CatalogListQuery.Visibility.init(rawValue:)) ?? .all,
                  category: parameters.queryValue("category") ?? "",
                  page: parameters.queryValue("page").flatMap { Int($0) }.map { min($0, 100_000) } ?? 1)
    }

    var queryItems: KeyValuePairs<String, String?> {
        ["q": text.isEmpty ? nil : text, "shown": visibility == .all ? nil : visibility.rawValue,
         "category": category.isEmpty ? nil : category, "page": page == 1 ? nil : String(page)]
    }
}
