import Foundation
import ShopCore
public import ShopStore

/// How a product list (category, search results, campaign products) is sorted, filtered and
/// paged, as it appears in the URL: `?sort=price-asc&min=10&max=50&price=25-50&rating=4&instock=1&vendor=…&tag=…&page=2`.
/// Filters and sort live in the URL, so lists are shareable and the back button works (issue #4).
public struct Listing: Hashable, Sendable {
    /// The order; nil means the page's default (relevance for search, featured otherwise).
    public var sort: ProductQuery.Sort?
    /// Lowest price, as typed in major units (`"10"`, `"9.99"`); nil for none.
    public var minPrice: String?
    /// Highest price, as typed in major units.
    public var maxPrice: String?
    /// A price band of the price facet (`PriceBand.key`, e.g. `25-50`); nil for none.
    public var priceBand: String?
    /// Minimum star rating, 1…5.
    public var minRating: Int?
    /// Only products that can be bought now.
    public var inStockOnly: Bool
    /// Only this vendor.
    public var vendor: String?
    /// Only products with this tag.
    public var tag: String?
    /// 1-based page.
    public var page: Int

    /// A listing with nothing chosen: default sort, no filters, `page`.
    public init(sort: ProductQuery.Sort? = nil, minPrice: String? = nil, maxPrice: String? = nil, minRating: Int? = nil,
                inStockOnly: Bool = false, vendor: String? = nil, tag: String? = nil, page: Int = 1,
                priceBand: String? = nil) {
        self.sort = sort
        self.priceBand = priceBand
        self.minPrice = minPrice
        self.maxPrice = maxPrice
        self.minRating = minRating
        self.inStockOnly = inStockOnly
        self.vendor = vendor
        self.tag = tag
        self.page = page
    }

    /// Reads the listing from a query string; nil when the page number is not a whole number ≥ 1
    /// (404). Unknown sorts, bad prices and ratings outside 1…5 are ignored (the list still shows).
    public static func parse(_ query: (String) -> String?) -> Listing? {
        var listing = Listing()
        if let page = query("page") {
            guard let number = Int(page), number >= 1 else { return nil }
            listing.page = number
        }
        listing.sort = query("sort").flatMap(ProductQuery.Sort.init(rawValue:))
        listing.minPrice = query("min").flatMap(Listing.cleanPrice)
        listing.maxPrice = query("max").flatMap(Listing.cleanPrice)
        // "from 200 to 100" means 100 to 200: read once the page's language is known (`productQuery`).
        // Checked against the shop currency's bands when the query is built (`productQuery`).
        listing.priceBand = query("price").flatMap { $0.isEmpty || $0.count > 24 ? nil : $0 }
        listing.minRating = query("rating").flatMap(Int.init).flatMap { (1...5).contains($0) ? $0 : nil }
        listing.inStockOnly = query("instock") == "1"
        // Stored vendors and tags are trimmed (the import's rule): so are the asked ones, or
        // `?tag=oak%20` finds nothing (a fresh tester's finding).
        listing.vendor = query("vendor").flatMap(Listing.cleanName)
        listing.tag = query("tag").flatMap(Listing.cleanName)
        return listing
    }

    private static func cleanName(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func cleanPrice(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.count > 20 ? nil : trimmed
    }

    /// The query items in a fixed order with defaults left out (the canonical URL, also the
    /// page-cache key).
    public var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let sort { items.append(("sort", sort.rawValue)) }
        if let minPrice { items.append(("min", minPrice)) }
        if let maxPrice { items.append(("max", maxPrice)) }
        if let priceBand { items.append(("price", priceBand)) }
        if let minRating { items.append(("rating", String(minRating))) }
        if inStockOnly { items.append(("instock", "1")) }
        if let vendor { items.append(("vendor", vendor)) }
        if let tag { items.append(("tag", tag)) }
        if page > 1 { items.append(("page", String(page))) }
        return items
    }

    /// The same listing on another page.
    public func onPage(_ page: Int) -> Listing {
        var copy = self
        copy.page = page
        return copy
    }

    /// `true` when any filter is set (not counting sort and page).
    public var hasFilters: Bool {
        minPrice != nil || maxPrice != nil || priceBand != nil || minRating != nil || inStockOnly || vendor != nil || tag != nil
    }

    /// The store query for this listing: `pageSize` products from page `page`.
    /// - Returns: nil when the page is so far that the offset overflows (a 404).
    /// - Parameters:
    ///   - locale: the shopper's language: the `name` sort and search folding follow it.
    ///   - typedIn: the language a person typed the price range in (`24,5` in Turkish and
    ///     Spanish, `1.000` for a thousand; `Money.parse(typed:)`), nil for the API's plain
    ///     decimals (a fresh tester's `max=24,5` on a Turkish page was ignored).
    func productQuery(pageSize: Int, currency: Currency, locale: SearchLocale, typedIn language: Language? = nil,
                      defaultSort: ProductQuery.Sort) -> ProductQuery? {
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: pageSize)
        guard !overflow else { return nil }
        let range = priceRange(currency: currency, typedIn: language)
        return ProductQuery(locale: locale, sort: sort ?? defaultSort, minPriceMinor: range.low, maxPriceMinor: range.high,
                            minRatingHundredths: minRating.map { $0 * 100 }, inStockOnly: inStockOnly,
                            vendor: vendor, tag: tag, includesFacets: true, offset: offset, limit: pageSize,
                            priceBand: priceBand.flatMap { PriceBand.band(key: $0, currency: currency) })
    }

    /// The price filter as read: each bound that is a price, in minor units, the two swapped
    /// when given high to low ("from 200 to 100" is 100 to 200), and the texts that are no
    /// price — unreadable (`1e2`, `$`) or below zero — which filter nothing.
    struct PriceRange: Equatable {
        var low: Int64?
        var high: Int64?
        /// The bounds' texts in the order the range uses them (swapped with the bounds).
        var lowText: String?
        var highText: String?
        var unreadable: [String] = []
    }

    /// ``PriceRange`` of `minPrice` and `maxPrice`; `language` as `productQuery`'s `typedIn`.
    func priceRange(currency: Currency, typedIn language: Language?) -> PriceRange {
        var range = PriceRange(lowText: minPrice, highText: maxPrice)
        func minor(_ text: String) -> Int64? {
            let amount = language.map { try? Money.parse(typed: text, language: $0, currency: currency).minorUnits }
                ?? (try? Money.parse(text, currency: currency).minorUnits)
            guard let amount = amount.flatMap({ $0 >= 0 ? $0 : nil }) else {
                range.unreadable.append(text)
                return nil
            }
            return amount
        }
        range.low = minPrice.flatMap(minor)
        range.high = maxPrice.flatMap(minor)
        if let from = range.low, let to = range.high, from > to {
            (range.low, range.high) = (to, from)
            (range.lowText, range.highText) = (range.highText, range.lowText)
        }
        return range
    }
}
