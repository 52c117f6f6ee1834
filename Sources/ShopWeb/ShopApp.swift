import Foundation
public import HTTPServer
import HTML
import Routing
import ShopCore
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
    /// Cookie remembering the product list layout (`grid` or `list`).
    static let layoutCookie = "shoppable_layout"
    /// Products per category page.
    static let pageSize = 24

    /// Answers one request. Never throws: failures become error pages.
    /// - Parameters:
    ///   - request: the decoded HTTP request.
    ///   - environment: stores, clock and settings.
    /// - Returns: the response, with the security headers every page carries.
    public static func handle(_ request: Request, _ environment: AppEnvironment) -> Response {
        var context = RequestContext(request: request, environment: environment)
        var response: Response
        do {
            response = try route(&context)
        } catch let error as any TemporaryStoreFailure where error.isTemporary {
            environment.log("busy request_id=\(request.id) \(request.method.rawValue) \(request.path): \(error)")
            response = context.errorPage(.serviceUnavailable)
            response.headers.replaceOrAdd(name: "Retry-After", value: "5")
        } catch {
            environment.log("error request_id=\(request.id) \(request.method.rawValue) \(request.path): \(error)")
            response = context.errorPage(.internalServerError)
        }
        personalize(&response, &context)
        for cookie in context.setCookies { response.headers.add(name: "Set-Cookie", value: cookie) }
        SecurityHeaders.apply(to: &response, environment: environment)
        return response
    }

    /// The answer to a request the HTTP server refuses before routing (400, 413, 414, 431):
    /// the sentence as plain text, with the headers every response of the shop carries.
    /// - Parameters:
    ///   - status: the refusal's status.
    ///   - message: what was wrong, for a person.
    ///   - environment: the shop's settings (https decides `Strict-Transport-Security`).
    public static func refusal(_ status: HTTPStatus, _ message: String, _ environment: AppEnvironment) -> Response {
        var response = Response.text("\(status.code) \(status.reasonPhrase): \(message)\n", status: status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        SecurityHeaders.apply(to: &response, environment: environment)
        return response
    }

    /// Fills the visitor's CSRF token and hearts into an HTML page (see `Personalization`).
    private static func personalize(_ response: inout Response, _ context: inout RequestContext) {
        guard response.headers["Content-Type"]?.hasPrefix("text/html") == true,
              Personalization.needsValues(response.body) else { return }
        let values = Personalization.Values(
            csrfToken: context.csrfToken(), favorites: Set((try? context.favoriteIDs()) ?? []),
            addLabel: context.l10n(.favoriteAdd), removeLabel: context.l10n(.favoriteRemove))
        response.body = Personalization.apply(response.body, values)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
    }

    private static func route(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        let query = request.query.map { RouteRequest.QueryItem($0.name, $0.value) }
        guard let route = SiteRoute.parse(method: request.method.rawValue, path: request.path, query: query) else {
            // The path exists for another method: 405 with the methods it takes.
            let allowed = SiteRoute.allowedMethods(path: request.path, query: query)
            guard !allowed.isEmpty else { return context.errorPage(.notFound) }
            var response = context.errorPage(.methodNotAllowed)
            response.headers.replaceOrAdd(name: "Allow", value: allowed.map { $0 == "GET" ? "GET, HEAD" : $0 }
                .joined(separator: ", "))
            return response
        }
        context.route = route
        context.canonicalPath = route.path
        if route.isAction, try !context.hasValidCSRFToken() {
            context.environment.log("csrf request_id=\(request.id) \(request.path): missing or wrong token")
            return context.errorPage(.forbidden)
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
        }
    }

    private static func catalog(_ route: SiteRoute.CatalogRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .home: return try home(&context)
        case .homeRecommendations: return try homeRecommendations(&context)
        case .categories: return try categories(&context, query: nil)
        case let .categorySearch(query): return try categories(&context, query: query)
        case let .category(handle, listing): return try category(&context, handle: handle, listing: listing)
        case let .search(query, listing): return try search(&context, query: query, listing: listing)
        case let .product(handle, variant): return try product(&context, handle: handle, variant: variant)
        case .badge:
            return JSONText.response(["cart": .int(try context.cartItemCount()), "favorites": .int(try context.favoriteIDs().count)])
        case let .layout(value, returnTo):
            context.setCookies.append(CookieHeader.make(name: layoutCookie, value: value, maxAge: 60 * 60 * 24 * 365,
                                                        secure: context.environment.secureCookies))
            return .redirect(to: SafeRedirect.localPath(returnTo) ?? SiteRoute.catalog(.home).path)
        }
    }

    private static func cart(_ route: SiteRoute.CartRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .show: return try cart(&context)
        case .add: return try cartAdd(&context)
        case let .updateLine(variantID): return try cartUpdate(&context, variantID: variantID, remove: false)
        case let .removeLine(variantID): return try cartUpdate(&context, variantID: variantID, remove: true)
        case let .selectLine(id): return try cartSelect(&context, line: id)
        case .selectAll: return try cartSelect(&context, line: nil)
        case .voucher: return try cartVoucher(&context, remove: false)
        case .voucherRemove: return try cartVoucher(&context, remove: true)
        }
    }

    private static func account(_ route: SiteRoute.AccountRoute, _ context: inout RequestContext) throws -> Response {
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

    // MARK: - Pages

    /// A page body as rendered once: what goes inside `<main>`, its title and tab.
    struct PageContent {
        var title: String
        var tab: Tab
        var mainClass = ""
        var node: Node
    }

    /// Serves a catalog page from the page cache, building it with `build` when the cache has
    /// no copy for the current catalog version. `build` returns nil for "not found" (not cached).
    static func cachedPage(_ context: inout RequestContext, keySuffix: String = "",
                                   build: (inout RequestContext) throws -> PageContent?) throws -> Response {
        // Only routes declared cacheable use the cache (SiteRoute.router); others render each time.
        guard context.route?.traits.contains(.cacheable) == true else {
            guard let content = try build(&context) else { return context.errorPage(.notFound) }
            return try page(&context, content)
        }
        let cache = context.environment.pageCache
        // Pages show catalog and campaigns (home banners, campaign pages): both versions, and the
        // campaign schedule's epoch (a campaign starting or ending changes what is shown).
        let schedule = try context.campaignSchedule()
        let version = try context.environment.catalog.version() &* 1_000_003 &+ schedule.version &* 7_919 &+ schedule.epoch
        // Keyed by the route's canonical URL: unknown query parameters cannot multiply entries.
        let key = context.l10n.locale.identifier + " " + context.canonicalPath + keySuffix
        // A visitor with no session and no pending message sees exactly what every such visitor
        // sees: serve the whole document from the cache.
        let anonymous = context.request.cookies[sessionCookie] == nil && context.request.cookies[flashCookie] == nil
        let documentKey = key + (context.request.cookies[layoutCookie] == "list" ? " list" : " grid")
        if anonymous, let document = cache.lookupDocument(documentKey, version: version) {
            return .html(document)
        }
        let entry: PageCache.Entry
        if let hit = cache.lookup(key, version: version) {
            entry = hit
        } else {
            guard let content = try build(&context) else { return context.errorPage(.notFound) }
            entry = PageCache.Entry(version: version, title: content.title, tab: content.tab, mainClass: content.mainClass,
                                    html: renderString(content.node))
            cache.store(entry, for: key)
        }
        let layout = try context.layout(title: entry.title, tab: entry.tab)
        let document = Views.page(layout, mainClass: entry.mainClass) { Node.raw(unsafe: entry.html) }
        if anonymous && context.setCookies.isEmpty { cache.storeDocument(document, version: version, for: documentKey) }
        return .html(document)
    }

    /// Renders a page that is not cached (it depends on the visitor).
    static func page(_ context: inout RequestContext, _ content: PageContent,
                             status: HTTPStatus = .ok) throws -> Response {
        let layout = try context.layout(title: content.title, tab: content.tab)
        return .html(Views.page(layout, mainClass: content.mainClass) { content.node }, status: status)
    }

    private static func home(_ context: inout RequestContext) throws -> Response {
        try cachedPage(&context) { context in
            let catalog = context.environment.catalog
            let categories = try catalog.categories()
            // Best rated first, but what can be bought now before what is sold out.
            let rated = try catalog.products(ProductQuery(sort: .rating, limit: 24)).products
            let featured = Array((rated.filter { !$0.isSoldOut } + rated.filter(\.isSoldOut)).prefix(12))
            let page = context.models.homePage(categories: categories, featured: featured,
                                               campaigns: try context.campaignSchedule().active, showingRecommendations: false,
                                               timeZone: context.environment.timeZone)
            return PageContent(title: context.l10n(.homeTitle), tab: .home,
                               node: Views.home(page, l10n: context.l10n, returnTo: SiteRoute.catalog(.home).path))
        }
    }

    private static func categories(_ context: inout RequestContext, query: String?) throws -> Response {
        try cachedPage(&context) { context in
            var summaries = try context.environment.catalog.categories()
            if let query {
                let words = query.split(whereSeparator: \.isWhitespace)
                summaries = summaries.filter { summary in
                    words.allSatisfy { summary.category.name.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
                }
            }
            let page = CategoriesPage(categories: summaries.map(context.models.categoryLink), query: query ?? "")
            return PageContent(title: context.l10n(.categoriesTitle), tab: .categories,
                               node: Views.categories(page, l10n: context.l10n))
        }
    }

    private static func category(_ context: inout RequestContext, handle: String, listing: Listing) throws -> Response {
        try cachedPage(&context) { context in
            let catalog = context.environment.catalog
            guard let category = try catalog.categoryByHandle(handle),
                  var query = listing.productQuery(pageSize: pageSize, currency: context.environment.currency,
                                                   defaultSort: .featured) else { return nil }
            query.categoryID = category.id
            var result = try catalog.products(query)
            if result.products.isEmpty && listing.page > 1 { return nil }
            result.products = try context.availableToEveryone(result.products)
            let model = context.models.categoryPage(category: category, page: result, listing: listing, pageSize: pageSize)
            return PageContent(title: category.name, tab: .categories,
                               node: Views.category(model, l10n: context.l10n, returnTo: context.canonicalPath))
        }
    }

    /// `GET /search?q=…`: ranked, paginated, filterable; the words are echoed back escaped.
    private static func search(_ context: inout RequestContext, query text: String, listing: Listing) throws -> Response {
        let locale = searchLocale(context.request.headers["Accept-Language"])
        return try cachedPage(&context, keySuffix: " " + locale.rawValue) { context in
            let l10n = context.l10n
            let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let catalog = context.environment.catalog
            // Without a letter or digit there is nothing to search for: show the search box.
            guard words.contains(where: { $0.isLetter || $0.isNumber }) else {
                return PageContent(title: l10n(.searchTitle), tab: .categories,
                                   node: Views.search(SearchPage(query: "", heading: l10n(.searchPrompt), cards: [],
                                                                 pagination: nil, controls: nil, suggestions: []),
                                                      l10n: l10n, returnTo: context.canonicalPath))
            }
            guard var query = listing.productQuery(pageSize: pageSize, currency: context.environment.currency,
                                                   defaultSort: .relevance) else { return nil }
            query.text = String(words.prefix(200))
            query.locale = locale
            let result = try catalog.products(query)
            if result.products.isEmpty && listing.page > 1 { return nil }
            let models = context.models
            let page = SearchPage(
                query: words,
                heading: result.totalCount == 0 ? l10n(.searchEmptyTitle, ["query": words])
                    : result.totalCount == 1 ? l10n(.searchResultsOne, ["query": words])
                    : l10n(.searchResults, ["count": l10n.number(result.totalCount), "query": words]),
                cards: result.products.map(models.card),
                pagination: models.pagination(total: result.totalCount, pageSize: pageSize, page: listing.page) {
                    SiteRoute.catalog(.search(query: words, listing: listing.onPage($0))).path
                },
                controls: result.totalCount == 0 && !listing.hasFilters ? nil
                    : models.listingControls(listing, page: result, action: "/search", hidden: [("q", words)],
                                             sorts: [.relevance, .priceAscending, .priceDescending, .newest, .rating, .name],
                                             defaultSort: .relevance),
                suggestions: result.totalCount == 0 ? try catalog.categories().prefix(6).map(models.categoryLink) : [])
            return PageContent(title: l10n(.searchTitle) + ": " + words, tab: .categories,
                               node: Views.search(page, l10n: l10n, returnTo: context.canonicalPath))
        }
    }

    private static func product(_ context: inout RequestContext, handle: String, variant: Variant.ID?) throws -> Response {
        // A shopper holding some of this product at checkout sees it as theirs to buy, not as
        // "sold out" by their own hold: that page is theirs alone, rendered without the cache.
        if let shopper = try context.shopper(), let orders = context.environment.orders,
           let listed = try context.environment.catalog.productByHandle(handle),
           try context.cart().lines.contains(where: { $0.productID == listed.id }) {
            let ids = listed.variants.map(\.id)
            if try orders.available(ids, shopper, context.now) != orders.available(ids, nil, context.now) {
                return try page(&context, productContent(try context.availableToShopper(listed), variant, context))
            }
        }
        return try cachedPage(&context) { context in
            guard let listed = try context.environment.catalog.productByHandle(handle), !listed.variants.isEmpty else {
                return nil
            }
            return try productContent(try context.availableToEveryone([listed])[0], variant, context)
        }
    }

    private static func productContent(_ product: Product, _ variant: Variant.ID?, _ context: RequestContext) throws -> PageContent {
        let page = context.models.productPage(product, selected: variant, timeZone: context.environment.timeZone)
        let related = try relatedProducts(to: product, context.environment.catalog).map(context.models.card)
        return PageContent(title: product.title, tab: .categories, mainClass: "product-page",
                           node: Views.product(page, related: related, l10n: context.l10n))
    }

    /// The language whose folding rules a search uses: the visitor's first `Accept-Language`
    /// that is Turkish, Spanish or English (so a Turkish visitor's "istanbul" finds "İstanbul"
    /// and "ısık" finds "IŞIK"); English otherwise.
    static func searchLocale(_ acceptLanguage: String?) -> SearchLocale {
        for part in (acceptLanguage ?? "").split(separator: ",") {
            let tag = part.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
            let language = tag.split(separator: "-").first.map(String.init) ?? tag
            if let locale = SearchLocale(rawValue: language) { return locale }
        }
        return .english
    }

    /// Up to 8 products from the same category, those sharing the most tags first, then those in
    /// stock, then the best rated; never the product itself (issue #4).
    static func relatedProducts(to product: Product, _ catalog: CatalogStore) throws -> [Product] {
        guard let categoryID = product.categoryID else { return [] }
        let candidates = try catalog.products(ProductQuery(categoryID: categoryID, sort: .rating, limit: 100)).products
        let tags = Set(product.tags.map { $0.lowercased() })
        return candidates.enumerated()
            .filter { $0.element.id != product.id }
            .map { (index: $0.offset, product: $0.element,
                    shared: $0.element.tags.filter { tags.contains($0.lowercased()) }.count) }
            .sorted { lhs, rhs in
                if lhs.shared != rhs.shared { return lhs.shared > rhs.shared }
                if lhs.product.isSoldOut != rhs.product.isSoldOut { return !lhs.product.isSoldOut }
                return lhs.index < rhs.index
            }
            .prefix(8).map(\.product)
    }

    private static func cart(_ context: inout RequestContext) throws -> Response {
        var priced = try context.pricedCart()
        // Lines whose product is no longer sold are removed for good, and the shopper is told.
        let cart = try context.cart()
        if priced.lines.count < cart.lines.count {
            let kept = Set(priced.lines.map(\.variant.id))
            try context.changeCart(cart.lines.filter { !kept.contains($0.variantID) }.map { .remove($0.variantID) })
            priced = try context.pricedCart()
            context.pageFlash = Flash(kind: .error, text: context.l10n(.cartLineRemoved))
        }
        // What other shoppers hold is not available to this one.
        for index in priced.lines.indices {
            priced.lines[index].variant = try context.withReservations(priced.lines[index].variant)
        }
        // Stock that fell below a line's quantity since it was added: say so on the line.
        var errors: [Variant.ID: String] = [:]
        for line in priced.lines where line.quantity > line.quantityLimit {
            errors[line.variant.id] = context.l10n.message(
                for: line.quantityLimit == 0 ? .soldOut : .quantityExceedsStock(available: line.quantityLimit, inCart: 0))
        }
        let totals = try cartTotals(&context)
        let page = context.models.cartPage(priced, totals: totals, recommendations: try cartRecommendations(&context),
                                           errors: errors, timeZone: context.environment.timeZone)
        return try self.page(&context, PageContent(title: context.l10n(.cartTitle), tab: .cart, mainClass: "cart-page",
                                                   node: Views.cart(page, l10n: context.l10n)))
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

    // MARK: - Cart actions

    /// `POST /cart/add`: `product` (handle), `variant` (id), `quantity`, optional `return_to`.
    private static func cartAdd(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        let wantsJSON = request.headers["Accept"]?.contains("application/json") == true
        guard let handle = request.formValue("product"),
              let product = try context.environment.catalog.productByHandle(handle) else {
            // No longer sold (or never was): quick add shows the reason in its toast.
            guard wantsJSON else { return context.errorPage(.notFound) }
            return JSONText.response(["ok": .bool(false), "message": .string(context.l10n.message(for: CartError.variantNotFound))],
                                     status: .notFound)
        }
        let requestedVariant = request.formValue("variant").flatMap { Int64($0) }.map(Variant.ID.init(rawValue:))
        let chosen = requestedVariant.flatMap { id in product.variants.first { $0.id == id } }
            ?? (product.hasOptions ? nil : product.defaultVariant)
        let quantityText = request.formValue("quantity") ?? "1"
        func rejected(_ message: String, quantity: Int = 1) throws -> Response {
            if wantsJSON {
                return JSONText.response(["ok": .bool(false), "message": .string(message)], status: .unprocessableContent)
            }
            // The stock shown beside the refusal is what this shopper can buy now (net of others' holds).
            let model = context.models.productPage(try context.availableToShopper(product), selected: requestedVariant,
                                                   quantity: quantity, error: message, timeZone: context.environment.timeZone)
            // Shown at the top as well, where a phone's screen starts.
            context.pageFlash = Flash(kind: .error, text: message)
            return try page(&context, PageContent(title: product.title, tab: .categories, mainClass: "product-page",
                                                  node: Views.product(model, related: [], l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        guard let listed = chosen else { return try rejected(context.l10n(.cartErrorChooseVariant)) }
        let variant = try context.withReservations(listed)
        do {
            // The checks that need no cart here; the one against the line already in the cart
            // is the store's conditional increment (simultaneous adds all count).
            let quantity = try CartQuantity.parse(quantityText)
            let limit = try Cart.lineLimit(adding: quantity, of: variant)
            do {
                try context.changeCart([.add(productID: product.id, variantID: variant.id, quantity: quantity, limit: limit)])
            } catch let refused as CartLineLimitExceeded {
                throw Cart.addRefusal(adding: quantity, of: variant, alreadyInCart: refused.inCart)
            }
        } catch let error as CartError {
            return try rejected(context.l10n.message(for: error), quantity: Int(quantityText) ?? 1)
        }
        let added = context.l10n(.addedToCart, ["title": product.title])
        if wantsJSON {
            // Quick add with JavaScript: the page stays; the badge and a short toast update in place.
            return JSONText.response(["ok": .bool(true), "message": .string(added),
                                      "cartCount": .int(try context.cartItemCount())])
        }
        context.setFlash(Flash(kind: .success, text: added, linkText: context.l10n(.viewCart), linkHref: SiteRoute.cart(.show).path))
        let fallback = SiteRoute.catalog(.product(handle: product.handle, variant: product.hasOptions ? variant.id : nil)).path
        return .redirect(to: SafeRedirect.localPath(request.formValue("return_to")) ?? fallback)
    }

    /// `POST /cart/lines/{id}` (`quantity`, 0 removes) and `POST /cart/lines/{id}/remove`.
    private static func cartUpdate(_ context: inout RequestContext, variantID: Variant.ID, remove: Bool) throws -> Response {
        var cart = try context.cart()
        guard let line = cart.line(for: variantID) else {
            context.setFlash(Flash(kind: .error, text: context.l10n(.cartErrorLineNotFound)))
            return .redirect(to: SiteRoute.cart(.show).path)
        }
        let product = try context.environment.catalog.productsByID([line.productID])[line.productID]
        let variant = product?.variants.first { $0.id == variantID }
        if remove || variant == nil {
            try context.changeCart([.remove(variantID)])
            if let product {
                context.setFlash(Flash(kind: .success, text: context.l10n(.cartRemoved, ["title": product.title])))
            }
            return .redirect(to: SiteRoute.cart(.show).path)
        }
        let available = try context.withReservations(variant!)
        let quantity: Int
        do {
            quantity = try CartQuantity.parse(context.request.formValue("quantity") ?? "")
            try cart.setQuantity(quantity, of: available)  // the rules, on this request's copy
        } catch {
            let priced = try context.pricedCart()
            let model = context.models.cartPage(priced, totals: try cartTotals(&context), recommendations: [],
                                                errors: [variantID: context.l10n.message(for: error)],
                                                timeZone: context.environment.timeZone)
            return try page(&context, PageContent(title: context.l10n(.cartTitle), tab: .cart, mainClass: "cart-page",
                                                  node: Views.cart(model, l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        try context.changeCart([quantity == 0 ? .remove(variantID) : .setQuantity(variantID, quantity)])
        context.setFlash(Flash(kind: .success, text: context.l10n(.cartUpdated)))
        return .redirect(to: SiteRoute.cart(.show).path)
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
        return path
    }
}
