import ShopCore

/// What an engine's SQL writes differently for the same condition.
public struct SQLDialect: Sendable {
    /// The condition "`column` is true" (`p.is_published = 1` on SQLite, `p.is_published` on PostgreSQL).
    public var isTrue: @Sendable (_ column: String) -> String
    /// The condition "`column` is one of the ids bound to the one `?`".
    public var isAmongIDs: @Sendable (_ column: String) -> String
    /// The value bound for ``isAmongIDs``.
    public var ids: @Sendable ([Int64]) -> StoredValue
    /// The condition "searchable" (`CatalogVisibility.isSearchable`) on products aliased `alias`.
    public var searchable: @Sendable (_ alias: String) -> String

    public init(isTrue: @escaping @Sendable (String) -> String, isAmongIDs: @escaping @Sendable (String) -> String,
                ids: @escaping @Sendable ([Int64]) -> StoredValue, searchable: @escaping @Sendable (String) -> String) {
        self.isTrue = isTrue
        self.isAmongIDs = isAmongIDs
        self.ids = ids
        self.searchable = searchable
    }

    /// The condition "listed" (`CatalogVisibility.isListed`) on products aliased `alias`.
    public func listed(_ alias: String) -> String { "\(alias).visibility IN ('visible', 'catalog')" }
}

/// The conditions of a `ProductQuery` on `products p`, with `?` placeholders, in the groups a
/// page needs them (the one home of which filter a facet lifts and which scope the vendor and
/// tag lists come from); the search match itself is the engine's.
public struct ProductQueryConditions: Sendable {
    /// SQL with `?` placeholders and their values, in order.
    public struct Part: Sendable {
        public var sql: String
        public var values: [StoredValue]

        public init(_ sql: String, _ values: [StoredValue] = []) {
            self.sql = sql
            self.values = values
        }
    }

    /// What no facet lifts: published, listed (or searchable, for a search), ids, price and rating.
    public private(set) var base: [Part] = []
    /// The facets' own filters, each with its facet (`FacetTally.Facet`).
    public private(set) var facetFilters: [(facet: FacetTally.Facet, part: Part)] = []
    /// The tag filter (not a facet).
    public private(set) var tag: Part?
    /// "Can be bought now": stock in hand (`products.is_available`) that checkouts do not hold
    /// all of (`ProductQuery.heldOutProductIDs`). The in-stock filter and the facet's column.
    public let available: Part

    /// - Parameter isSearch: whether the query searches (visibility then asks "searchable").
    public init(_ query: ProductQuery, isSearch: Bool, dialect: SQLDialect) {
        available = query.heldOutProductIDs.isEmpty
            ? Part(dialect.isTrue("p.is_available"))
            : Part("(\(dialect.isTrue("p.is_available")) AND NOT \(dialect.isAmongIDs("p.id")))",
                   [dialect.ids(query.heldOutProductIDs.map(\.rawValue))])
        base.append(Part(dialect.isTrue("p.is_published")))
        // Visibility (issue #13): a search finds searchable products, a list shows listed ones.
        base.append(Part(isSearch ? dialect.searchable("p") : dialect.listed("p")))
        if let productIDs = query.productIDs {
            base.append(Part(dialect.isAmongIDs("p.id"), [dialect.ids(productIDs.map(\.rawValue))]))
        }
        if let minimum = query.minPriceMinor { base.append(Part("p.min_price_minor >= ?", [.integer(minimum)])) }
        if let maximum = query.maxPriceMinor { base.append(Part("p.min_price_minor <= ?", [.integer(maximum)])) }
        if let minimum = query.minRatingHundredths {
            base.append(Part("p.rating_hundredths >= ?", [.integer(Int64(minimum))]))
        }
        if let categoryID = query.categoryID?.rawValue {
            facetFilters.append((.category, Part("p.category_id = ?", [.integer(categoryID)])))
        }
        if query.uncategorizedOnly { facetFilters.append((.category, Part("p.category_id IS NULL"))) }
        if let vendor = query.vendor { facetFilters.append((.vendor, Part("p.vendor = ?", [.text(vendor)]))) }
        if let band = query.priceBand {
            var part = Part("p.min_price_minor >= ?", [.integer(band.lowerMinor)])
            if let upper = band.upperMinor {
                part.sql += " AND p.min_price_minor < ?"
                part.values.append(.integer(upper))
            }
            facetFilters.append((.priceBand, part))
        }
        if query.inStockOnly { facetFilters.append((.inStock, available)) }
        if let tag = query.tag {
            self.tag = Part("EXISTS (SELECT 1 FROM product_tags t WHERE t.product_id = p.id AND t.tag_key = ?)",
                            [.text(ProductSearchRules.tagKey(tag))])
        }
    }

    /// `base` and every facet filter but the vendor's: what the tag list is computed over.
    public var scope: [Part] { base + facetFilters.filter { $0.facet != .vendor }.map(\.part) }
    /// Every condition: the page itself.
    public var filter: [Part] {
        base + facetFilters.filter { $0.facet != .vendor }.map(\.part) + facetFilters.filter { $0.facet == .vendor }.map(\.part)
            + (tag.map { [$0] } ?? [])
    }
    /// What the facets' groups are read over: `base` and the tag.
    public var facetBase: [Part] { base + (tag.map { [$0] } ?? []) }
    /// Whether any facet filter is set.
    public var hasFacetFilters: Bool { !facetFilters.isEmpty }
    /// The SQL of "in the chosen band" (`true` without a band) and its values.
    public var inBand: Part {
        facetFilters.first { $0.facet == .priceBand }.map { Part("(\($0.part.sql))", $0.part.values) } ?? Part("1 = 1")
    }
    /// The two columns the facets' groups add to category, vendor and band: in the chosen band,
    /// and `available`.
    public var facetColumns: Part {
        Part("\(inBand.sql), \(available.sql)", inBand.values + available.values)
    }

    /// Parts joined with `AND` (`1 = 1` for none), with their values in order.
    public static func joined(_ parts: [Part]) -> Part {
        parts.isEmpty ? Part("1 = 1") : Part(parts.map(\.sql).joined(separator: " AND "), parts.flatMap(\.values))
    }
}
