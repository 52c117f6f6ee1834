import HTML
import ShopCore

extension Views {
    static func favorites(_ cards: [ProductCardModel], l10n: Localizer) -> Node {
        fragment {
            h1(.class("page-title")) { l10n(.favoritesTitle) }
            if cards.isEmpty {
                div(.class("empty-state")) {
                    span(.class("empty-icon")) { Icon.heart.node }
                    h2 { l10n(.favoritesEmptyTitle) }
                    p { l10n(.favoritesEmptyText) }
                    a(.class("button button-primary"), .href(SiteRoute.catalog(.categories).path)) { l10n(.cartContinueShopping) }
                }
            } else {
                ProductGrid(cards: cards, returnTo: SiteRoute.favorites(.list).path, headingLevel: 2)
            }
        }
    }
}
