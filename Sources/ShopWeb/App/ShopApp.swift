import Foundation
public import HTTPServer
import HTML
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// The storefront as one function from request to response: `ShopApp.handle(request, environment)`.
///
/// Each handler (1) decodes the input, (2) calls the domain and stores, (3) builds a page model,
/// and (4) renders it (STYLE.md 14). Errors thrown by stores become a styled 500 page (logged with
/// the request id, never shown); unknown paths a styled 404.
public enum ShopApp {
    /// Cookie holding the session token.
    static let sessionCookie = "shoppable_session"
    /// Cookie holding a one-time message for the next page.
    static let flashCookie = "shoppable_flash"
    /// Cookie holding the CSRF token of a visitor who has no session yet.
    static let csrfCookie = "shoppable_csrf"
    /// The form field carrying the CSRF token.
    static let csrfField = "csrf_token"
    /// Cookie remembering the language the shopper chose (`en`, `tr`, `es`; a year).
    static let languageCookie = "shoppable_lang"
    /// The query parameter that asks for a page in a language and remembers the choice
    /// (`/categories/chairs?lang=tr`): the language picker's links and the `hreflang` alternates.
    static let languageParameter = "lang"
    /// Cookie remembering the product list layout (`grid` or `list`).
    static let layoutCookie = "shoppable_layout"
    /// Cookie remembering the visitor's colour theme (`light` or `dark`; absent: follow the system).
    static let themeCookie = "shoppable_theme"
    /// Cookie remembering that the visitor closed the "confirm your email" banner.
    static let verifyBannerCookie = "shoppable_verify_banner"
    /// Products per category page.
    static let pageSize = 24

    /// Answers one request. Never throws: failures become error pages.
    /// - Parameters:
    ///   - request: the decoded HTTP request.
    ///   - environment: stores, clock and settings.
    /// - Returns: the response, with the security headers every page carries, compressed when the
    ///   client accepts it and the body is text worth compressing (`ContentEncoding`).
    public static func handle(_ request: Request, _ environment: AppEnvironment) -> Response {
        let accepted = ContentEncoding.accepted(request)
        var response = APIApp.owns(request.path) ? APIApp.handle(request, environment)
            : AdminApp.owns(request.path) ? AdminApp.handle(request, environment)
            : page(request, environment, acceptsGzip: accepted.gzip)
        ContentEncoding.apply(to: &response, accepted: accepted, kept: environment.compressedBodies)
        ConditionalRequest.apply(to: &response, request: request)
        return response
    }

    /// A page, an asset, or a redirect: every answer outside `/api`. A GET's store reads share
    /// one read transaction (`AppEnvironment.readingTogether`). `answer` throws nothing, so
    /// `readingTogether` can only fail ending that read-only transaction, after the answer is made.
    private static func page(_ request: Request, _ environment: AppEnvironment, acceptsGzip: Bool) -> Response {
        guard request.method == .get || request.method == .head else {
            return answer(request, environment, acceptsGzip: acceptsGzip)
        }
        var response: Response?
        try? environment.readingTogether { response = answer(request, environment, acceptsGzip: acceptsGzip) }
        return response ?? answer(request, environment, acceptsGzip: acceptsGzip)
    }

    private static func answer(_ request: Request, _ environment: AppEnvironment, acceptsGzip: Bool) -> Response {
        var context = RequestContext(request: request, environment: environment, acceptsGzip: acceptsGzip)
        context.settleLanguage()
        var response: Response
        do {
            response = try route(&context)
        } catch {
            let answer = answerable(error)
            let kind = answer.status.code >= 500 ? (answer.status == .serviceUnavailable ? "busy" : "error") : "refused"
            environment.log("\(kind) request_id=\(request.id) \(request.method.rawValue) \(request.path): \(error)")
            response = context.errorPage(answer.status)
            for field in answer.headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        }
        // Before personalizing: the introduction's forms carry the CSRF marker.
        Onboarding.offer(&response, &context)
        personalize(&response, &context)
        for cookie in context.setCookies { response.setCookie(cookie) }
        SecurityHeaders.apply(to: &response, environment: environment)
        return response
    }

    /// The answer to a request the HTTP server refuses before routing (400, 413, 414, 431):
    /// one line of plain text in the reader's language — or, under `/api`, the API's error
    /// envelope in the API's language, as docs/API.md promises for every error (a fresh
    /// tester's 3 MB body got plain text) — with the headers every response of the shop carries.
    /// - Parameters:
    ///   - status: the refusal's status.
    ///   - message: the server's English sentence (for its log); the answer says what to do in
    ///     the reader's language instead.
    ///   - target: the request's raw target (path and query).
    ///   - headers: the request's headers as far as they were read (the language to answer in).
    ///   - environment: the shop's settings (https decides `Strict-Transport-Security`).
    public static func refusal(_ status: HTTPStatus, _ message: String, target: String = "",
                               headers: HTTPHeaders = HTTPHeaders(), _ environment: AppEnvironment) -> Response {
        var response: Response
        let sentence: L10nKey = switch status.code {
        case 413: .refusedTooLarge
        case 414: .refusedAddressTooLong
        case 431: .refusedHeadersTooLarge
        default: .refusedUnreadable
        }
        // The path of an origin-form target, or of an absolute-form one (`http://host/api/…`).
        let path = Request.originForm(of: target) ?? Substring(target)
        let isAPI = APIApp.owns(String(path.prefix { $0 != "?" }))
        if isAPI {
            let code = switch status.code {
            case 413: "body_too_large"
            case 414: "target_too_long"
            case 431: "headers_too_large"
            default: "malformed_request"
            }
            // In the API's language rule (`Accept-Language`, else the shop's default).
            let language = Language.accepted(headers["Accept-Language"]) ?? environment.defaultLanguage
            // Not "the browser sent": an app's request reads its own sentence.
            let said: L10nKey = sentence == .refusedUnreadable ? .apiRefusedUnreadable : sentence
            response = APIError(status: status, code: code, said).response(Localizer(language: language))
        } else {
            // In the reader's language, by the storefront's rule without an account (nothing is
            // read from the store for a request refused at the door).
            let chosen = Cookie.parse(headerValues: headers.values(for: "Cookie"))[languageCookie].flatMap(Language.init(rawValue:))
            let language = Language.forShopper(chosen: chosen, account: nil, acceptLanguage: headers["Accept-Language"],
                                               shopDefault: environment.defaultLanguage)
            response = Response.text("\(status.code) — \(Localizer(language: language)(sentence))\n", status: status)
            response.headers.replaceOrAdd(name: "Content-Language", value: language.rawValue)
        }
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        // A JSON error gets the API's policy, as every other answer of the API (a fresh tester
        // found the page's on an undecodable query's 400).
        SecurityHeaders.apply(to: &response, environment: environment, kind: isAPI ? .json : .page)
        return response
    }

    /// How a failure is answered: errors that know their answer (`HTTPResponseError`) say so;
    /// a store that stayed busy past its timeout is a 503 with `Retry-After`; anything else is a
    /// 500 (details only in the log).
    static func answerable(_ error: any Error) -> any HTTPResponseError {
        switch error {
        case let known as any HTTPResponseError: known
        case let store as any TemporaryStoreFailure where store.isTemporary: ServiceBusy()
        default: InternalFailure()
        }
    }

    /// The database stayed locked (a long import): come back in a few seconds.
    struct ServiceBusy: HTTPResponseError {
        var status: HTTPStatus { .serviceUnavailable }
        var headers: HTTPHeaders { ["Retry-After": "5"] }
    }

    /// A failure with no answer of its own.
    struct InternalFailure: HTTPResponseError {
        var status: HTTPStatus { .internalServerError }
    }

    /// Fills the visitor's CSRF token and hearts into an HTML page (see `Personalization`; a
    /// visitor without a session has neither, and gets the CSRF cookie) — as gzip joined from
    /// kept pieces when the page has them (`CompressedPage`) and the client takes gzip.
    private static func personalize(_ response: inout Response, _ context: inout RequestContext) {
        guard response.headers["Content-Type"]?.hasPrefix("text/html") == true else { return }
        let hasSession = ((try? context.currentSession()) ?? nil) != nil
        // A visitor without a session gets a CSRF cookie all the same (a page without markers
        // too): its token becomes their session's, and derives it, so their simultaneous first
        // adds join one session (`SessionService.startGuestSession`).
        if !hasSession { _ = context.csrfToken() }
        let filled = context.compressedBody.map { $0.isFilledDocument && $0.count == response.body.count } ?? false
        guard !filled, Personalization.needsValues(response.body) else {
            // Shared bytes, but answered with the visitor's cookie: kept by no one else.
            if response.headers["Cache-Control"] == nil { response.headers.add(name: "Cache-Control", value: "no-store") }
            // A page without markers (a kept document): its member compressed whole (`WholeMember`).
            if let pieces = context.compressedBody, pieces.count == response.body.count, context.acceptsGzip,
               let packed = pieces.gzip(Personalization.Replacements.none, memo: context.environment.pageCache.pageMemo) {
                response.body = packed
                ContentEncoding.markGzipped(&response)
            }
            return
        }
        // A session's forms carry its token, masked afresh (`CSRFMask`), and its hearts.
        var values = Personalization.Values.withoutSession(context.l10n)
        if hasSession {
            let token = context.csrfToken()
            var pad = ""
            while pad.utf8.count < token.utf8.count { pad += context.environment.crypto.randomToken() }
            values.csrfToken = CSRFMask.mask(token, pad: pad)
            values.favorites = Set((try? context.favoriteIDs()) ?? [])
        }
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        // The pieces stand for the body only if nothing changed its length since (a sanity check:
        // every change to such a body goes through `CompressedBody.insert`).
        if let pieces = context.compressedBody, pieces.count == response.body.count,
           context.acceptsGzip,
           let packed = pieces.gzip(Personalization.Replacements(values), memo: context.environment.pageCache.pageMemo) {
            response.body = packed
            ContentEncoding.markGzipped(&response)
        } else {
            response.body = Personalization.apply(response.body, values)
        }
    }

    /// Routes parsed before, with their canonical paths (`ParsedRoutes`).
    static let parsedRoutes = ParsedRoutes()

    private static func route(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        // `OPTIONS *` (RFC 9110 §9.3.7) asks what the server does at all, not one resource.
        if request.method == .options, request.path == "*" {
            return Response(status: .noContent, headers: ["Allow": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"])
        }
        let query = request.query.map { RouteRequest.QueryItem($0.name, $0.value) }
        guard let parsed = parsedRoutes.route(method: request.method.rawValue, path: request.path, query: query) else {
            // The path exists for another method: 405 with the methods it takes.
            let allowed = SiteRoute.allowedMethods(path: request.path, query: query)
            guard !allowed.isEmpty else { return context.errorPage(.notFound) }
            var response = context.errorPage(.methodNotAllowed)
            response.headers.replaceOrAdd(name: "Allow", value: allowed.map { $0 == "GET" ? "GET, HEAD" : $0 }
                .joined(separator: ", "))
            return response
        }
        let route = parsed.route
        context.route = route
        context.routeTraits = parsed.traits
        context.canonicalPath = parsed.canonicalPath
        if parsed.traits.contains(.changesState), let refusal = try context.actionRefusal() {
            context.environment.log("csrf request_id=\(request.id) \(request.path): "
                                    + (refusal == .crossSite ? "sent from another site" : "missing or wrong token"))
            return context.errorPage(refusal, status: .forbidden)
        }
        switch route {
        case let .catalog(route): return try catalog(route, &context)
        case let .cart(route): return try cart(route, &context)
        case let .favorites(route):
            switch route {
            case .list: return try favoritesPage(&context)
            case let .toggle(id): return try favoriteToggle(&context, productID: id)
            }
        case let .account(route): return try account(route, &context)
        case let .checkout(route):
            switch route {
            case .start: return try checkoutStart(&context)
            case .address: return try checkoutAddressPage(&context)
            case .addressSubmit: return try checkoutAddressSubmit(&context)
            case .shipping: return try checkoutShippingPage(&context)
            case .shippingSubmit: return try checkoutShippingSubmit(&context)
            case .review: return try checkoutReview(&context)
            case .place: return try checkoutPlace(&context)
            }
        case let .orders(route):
            switch route {
            case .list: return try ordersPage(&context)
            case let .order(number, token): return try orderPage(&context, number: number, token: token)
            }
        case let .campaigns(route):
            switch route {
            case .list: return try campaignsPage(&context)
            case let .campaign(id): return try campaignPage(&context, id: id)
            }
        case let .assets(route):
            switch route {
            case .health: return health(context)
            case let .asset(path): return StaticFiles.asset(path, request: request, assets: context.environment.assets)
                    ?? context.errorPage(.notFound)
            case let .media(file): return StaticFiles.media(file, request: request, directory: context.environment.mediaDirectory)
                    ?? context.errorPage(.notFound)
            }
        case let .appShell(route): return try appShell(route, &context)
        }
    }

    // MARK: - Pages

    /// A page body as rendered once: what goes inside `<main>`, its title and tab.
    struct PageContent {
        var title: String
        var tab: Tab?
        var mainClass = ""
        var node: Node
    }

    /// Serves a catalog page from the page cache, building it with `build` when the cache has
    /// no copy for the current catalog version. `build` returns nil for "not found" (not cached).
    static func cachedPage(_ context: inout RequestContext, keySuffix: String = "",
                                   build: (inout RequestContext) throws -> PageContent?) throws -> Response {
        // Only routes declared cacheable use the cache (SiteRoute.router); others render each time.
        // A visitor whose cart holds a held product sees lists of their own (`RequestContext.listing`).
        guard context.routeTraits.contains(.cacheable), try !context.seesOwnListing() else {
            guard let content = try build(&context) else { return context.errorPage(.notFound) }
            return try page(&context, content)
        }
        let cache = context.environment.pageCache
        // Pages show catalog and campaigns (home banners, campaign pages): both versions, and the
        // campaign schedule's epoch (a campaign starting or ending changes what is shown); the
        // catalog's as shared pages see it (`SharedVersion`: a hold ending changes them too).
        let schedule = try context.campaignSchedule()
        let version = schedule.cacheVersion(catalog: try context.environment.sharedVersion(at: context.now))
        // Keyed by the route's canonical URL: unknown query parameters cannot multiply entries.
        let key = context.l10n.locale.identifier + " " + context.canonicalPath + keySuffix
        // A visitor with no session and no pending message sees exactly what every such visitor
        // sees — forms without a CSRF token (`RequestSite`), no heart pressed: serve the whole
        // document, filled, from the cache.
        let anonymous = context.request.cookies[sessionCookie] == nil && context.request.cookies[flashCookie] == nil
        let documentKey = key + (context.request.cookies[layoutCookie] == "list" ? " list" : " grid")
            + " " + Theme(cookie: context.request.cookies[themeCookie]).rawValue
        if anonymous, let document = cache.lookupDocument(documentKey, version: version) {
            context.compressedBody = document.compressedBody
            return .html(document.bytes)
        }
        let entry: PageCache.Entry
        if let hit = cache.lookup(key, version: version) {
            entry = hit
        } else {
            guard let content = try build(&context) else { return context.errorPage(.notFound) }
            entry = PageCache.Entry(version: version, title: content.title, tab: content.tab, mainClass: content.mainClass,
                                    html: render(content.node))
            cache.store(entry, for: key)
        }
        // The layout is the visitor's (kept per look, badges filled: `LayoutCache`); `<main>` is
        // the cached entry. Joined, so a client that takes gzip gets the entry's pieces
        // compressed once.
        let layout = try context.layout(title: entry.title, tab: entry.tab)
        let shell = cache.layouts.shell(layout, mainClass: entry.mainClass)
        let head = shell.head, tail = shell.tail
        var document: [UInt8] = []
        document.reserveCapacity(head.count + entry.html.count + tail.count)
        document += head
        document += entry.html
        document += tail
        if anonymous && context.setCookies.isEmpty {
            let shared = cache.storeDocument(Personalization.apply(document, .withoutSession(context.l10n)),
                                             version: version, for: documentKey)
            context.compressedBody = shared.compressedBody
            return .html(shared.bytes)
        } else if context.acceptsGzip {
            // The layout's pieces kept with its shell (`LayoutCache`), else found by their bytes.
            let layoutHead: CompressedBody.Segment, layoutTail: CompressedBody.Segment
            if let (headSlot, tailSlot) = shell.compressed {
                layoutHead = .kept(headSlot, bytes: head, cutBefore: nil)
                layoutTail = .kept(tailSlot, bytes: tail, cutBefore: shell.tailBodyEnd)
            } else {
                layoutHead = .recurring(head, cutBefore: nil)
                layoutTail = .recurring(tail, cutBefore: shell.tailBodyEnd)
            }
            context.compressedBody = CompressedBody([layoutHead, .kept(entry.compressed, bytes: entry.html, cutBefore: nil),
                                                     layoutTail])
        }
        return .html(document)
    }

    /// Renders a page that is not cached (it depends on the visitor).
    static func page(_ context: inout RequestContext, _ content: PageContent,
                             status: HTTPStatus = .ok) throws -> Response {
        let layout = try context.layout(title: content.title, tab: content.tab)
        return .html(context.environment.pageCache.layouts.document(layout, mainClass: content.mainClass,
                                                                    main: render(content.node)), status: status)
    }

    private static func health(_ context: RequestContext) -> Response {
        do {
            try context.environment.healthCheck()
            return .text("ok\n")
        } catch {
            context.environment.log("healthz failed: \(error)")
            return .text("database unavailable\n", status: .serviceUnavailable)
        }
    }

}

/// Only same-site paths are followed after a form (no open redirects).
enum SafeRedirect {
    /// `path` when it is a path on this site, else nil: it must start with one `/`, and contain no
    /// backslash, whitespace or control character anywhere — browsers drop tabs and newlines from
    /// URLs and read `\` as `/`, so `/\t/evil.example` would otherwise become `//evil.example`.
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), path.utf8.count <= 2_048,
              !path.unicodeScalars.contains(where: { $0 == "\\" || $0.value < 0x21 || $0.value == 0x7F
                  || $0.properties.isWhitespace || $0.properties.generalCategory == .format }) else { return nil }
        // It becomes a `Location` header, a URI reference (RFC 9110 §10.2.2): bytes outside
        // ASCII percent-encoded (`return_to` arrives decoded; a fresh tester saw raw UTF-8 there).
        return path.utf8.allSatisfy({ $0 < 0x80 }) ? path : URLEncoding.percentEncodeNonASCII(path)
    }
}
