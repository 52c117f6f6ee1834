import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore

/// Favorites over the API: the favorites page's list and the heart's toggle
/// (`RequestContext.favoriteProducts` / `setFavorite`), for the bearer's guest session or account.
extension V1Handlers {
    /// `GET /api/v1/favorites`: most recent first; products no longer sold drop out.
    static func favorites(_ context: inout RequestContext) throws -> Response {
        _ = try shopper(&context)
        return try favoritesAnswer(&context)
    }

    /// `PUT` (add) and `DELETE` (remove) `/api/v1/favorites/{productId}`. Adding needs a product
    /// that is sold (404 otherwise); removing is idempotent.
    static func setFavorite(_ id: FakeStoreID, _ isFavorite: Bool, _ context: inout RequestContext) throws -> Response {
        _ = try shopper(&context)
        guard let value = id.value else { throw APIError.malformedID(id, "product") }
        let productID = Product.ID(rawValue: value)
        if isFavorite, try context.products([productID])[productID] == nil {
            throw APIError.notFound(.apiNoProduct, ["product": "\(value)"])
        }
        try context.setFavorite(productID, isFavorite)
        return try favoritesAnswer(&context)
    }

    static func favoritesAnswer(_ context: inout RequestContext) throws -> Response {
        let products = try context.availableToShopper(try context.favoriteProducts())  // net of others' holds
        return try APIApp.json(V1Favorites(products: products.map { summary($0, context) }))
    }
}
