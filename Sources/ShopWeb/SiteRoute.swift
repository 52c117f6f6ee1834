import Foundation
public import ShopCore

/// Every page and action of the storefront, parsed from requests and printed back to URLs, so
/// links are `SiteRoute.product(handle:).path` and never string concatenation (STYLE.md 6).
public enum SiteRoute: Hashable, Sendable {
    /// `GET /` — campaign banners (later), categories, featured products.
    case home
    /// `GET /categories` — every category with its product count.
    case categories
    /// `GET /categories?q=…` — categories whose name contains the words (works without JavaScript;
    /// with it the list filters as you type).
    case categorySearch(query: String)
    /// `GET /badge` — the visitor's cart and favorites counts as JSON, for the live badges.
    case badge
    /// `GET /layout?set=grid|list&return_to=…` — remembers the product list layout in a cookie.
    case layout(String, returnTo: String?)
    /// `GET /categories/{handle}?sort=…&page=N` — a category's products, sorted and filtered.
    case category(handle: String, listing: Listing)
    /// `GET /search?q=…&sort=…` — products matching the words.
    case search(query: String, listing: Listing)
    /// `GET /products/{handle}?variant={id}` — a product, optionally with a variant chosen.
    case product(handle: String, variant: Variant.ID?)
    /// `GET /cart` — the cart.
    case cart
    /// `POST /cart/add` — form: `variant`, `quantity`, optional `return_to`.
    case cartAdd
    /// `POST /cart/lines/{variantID}` — form: `quantity` (0 removes).
    case cartUpdateLine(Variant.ID)
    /// `POST /cart/lines/{variantID}/remove`.
    case cartRemoveLine(Variant.ID)
    /// `GET /campaigns` — the active campaigns.
    case campaigns
    /// `GET /campaigns/{id}` — a campaign: description, dates, products with campaign prices, code.
    case campaign(Campaign.ID)
    /// `GET /?view=recommendations` — the home page with recommendations for this visitor.
    case homeRecommendations
    /// `POST /cart/voucher` (`code`) and `POST /cart/voucher/remove`.
    case cartVoucher, cartVoucherRemove
    /// `POST /cart/lines/{variantID}/select` (`selected` = 1 or 0) and `POST /cart/select-all` (same field).
    case cartSelectLine(Variant.ID)
    case cartSelectAll
    /// The address book: `GET /account/addresses`, `GET /account/addresses/new`, `POST /account/addresses`,
    /// `GET|POST /account/addresses/{id}` (edit), `GET|POST /account/addresses/{id}/delete` (confirm, delete).
    case addresses, addressNew, addressCreate
    case addressEdit(Address.ID), addressUpdate(Address.ID)
    case addressDeleteConfirm(Address.ID), addressDelete(Address.ID)
    /// Checkout: `GET /checkout` (to the right step), address, shipping, review, `POST /checkout/place`.
    case checkout
    case checkoutAddress, checkoutAddressSubmit
    case checkoutShipping, checkoutShippingSubmit
    case checkoutReview, checkoutPlace
    /// `GET /orders` — a signed-in shopper's orders; `GET /orders/{number}?token=…` — one order.
    case orders
    case order(number: String, token: String?)
    /// `GET /favorites` — the visitor's favorite products.
    case favorites
    /// `POST /favorites/{productID}` — form: `favorite` (1 adds, 0 removes), optional `return_to`.
    case favoriteToggle(Product.ID)
    /// `GET /account` — name, email, password change, sign out everywhere (signed in only).
    case account
    /// `GET /account/register` and `POST` (name, email, password, password_confirmation).
    case register, registerSubmit
    /// `GET /account/sign-in?next=/path` and `POST` (email, password, remember, next).
    case signIn(next: String?)
    case signInSubmit
    /// `POST /account/sign-out` and `POST /account/sign-out-everywhere`.
    case signOut, signOutEverywhere
    /// `GET /account/verify?token=…` — the emailed confirmation link.
    case verifyEmail(token: String)
    /// `POST /account/verify/resend`.
    case verifyResend
    /// `GET /account/password/forgot` and `POST` (email).
    case forgotPassword, forgotPasswordSubmit
    /// `GET /account/password/reset?token=…` and `POST` (token, password, password_confirmation).
    case resetPassword(token: String)
    case resetPasswordSubmit
    /// `POST /account/password` (current_password, password, password_confirmation).
    case changePassword
    /// `GET /healthz` — liveness and database check.
    case health
    /// `GET /static/{path}` — stylesheet, script and images shipped with the app.
    case asset(path: String)
    /// `GET /media/{file}` — images imported from merchants' local files.
    case media(file: String)

    /// The site-relative URL of the route, percent-encoding path segments.
    public var path: String {
        switch self {
        case .home: return "/"
        case .categories: return "/categories"
        case let .categorySearch(query): return "/categories?q=\(SiteRoute.encodeQueryValue(query))"
        case .badge: return "/badge"
        case let .layout(value, returnTo):
            return "/layout?set=\(SiteRoute.encodeQueryValue(value))"
                + (returnTo.map { "&return_to=\(SiteRoute.encodeQueryValue($0))" } ?? "")
        case let .category(handle, listing):
            return SiteRoute.withQuery("/categories/\(SiteRoute.encodeSegment(handle))", listing.queryItems)
        case let .search(query, listing):
            return SiteRoute.withQuery("/search", [("q", query)] + listing.queryItems)
        case let .product(handle, variant):
            let base = "/products/\(SiteRoute.encodeSegment(handle))"
            return variant.map { "\(base)?variant=\($0.rawValue)" } ?? base
        case .cart: return "/cart"
        case .cartAdd: return "/cart/add"
        case let .cartUpdateLine(id): return "/cart/lines/\(id.rawValue)"
        case let .cartRemoveLine(id): return "/cart/lines/\(id.rawValue)/remove"
        case .campaigns: return "/campaigns"
        case let .campaign(id): return "/campaigns/\(SiteRoute.encodeSegment(id.rawValue))"
        case .homeRecommendations: return "/?view=recommendations"
        case .cartVoucher: return "/cart/voucher"
        case .cartVoucherRemove: return "/cart/voucher/remove"
        case let .cartSelectLine(id): return "/cart/lines/\(id.rawValue)/select"
        case .cartSelectAll: return "/cart/select-all"
        case .addresses, .addressCreate: return "/account/addresses"
        case .addressNew: return "/account/addresses/new"
        case let .addressEdit(id), let .addressUpdate(id): return "/account/addresses/\(id.rawValue)"
        case let .addressDeleteConfirm(id), let .addressDelete(id): return "/account/addresses/\(id.rawValue)/delete"
        case .checkout: return "/checkout"
        case .checkoutAddress, .checkoutAddressSubmit: return "/checkout/address"
        case .checkoutShipping, .checkoutShippingSubmit: return "/checkout/shipping"
        case .checkoutReview: return "/checkout/review"
        case .checkoutPlace: return "/checkout/place"
        case .orders: return "/orders"
        case let .order(number, token):
            return "/orders/\(SiteRoute.encodeSegment(number))" + (token.map { "?token=\(SiteRoute.encodeQueryValue($0))" } ?? "")
        case .favorites: return "/favorites"
        case let .favoriteToggle(id): return "/favorites/\(id.rawValue)"
        case .account: return "/account"
        case .register, .registerSubmit: return "/account/register"
        case let .signIn(next):
            return next.map { "/account/sign-in?next=\(SiteRoute.encodeQueryValue($0))" } ?? "/account/sign-in"
        case .signInSubmit: return "/account/sign-in"
        case .signOut: return "/account/sign-out"
        case .signOutEverywhere: return "/account/sign-out-everywhere"
        case let .verifyEmail(token): return "/account/verify?token=\(SiteRoute.encodeQueryValue(token))"
        case .verifyResend: return "/account/verify/resend"
        case .forgotPassword, .forgotPasswordSubmit: return "/account/password/forgot"
        case let .resetPassword(token): return "/account/password/reset?token=\(SiteRoute.encodeQueryValue(token))"
        case .resetPasswordSubmit: return "/account/password/reset"
        case .changePassword: return "/account/password"
        case .health: return "/healthz"
        case let .asset(path): return "/static/\(path)"
        case let .media(file): return "/media/\(SiteRoute.encodeSegment(file))"
        }
    }

    /// Parses a request's method, decoded path and query; nil when nothing matches (404).
    /// - Parameters:
    ///   - method: the upper-case HTTP method, `"GET"`/`"HEAD"` for pages, `"POST"` for actions.
    ///   - path: the percent-decoded path, e.g. `"/products/oak-chair"`.
    ///   - query: a lookup for decoded query values.
    public static func parse(method: String, path: String, query: (String) -> String?) -> SiteRoute? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let isRead = method == "GET" || method == "HEAD"
        switch (isRead, segments.count) {
        case (true, 0): return query("view") == "recommendations" ? .homeRecommendations : .home
        case (true, 1) where segments[0] == "campaigns": return .campaigns
        case (true, 2) where segments[0] == "campaigns": return .campaign(Campaign.ID(rawValue: segments[1]))
        case (true, _) where segments == ["categories"]:
            if let query = query("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty {
                return .categorySearch(query: query)
            }
            return .categories
        case (true, 1) where segments[0] == "badge": return .badge
        case (true, 1) where segments[0] == "layout":
            guard let value = query("set"), ["grid", "list"].contains(value) else { return nil }
            return .layout(value, returnTo: query("return_to"))
        case (true, 2) where segments[0] == "categories":
            return Listing.parse(query).map { .category(handle: segments[1], listing: $0) }
        case (true, 1) where segments[0] == "search":
            return Listing.parse(query).map { .search(query: query("q") ?? "", listing: $0) }
        case (true, 2) where segments[0] == "products":
            let variant = query("variant").flatMap { Int64($0) }.map(Variant.ID.init(rawValue:))
            return .product(handle: segments[1], variant: variant)
        case (true, 1) where segments[0] == "cart": return .cart
        case (true, 1) where segments[0] == "healthz": return .health
        case (true, 1) where segments[0] == "favorites": return .favorites
        case (true, 2) where segments == ["account", "addresses"]: return .addresses
        case (true, 3) where segments[0] == "account" && segments[1] == "addresses" && segments[2] == "new": return .addressNew
        case (true, 3) where segments[0] == "account" && segments[1] == "addresses":
            return Int64(segments[2]).map { .addressEdit(Address.ID(rawValue: $0)) }
        case (true, 4) where segments[0] == "account" && segments[1] == "addresses" && segments[3] == "delete":
            return Int64(segments[2]).map { .addressDeleteConfirm(Address.ID(rawValue: $0)) }
        case (true, 1) where segments[0] == "checkout": return .checkout
        case (true, 2) where segments == ["checkout", "address"]: return .checkoutAddress
        case (true, 2) where segments == ["checkout", "shipping"]: return .checkoutShipping
        case (true, 2) where segments == ["checkout", "review"]: return .checkoutReview
        case (true, 1) where segments[0] == "orders": return .orders
        case (true, 2) where segments[0] == "orders": return .order(number: segments[1], token: query("token"))
        case (true, 1) where segments[0] == "account": return .account
        case (true, 2) where segments == ["account", "register"]: return .register
        case (true, 2) where segments == ["account", "sign-in"]: return .signIn(next: query("next"))
        case (true, 2) where segments == ["account", "verify"]: return .verifyEmail(token: query("token") ?? "")
        case (true, 3) where segments == ["account", "password", "forgot"]: return .forgotPassword
        case (true, 3) where segments == ["account", "password", "reset"]: return .resetPassword(token: query("token") ?? "")
        case (true, _) where segments.first == "static" && segments.count >= 2:
            let rest = segments.dropFirst()
            guard !rest.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }) else { return nil }
            return .asset(path: rest.joined(separator: "/"))
        case (true, 2) where segments[0] == "media":
            guard !segments[1].hasPrefix(".") else { return nil }
            return .media(file: segments[1])
        case (false, 2) where method == "POST" && segments == ["cart", "add"]: return .cartAdd
        case (false, 2) where method == "POST" && segments == ["account", "addresses"]: return .addressCreate
        case (false, 3) where method == "POST" && segments[0] == "account" && segments[1] == "addresses":
            return Int64(segments[2]).map { .addressUpdate(Address.ID(rawValue: $0)) }
        case (false, 4) where method == "POST" && segments[0] == "account" && segments[1] == "addresses" && segments[3] == "delete":
            return Int64(segments[2]).map { .addressDelete(Address.ID(rawValue: $0)) }
        case (false, 2) where method == "POST" && segments == ["checkout", "address"]: return .checkoutAddressSubmit
        case (false, 2) where method == "POST" && segments == ["checkout", "shipping"]: return .checkoutShippingSubmit
        case (false, 2) where method == "POST" && segments == ["checkout", "place"]: return .checkoutPlace
        case (false, 2) where method == "POST" && segments == ["cart", "voucher"]: return .cartVoucher
        case (false, 2) where method == "POST" && segments == ["cart", "select-all"]: return .cartSelectAll
        case (false, 3) where method == "POST" && segments == ["cart", "voucher", "remove"]: return .cartVoucherRemove
        case (false, 4) where method == "POST" && segments[0] == "cart" && segments[1] == "lines" && segments[3] == "select":
            return Int64(segments[2]).map { .cartSelectLine(Variant.ID(rawValue: $0)) }
        case (false, 2) where method == "POST" && segments[0] == "favorites":
            return Int64(segments[1]).map { .favoriteToggle(Product.ID(rawValue: $0)) }
        case (false, 2) where method == "POST" && segments == ["account", "register"]: return .registerSubmit
        case (false, 2) where method == "POST" && segments == ["account", "sign-in"]: return .signInSubmit
        case (false, 2) where method == "POST" && segments == ["account", "sign-out"]: return .signOut
        case (false, 2) where method == "POST" && segments == ["account", "sign-out-everywhere"]: return .signOutEverywhere
        case (false, 2) where method == "POST" && segments == ["account", "password"]: return .changePassword
        case (false, 3) where method == "POST" && segments == ["account", "verify", "resend"]: return .verifyResend
        case (false, 3) where method == "POST" && segments == ["account", "password", "forgot"]: return .forgotPasswordSubmit
        case (false, 3) where method == "POST" && segments == ["account", "password", "reset"]: return .resetPasswordSubmit
        case (false, 3) where method == "POST" && segments[0] == "cart" && segments[1] == "lines":
            return Int64(segments[2]).map { .cartUpdateLine(Variant.ID(rawValue: $0)) }
        case (false, 4) where method == "POST" && segments[0] == "cart" && segments[1] == "lines" && segments[3] == "remove":
            return Int64(segments[2]).map { .cartRemoveLine(Variant.ID(rawValue: $0)) }
        default: return nil
        }
    }

    /// `true` for routes that change state (and so must be POSTed).
    public var isAction: Bool {
        switch self {
        case .cartAdd, .cartUpdateLine, .cartRemoveLine, .favoriteToggle, .cartVoucher, .cartVoucherRemove,
             .cartSelectLine, .cartSelectAll, .addressCreate, .addressUpdate, .addressDelete, .checkoutAddressSubmit,
             .checkoutShippingSubmit, .checkoutPlace, .registerSubmit, .signInSubmit, .signOut,
             .signOutEverywhere, .verifyResend, .forgotPasswordSubmit, .resetPasswordSubmit, .changePassword: true
        default: false
        }
    }

    private static let segmentAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/?#")
        return set
    }()

    /// A category's first page with nothing chosen.
    public static func category(handle: String, page: Int) -> SiteRoute {
        .category(handle: handle, listing: Listing(page: page))
    }

    static func withQuery(_ path: String, _ items: [(String, String)]) -> String {
        items.isEmpty ? path : path + "?" + items.map { "\($0.0)=\(encodeQueryValue($0.1))" }.joined(separator: "&")
    }

    static func encodeQueryValue(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    static func encodeSegment(_ segment: String) -> String {
        // Handles are almost always plain ASCII letters, digits and dashes: no work to do.
        let plain = segment.utf8.allSatisfy { byte in
            (97...122).contains(byte) || (65...90).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        if plain { return segment }
        return segment.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? segment
    }
}
