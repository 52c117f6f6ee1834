import ShopCore
import ShopStore
import Testing

/// `CatalogStatementMemo` and `CatalogListingMemos` (issue #14): one answer per key and catalog
/// version, never an older version's over a newer one's, a bounded number of keys, nothing kept
/// without a version; facets counted once per statement and filters.
@Suite("Catalog statement memo")
struct CatalogStatementMemoTests {
    typealias Statement = CatalogListingMemos<String>.Statement

    @Test func anAnswerIsKeptPerStatementAndVersion() {
        let memo = CatalogStatementMemo<Statement, [String]>()
        var reads = 0
        func answer(_ version: Int64?, _ sql: String, _ values: [String], _ value: String) -> [String] {
            memo.answer(at: version, Statement(sql, values)) {
                reads += 1
                return [value]
            }
        }
        #expect(answer(1, "SELECT a", ["1"], "first") == ["first"])
        #expect(answer(1, "SELECT a", ["1"], "again") == ["first"], "kept")
        #expect(answer(1, "SELECT a", ["2"], "other values") == ["other values"])
        #expect(reads == 2)
        #expect(answer(2, "SELECT a", ["1"], "newer") == ["newer"], "a new version reads again")
        #expect(answer(1, "SELECT a", ["1"], "older reader") == ["older reader"], "an older version is read, not answered from the newer")
        #expect(answer(2, "SELECT a", ["1"], "newer again") == ["newer"], "and it did not replace the newer answer")
        #expect(answer(nil, "SELECT a", ["1"], "unversioned") == ["unversioned"], "without a version, read")
        #expect(answer(2, "SELECT a", ["1"], "after") == ["newer"], "and not kept")
    }

    @Test func atMostTheLimitOfStatementsIsKept() {
        let limit = 5
        let memo = CatalogStatementMemo<Statement, Int>(statementLimit: limit)
        for index in 0..<limit { _ = memo.answer(at: 1, Statement("S", [String(index)])) { index } }
        #expect(memo.answer(at: 1, Statement("S", ["0"])) { -1 } == 0, "still kept at the limit")
        _ = memo.answer(at: 1, Statement("S", ["new"])) { 99 }
        #expect(memo.answer(at: 1, Statement("S", ["0"])) { -1 } == -1, "dropped past it")
        #expect(memo.answer(at: 1, Statement("S", ["new"])) { -1 } == 99)
    }

    /// The groups are read once per statement; they are counted once per statement and facet
    /// filters, and each filter's counts are its own.
    @Test func facetsAreCountedOncePerStatementAndFilters() throws {
        let memos = CatalogListingMemos<String>()
        let chairs = Category(id: Category.ID(rawValue: 1), handle: "chairs", name: "Chairs")
        let lamps = Category(id: Category.ID(rawValue: 2), handle: "lamps", name: "Lamps")
        let groups = [
            FacetTally.Group(categoryID: 1, vendor: "Acme", band: 0, isInBand: true, isAvailable: true, count: 3),
            FacetTally.Group(categoryID: 1, vendor: "Zeta", band: 1, isInBand: true, isAvailable: false, count: 2),
            FacetTally.Group(categoryID: 2, vendor: "Acme", band: 0, isInBand: true, isAvailable: true, count: 4),
        ]
        var groupReads = 0, categoryReads = 0
        func facets(_ query: ProductQuery, version: Int64? = 1) -> FacetTally.Counted {
            memos.facets(at: version, Statement("GROUP", []), FacetTally(query, currency: .usd)) {
                groupReads += 1
                return groups
            } categories: { ids in
                categoryReads += 1
                return [chairs, lamps].filter { ids.contains($0.id.rawValue) }
            }
        }
        func summary(_ counted: FacetTally.Counted) -> String {
            "\(counted.total)/\(counted.scanned) " + counted.facets.vendors.map { "\($0.value) \($0.count)" }.joined(separator: ",")
                + " | " + counted.facets.categories.map { "\($0.value.name) \($0.count)" }.joined(separator: ",")
        }
        let chairsPage = ProductQuery(categoryID: chairs.id, includesFacets: true)
        #expect(summary(facets(chairsPage)) == "5/9 Acme 3,Zeta 2 | Chairs 5,Lamps 4")
        #expect(summary(facets(chairsPage)) == "5/9 Acme 3,Zeta 2 | Chairs 5,Lamps 4")
        #expect(groupReads == 1 && categoryReads == 1, "the second page is answered from what was counted")
        #expect(summary(facets(ProductQuery(categoryID: lamps.id, includesFacets: true))) == "4/9 Acme 4 | Chairs 5,Lamps 4")
        #expect(summary(facets(ProductQuery(categoryID: chairs.id, inStockOnly: true, includesFacets: true)))
                == "3/9 Acme 3 | Chairs 3,Lamps 4")
        #expect(groupReads == 1 && categoryReads == 3, "other filters count the kept groups again")
        _ = facets(chairsPage, version: nil)
        #expect(groupReads == 2, "without a version the groups are read")
    }

    /// A listing's ids are read once (with a limit one past the longest kept) and its pages sliced
    /// from them; a longer listing and a listing without a version are read page by page.
    @Test func listingPagesAreSlicedFromTheKeptIDs() {
        let memos = CatalogListingMemos<String>()
        var reads: [String] = []
        func page(_ statement: String, count: Int, version: Int64? = 1, offset: Int, limit: Int) -> [Int64] {
            memos.pageIDs(at: version, Statement(statement, []), offset: offset, limit: limit) { all in
                reads.append("all \(all)")
                return Array(1...Int64(min(count, all)))
            } page: {
                reads.append("page")
                return Array(Int64(offset + 1)...Int64(offset + limit))
            }
        }
        #expect(page("short", count: 10, offset: 0, limit: 4) == [1, 2, 3, 4])
        #expect(page("short", count: 10, offset: 8, limit: 4) == [9, 10])
        #expect(page("short", count: 10, offset: 12, limit: 4) == [])
        #expect(reads == ["all \(CatalogListingMemos<String>.listingIDLimit + 1)"], "read once")
        reads = []
        let long = CatalogListingMemos<String>.listingIDLimit + 1
        #expect(page("long", count: long, offset: 4, limit: 2) == [5, 6])
        #expect(page("long", count: long, offset: 6, limit: 2) == [7, 8])
        #expect(reads == ["all \(long)", "page", "page"], "a longer listing is known to be long, and read page by page")
        reads = []
        #expect(page("short", count: 10, version: nil, offset: 0, limit: 2) == [1, 2])
        #expect(reads == ["page"], "without a version")
    }
}
