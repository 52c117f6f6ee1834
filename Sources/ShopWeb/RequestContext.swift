import Foundation
import HTTPServer
import ShopCore
import ShopStore

/// Per-request state that flows through the handlers: the request, the environment, the
/// localizer, the visitor's session and cart (loaded at most once), and cookies to set.
struct RequestContext {
    let request: Request
    let environment: AppEnvironment
    let l10n: Localizer
    let models: ModelBuilder
    /// `Set-Cookie` header values to add to the response.
    var setCookies: [String] = []

    private var sessionLoaded = false
    private var session: Session.ID?
    private var loadedCart: Cart?

    init(request: Request, environment: AppEnvironment) {
        self.request = request
        self.environment = environment
        self.l10n = Localizer()
        self.models = ModelBuilder(localizer: l10n)
    }

    /// The visitor's session, if their cookie names a live one.
    mutating func currentSession() throws -> Session.ID? {
        if sessionLoaded { return session }
        sessionLoaded = true
        guard let token = request.cookies[ShopApp.sessionCookie], SessionToken.isWellFormed(token) else { return nil }
        let id = Session.ID(rawValue: token)
        guard let found = try environment.sessions.find(id) else { return nil }
        let now = environment.now()
        if now.timeIntervalSince(found.lastSeenAt) > 3600 { try environment.sessions.touch(id, now) }
        session = id
        return id
    }

    /// The visitor's session, created (and its cookie set) when they have none.
    mutating func sessionCreatingIfNeeded() throws -> Session.ID {
        if let existing = try currentSession() { return existing }
        let now = environment.now()
        let id = Session.ID(rawValue: environment.makeSessionToken())
        try environment.sessions.create(Session(id: id, createdAt: now, lastSeenAt: now))
        session = id
        setCookies.append(CookieHeader.make(name: ShopApp.sessionCookie, value: id.rawValue, maxAge: 60 * 60 * 24 * 30,
                                            secure: environment.secureCookies))
        return id
    }

    /// The visitor's cart (empty without a session).
    mutating func cart() throws -> Cart {
        if let loadedCart { return loadedCart }
        let cart = try currentSession().map { try environment.sessions.loadCart($0) } ?? Cart()
        loadedCart = cart
        return cart
    }

    /// Stores the cart for the visitor's session (creating the session if needed).
    mutating func saveCart(_ cart: Cart) throws {
        let id = try sessionCreatingIfNeeded()
        try environment.sessions.saveCart(id, cart)
        loadedCart = cart
    }

    /// The cart priced from the current catalog.
    mutating func pricedCart() throws -> PricedCart {
        let cart = try cart()
        let ids = Array(Set(cart.lines.map(\.productID)))
        let products = ids.isEmpty ? [:] : try environment.catalog.productsByID(ids)
        return try cart.priced(currency: environment.currency) { line in
            guard let product = products[line.productID],
                  let variant = product.variants.first(where: { $0.id == line.variantID }) else { return nil }
            return (product, variant)
        }
    }

    /// Sets a one-time message for the next page.
    mutating func setFlash(_ flash: Flash) {
        let encoded = [flash.kind.rawValue, flash.text, flash.linkText ?? "", flash.linkHref ?? ""]
            .map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
            .joined(separator: ".")
        setCookies.append(CookieHeader.make(name: ShopApp.flashCookie, value: encoded, maxAge: 60,
                                            secure: environment.secureCookies))
    }

    /// The one-time message from the previous request, clearing it.
    mutating func takeFlash() -> Flash? {
        guard let value = request.cookies[ShopApp.flashCookie] else { return nil }
        setCookies.append(CookieHeader.make(name: ShopApp.flashCookie, value: "", maxAge: 0, secure: environment.secureCookies))
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? "" }
        guard parts.count == 4, let kind = Flash.Kind(rawValue: parts[0]), !parts[1].isEmpty else { return nil }
        let href = SafeRedirect.localPath(parts[3])
        return Flash(kind: kind, text: parts[1], linkText: href == nil || parts[2].isEmpty ? nil : parts[2], linkHref: href)
    }

    /// The frame around a page: title, tab, badge count and flash.
    mutating func layout(title: String, tab: Tab?) throws -> LayoutModel {
        LayoutModel(title: title, activeTab: tab, cartCount: try cart().itemCount, flash: takeFlash(),
                    stylesheetHref: environment.assets.stylesheetPath,
                    scriptHref: environment.assets.scriptPath, localizer: l10n)
    }

    /// A styled error page. It shows no details; the badge is left out if the cart can't be read.
    mutating func errorPage(_ status: HTTPStatus) -> Response {
        let kind: Views.ErrorKind = switch status.code {
        case 404: .notFound
        case 400..<500: .badRequest
        default: .server
        }
        let count = (try? cart().itemCount) ?? 0
        let layout = LayoutModel(title: "", activeTab: nil, cartCount: count, flash: nil,
                                 stylesheetHref: environment.assets.stylesheetPath,
                                 scriptHref: environment.assets.scriptPath, localizer: l10n)
        return .html(Views.error(kind, layout: layout), status: status)
    }
}

/// Session tokens as they appear in cookies.
enum SessionToken {
    /// 32 lower-case hex digits.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// `Set-Cookie` values for the storefront's cookies: always `Path=/; HttpOnly; SameSite=Lax`.
enum CookieHeader {
    static func make(name: String, value: String, maxAge: Int, secure: Bool) -> String {
        var header = "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax"
        if secure { header += "; Secure" }
        return header
    }
}

/// Headers every response carries (issue #3 baseline, applied from the start).
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func apply(to response: inout Response) {
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
    }
}
