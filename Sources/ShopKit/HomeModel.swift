public import Foundation
public import Observation
import ShopAPI
import ShopClient

/// Home: campaign banners, category tiles, and the product row with its "See recommendations /
/// See all" toggle — the storefront home page's content, through `GET /api/v1/campaigns`,
/// `GET /api/v1/categories` and `GET /api/v1/featured` (the home page's own two rules: featured,
/// or the shopper's recommendations from their cart and favorites).
///
/// ```swift
/// let home = HomeModel(shop: app.shop, cart: app.cart, favorites: app.favorites)
/// await home.load()
/// await home.setShowsRecommendations(true)   // only the row is asked again
/// ```
@MainActor
@Observable
public final class HomeModel {
    /// A campaign banner.
    public struct Banner: Identifiable, Hashable, Sendable {
        /// The campaign's handle (`Destination.campaign`).
        public var id: String
        public var title: String
        public var imageURL: URL?
        /// The code to enter in the cart, when the campaign needs one.
        public var voucherCode: String?
    }

    /// A category tile.
    public struct CategoryTile: Identifiable, Hashable, Sendable {
        /// The category's handle (`Destination.category`).
        public var id: String
        public var name: String
        /// Products in it.
        public var productCount: Int
        public var imageURL: URL?
    }

    /// Home's content.
    public struct Content: Hashable, Sendable {
        public var banners: [Banner]
        public var categories: [CategoryTile]
        /// The row: featured products, or the shopper's recommendations (``showsRecommendations``).
        public var products: [ProductCard]
    }

    /// Home's state; ``LoadState/empty`` when the shop has nothing to show at all.
    public private(set) var state: LoadState<Content> = .idle
    /// The toggle: `true` shows the shopper's recommendations, `false` the featured products.
    public private(set) var showsRecommendations = false
    /// The row is being asked again after the toggle.
    public private(set) var isSwitching = false
    /// Why the toggle could not switch (the row stays as it was), if so.
    public private(set) var errorMessage: String?
    /// The locale cards are written in.
    public var locale: Locale

    @ObservationIgnored private let shop: ShopOperations
    /// The one cart (quick add).
    public let cart: CartModel
    /// The one set of favorites (hearts).
    public let favorites: FavoritesModel

    /// Home.
    /// - Parameters:
    ///   - shop: the shop's operations.
    ///   - cart: the app's cart.
    ///   - favorites: the app's favorites.
    public init(shop: ShopOperations, cart: CartModel, favorites: FavoritesModel) {
        self.shop = shop
        self.cart = cart
        self.favorites = favorites
        locale = cart.locale
    }

    /// The connectivity home's requests report to.
    public var connectivity: Connectivity { cart.connectivity }

    /// Loads banners, categories and the row together. Offline, retried when the network returns.
    public func load() async {
        if state.value == nil { state = .loading }
        let shop = shop
        let recommendations = showsRecommendations
        do {
            async let campaigns = connectivity.send { try await shop.campaigns() }
            async let categories = connectivity.send { try await shop.categories() }
            async let row = connectivity.send { try await shop.featured(recommendations) }
            let content = Content(
                banners: try await campaigns.map { campaign in
                    Banner(id: campaign.handle, title: campaign.title, imageURL: campaign.image.flatMap(URL.init(string:)),
                           voucherCode: campaign.voucherCode)
                },
                categories: try await categories.map { category in
                    CategoryTile(id: category.handle, name: category.name, productCount: category.productCount,
                                 imageURL: category.image.flatMap(URL.init(string:)))
                },
                products: try await row.products.map { ProductCard($0, locale: locale) })
            let isEmpty = content.banners.isEmpty && content.categories.isEmpty && content.products.isEmpty
            state = isEmpty ? .empty : .loaded(content)
        } catch let thrown {
            let error = NetworkError(thrown)
            if state.value == nil { state = LoadState(error) } else { errorMessage = error.errorDescription }
            if case .offline = error {
                connectivity.retryWhenOnline("home") { [weak self] in await self?.load() }
            }
        }
    }

    /// Switches the row between featured products and recommendations; only the row is asked
    /// again. On failure the row and the toggle stay as they were.
    /// - Parameter recommendations: `true` for "See recommendations", `false` for "See all".
    public func setShowsRecommendations(_ recommendations: Bool) async {
        guard recommendations != showsRecommendations, case var .loaded(content) = state, !isSwitching else { return }
        isSwitching = true
        defer { isSwitching = false }
        let shop = shop
        do {
            let row = try await connectivity.send { try await shop.featured(recommendations) }
            content.products = row.products.map { ProductCard($0, locale: locale) }
            showsRecommendations = recommendations
            state = .loaded(content)
        } catch let thrown {
            errorMessage = NetworkError(thrown).errorDescription
        }
    }

    /// Flips the toggle.
    public func toggleRecommendations() async { await setShowsRecommendations(!showsRecommendations) }

    /// Clears ``errorMessage``.
    public func dismissError() { errorMessage = nil }

    /// Whether `card`'s quick add may be tapped.
    public func canQuickAdd(_ card: ProductCard) -> Bool { !card.soldOut && cart.canAddToCart }

    /// Adds `card`'s product to the cart (``CartModel/quickAdd(_:)``).
    /// - Returns: `true` when added.
    @discardableResult
    public func quickAdd(_ card: ProductCard) async -> Bool {
        guard canQuickAdd(card) else { return false }
        return await cart.quickAdd(card)
    }
}
