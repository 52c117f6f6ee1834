public import ShopCore

/// The disjunctive facet counts of a page (`ProductFacets`), added up from groups of products
/// that an engine reads in one statement: the products matching every condition no facet lifts,
/// grouped by (category, vendor, price band, in the chosen band, availability). Each facet adds
/// up the groups that pass the other facets' filters; ``total`` adds up those that pass them all
/// (the page's count), ``scanned`` all of them. The rule of which filter a facet lifts has this
/// one home; the engines only group.
public struct FacetTally: Sendable {
    /// The filters a facet lifts for its own counts.
    public enum Facet: Sendable { case category, vendor, priceBand, inStock }

    /// Products that agree on everything a facet looks at.
    public struct Group: Sendable {
        public var categoryID: Int64?
        public var vendor: String
        /// The index of the price band in `PriceBand.bands(for:)`; -1 without a price.
        public var band: Int
        /// Whether the products' price lies in the chosen band (true without one).
        public var isInBand: Bool
        public var isAvailable: Bool
        public var count: Int

        public init(categoryID: Int64?, vendor: String, band: Int, isInBand: Bool, isAvailable: Bool, count: Int) {
            self.categoryID = categoryID
            self.vendor = vendor
            self.band = band
            self.isInBand = isInBand
            self.isAvailable = isAvailable
            self.count = count
        }
    }

    /// How many of a sampled search's first matches its tag list comes from (`ProductPage.facetsAreSampled`):
    /// grouping the tags of a thousand products cost 4 ms of a page's ~10 on the bench machine.
    public static let tagSampleSize = 250

    /// The facet filters of a query: what a tally's counts depend on besides its groups.
    public struct Filters: Hashable, Sendable {
        var categoryID: Int64?
        var uncategorizedOnly: Bool
        var vendor: String?
        var inStockOnly: Bool
    }

    /// What a tally gives a listing: its facets, the page's count and how many products it saw.
    public struct Counted: Sendable {
        public var facets: ProductFacets
        /// The products that pass every filter.
        public var total: Int
        /// Every product added.
        public var scanned: Int
    }

    public let bands: [PriceBand]
    public let filters: Filters
    private var categoryID: Int64? { filters.categoryID }
    private var uncategorizedOnly: Bool { filters.uncategorizedOnly }
    private var vendor: String? { filters.vendor }
    private var inStockOnly: Bool { filters.inStockOnly }

    private var categoryCounts: [Int64: Int] = [:]
    private var uncategorized = 0
    private var vendorCounts: [String: Int] = [:]
    private var bandCounts: [Int]
    private var inStock = 0
    /// The products that pass every filter.
    public private(set) var total = 0
    /// Every product added.
    public private(set) var scanned = 0

    /// An empty tally of `query`'s facet filters, with the shop currency's price bands.
    public init(_ query: ProductQuery, currency: Currency) {
        bands = PriceBand.bands(for: currency)
        filters = Filters(categoryID: query.categoryID?.rawValue, uncategorizedOnly: query.uncategorizedOnly,
                          vendor: query.vendor, inStockOnly: query.inStockOnly)
        bandCounts = [Int](repeating: 0, count: bands.count)
    }

    /// Whether a group passes every facet filter but `facet`'s own (every one for nil).
    public func passes(_ group: Group, except facet: Facet?) -> Bool {
        if facet != .category {
            if let wanted = categoryID, wanted != group.categoryID { return false }
            if uncategorizedOnly, group.categoryID != nil { return false }
        }
        if facet != .vendor, let wanted = vendor, wanted != group.vendor { return false }
        if facet != .priceBand, !group.isInBand { return false }
        if facet != .inStock, inStockOnly, !group.isAvailable { return false }
        return true
    }

    /// Counts a group.
    public mutating func add(_ group: Group) {
        scanned += group.count
        if passes(group, except: nil) { total += group.count }
        if passes(group, except: .category) {
            if let id = group.categoryID { categoryCounts[id, default: 0] += group.count } else { uncategorized += group.count }
        }
        if !group.vendor.isEmpty, passes(group, except: .vendor) { vendorCounts[group.vendor, default: 0] += group.count }
        if group.band >= 0, passes(group, except: .priceBand) { bandCounts[group.band] += group.count }
        if group.isAvailable, passes(group, except: .inStock) { inStock += group.count }
    }

    /// The categories the engine must look up for ``facets(categories:)``.
    public var categoryIDs: [Int64] { Array(categoryCounts.keys) }

    /// The facets, given the counted categories (``categoryIDs``) ordered by name then id.
    public func facets(categories: [Category]) -> ProductFacets {
        // The vendors of the most products, then in code-point order (`ProductPage.vendors`).
        func precedes(_ lhs: String, _ rhs: String) -> Bool { lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars) }
        let vendors = vendorCounts.sorted { $0.value != $1.value ? $0.value > $1.value : precedes($0.key, $1.key) }
            .prefix(ProductPage.facetLimit).sorted { precedes($0.key, $1.key) }
            .map { ProductFacets.Count($0.key, count: $0.value) }
        return ProductFacets(categories: categories.map { ProductFacets.Count($0, count: categoryCounts[$0.id.rawValue] ?? 0) },
                             uncategorized: uncategorized, vendors: vendors,
                             priceBands: zip(bands, bandCounts).map { ProductFacets.Count($0, count: $1) }, inStock: inStock)
    }

    /// The facets, count and products seen, the counted categories (``categoryIDs``) read by
    /// `categories` (which orders them by name, then id).
    public func counted(categories: ([Int64]) throws -> [Category]) rethrows -> Counted {
        let ids = categoryIDs
        return Counted(facets: facets(categories: ids.isEmpty ? [] : try categories(ids)), total: total, scanned: scanned)
    }
}
