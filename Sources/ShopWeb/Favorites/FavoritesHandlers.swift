import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopStore

/// The favorites page and the heart toggle.
extension ShopApp {
    static func favoritesPage(_ context: inout RequestContext) throws -> Response {
        // Net of other shoppers' holds, as every list (found by a fresh tester: a held product
        // offered "Add" here, which the cart then refused).
        let cards = try context.availableToShopper(try context.favoriteProducts()).map(context.models.card)
        return try page(&context, PageContent(title: context.l10n(.favoritesTitle), tab: .favorites,
                                              node: Views.favorites(cards, l10n: context.l10n)))
    }

    /// `POST /favorites/{id}`: `favorite=1` adds, `0` removes. Answers JSON to scripts
    /// (`Accept: application/json`), else redirects back with a message.
    static func favoriteToggle(_ context: inout RequestContext, productID: Product.ID) throws -> Response {
        guard let product = try context.products([productID])[productID] else { return context.errorPage(.notFound) }
        let isFavorite = context.request.formValue("favorite") != "0"
        try context.setFavorite(productID, isFavorite)
        let count = try context.favoriteIDs().count
        if context.request.headers["Accept"]?.contains("application/json") == true {
            let label = context.l10n(isFavorite ? .favoriteRemove : .favoriteAdd)
            let message = context.l10n(isFavorite ? .favoriteAdded : .favoriteRemoved, ["title": product.title])
            return JSONText.response(["favorite": .bool(isFavorite), "count": .int(count), "label": .string(label),
                                      "message": .string(message)])
        }
        context.setFlash(Flash(kind: .success,
                               text: context.l10n(isFavorite ? .favoriteAdded : .favoriteRemoved, ["title": product.title]),
                               linkText: isFavorite ? context.l10n(.favoritesTitle) : nil,
                               linkHref: isFavorite ? SiteRoute.favorites(.list).path : nil))
        return .redirect(to: SafeRedirect.localPath(context.request.formValue("return_to"))
                         ?? SiteRoute.catalog(.product(handle: product.handle, variant: nil)).path)
    }
}
