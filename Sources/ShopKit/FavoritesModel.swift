public import Foundation
public import Observation
import ShopAPI
import ShopClient

/// The shopper's favorites: the set every heart reads (``isFavorite(_:)``) and the list of the
/// favorites tab.
///
/// Kept on the server (`/api/v1/favorites`), so they follow the shopper from guest to account
/// and across devices. A toggle is **optimistic**: the heart changes at once, the server's list
/// then replaces the set, and a refusal turns the heart back and sets ``errorMessage``. Toggles
/// go out one at a time, in the order tapped.
///
/// ```swift
/// let favorites = FavoritesModel(shop: .live(client))
/// await favorites.load()
/// favorites.isFavorite(card.id)        // the heart
/// await favorites.toggle(card.id)      // filled at once; back if the server refuses
/// ```
@MainActor
@Observable
public final class FavoritesModel {
    /// The favorites tab's state: the cards, most recently added first; ``LoadState/empty`` for none.
    public private(set) var state: LoadState<[ProductCard]> = .idle
    /// The last refused toggle (the server's message, or "cannot be reached"), until ``dismissError()``.
    public private(set) var errorMessage: String?
    /// The locale the cards are written in; setting it rewrites them.
    public var locale: Locale { didSet { redisplay() } }

    /// The server's last list.
    private var products: [V1ProductSummary] = []
    /// Whether the server's list is known (loaded or answered a toggle).
    private var isKnown = false
    /// Toggles shown but not yet answered: product id → the state shown.
    private var pending: [(id: Int, productID: Int64, favorite: Bool)] = []
    @ObservationIgnored private var nextChangeID = 0
    @ObservationIgnored private var tail: Task<Void, Never>?
    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored public let connectivity: Connectivity

    /// A favorites model.
    /// - Parameters:
    ///   - shop: the shop's operations.
    ///   - connectivity: the app's connectivity (``AppModel`` passes its own).
    ///   - locale: the locale cards are written in.
    public init(shop: ShopOperations, connectivity: Connectivity = .manual(), locale: Locale = .current) {
        self.shop = shop
        self.connectivity = connectivity
        self.locale = locale
    }

    // MARK: - Outputs

    /// The product ids the hearts show filled, the pending toggles included.
    public var ids: Set<Int64> {
        var ids = Set(products.map(\.id))
        for entry in pending {
            if entry.favorite { ids.insert(entry.productID) } else { ids.remove(entry.productID) }
        }
        return ids
    }

    /// Whether `productID`'s heart is filled.
    public func isFavorite(_ productID: Int64) -> Bool { ids.contains(productID) }

    /// The tab badge: how many favorites.
    public var count: Int { ids.count }

    /// Whether a heart may be tapped now: online.
    public var canToggle: Bool { connectivity.isOnline }

    // MARK: - Inputs

    /// Loads the list (`GET /api/v1/favorites`); without a session, none. Offline, retried when
    /// the network returns.
    public func load() async {
        guard shop.credentials() != nil else {
            products = []
            pending.removeAll()
            isKnown = true
            redisplay()
            return
        }
        if !isKnown { state = .loading }
        let shop = shop
        await enqueue { [self] in
            do {
                products = try await connectivity.send { try await shop.favorites() }
                isKnown = true
            } catch let thrown {
                let error = NetworkError(thrown)
                if case .offline = error {
                    connectivity.retryWhenOnline("favorites") { [weak self] in await self?.load() }
                }
                if !isKnown { state = LoadState(error) } else { errorMessage = error.errorDescription }
            }
            redisplay()
        }
    }

    /// Fills or empties `productID`'s heart: shown at once, then the server's list; turned back on
    /// refusal. Starts a guest session when there is none.
    /// - Parameter productID: the product.
    public func toggle(_ productID: Int64) async {
        await setFavorite(!isFavorite(productID), productID)
    }

    /// Makes `productID` a favorite or not (as ``toggle(_:)``, with the state given).
    /// - Parameters:
    ///   - favorite: filled or not.
    ///   - productID: the product.
    public func setFavorite(_ favorite: Bool, _ productID: Int64) async {
        guard canToggle else { return }
        nextChangeID += 1
        let id = nextChangeID
        pending.append((id, productID, favorite))
        redisplay()
        let shop = shop
        await enqueue { [self] in
            do {
                if shop.credentials() == nil {
                    _ = try await connectivity.send { try await shop.startGuestSession() }
                }
                products = try await connectivity.send {
                    favorite ? try await shop.addFavorite(productID) : try await shop.removeFavorite(productID)
                }
                isKnown = true
            } catch let thrown {
                let error = NetworkError(thrown)
                errorMessage = error.errorDescription
            }
            pending.removeAll { $0.id == id }
            redisplay()
        }
    }

    /// Clears ``errorMessage``.
    public func dismissError() { errorMessage = nil }

    /// Forgets the favorites (signed out): the next ``load()`` starts over.
    public func reset() {
        products = []
        pending.removeAll()
        isKnown = false
        errorMessage = nil
        state = .idle
    }

    // MARK: - Private

    private func enqueue(_ work: @escaping @MainActor () async -> Void) async {
        let previous = tail
        let task = Task { @MainActor in
            await previous?.value
            await work()
        }
        tail = task
        await task.value
    }

    private func redisplay() {
        guard isKnown else { return }
        // The list shows the server's order; a heart filled just now is not in it until the answer.
        let shown = ids
        let cards = products.filter { shown.contains($0.id) }.map { ProductCard($0, locale: locale) }
        state = cards.isEmpty ? .empty : .loaded(cards)
    }
}
