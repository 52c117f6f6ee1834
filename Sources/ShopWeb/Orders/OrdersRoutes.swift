import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// Orders.
    public enum OrdersRoute: Hashable, Sendable {
        /// `GET /orders` — a signed-in shopper's orders.
        case list
        /// `GET /orders/{number}?token=…` — one order (the token lets a guest see theirs).
        case order(number: String, token: String?)
    }

    /// The declarations of ``OrdersRoute``, tried in this order.
    static let ordersRoutes: [Declaration] = [
        fixed("GET", "/orders", [.requiresSignIn], .orders(.list)),
        Declaration("GET", "/orders/{number}", [],
                    make: { .orders(.order(number: $0["number"], token: $0.queryValue("token"))) },
                    match: { route in
                        guard case let .orders(.order(number, token)) = route else { return nil }
                        return Parameters(["number": number], query: ["token": token])
                    }),
    ]
}
