public import Foundation
public import Observation
import ShopAPI
import ShopClient

/// A product list: a category's products or search results, with sort, filters, a grid or list
/// layout (remembered), cursor pagination, quick add and hearts.
///
/// ```swift
/// let list = ProductListModel(category: "lamps", shop: app.shop, cart: app.cart,
///                             favorites: app.favorites, settings: settings)
/// await list.load()
/// await list.setSort(.priceAscending)
/// await list.loadMore()          // when the last card appears; nothing when `hasMore` is false
/// await list.quickAdd(card)      // through the one cart
/// ```
@MainActor
@Observable
public final class ProductListModel {
    /// How cards are laid out.
    public enum Layout: String, CaseIterable, Hashable, Sendable {
        case grid, list
    }

    /// The orders the API offers (`sort=`).
    public enum Sort: String, CaseIterable, Hashable, Sendable {
        case relevance
        case featured
        case priceAscending = "price-asc"
        case priceDescending = "price-desc"
        case newest, rating, name
    }

    /// The listing's filters, as the storefront's.
    public struct Filters: Hashable, Sendable {
        /// Lowest price, in whole major units (the API's `min`).
        public var minPrice: Int?
        /// Highest price, in whole major units (`max`).
        public var maxPrice: Int?
        /// At least this many stars, 1–5 (`rating`).
        public var minRating: Int?
        /// Only what can be bought now (`instock=1`).
        public var inStockOnly: Bool
        public var vendor: String?
        public var tag: String?

        /// Filters; none by default.
        public init(minPrice: Int? = nil, maxPrice: Int? = nil, minRating: Int? = nil, inStockOnly: Bool = false,
                    vendor: String? = nil, tag: String? = nil) {
            self.minPrice = minPrice
            self.maxPrice = maxPrice
            self.minRating = minRating
            self.inStockOnly = inStockOnly
            self.vendor = vendor
            self.tag = tag
        }

        /// `true` when no filter is set (the "Filters" button shows no dot).
        public var isEmpty: Bool { self == Filters() }
    }

    /// The category listed (its handle), if any.
    public let category: String?
    /// The search words, if any.
    public let search: String?
    /// The cards loaded so far; ``LoadState/empty`` when nothing matches.
    public private(set) var state: LoadState<[ProductCard]> = .idle
    /// How many products match in all.
    public private(set) var totalCount = 0
    /// A next page is being loaded.
    public private(set) var isLoadingMore = false
    /// Why the last "load more" failed, if it did (the cards loaded stay).
    public private(set) var errorMessage: String?
    /// The order shown.
    public private(set) var sort: Sort
    /// The filters applied.
    public private(set) var filters = Filters()
    /// Grid or list; remembered across launches.
    public var layout: Layout { didSet { settings.set(layout.rawValue, forKey: Self.layoutKey) } }
    /// The locale cards are written in.
    public var locale: Locale

    @ObservationIgnored private var nextCursor: String?
    /// Bumped by every new query: answers to an older one are dropped.
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored private let settings: any KeyValueStore
    @ObservationIgnored private let pageSize: Int
    /// The one cart (quick add).
    public let cart: CartModel
    /// The one set of favorites (hearts).
    public let favorites: FavoritesModel

    static let layoutKey = "productList.layout"

    /// A list of a category's products, or of search results.
    /// - Parameters:
    ///   - category: a category handle, or nil.
    ///   - search: search words, or nil.
    ///   - shop: the shop's operations.
    ///   - cart: the app's cart.
    ///   - favorites: the app's favorites.
    ///   - settings: where the layout is remembered.
    ///   - pageSize: products per page (1–100).
    public init(category: String? = nil, search: String? = nil, shop: ShopOperations, cart: CartModel,
                favorites: FavoritesModel, settings: any KeyValueStore, pageSize: Int = 24) {
        self.category = category
        self.search = search
        self.shop = shop
        self.cart = cart
        self.favorites = favorites
        self.settings = settings
        self.pageSize = pageSize
        locale = cart.locale
        sort = search == nil ? .featured : .relevance
        layout = settings.string(forKey: Self.layoutKey).flatMap(Layout.init(rawValue:)) ?? .grid
    }

    // MARK: - Outputs

    /// The connectivity the list's requests report to (the cart's: the app's).
    public var connectivity: Connectivity { cart.connectivity }
    /// The cards loaded so far.
    public var cards: [ProductCard] { state.value ?? [] }
    /// Whether another page can be loaded.
    public var hasMore: Bool { nextCursor != nil }
    /// The sorts offered: relevance only for a search.
    public var sorts: [Sort] { search == nil ? Sort.allCases.filter { $0 != .relevance } : Sort.allCases }
    /// Whether `card`'s quick add may be tapped.
    public func canQuickAdd(_ card: ProductCard) -> Bool { !card.soldOut && cart.canAddToCart }
    /// Whether `card`'s heart is filled.
    public func isFavorite(_ card: ProductCard) -> Bool { favorites.isFavorite(card.id) }

    // MARK: - Inputs

    /// Loads the first page (again). Offline, retried when the network returns.
    public func load() async {
        generation += 1
        let generation = generation
        state = .loading
        nextCursor = nil
        errorMessage = nil
        let shop = shop
        let query = query(cursor: nil)
        do {
            let page = try await connectivity.send { try await shop.products(query) }
            guard generation == self.generation else { return }
            totalCount = page.totalCount
            nextCursor = page.nextCursor
            let cards = page.products.map { ProductCard($0, locale: locale) }
            state = cards.isEmpty ? .empty : .loaded(cards)
        } catch let thrown {
            let error = NetworkError(thrown)
            guard generation == self.generation else { return }
            state = LoadState(error)
            if case .offline = error {
                connectivity.retryWhenOnline(retryKey) { [weak self] in await self?.load() }
            }
        }
    }

    /// Loads the next page and appends it (nothing when there is none or one is loading).
    public func loadMore() async {
        guard let cursor = nextCursor, !isLoadingMore, case let .loaded(loaded) = state else { return }
        isLoadingMore = true
        defer { isLoadingMore = false }
        let generation = generation
        let shop = shop
        let query = query(cursor: cursor)
        do {
            let page = try await connectivity.send { try await shop.products(query) }
            guard generation == self.generation else { return }
            nextCursor = page.nextCursor
            totalCount = page.totalCount
            let known = Set(loaded.map(\.id))
            state = .loaded(loaded + page.products.filter { !known.contains($0.id) }.map { ProductCard($0, locale: locale) })
            errorMessage = nil
        } catch let thrown {
            let error = NetworkError(thrown)
            guard generation == self.generation else { return }
            errorMessage = error.errorDescription
        }
    }

    /// Changes the order and loads the first page.
    public func setSort(_ sort: Sort) async {
        guard sort != self.sort else { return }
        self.sort = sort
        await load()
    }

    /// Applies `filters` and loads the first page.
    public func setFilters(_ filters: Filters) async {
        guard filters != self.filters else { return }
        self.filters = filters
        await load()
    }

    /// Adds `card`'s product to the cart. A product with options needs its page (the variant):
    /// then ``CartModel/optionsNeeded`` is set instead of an error (``CartModel/quickAdd(_:)``).
    /// - Returns: `true` when added.
    @discardableResult
    public func quickAdd(_ card: ProductCard) async -> Bool {
        guard canQuickAdd(card) else { return false }
        return await cart.quickAdd(card)
    }

    /// Fills or empties `card`'s heart.
    public func toggleFavorite(_ card: ProductCard) async { await favorites.toggle(card.id) }

    // MARK: - Private

    private var retryKey: String { "products:\(category ?? ""):\(search ?? "")" }

    private func query(cursor: String?) -> V1ProductQuery {
        V1ProductQuery(category: category, q: search, sort: sort.rawValue, cursor: cursor, limit: String(pageSize),
                       min: filters.minPrice.map(String.init), max: filters.maxPrice.map(String.init),
                       rating: filters.minRating.map(String.init), instock: filters.inStockOnly ? "1" : nil,
                       vendor: filters.vendor, tag: filters.tag)
    }
}
