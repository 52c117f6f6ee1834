import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// Checkout: `GET /checkout` (to the right step), address, shipping, review, place.
    public enum CheckoutRoute: Hashable, Sendable {
        case start
        case address, addressSubmit
        case shipping, shippingSubmit
        case review, place
    }

    /// The declarations of ``CheckoutRoute``, tried in this order.
    static let checkoutRoutes: [Declaration] = [
        fixed("GET", "/checkout", [], .checkout(.start)),
        fixed("GET", "/checkout/address", [], .checkout(.address)),
        fixed("POST", "/checkout/address", [], .checkout(.addressSubmit)),
        fixed("GET", "/checkout/shipping", [], .checkout(.shipping)),
        fixed("POST", "/checkout/shipping", [], .checkout(.shippingSubmit)),
        fixed("GET", "/checkout/review", [], .checkout(.review)),
        fixed("POST", "/checkout/place", [], .checkout(.place)),
    ]
}
