public import Foundation

/// The Shoppable API under `/api/v1` (issue #10, point 2): what a native shopping app needs, on
/// the same use cases as the storefront. Declared once in ``APIRoute/v1Declarations``.
public enum V1Route: Hashable, Sendable {
    /// `GET /api/v1/categories`: every category with products, with counts.
    case categories
    /// `GET /api/v1/products?category=&q=&sort=&cursor=&limit=&min=&max=&rating=&instock=&vendor=&tag=`.
    case products(V1ProductQuery)
    /// `GET /api/v1/products/{handle}`: one product with variants, stock, images and related products.
    case product(handle: String)
    /// `GET /api/v1/featured?view=recommendations`: the home page's featured products, or — with
    /// `view=recommendations` — its recommendations for the caller (the web's "See
    /// recommendations / See all" toggle).
    case featured(recommendations: Bool)
    /// `POST /api/v1/sessions/guest`: a guest token (201), for a cart and favorites before sign-in.
    case guestSession
    /// `GET /api/v1/cart`: the caller's cart priced in one pass (`CartQuote`).
    case cart
    /// `POST /api/v1/cart/lines` — body ``V1AddLine``.
    case addLine
    /// `PATCH /api/v1/cart/lines/{variantId}` — body ``V1LineChange`` (`quantity` and/or `selected`).
    case updateLine(FakeStoreID)
    /// `DELETE /api/v1/cart/lines/{variantId}?chosen=`: `chosen` names the line of an open variant
    /// (`Size=M`, options joined by a line feed), nil for other lines.
    case removeLine(FakeStoreID, chosen: String? = nil)
    /// `PUT /api/v1/cart/voucher` — body ``V1Voucher``.
    case setVoucher
    /// `DELETE /api/v1/cart/voucher`.
    case removeVoucher
    /// `GET /api/v1/favorites`: the caller's favorite products, most recent first.
    case favorites
    /// `PUT /api/v1/favorites/{productId}`.
    case addFavorite(FakeStoreID)
    /// `DELETE /api/v1/favorites/{productId}`.
    case removeFavorite(FakeStoreID)
    /// `GET /api/v1/checkout`: the checkout in progress, its shipping options and quote.
    case checkout
    /// `PUT /api/v1/checkout/address` — body ``V1CheckoutAddress``.
    case setCheckoutAddress
    /// `PUT /api/v1/checkout/shipping` — body ``V1ShippingChoice``.
    case setCheckoutShipping
    /// `POST /api/v1/checkout/review`: holds the stock and records the charges shown.
    case reviewCheckout
    /// `POST /api/v1/orders` with an `Idempotency-Key` header: places the reviewed order.
    case placeOrder
    /// `GET /api/v1/orders`: the signed-in account's orders, newest first.
    case orders
    /// `GET /api/v1/orders/{number}?token=`: one order, to its account or the guest token's holder.
    case order(number: String, token: String?)
    /// `POST /api/v1/account` — body ``V1Registration``: registers an account (201), as the web's form.
    case register
    /// `GET /api/v1/account`: the signed-in account's profile.
    case account
    /// `POST /api/v1/account/verification`: sends the verification email again (202).
    case resendVerification
    /// `POST /api/v1/account/verification/confirm` — body ``V1TokenBody``: uses an emailed verification token.
    case confirmVerification
    /// `POST /api/v1/account/password-reset` — body ``V1PasswordResetRequest``: emails a reset link (202, always).
    case requestPasswordReset
    /// `POST /api/v1/account/password-reset/confirm` — body ``V1PasswordReset``: sets a new password (204).
    case confirmPasswordReset
    /// `POST /api/v1/auth/tokens` — body ``V1SignIn``: signs in → ``V1TokenPair``.
    case signIn
    /// `POST /api/v1/auth/refresh` — body ``V1RefreshRequest``: spends a refresh token → a new ``V1TokenPair``.
    case refreshTokens
    /// `POST /api/v1/auth/sign-out?everywhere=true`: ends the bearer's session (every session of
    /// the account with `everywhere`); 204.
    case signOut(everywhere: Bool)
    /// `GET /api/v1/campaigns`: the running campaigns, as the campaigns page lists them.
    case campaigns
    /// `GET /api/v1/campaigns/{handle}`: one running campaign.
    case campaign(handle: String)
    /// `GET /api/v1/addresses`: the signed-in account's address book.
    case addresses
    /// `POST /api/v1/addresses` — body ``V1AddressInput`` (201).
    case addAddress
    /// `PUT /api/v1/addresses/{id}` — body ``V1AddressInput``.
    case updateAddress(FakeStoreID)
    /// `DELETE /api/v1/addresses/{id}` (204).
    case deleteAddress(FakeStoreID)
}

/// The query of `GET /api/v1/products`, as sent: the server checks it (a wrong `sort`, `limit`
/// or `cursor` is a 400 naming the parameter), so every value stays text here. The filters are
/// the storefront listing's (`min`/`max` prices in major units, `price` band, `rating` 1–5,
/// `instock=1`, `vendor`, `tag`); `facets=1` adds the facets with counts.
public struct V1ProductQuery: Hashable, Sendable {
    /// A category's handle.
    public var category: String?
    /// Search words (folded by the `Accept-Language` locale: en, tr or es).
    public var q: String?
    /// `relevance`, `featured`, `price-asc`, `price-desc`, `newest`, `rating` or `name`.
    public var sort: String?
    /// The `nextCursor` of the previous page (opaque).
    public var cursor: String?
    /// Page size, 1–100 (default 24).
    public var limit: String?
    public var min: String?
    public var max: String?
    public var rating: String?
    public var instock: String?
    public var vendor: String?
    public var tag: String?
    /// A price band's key (`25-50`, `250-`; `V1Facets.PriceBandCount.key`).
    public var price: String?
    /// `1`: add `facets` to the answer.
    public var facets: String?

    public init(category: String? = nil, q: String? = nil, sort: String? = nil, cursor: String? = nil, limit: String? = nil,
                min: String? = nil, max: String? = nil, rating: String? = nil, instock: String? = nil,
                vendor: String? = nil, tag: String? = nil, price: String? = nil, facets: String? = nil) {
        self.price = price
        self.facets = facets
        self.category = category
        self.q = q
        self.sort = sort
        self.cursor = cursor
        self.limit = limit
        self.min = min
        self.max = max
        self.rating = rating
        self.instock = instock
        self.vendor = vendor
        self.tag = tag
    }

    /// Each query parameter's name and field, in the printed order.
    static var fields: [(name: String, keyPath: WritableKeyPath<V1ProductQuery, String?>)] {
        [("category", \.category), ("q", \.q), ("sort", \.sort), ("cursor", \.cursor), ("limit", \.limit), ("min", \.min),
         ("max", \.max), ("price", \.price), ("rating", \.rating), ("instock", \.instock), ("vendor", \.vendor),
         ("tag", \.tag), ("facets", \.facets)]
    }

    init(_ parameters: RouteParameters) {
        for (name, keyPath) in Self.fields { self[keyPath: keyPath] = parameters.queryValue(name) }
    }

    var queryItems: [RouteRequest.QueryItem] {
        Self.fields.compactMap { name, keyPath in self[keyPath: keyPath].map { .init(name, $0) } }
    }
}

extension APIRoute {
    static let v1Declarations: [Declaration] = [
        Declaration("GET", "/api/v1/categories", [.cacheable],
                    make: { _ in .v1(.categories) },
                    match: { $0 == .v1(.categories) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/products", [.cacheable],
                    make: { .v1(.products(V1ProductQuery($0))) },
                    match: { if case let .v1(.products(query)) = $0 { RouteParameters([:], query: query.queryItems) } else { nil } }),
        Declaration("GET", "/api/v1/products/{handle}", [.cacheable],
                    make: { .v1(.product(handle: $0["handle"])) },
                    match: { if case let .v1(.product(handle)) = $0 { RouteParameters(["handle": handle]) } else { nil } }),
        Declaration("GET", "/api/v1/featured", [],
                    make: { .v1(.featured(recommendations: $0.queryValue("view") == "recommendations")) },
                    match: { route in
                        guard case let .v1(.featured(recommendations)) = route else { return nil }
                        return RouteParameters([:], query: recommendations ? [.init("view", "recommendations")] : [])
                    }),
        Declaration("POST", "/api/v1/sessions/guest", [.changesState],
                    make: { _ in .v1(.guestSession) },
                    match: { $0 == .v1(.guestSession) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/cart", [],
                    make: { _ in .v1(.cart) },
                    match: { $0 == .v1(.cart) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/cart/lines", [.changesState],
                    make: { _ in .v1(.addLine) },
                    match: { $0 == .v1(.addLine) ? RouteParameters() : nil }),
        Declaration("PATCH", "/api/v1/cart/lines/{variantId}", [.changesState],
                    make: { .v1(.updateLine(FakeStoreID(text: $0["variantId"]))) },
                    match: { if case let .v1(.updateLine(id)) = $0 { RouteParameters(["variantId": id.text]) } else { nil } }),
        Declaration("DELETE", "/api/v1/cart/lines/{variantId}", [.changesState],
                    make: { .v1(.removeLine(FakeStoreID(text: $0["variantId"]), chosen: $0.queryValue("chosen"))) },
                    match: { route in
                        guard case let .v1(.removeLine(id, chosen)) = route else { return nil }
                        return RouteParameters(["variantId": id.text], query: chosen.map { [.init("chosen", $0)] } ?? [])
                    }),
        Declaration("PUT", "/api/v1/cart/voucher", [.changesState],
                    make: { _ in .v1(.setVoucher) },
                    match: { $0 == .v1(.setVoucher) ? RouteParameters() : nil }),
        Declaration("DELETE", "/api/v1/cart/voucher", [.changesState],
                    make: { _ in .v1(.removeVoucher) },
                    match: { $0 == .v1(.removeVoucher) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/favorites", [],
                    make: { _ in .v1(.favorites) },
                    match: { $0 == .v1(.favorites) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/v1/favorites/{productId}", [.changesState],
                    make: { .v1(.addFavorite(FakeStoreID(text: $0["productId"]))) },
                    match: { if case let .v1(.addFavorite(id)) = $0 { RouteParameters(["productId": id.text]) } else { nil } }),
        Declaration("DELETE", "/api/v1/favorites/{productId}", [.changesState],
                    make: { .v1(.removeFavorite(FakeStoreID(text: $0["productId"]))) },
                    match: { if case let .v1(.removeFavorite(id)) = $0 { RouteParameters(["productId": id.text]) } else { nil } }),
        Declaration("GET", "/api/v1/checkout", [],
                    make: { _ in .v1(.checkout) },
                    match: { $0 == .v1(.checkout) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/v1/checkout/address", [.changesState],
                    make: { _ in .v1(.setCheckoutAddress) },
                    match: { $0 == .v1(.setCheckoutAddress) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/v1/checkout/shipping", [.changesState],
                    make: { _ in .v1(.setCheckoutShipping) },
                    match: { $0 == .v1(.setCheckoutShipping) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/checkout/review", [.changesState],
                    make: { _ in .v1(.reviewCheckout) },
                    match: { $0 == .v1(.reviewCheckout) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/orders", [.changesState],
                    make: { _ in .v1(.placeOrder) },
                    match: { $0 == .v1(.placeOrder) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/orders", [],
                    make: { _ in .v1(.orders) },
                    match: { $0 == .v1(.orders) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/orders/{number}", [],
                    make: { .v1(.order(number: $0["number"], token: $0.queryValue("token"))) },
                    match: { route in
                        guard case let .v1(.order(number, token)) = route else { return nil }
                        return RouteParameters(["number": number], query: token.map { [.init("token", $0)] } ?? [])
                    }),
        Declaration("POST", "/api/v1/account", [.changesState],
                    make: { _ in .v1(.register) },
                    match: { $0 == .v1(.register) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/account", [],
                    make: { _ in .v1(.account) },
                    match: { $0 == .v1(.account) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/account/verification", [.changesState],
                    make: { _ in .v1(.resendVerification) },
                    match: { $0 == .v1(.resendVerification) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/account/verification/confirm", [.changesState],
                    make: { _ in .v1(.confirmVerification) },
                    match: { $0 == .v1(.confirmVerification) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/account/password-reset", [.changesState],
                    make: { _ in .v1(.requestPasswordReset) },
                    match: { $0 == .v1(.requestPasswordReset) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/account/password-reset/confirm", [.changesState],
                    make: { _ in .v1(.confirmPasswordReset) },
                    match: { $0 == .v1(.confirmPasswordReset) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/auth/tokens", [.changesState],
                    make: { _ in .v1(.signIn) },
                    match: { $0 == .v1(.signIn) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/auth/refresh", [.changesState],
                    make: { _ in .v1(.refreshTokens) },
                    match: { $0 == .v1(.refreshTokens) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/auth/sign-out", [.changesState],
                    make: { .v1(.signOut(everywhere: $0.queryValue("everywhere") == "true")) },
                    match: { route in
                        guard case let .v1(.signOut(everywhere)) = route else { return nil }
                        return RouteParameters([:], query: everywhere ? [.init("everywhere", "true")] : [])
                    }),
        Declaration("GET", "/api/v1/campaigns", [.cacheable],
                    make: { _ in .v1(.campaigns) },
                    match: { $0 == .v1(.campaigns) ? RouteParameters() : nil }),
        Declaration("GET", "/api/v1/campaigns/{handle}", [.cacheable],
                    make: { .v1(.campaign(handle: $0["handle"])) },
                    match: { if case let .v1(.campaign(handle)) = $0 { RouteParameters(["handle": handle]) } else { nil } }),
        Declaration("GET", "/api/v1/addresses", [],
                    make: { _ in .v1(.addresses) },
                    match: { $0 == .v1(.addresses) ? RouteParameters() : nil }),
        Declaration("POST", "/api/v1/addresses", [.changesState],
                    make: { _ in .v1(.addAddress) },
                    match: { $0 == .v1(.addAddress) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/v1/addresses/{id}", [.changesState],
                    make: { .v1(.updateAddress(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .v1(.updateAddress(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("DELETE", "/api/v1/addresses/{id}", [.changesState],
                    make: { .v1(.deleteAddress(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .v1(.deleteAddress(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
    ]
}
