public import Foundation
public import Observation
import ShopAPI
public import ShopCore
import ShopClient

/// One campaign's page: what it gives, its code, its dates and the products it applies to.
///
/// Inputs: ``load()``; the products' quick add and hearts go through the app's shared
/// `CartModel` and `FavoritesModel` (as on a product list). Outputs: ``state``.
@MainActor
@Observable
public final class CampaignDetailModel {
    /// What the page shows.
    public struct Detail: Hashable, Sendable {
        /// The campaign as a banner shows it.
        public var campaign: CampaignRow
        /// The products it applies to (empty for a whole-cart campaign).
        public var products: [ProductCard]
    }

    /// The campaign's handle.
    public let handle: String
    /// The page as loaded (``LoadState/failed(_:)`` with `not_found` for an ended campaign).
    public private(set) var state: LoadState<Detail> = .idle
    /// The language of the texts.
    public var language: Language

    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored private let timeZone: TimeZone
    /// The app's connectivity: the load reports to it.
    @ObservationIgnored public let connectivity: Connectivity

    /// The page of campaign `handle` (a handle or id, as deep links carry it).
    /// - Parameters:
    ///   - handle: the campaign's handle.
    ///   - shop: the shop's operations.
    ///   - language: the language of the texts.
    ///   - timeZone: the shop's time zone (the campaign's dates).
    ///   - connectivity: the app's connectivity (`AppModel.connectivity`).
    public init(handle: String, shop: ShopOperations, language: Language = .english, timeZone: TimeZone = .current,
                connectivity: Connectivity = .manual()) {
        self.connectivity = connectivity
        self.handle = handle
        self.shop = shop
        self.language = language
        self.timeZone = timeZone
    }

    /// Loads the campaign.
    public func load() async {
        state = .loading
        do {
            let campaign = try await connectivity.send { [shop, handle] in try await shop.campaign(handle) }
            state = .loaded(Detail(campaign: CampaignRow(campaign, language: language, timeZone: timeZone),
                                   products: (campaign.products ?? []).map { ProductCard($0, locale: language.locale) }))
        } catch {
            state = LoadState(NetworkError(error))
        }
    }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        guard case let .loaded(detail) = state else { return "[Campaign \(handle)] \(state)" }
        return (["[Campaign] \(detail.campaign.snapshot)"]
            + detail.products.map { "  \($0.title) \($0.price ?? "")" }).joined(separator: "\n")
    }
}
