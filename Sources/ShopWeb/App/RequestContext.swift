import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopService

/// Per-request state that flows through the handlers: the request, the environment, the
/// localizer, the visitor's session, account, cart and favorites (each loaded at most once), and
/// cookies to set.
struct RequestContext {
    let request: Request
    let environment: AppEnvironment
    /// Whether the client takes gzip (`ContentEncoding.accepted`), read once per request.
    let acceptsGzip: Bool
    /// The shopper's language and formats (`settleLanguage()` decides them for the storefront).
    private(set) var l10n: Localizer
    private(set) var models: ModelBuilder
    /// `Set-Cookie` header values to add to the response.
    var setCookies: [Cookie] = []
    /// The response body as kept gzip pieces, when the page cache has them (`CompressedPage`).
    var compressedBody: CompressedBody?
    /// A one-time message to show on this page (when the page is rendered rather than redirected).
    var pageFlash: Flash?
    /// The matched route's canonical URL (path and the query parameters it uses).
    var canonicalPath = ""
    /// The address of the page a form's answer shows, when the form's own URL answers no `GET`
    /// (a refused add to cart shows the product page at `/cart/add`): the language and theme
    /// links go there, not to the form's URL (a fresh tester's "Türkçe" link answered 405).
    var shownPath: String?

    private var sessionLoaded = false
    private var session: Session?
    /// The cookie's token of `session` — the raw secret, never stored (the id is its hash).
    private var sessionToken: String?
    /// The raw CSRF token this response's forms carry, once decided.
    private var formToken: String?
    private var userLoaded = false
    private var user: User?
    private var loadedCart: Cart?
    private var loadedQuote: CartQuote?
    private var ownListing: Bool?
    private var loadedSchedule: CampaignSchedule?
    private var loadedFavorites: [Product]?
    /// A cookie of the storefront: `Path=/; HttpOnly; SameSite=Lax`, `Secure` when the shop is
    /// served over https; `maxAge` nil makes it a browser-session cookie, 0 deletes it.
    func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, secure: environment.secureCookies)
    }

    /// The route being served, once parsed.
    var route: SiteRoute?
    /// What its declaration says (changes state, needs sign-in, cacheable); empty before routing.
    var routeTraits: RouteTraits = []
    /// The visitor's session cookie named a session that has ended (signed out elsewhere,
    /// expired): known once ``currentSession()`` has run.
    private(set) var sessionEnded = false
    private var preSessionToken: String?

    /// - Parameter language: the language of what the answer says — for the API its caller's
    ///   `Accept-Language`; the storefront then calls ``settleLanguage()``.
    init(request: Request, environment: AppEnvironment, language: Language = .english,
         acceptsGzip: Bool? = nil) {
        self.request = request
        self.environment = environment
        self.acceptsGzip = acceptsGzip ?? ContentEncoding.accepted(request).gzip
        self.l10n = Localizer(language: language)
        self.models = ModelBuilder(localizer: l10n, optionNames: environment.optionNames, currency: environment.currency)
    }

    var now: Date { environment.now() }

    /// The address the request came from, as the throttles count it — the one place that
    /// decides it: the request's `remoteAddress` (the connection's peer, or the forwarded client
    /// when `HTTPServer` trusts the peer as a proxy).
    var clientAddress: String { request.remoteAddress }

    // MARK: Language

    /// How long the language cookie remembers a choice.
    static let languageCookieLifetime = 365 * 24 * 60 * 60

    /// A GET or a HEAD: a HEAD's page is its GET's, byte for byte, only not sent (a fresh
    /// tester found a HEAD's `Content-Length` a few bytes off: its links came back to `/`).
    var readsOnly: Bool { request.method == .get || request.method == .head }

    /// The language a GET or HEAD asks for with `?lang=` (the picker's links, the `hreflang`
    /// alternates), when the shop speaks it.
    var askedLanguage: Language? {
        guard readsOnly else { return nil }
        return request.queryValue(ShopApp.languageParameter).flatMap(Language.init(rawValue:))
    }

    /// Decides the storefront's language for this request by the one rule,
    /// `Language.forShopper`: the shopper's choice (`?lang=` now, else the `shoppable_lang`
    /// cookie), else their account's, else `Accept-Language`, else the shop's default. A choice
    /// made with `?lang=` is remembered in the cookie only: a GET never writes the account (any
    /// site can make a browser send one), so the signed-in picker posts its choice with the CSRF
    /// token to `POST /account/language` (``chooseLanguage(_:)``). The account is read only when
    /// it matters (a session cookie and no choice in this request or the cookie).
    mutating func settleLanguage() {
        let asked = askedLanguage
        let remembered = request.cookies[ShopApp.languageCookie].flatMap(Language.init(rawValue:))
        let chosen = asked ?? remembered
        let user = chosen == nil ? signedInUserIfAny() : nil
        if let asked, remembered != asked {
            setCookies.append(cookie(ShopApp.languageCookie, asked.rawValue, maxAge: Self.languageCookieLifetime))
        }
        speak(Language.forShopper(chosen: chosen, account: user?.locale, acceptLanguage: request.headers["Accept-Language"],
                                  shopDefault: environment.defaultLanguage))
    }

    /// The shopper chose `language` (the picker's form, a CSRF-checked POST): remembered in the
    /// cookie and, when signed in, on the account; this answer speaks it.
    mutating func chooseLanguage(_ language: Language) throws {
        if request.cookies[ShopApp.languageCookie] != language.rawValue {
            setCookies.append(cookie(ShopApp.languageCookie, language.rawValue, maxAge: Self.languageCookieLifetime))
        }
        if let user = try currentUser(), user.locale != language { self.user = remember(language, on: user) }
        speak(language)
    }

    /// Stores `language` as the account's (the picker while signed in, a registration), and
    /// returns the account as stored; a failure is logged and changes nothing for the shopper.
    func remember(_ language: Language, on user: User) -> User {
        do {
            return try environment.accounts.updateUser(user.id, AccountUpdate(locale: language))
        } catch {
            environment.log("error request_id=\(request.id) saving the account's language: \(error)")
            return user
        }
    }

    /// Answers in `language` from here on.
    mutating func speak(_ language: Language) {
        guard language != l10n.language else { return }
        l10n = Localizer(language: language)
        models = ModelBuilder(localizer: l10n, optionNames: environment.optionNames, currency: environment.currency)
    }

    /// The signed-in account when the request carries a session cookie; nil otherwise, and nil
    /// (to be asked again, and fail, where it matters) when the store cannot answer now.
    private mutating func signedInUserIfAny() -> User? {
        guard request.cookies[ShopApp.sessionCookie] != nil else { return nil }
        do {
            return try currentUser()
        } catch {
            sessionLoaded = false
            session = nil
            userLoaded = false
            user = nil
            return nil
        }
    }

    /// The localizer of an email to `user` outside their own request (a password reset, a
    /// registration notice): the language their account remembers, else this request's.
    func localizer(for user: User) -> Localizer {
        guard let locale = user.locale, locale != l10n.language else { return l10n }
        return Localizer(language: locale)
    }

    // MARK: Session

    /// The session policy (token format, lifetimes, sliding expiry, guest sessions, sign-in):
    /// this context only keeps what it decided for this request.
    var sessionService: SessionService { _read { yield environment.sessionService } }

    /// The visitor's session, if their cookie names one that has not expired (asked of
    /// `SessionService.resume` once per request; the cookie it asks for is set).
    mutating func currentSession() throws -> Session? {
        if sessionLoaded { return session }
        sessionLoaded = true
        let token = request.cookies[ShopApp.sessionCookie]
        let resumed = try sessionService.resume(token: token)
        if let cookie = resumed.cookie { setSessionCookie(cookie) }
        switch resumed {
        case .none: break
        case .ended: sessionEnded = true
        case let .active(found, _):
            session = found
            sessionToken = token
        }
        return session
    }

    /// Uses `session` (resumed from the API's `Authorization: Bearer` token) as this request's
    /// session, as a cookie's would be: the cart, its quote and the favorites below are then the
    /// bearer's, read through the same functions as the pages'.
    mutating func adoptSession(_ session: Session, token: String) {
        sessionLoaded = true
        self.session = session
        sessionToken = token
    }

    /// The visitor's session, created as a guest session (and its cookie set) when they have none
    /// (`SessionService.startGuestSession`: the new session keeps the visitor's pre-session CSRF
    /// token, and a visitor's simultaneous first requests share one session).
    mutating func sessionCreatingIfNeeded() throws -> Session {
        if let existing = try currentSession() { return existing }
        return try startGuestSession(cart: []).issued.session
    }

    /// Starts a guest session for a visitor without one (its cookie set), with `changes` as its
    /// first cart changes: stored with it in one transaction, or, for a session joined, left to
    /// the caller (`GuestStart.wroteCart`).
    mutating func startGuestSession(cart changes: [CartChange]) throws -> GuestStart {
        loadedCart = nil
        loadedQuote = nil
        let csrf = csrfToken()
        let started = try sessionService.startGuestSession(csrfToken: csrf, csrfCookie: request.cookies[ShopApp.csrfCookie],
                                                           cart: changes)
        session = started.issued.session
        sessionToken = started.issued.token
        setSessionCookie(started.issued.cookie)
        return started
    }

    /// Replaces the current session (sign-in, sign-out): later calls see the new one, and the
    /// visitor's cookies get its token and CSRF token. Signing out keeps the CSRF cookie: it
    /// becomes the visitor's pre-session token (signing in always issues a new one).
    mutating func replaceSession(with issued: IssuedSession?) {
        sessionLoaded = true
        session = issued?.session
        sessionToken = issued?.token
        formToken = issued?.csrfToken
        userLoaded = false
        user = nil
        loadedCart = nil
        loadedQuote = nil
        loadedFavorites = nil
        if let issued {
            setSessionCookie(issued.cookie)
            setCookies.append(cookie(ShopApp.csrfCookie, issued.csrfToken, maxAge: Int(SessionService.persistentLifetime)))
        } else {
            setSessionCookie(.delete)
        }
    }

    /// Writes what the session service decided for the session cookie.
    private mutating func setSessionCookie(_ sessionCookie: SessionCookie) {
        switch sessionCookie {
        case let .set(value, maxAge): setCookies.append(cookie(ShopApp.sessionCookie, value, maxAge: maxAge))
        case .delete: setCookies.append(cookie(ShopApp.sessionCookie, "", maxAge: 0))
        }
    }

    /// The signed-in account, if any.
    mutating func currentUser() throws -> User? {
        if userLoaded { return user }
        userLoaded = true
        user = try currentSession()?.userID.flatMap { try environment.accounts.user($0) }
        return user
    }

    /// Whose cart and favorites this visitor sees, or nil for a visitor without a session.
    mutating func shopper() throws -> Shopper? { try currentSession()?.shopper }

    // MARK: CSRF

    /// The token this visitor's forms must carry. It lives in the `shoppable_csrf` cookie (the
    /// store keeps only a session's token hashed): before there is a session, any token the
    /// cookie holds (set here when missing); with a session, the cookie's token when it hashes to
    /// the session's — otherwise (the browser lost it, or the session predates hashed tokens) a
    /// new one is given to the session and the cookie.
    mutating func csrfToken() -> String {
        if let formToken { return formToken }
        let crypto = environment.crypto
        let cookie = request.cookies[ShopApp.csrfCookie]
        let token: String
        if let session = try? currentSession() {
            if let cookie, crypto.constantTimeEquals(crypto.sha256Hex(cookie), session.csrfTokenHash) {
                token = cookie
            } else {
                token = crypto.randomToken()
                do {
                    try environment.sessions.renewCSRFToken(session.id, crypto.sha256Hex(token))
                    self.session?.csrfTokenHash = crypto.sha256Hex(token)
                } catch {
                    environment.log("error request_id=\(request.id) renewing the CSRF token: \(error)")
                }
                setCookies.append(self.cookie(ShopApp.csrfCookie, token, maxAge: Int(SessionService.persistentLifetime)))
            }
        } else if let cookie, cookie.count >= 32, cookie.count <= 128 {
            token = cookie
        } else {
            token = crypto.randomToken()
            setCookies.append(self.cookie(ShopApp.csrfCookie, token, maxAge: Int(SessionService.persistentLifetime)))
        }
        formToken = token
        return token
    }

    /// Why this action (a POST) may not change anything, or nil when it may (`RequestSite`):
    /// never when another site sent it; always when the shop's own page did; and when the
    /// request says neither, if the visitor has no session (nothing of theirs to act on; a
    /// visitor's first add starts one) or the form carries their session's CSRF token.
    mutating func actionRefusal() throws -> Views.ErrorKind? {
        switch RequestSite(request, publicURL: environment.publicURL) {
        case .crossOrigin: .crossSite
        case .sameOrigin: nil
        case .unknown: try currentSession() == nil || hasValidCSRFToken() ? nil : .forbidden
        }
    }

    /// `true` when the form carries the CSRF token of the visitor's session (the one whose hash
    /// the session keeps); false without a session (``actionRefusal()`` asks only with one).
    mutating func hasValidCSRFToken() throws -> Bool {
        guard let posted = request.formValue(ShopApp.csrfField), !posted.isEmpty,
              let session = try currentSession() else { return false }
        // Pages carry it masked (`CSRFMask`); an unmasked token is the same secret.
        let sent = CSRFMask.unmask(posted) ?? posted
        let crypto = environment.crypto
        return crypto.constantTimeEquals(crypto.sha256Hex(sent), session.csrfTokenHash)
    }

    // MARK: Cart and favorites

    /// The visitor's cart (empty without a session).
    mutating func cart() throws -> Cart {
        if let loadedCart { return loadedCart }
        let cart = try environment.carts.cart(of: try shopper())
        loadedCart = cart
        return cart
    }

    /// The visitor's cart priced in one pass (`CartService.quote`), once per request.
    mutating func cartQuote() throws -> CartQuote {
        if let loadedQuote { return loadedQuote }
        let quote = try environment.carts.quote(try cart(), shopper: try shopper(), userID: try currentUser()?.id)
        loadedQuote = quote
        return quote
    }

    /// The shopper whose cart or favorites change: the visitor's, or a new guest session's.
    mutating func changingShopper() throws -> Shopper {
        loadedCart = nil
        loadedQuote = nil
        ownListing = nil
        return try sessionCreatingIfNeeded().shopper
    }

    /// A listing (category, search, all products) as this visitor sees it: the one every visitor
    /// shares, with every live hold taken out, unless a product of their cart is held — then
    /// theirs, in which their own hold stays buyable (a fresh tester holding the last unit at
    /// checkout saw it "Sold out" on the category page). Such a page is not cached
    /// (``seesOwnListing()``).
    mutating func listing(_ query: ProductQuery) throws -> ProductPage {
        try environment.carts.listing(query, for: try listingShopper())
    }

    /// The shopper whose own holds stay buyable on the lists this visitor sees: theirs when
    /// ``seesOwnListing()``, else nil (the shared lists).
    mutating func listingShopper() throws -> Shopper? {
        try seesOwnListing() ? try shopper() : nil
    }

    /// Whether lists are rendered for this visitor rather than shared (`CartService.mayHoldStock`),
    /// asked once per request.
    mutating func seesOwnListing() throws -> Bool {
        if let ownListing { return ownListing }
        let own = try shopper() != nil && environment.carts.mayHoldStock { try cart() }
        ownListing = own
        return own
    }

    /// Products with each tracked variant's stock lowered by every live reservation: what a page
    /// shared by all visitors may promise (cached pages are rebuilt when reservations change).
    func availableToEveryone(_ products: [Product]) throws -> [Product] {
        try environment.carts.available(products, to: nil)
    }

    /// The product with each tracked variant's stock lowered by *other* shoppers' live holds:
    /// what this visitor can buy now (their own hold is theirs to buy).
    mutating func availableToShopper(_ product: Product) throws -> Product {
        try availableToShopper([product])[0]
    }

    /// The products as ``availableToShopper(_:)-(Product)`` gives each: the favorites list.
    mutating func availableToShopper(_ products: [Product]) throws -> [Product] {
        try environment.carts.available(products, to: try shopper())
    }

    /// Forgets the loaded cart (the store changed it, e.g. placing an order).
    mutating func invalidateCart() {
        loadedCart = nil
        loadedQuote = nil
    }

    /// Items in the cart that can still be bought (the badge): unpublished or deleted products
    /// do not count. Uses the quote when this request priced the cart.
    mutating func cartItemCount() throws -> Int {
        if let loadedQuote { return loadedQuote.itemCount }
        return try environment.carts.itemCount(try cart())
    }

    /// The category `product` is filed under, if any (from the category list the catalog keeps).
    func category(of product: Product) throws -> Category? {
        guard let id = product.categoryID else { return nil }
        return try environment.catalog.categories().first { $0.category.id == id }?.category
    }

    /// Published products by id (none for an empty list, without asking the store).
    func products(_ ids: [Product.ID]) throws -> [Product.ID: Product] {
        ids.isEmpty ? [:] : try environment.catalog.productsByID(ids)
    }

    /// The visitor's favorite products that are still shown (published), most recent first
    /// (empty without a session). The favorites page, the tab badge and the hearts all use
    /// these, so the badge never counts a product the page does not show.
    mutating func favoriteProducts() throws -> [Product] {
        if let loadedFavorites { return loadedFavorites }
        let ids = try shopper().map { try environment.sessions.favorites($0) } ?? []
        let shown = try products(ids)
        let favorites = ids.compactMap { shown[$0] }
        loadedFavorites = favorites
        return favorites
    }

    /// The ids of ``favoriteProducts()``.
    mutating func favoriteIDs() throws -> [Product.ID] { try favoriteProducts().map(\.id) }

    /// Adds or removes a favorite (creating a guest session if needed).
    mutating func setFavorite(_ productID: Product.ID, _ isFavorite: Bool) throws {
        let shopper = try sessionCreatingIfNeeded().shopper
        try environment.sessions.setFavorite(shopper, productID, isFavorite, now)
        loadedFavorites = nil
    }

    // MARK: Campaigns

    /// The campaigns and where `now` falls in their schedule, read once per request (a version
    /// check; the list itself is kept between requests while the version is the same).
    mutating func campaignSchedule() throws -> CampaignSchedule {
        if let loadedSchedule { return loadedSchedule }
        let schedule = try environment.campaignCache.schedule(environment.campaigns, now: now)
        loadedSchedule = schedule
        return schedule
    }

    // MARK: Messages and layout

    /// Sets a one-time message for the next page.
    mutating func setFlash(_ flash: Flash) {
        let encoded = [flash.kind.rawValue, flash.text, flash.linkText ?? "", flash.linkHref ?? ""]
            .map(URLEncoding.percentEncodeAlphanumerics)  // Foundation's took 4 % of an add to cart
            .joined(separator: ".")
        setCookies.append(cookie(ShopApp.flashCookie, SignedCookie.seal(encoded, name: ShopApp.flashCookie, environment.crypto),
                                 maxAge: 60))
    }

    /// The one-time message from the previous request, clearing it.
    mutating func takeFlash() -> Flash? {
        if let pageFlash { return pageFlash }
        guard let sealed = request.cookies[ShopApp.flashCookie] else { return nil }
        setCookies.append(cookie(ShopApp.flashCookie, "", maxAge: 0))
        guard let value = SignedCookie.open(sealed, name: ShopApp.flashCookie, environment.crypto) else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? "" }
        guard parts.count == 4, let kind = Flash.Kind(rawValue: parts[0]), !parts[1].isEmpty else { return nil }
        let href = SafeRedirect.localPath(parts[3])
        return Flash(kind: kind, text: parts[1], linkText: href == nil || parts[2].isEmpty ? nil : parts[2], linkHref: href)
    }

    /// The frame around a page: title, tab, badge counts, account link, banners and flash.
    mutating func layout(title: String, tab: Tab?) throws -> LayoutModel {
        let user = try currentUser()
        return LayoutModel(title: title, activeTab: tab, cartCount: try cartItemCount(),
                           favoritesCount: try favoriteIDs().count, flash: takeFlash(),
                           accountName: user?.firstName,
                           unverifiedEmail: user.flatMap { showsVerifyBanner(to: $0) ? $0.email : nil },
                           stylesheetHref: environment.assets.stylesheetPath,
                           scriptHref: environment.assets.scriptPath, localizer: l10n,
                           listLayout: request.cookies[ShopApp.layoutCookie] == "list",
                           alternates: LanguageAlternates(path: shownPath ?? (canonicalPath.isEmpty ? request.path : canonicalPath),
                                                          publicURL: environment.publicURL),
                           theme: Theme(cookie: request.cookies[ShopApp.themeCookie]),
                           returnPath: shownPath ?? (readsOnly && !canonicalPath.isEmpty ? canonicalPath : "/"))
    }

    /// The "confirm your email" banner shows where the address matters — the account pages and
    /// checkout (the order confirmation goes there) — and not after `user` closed it in this
    /// browser (the cookie holds their id, so another account still sees its own banner).
    func showsVerifyBanner(to user: User) -> Bool {
        guard !user.isVerified, request.cookies[ShopApp.verifyBannerCookie] != String(user.id.rawValue) else { return false }
        if case .account? = route { return true }
        if case .checkout? = route { return true }
        return false
    }

    /// A styled error page. It shows no details; the badges are left out if they can't be read.
    mutating func errorPage(_ status: HTTPStatus) -> Response {
        errorPage(Self.errorKind(status), status: status)
    }

    /// The kind of error page a status is shown as.
    private static func errorKind(_ status: HTTPStatus) -> Views.ErrorKind {
        switch status.code {
        case 404: .notFound
        case 403: .forbidden
        case 405: .methodNotAllowed
        case 503: .busy
        case 400..<500: .badRequest
        default: .server
        }
    }

    /// A styled error page of `kind`, answered with `status`.
    mutating func errorPage(_ kind: Views.ErrorKind, status: HTTPStatus) -> Response {
        let count = (try? cartItemCount()) ?? 0
        let user = (try? currentUser()) ?? nil
        // The language and theme links come back to this very address (a fresh tester's
        // `/search?q=x&page=-1` lost its search in Turkish, and a theme chosen on a 404 went home).
        let address = readsOnly ? errorPageAddress : "/"
        let layout = LayoutModel(title: "", activeTab: nil, cartCount: count, favoritesCount: 0, flash: nil,
                                 accountName: user?.firstName, unverifiedEmail: nil,
                                 stylesheetHref: environment.assets.stylesheetPath,
                                 scriptHref: environment.assets.scriptPath, localizer: l10n,
                                 alternates: LanguageAlternates(path: address, publicURL: nil),
                                 theme: Theme(cookie: request.cookies[ShopApp.themeCookie]),
                                 returnPath: address)
        return .html(Views.error(kind, layout: layout), status: status)
    }

    /// The request's own path and query, less any `lang`, as an error page links back to it;
    /// `/` when it is not a local path a link may name.
    private var errorPageAddress: String {
        guard let path = SafeRedirect.localPath(request.rawPath) else { return "/" }
        // Printed as every link's query is (`SiteRoute.withQuery`); names come from outside here.
        let query = request.query.filter { $0.name != ShopApp.languageParameter }
            .map { (RouteRequest.encodeQueryValue($0.name), $0.value) }
        return SafeRedirect.localPath(SiteRoute.withQuery(path, query)) ?? path
    }
}

/// Headers every response carries (issue #3 baseline; HSTS from issue #8).
enum SecurityHeaders {
    /// What an answer is: a page (HTML, plain-text refusals) or a JSON API answer.
    enum Kind { case page, json }

    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    /// A JSON answer loads nothing and is never framed: the tightest policy (OWASP's REST
    /// advice). No `Referrer-Policy` either — JSON has no links a browser follows.
    static let jsonContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"
    /// Browsers that reached the shop over https keep to https for a year. No
    /// `includeSubDomains`: the shop cannot know that every sibling host serves https.
    static let strictTransportSecurity = "max-age=31536000"

    static func apply(to response: inout Response, environment: AppEnvironment, kind: Kind = .page) {
        apply(to: &response, kind: kind)
        if environment.isServedOverHTTPS {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: strictTransportSecurity)
        }
    }

    static func apply(to response: inout Response, kind: Kind = .page) {
        switch kind {
        case .page:
            response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
            response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
            response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        case .json:
            response.headers.replaceOrAdd(name: "Content-Security-Policy", value: jsonContentSecurityPolicy)
            response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        }
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
    }
}
