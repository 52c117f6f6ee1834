public import Observation
import ShopAPI
public import ShopCore
import ShopClient

/// A category as the categories screen lists it.
public struct CategoryRow: Identifiable, Hashable, Sendable {
    /// The category's id.
    public var id: Int64
    /// The category's handle (what `V1ProductQuery.category` takes).
    public var handle: String
    /// The category's name.
    public var name: String
    /// How many products it has.
    public var productCount: Int
    /// ``productCount`` written in the locale's digits and grouping ("1,234"); the view puts it
    /// in its own counted phrase.
    public var productCountText: String
    /// The image, if any.
    public var imageURL: String?
}

/// The categories screen: every category with its product count, and a local search.
///
/// Inputs: ``load()``, ``query``, ``hidesEmpty``. Outputs: ``state`` (all categories) and
/// ``visible`` (those the search and filter keep). The search folds case, diacritics and the
/// language's letters as the shop's search does (`SearchFolding`): "lamba" finds "Lamba",
/// "cafe" finds "Café".
@MainActor
@Observable
public final class CategoriesModel {
    /// The categories as loaded.
    public private(set) var state: LoadState<[CategoryRow]> = .idle
    /// The search text; empty shows every category.
    public var query = ""
    /// Leaves out categories without products.
    public var hidesEmpty = false
    /// The language of the texts and of the search's folding.
    public var language: Language

    @ObservationIgnored private let shop: ShopOperations
    /// The app's connectivity: the load reports to it, and runs again when the shop answers after an offline failure.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`, written for `language`, its requests reported to `connectivity`.
    public init(shop: ShopOperations, language: Language = .english, connectivity: Connectivity = .manual()) {
        self.shop = shop
        self.language = language
        self.connectivity = connectivity
    }

    /// Loads the categories.
    public func load() async {
        state = .loading
        state = await connectivity.list("categories", retry: { [weak self] in await self?.load() },
                                        { [shop] in try await shop.categories() }) {
            CategoryRow(id: $0.id, handle: $0.handle, name: $0.name, productCount: $0.productCount,
                        productCountText: language.number($0.productCount), imageURL: $0.image)
        }
    }

    /// The categories the search and the filter keep, in the shop's order.
    public var visible: [CategoryRow] {
        guard let rows = state.value else { return [] }
        let terms = SearchFolding.terms(query, locale: language.searchLocale)
        return rows.filter { row in
            if hidesEmpty && row.productCount == 0 { return false }
            guard !terms.isEmpty else { return true }
            let name = SearchFolding.terms(row.name, locale: language.searchLocale)
            return terms.allSatisfy { term in name.contains { $0.hasPrefix(term) } }
        }
    }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        switch state {
        case .loaded:
            let header = "[Categories]" + (query.isEmpty ? "" : " search “\(query)”")
            return ([header] + visible.map { "  \($0.name) (\($0.productCountText))" }).joined(separator: "\n")
        default: return "[Categories] \(state)"
        }
    }
}
