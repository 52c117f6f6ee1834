import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// The Shoppable API under `/api/v1` (issue #10, point 2): each handler decodes the request,
/// calls the same use case as the storefront page (`CartService`, `SessionService`, the
/// catalog reads and `RequestContext`'s cart and favorites) and shapes the answer as JSON.
enum V1Handlers {
    static func handle(_ route: V1Route, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .categories: return try categories(context)
        case let .products(query): return try products(query, context)
        case let .product(handle): return try product(handle, context)
        case let .featured(recommendations): return try featured(recommendations: recommendations, &context)
        case .guestSession: return try guestSession(context)
        case .cart: return try cart(&context)
        case .addLine: return try addLine(&context)
        case let .updateLine(id): return try updateLine(id, &context)
        case let .removeLine(id, chosen): return try removeLine(id, chosen: chosen, &context)
        case .setVoucher: return try setVoucher(&context, remove: false)
        case .removeVoucher: return try setVoucher(&context, remove: true)
        case .favorites: return try favorites(&context)
        case let .addFavorite(id): return try setFavorite(id, true, &context)
        case let .removeFavorite(id): return try setFavorite(id, false, &context)
        case .checkout: return try checkout(&context)
        case .setCheckoutAddress: return try setCheckoutAddress(&context)
        case .setCheckoutShipping: return try setCheckoutShipping(&context)
        case .reviewCheckout: return try reviewCheckout(&context)
        case .placeOrder: return try placeOrder(&context)
        case .orders: return try orders(&context)
        case let .order(number, token): return try order(number, token: token, &context)
        case .register: return try register(context)
        case .account: return try account(context)
        case .resendVerification: return try resendVerification(context)
        case .confirmVerification: return try confirmVerification(context)
        case .requestPasswordReset: return try requestPasswordReset(context)
        case .confirmPasswordReset: return try confirmPasswordReset(context)
        case .signIn: return try signIn(context)
        case .refreshTokens: return try refreshTokens(context)
        case let .signOut(everywhere): return try signOut(everywhere: everywhere, context)
        case .campaigns: return try campaigns(&context)
        case let .campaign(handle): return try campaign(handle, &context)
        case .addresses: return try addresses(context)
        case .addAddress: return try saveAddress(nil, context)
        case let .updateAddress(id): return try saveAddress(id, context)
        case let .deleteAddress(id): return try deleteAddress(id, context)
        }
    }

    // MARK: Shaping

    /// Money on the wire: integer minor units, the currency code and the shop's formatting.
    static func money(_ money: Money, _ context: RequestContext) -> V1Money {
        V1Money(minorUnits: money.minorUnits, currency: money.currency.code, formatted: context.l10n.money(money))
    }

    static func rating(_ rating: Rating?) -> V1Rating? {
        rating.map { V1Rating(rateHundredths: $0.rateHundredths, count: $0.count) }
    }

    /// An image on the wire: its URL as imported and, for an image stored by the shop, its size
    /// and renditions (`ImageRenditions.allRenditions`), every URL absolute.
    static func image(_ image: ProductImage, _ context: RequestContext) -> V1Image {
        let renditions = ImageRenditions.allRenditions(of: image).map { item in
            V1ImageRendition(width: item.rendition.width, url: FakeStoreHandlers.absolute(item.rendition.url, context),
                             type: item.format.mediaType)
        }
        return V1Image(url: FakeStoreHandlers.absolute(image.url, context), altText: image.altText, width: image.width,
                       height: image.height, renditions: renditions.isEmpty ? nil : renditions)
    }

    /// A product as a list shows it (a card's fields).
    static func summary(_ product: Product, _ context: RequestContext) -> V1ProductSummary {
        V1ProductSummary(id: product.id.rawValue, handle: product.handle, title: product.title, vendor: product.vendor,
                         price: product.lowestPrice.map { money($0, context) },
                         // A card's one picture: a stored image's 1280-pixel copy, never the original.
                         image: product.images.first.map { FakeStoreHandlers.absolute(ImageRenditions.singleURL(of: $0), context) },
                         rating: rating(product.rating), soldOut: product.isSoldOut)
    }

    /// 400 `invalid_parameter` for a query parameter the API cannot use.
    static func invalidParameter(_ name: String, _ key: L10nKey, _ arguments: [String: String] = [:]) -> APIError {
        APIError(status: .badRequest, code: "invalid_parameter", key, arguments, field: name)
    }

    // MARK: Sessions

    /// `POST /api/v1/sessions/guest`: a guest session (`SessionService.startGuestSession`, the
    /// web's guest sessions: 30 days of use) whose token carries a cart and favorites until
    /// sign-in merges them into the account's.
    static func guestSession(_ context: RequestContext) throws -> Response {
        // Each guest session is a stored row: at most so many per client address and hour.
        if let throttled = try context.countAttempt(context.environment.throttles.guestSession(client: context.clientAddress),
                                                    at: context.now) {
            throw APIError.tooManyAttempts(throttled)
        }
        let issued = try context.sessionService.startGuestSession(csrfToken: context.environment.crypto.randomToken(),
                                                                 csrfCookie: nil)
        return try APIApp.json(V1GuestToken(token: issued.token, expiresAt: issued.session.expiresAt), status: .created)
    }

    /// The shopper the bearer token names (a guest's or an account's), adopted as the request's
    /// session so the cart and favorites are read exactly as the pages read them.
    /// - Throws: 401 `unauthorized` without a token or with one that names no live session.
    static func shopper(_ context: inout RequestContext) throws -> Shopper {
        guard let bearer = try APIApp.bearerSession(context) else {
            var error = APIError(status: .unauthorized, code: "unauthorized", .apiTokenRequired)
            error.headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer")
            throw error
        }
        context.adoptSession(bearer.session, token: bearer.token)
        return bearer.session.shopper
    }
}
