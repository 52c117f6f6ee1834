import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// Issue #13, point 5: facets with counts (category, vendor, price band, in stock), each facet's
/// counts ignoring its own filter ("disjunctive"), run on every engine.
@Suite("Product facets contract")
struct ProductFacetsContractTests {
    /// Counts without any filter: every listed, published product, once per facet.
    @Test(.bug("issue #13", "facets with counts"), arguments: StoreKind.engines(for: .catalog))
    func facetsCountTheListedProducts(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(Self.catalog)
        let page = try stores.catalog.products(ProductQuery(includesFacets: true))
        #expect(page.totalCount == 8)
        let facets = try #require(page.facets)
        #expect(facets.categories.map { "\($0.value.name) \($0.count)" } == ["Chairs 5", "Lamps 2"])
        #expect(facets.uncategorized == 1)
        #expect(facets.vendors.map { "\($0.value) \($0.count)" } == ["Acme 5", "Zeta 2"])  // "" left out
        #expect(facets.priceBands.map { "\($0.value.key) \($0.count)" } == ["0-25 4", "25-50 2", "50-100 0", "100-250 1", "250- 1"])
        #expect(facets.inStock == 6)
        #expect(try stores.catalog.products(ProductQuery()).facets == nil)
    }

    /// Issue #14: a listing's facet groups and tags are kept per catalog version (they were most of
    /// an uncached category page on 100 000 products). Pages of other categories, filters and
    /// price bands answer from the same kept groups with their own counts, and every change —
    /// a new product, a new tag, stock sold out — shows on the next page at once.
    @Test(.bug("issue #14", "facet groups kept per catalog version"), arguments: StoreKind.engines(for: .catalog))
    func keptFacetsAndTagsFollowEveryChange(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var catalog = Self.catalog
        catalog[0].tags = ["oak"]
        _ = try stores.catalog.upsert(catalog)
        let chairs = try #require(try stores.catalog.categoryByHandle("chairs"))
        let lamps = try #require(try stores.catalog.categoryByHandle("lamps"))
        func page(_ category: Category, vendor: String? = nil, band: String? = nil) throws -> ProductPage {
            try stores.catalog.products(ProductQuery(categoryID: category.id, vendor: vendor, includesFacets: true,
                                                     priceBand: band.flatMap { PriceBand.band(key: $0, currency: .usd) }))
        }
        func counts(_ page: ProductPage) throws -> String {
            let facets = try #require(page.facets)
            return "\(page.totalCount) " + facets.categories.map { "\($0.value.name) \($0.count)" }.joined(separator: ",")
                + " | " + facets.vendors.map { "\($0.value) \($0.count)" }.joined(separator: ",") + " | in stock \(facets.inStock)"
        }
        #expect(try counts(page(chairs)) == "5 Chairs 5,Lamps 2 | Acme 3,Zeta 2 | in stock 3")
        #expect(try counts(page(lamps)) == "2 Chairs 5,Lamps 2 | Acme 2 | in stock 2")
        #expect(try counts(page(chairs, vendor: "Zeta")) == "2 Chairs 2 | Acme 3,Zeta 2 | in stock 1")
        #expect(try counts(page(chairs, band: "0-25")) == "3 Chairs 3,Lamps 1 | Acme 2,Zeta 1 | in stock 2")
        #expect(try Set(page(chairs).tags) == ["oak", "Sale"] && page(lamps).tags == ["sale"])

        // A new chair by a new vendor, with a new tag.
        var stool = ProductDraft.mock(handle: "k", title: "Ash stool", category: "Chairs", tags: ["ash"])
        stool.vendor = "Nord"
        _ = try stores.catalog.upsert([stool])
        #expect(try counts(page(chairs)) == "6 Chairs 6,Lamps 2 | Acme 3,Nord 1,Zeta 2 | in stock 4")
        #expect(try Set(page(chairs).tags) == ["ash", "oak", "Sale"])
        #expect(try counts(page(lamps)) == "2 Chairs 6,Lamps 2 | Acme 2 | in stock 2")

        // Stock sold out is a catalog change too.
        let a = try #require(try stores.catalog.productByHandle("a"))
        _ = try stores.catalog.changeProduct(a.id) { draft in
            var draft = draft
            draft.variants[0].inventory = .tracked(quantity: 0, allowsBackorder: false)
            return draft
        }
        #expect(try counts(page(chairs)) == "6 Chairs 6,Lamps 2 | Acme 3,Nord 1,Zeta 2 | in stock 3")
    }

    /// Issue #14: a listing's ordered ids are kept per catalog version and its pages sliced from
    /// them; a price change, a new product and an unpublished one show on the next page at once.
    @Test(.bug("issue #14", "listing ids kept per catalog version"), arguments: StoreKind.engines(for: .catalog))
    func keptListingsFollowEveryChange(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(Self.catalog)
        let chairs = try #require(try stores.catalog.categoryByHandle("chairs"))
        func pages(facets: Bool = true) throws -> [String] {
            try (0..<4).map { index in
                try stores.catalog.products(ProductQuery(categoryID: chairs.id, sort: .priceAscending, includesFacets: facets,
                                                         offset: index * 2, limit: 2))
                    .products.map(\.handle).joined(separator: ",")
            }
        }
        #expect(try pages() == ["i,a", "g,b", "h", ""])
        #expect(try pages(facets: false) == ["i,a", "g,b", "h", ""])

        let a = try #require(try stores.catalog.productByHandle("a"))
        _ = try stores.catalog.changeProduct(a.id) { draft in
            var draft = draft
            draft.variants[0].price = .usd(50_00)
            return draft
        }
        #expect(try pages() == ["i,g", "b,h", "a", ""], "a dearer chair moves to the end")
        _ = try stores.catalog.upsert([.mock(handle: "k", title: "Ash stool", category: "Chairs", variants: [.mock(price: .usd(1_00))])])
        #expect(try pages() == ["k,i", "g,b", "h,a", ""])
        let i = try #require(try stores.catalog.productByHandle("i"))
        _ = try stores.catalog.changeProduct(i.id) { draft in
            var draft = draft
            draft.isPublished = false
            return draft
        }
        #expect(try pages(facets: false) == ["k,g", "b,h", "a", ""])
    }

    /// With every facet filter chosen, each facet's counts keep the others' filters but not
    /// its own, so the shopper sees what choosing another value would list.
    @Test(.bug("issue #13", "disjunctive counts"), arguments: StoreKind.engines(for: .catalog))
    func eachFacetIgnoresOnlyItsOwnFilter(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(Self.catalog)
        let chairs = try #require(try stores.catalog.categoryByHandle("chairs"))
        let cheap = try #require(PriceBand.band(key: "0-25", currency: .usd))
        let page = try stores.catalog.products(ProductQuery(categoryID: chairs.id, inStockOnly: true, vendor: "Acme",
                                                            includesFacets: true, priceBand: cheap))
        #expect(page.products.map(\.handle) == ["a"])
        #expect(page.totalCount == 1)
        let facets = try #require(page.facets)
        // Acme, in stock, under 25: a (Chairs) and j (Lamps).
        #expect(facets.categories.map { "\($0.value.name) \($0.count)" } == ["Chairs 1", "Lamps 1"])
        #expect(facets.uncategorized == 0)
        // Chairs, in stock, under 25: a (Acme) and i (Zeta).
        #expect(facets.vendors.map { "\($0.value) \($0.count)" } == ["Acme 1", "Zeta 1"])
        // Chairs, Acme, in stock: a (10) and h (45).
        #expect(facets.priceBands.map(\.count) == [1, 1, 0, 0, 0])
        // Chairs, Acme, under 25: a and g (sold out).
        #expect(facets.inStock == 1)
    }

    /// The conditions no facet lifts — search words (and their visibility), the tag, min/max
    /// prices — apply to every facet.
    @Test(.bug("issue #13", "facets follow the search"), arguments: StoreKind.engines(for: .catalog))
    func searchTagAndPriceRangeNarrowEveryFacet(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(Self.catalog)
        // "f" is search-only: found by the words, not listed.
        let searched = try #require(try stores.catalog.products(ProductQuery(text: "oak", includesFacets: true)).facets)
        #expect(searched.vendors.map { "\($0.value) \($0.count)" } == ["Acme 2", "Zeta 2"])  // a, h; b, f
        #expect(searched.priceBands.map(\.count) == [1, 3, 0, 0, 0])
        let tagged = try #require(try stores.catalog.products(ProductQuery(tag: "SALE", includesFacets: true)).facets)
        #expect(tagged.categories.map { "\($0.value.name) \($0.count)" } == ["Chairs 1", "Lamps 1"])  // g, c
        #expect(tagged.inStock == 1)
        let ranged = try #require(try stores.catalog.products(ProductQuery(minPriceMinor: 15_00, maxPriceMinor: 45_00,
                                                                            includesFacets: true)).facets)
        #expect(ranged.priceBands.map(\.count) == [2, 2, 0, 0, 0])  // g 15, j 20; b 30, h 45
    }

    /// The band filter is a real filter: from its lower bound (inclusive) to its upper
    /// (exclusive), with min/max prices on top.
    @Test(.bug("issue #13", "price band filter"), arguments: StoreKind.engines(for: .catalog))
    func priceBandFilterListsTheBandsProducts(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(Self.catalog + [
            .mock(handle: "edge-25", variants: [.mock(price: .usd(25_00))]),
            .mock(handle: "edge-under", variants: [.mock(price: .usd(24_99))]),
        ])
        func handles(_ key: String, min: Int64? = nil) throws -> [String] {
            let band = try #require(PriceBand.band(key: key, currency: .usd))
            return try stores.catalog.products(ProductQuery(sort: .priceAscending, minPriceMinor: min, priceBand: band))
                .products.map(\.handle)
        }
        #expect(try handles("25-50") == ["edge-25", "b", "h"])
        #expect(try handles("25-50", min: 40_00) == ["h"])
        #expect(try handles("0-25") == ["i", "a", "g", "j", "edge-under"])
        #expect(try handles("250-") == ["d"])
    }

    // MARK: Fixture

    /// Ten products; listed and published: a b c d g h i j.
    static let catalog: [ProductDraft] = [
        draft("a", "Oak chair", category: "Chairs", vendor: "Acme", price: 10_00, stock: nil),
        draft("b", "Oak stool", category: "Chairs", vendor: "Zeta", price: 30_00, stock: 0),
        draft("c", "Brass lamp", category: "Lamps", vendor: "Acme", price: 120_00, stock: 5, tags: ["sale"]),
        draft("d", "Rug", category: nil, vendor: "", price: 300_00, stock: nil),
        draft("e", "Oak desk", category: "Chairs", vendor: "Acme", price: 60_00, stock: nil, isPublished: false),
        draft("f", "Oak lamp", category: "Lamps", vendor: "Zeta", price: 40_00, stock: nil, visibility: .search),
        draft("g", "Pine chair", category: "Chairs", vendor: "Acme", price: 15_00, stock: 0, tags: ["Sale"]),
        draft("h", "Oak bench", category: "Chairs", vendor: "Acme", price: 45_00, stock: 2),
        draft("i", "Pine stool", category: "Chairs", vendor: "Zeta", price: 5_00, stock: nil),
        draft("j", "Pine lamp", category: "Lamps", vendor: "Acme", price: 20_00, stock: nil),
    ]

    private static func draft(_ handle: String, _ title: String, category: String?, vendor: String, price: Int64,
                              stock: Int?, tags: [String] = [], isPublished: Bool = true,
                              visibility: CatalogVisibility = .visible) -> ProductDraft {
        var draft = ProductDraft.mock(handle: handle, title: title, category: category, isPublished: isPublished,
                                      variants: [.mock(price: .usd(price), inventory: stock.map { .tracked(quantity: $0, allowsBackorder: false) } ?? .untracked)],
                                      tags: tags, visibility: visibility)
        draft.vendor = vendor
        return draft
    }
}
