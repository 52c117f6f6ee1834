import Foundation
import ShopCore
import ShopStore

/// The tab of the bottom bar a page belongs to.
enum Tab: Sendable { case home, categories, campaigns, cart, favorites, account }

/// A one-time message shown at the top of the next page (after a redirect).
struct Flash: Sendable, Hashable {
    enum Kind: String, Sendable { case success, error }
    var kind: Kind
    var text: String
    /// An optional link after the text ("View cart").
    var linkText: String?
    var linkHref: String?
}

/// What every page shows around its content (`LayoutCache` keeps the rendered layout by it).
struct LayoutModel: Sendable, Hashable {
    var title: String
    var activeTab: Tab?
    var cartCount: Int
    var favoritesCount: Int
    var flash: Flash?
    /// The signed-in shopper's first name, or nil for a guest.
    var accountName: String?
    /// Set for a signed-in shopper whose email is not confirmed yet, on the pages where that
    /// matters (account, checkout), until they close the banner: shows it.
    var unverifiedEmail: String?
    var stylesheetHref: String
    var scriptHref: String
    var localizer: Localizer
    /// The visitor chose the list layout for product lists (else grid).
    var listLayout = false
    /// The page in every language: the picker's links and the `hreflang` alternates.
    var alternates: LanguageAlternates?
    /// The visitor's colour theme (`<html data-theme>`, the footer's choice).
    var theme: Theme = .system
    /// Where the footer's theme links and the banner's close button come back to.
    var returnPath = "/"
    /// Rendered as a template (`LayoutCache`): each tab badge and each part that shows the page's
    /// own title or address (`Views.PathBlock`) is a marker, filled per request.
    var badgesAsMarkers = false
}

/// One page's address in each language the shop speaks. The scheme is one query parameter,
/// `?lang=<code>` on the page's own URL (`ShopApp.languageParameter`): it renders the page in
/// that language and remembers the choice (`RequestContext.settleLanguage()`); the URL without
/// it is the `x-default` (the language decided for the visitor).
struct LanguageAlternates: Sendable, Hashable {
    /// The page's path and query as the shop addresses it, without a language.
    var path: String
    /// The shop's public URL for absolute `hreflang` links; nil on pages that should not
    /// announce alternates (error pages).
    var publicURL: String?

    /// The page's path in `language`.
    func href(_ language: Language) -> String {
        path + (path.contains("?") ? "&" : "?") + ShopApp.languageParameter + "=" + language.rawValue
    }
}

/// A product as a card in a grid.
struct ProductCardModel: Sendable, Equatable {
    var productID: Int64
    var handle: String
    /// Several variants: quick add opens the product page to choose.
    var hasOptions: Bool
    var href: String
    var title: String
    var vendor: String
    var image: ProductImage?
    var imageAlt: String
    /// "$149.00" or "From $49.00".
    var price: String
    /// The struck-through "was" price, when on sale.
    var compareAtPrice: String?
    var rating: RatingModel?
    var isSoldOut: Bool
    var soldOutText: String
    var saleText: String
    var addText: String
    var chooseText: String
}

/// Stars and count, pre-formatted.
struct RatingModel: Sendable, Equatable {
    /// 0...100: how much of the five stars to fill.
    var percent: Int
    var label: String
    var countText: String
}

/// A category link with its product count.
struct CategoryLinkModel: Sendable, Equatable {
    var name: String
    var href: String
    var countText: String
    var initial: String
    /// A product image for the tile, if the category has one.
    var imageURL: String?
    /// 0..<6: which accent colour the tile uses (stable per handle).
    var tone: Int
}

/// Previous/next links and "Page 2 of 5".
struct PaginationModel: Sendable, Equatable {
    var previousHref: String?
    var nextHref: String?
    var status: String
}

/// Stock shown to shoppers.
enum StockLevel: Sendable, Equatable {
    case inStock, low(Int), soldOut

    init(_ inventory: Inventory) {
        switch inventory.availableQuantity {
        case nil: self = .inStock
        case 0?: self = .soldOut
        case let quantity? where quantity <= 3: self = .low(quantity)
        default: self = .inStock
        }
    }

    func text(_ l10n: Localizer) -> String {
        switch self {
        case .inStock: l10n(.stockInStock)
        case let .low(count): l10n.count(count, .stockOnlyLeft)
        case .soldOut: l10n(.stockSoldOut)
        }
    }

    var cssClass: String {
        switch self {
        case .inStock: "stock stock-in"
        case .low: "stock stock-low"
        case .soldOut: "stock stock-out"
        }
    }
}

/// Builds the small shared models from catalog values.
struct ModelBuilder: Sendable {
    var localizer: Localizer
    /// The merchant's translations of option names (the shop configuration's `optionNames`).
    var optionNames = OptionNameGlossary()
    /// The shop's currency (a list's price filter reads its amounts in it).
    var currency: Currency = .usd

    func card(_ product: Product) -> ProductCardModel {
        let l10n = localizer
        let variant = product.defaultVariant
        let prices = Set(product.variants.map(\.price.minorUnits))
        let price: String
        if prices.count > 1, let lowest = product.lowestPrice {
            price = l10n(.from, ["price": l10n.money(lowest)])
        } else {
            price = variant.map { l10n.money($0.price) } ?? ""
        }
        // "From $149.00" is the cheapest variant's price: when that one is on sale, the card shows
        // its "was" price and the sale mark, as the product page does for it.
        let cheapestOnSale = product.variants.filter { $0.price.minorUnits == product.lowestPrice?.minorUnits }
            .compactMap(\.compareAtPrice).min(by: { $0.minorUnits < $1.minorUnits })
        let compareAt = prices.count > 1 ? cheapestOnSale.map(l10n.money) : variant?.compareAtPrice.map(l10n.money)
        let image = product.images.first
        return ProductCardModel(
            productID: product.id.rawValue, handle: product.handle, hasOptions: product.needsChoice,
            href: SiteRoute.catalog(.product(handle: product.handle, variant: nil)).path,
            title: product.title, vendor: product.vendor, image: image,
            imageAlt: image.map { $0.altText.isEmpty ? product.title : $0.altText } ?? product.title,
            price: price, compareAtPrice: compareAt, rating: rating(product.rating),
            isSoldOut: product.isSoldOut, soldOutText: l10n(.stockSoldOut), saleText: l10n(.onSale),
            addText: l10n(.quickAdd), chooseText: l10n(.chooseOptions))
    }

    func rating(_ rating: Rating?) -> RatingModel? {
        guard let rating, rating.count > 0 else { return nil }
        return RatingModel(percent: rating.rateHundredths / 5,
                           label: localizer(.ratingLabel, ["rating": localizer.rating(rating)]),
                           countText: localizer(.ratingCount, ["count": localizer.number(rating.count)]))
    }

    func categoryLink(_ summary: CategorySummary) -> CategoryLinkModel {
        let handle = summary.category.handle
        let tone = Int(handle.utf8.reduce(UInt32(7)) { $0 &* 31 &+ UInt32($1) } % 6)
        return CategoryLinkModel(
            name: summary.category.name, href: SiteRoute.category(handle: handle, page: 1).path,
            countText: localizer.count(summary.productCount, .categoryProductCount),
            initial: summary.category.name.first.map { String($0).uppercased() } ?? "?",
            imageURL: summary.imageURL, tone: tone)
    }
}
