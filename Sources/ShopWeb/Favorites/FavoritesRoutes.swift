import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// The favorites list.
    public enum FavoritesRoute: Hashable, Sendable {
        /// `GET /favorites`.
        case list
        /// `POST /favorites/{productID}` — form: `favorite` (1 adds, 0 removes), optional `return_to`.
        case toggle(Product.ID)
    }

    /// The declarations of ``FavoritesRoute``, tried in this order.
    static let favoritesRoutes: [Declaration] = [
        fixed("GET", "/favorites", [], .favorites(.list)),
        numbered("POST", "/favorites/{id}", make: { .favorites(.toggle(Product.ID(rawValue: $0))) },
                 id: { if case let .favorites(.toggle(id)) = $0 { id.rawValue } else { nil } }),
    ]
}
