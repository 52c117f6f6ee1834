import ShopStore
import Testing

/// `CatalogStatementMemo` (issue #14): one answer per statement and catalog version, never an
/// older version's over a newer one's, and a bounded number of statements.
@Suite("Catalog statement memo")
struct CatalogStatementMemoTests {
    @Test func anAnswerIsKeptPerStatementAndVersion() {
        let memo = CatalogStatementMemo<[String]>()
        var reads = 0
        func answer(_ version: Int64, _ sql: String, _ values: [String], _ value: String) -> [String] {
            memo.answer(at: version, sql: sql, values: values) {
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
    }

    @Test func atMostTheLimitOfStatementsIsKept() {
        let limit = 5
        let memo = CatalogStatementMemo<Int>(statementLimit: limit)
        for index in 0..<limit { _ = memo.answer(at: 1, sql: "S", values: [String(index)]) { index } }
        #expect(memo.answer(at: 1, sql: "S", values: ["0"]) { -1 } == 0, "still kept at the limit")
        _ = memo.answer(at: 1, sql: "S", values: ["new"]) { 99 }
        #expect(memo.answer(at: 1, sql: "S", values: ["0"]) { -1 } == -1, "dropped past it")
        #expect(memo.answer(at: 1, sql: "S", values: ["new"]) { -1 } == 99)
    }
}
