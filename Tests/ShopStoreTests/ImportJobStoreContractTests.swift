import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The import-job store's contract on every engine (issue #16, point 4), and the upsert's
/// progress it reports from.
@Suite("Import job store contract")
struct ImportJobStoreContractTests {
    static func job(_ id: String, startedAt: Date = Fixtures.start) -> ImportJob {
        ImportJob(id: id, startedBy: "ayse@shop.test", fileName: "ürünler.csv", isDryRun: true, startedAt: startedAt)
    }

    @Test(arguments: StoreKind.engines(for: .staff))
    func aJobMovesThroughItsStepsAndNeverChangesOnceFinished(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let started = Self.job("j1")
        try stores.importJobs.insert(started)
        #expect(try stores.importJobs.job("j1") == started)
        #expect(try stores.importJobs.job("nope") == nil)

        var writing = started
        writing.step = .writing
        writing.done = 12
        writing.total = 30_000
        writing.updatedAt = Fixtures.start.addingTimeInterval(5)
        #expect(try stores.importJobs.update(writing))
        #expect(try stores.importJobs.job("j1") == writing)

        var finished = writing
        finished.step = .finished
        finished.outcome = #"{"report":{"fileName":"ürünler.csv"}}"#
        finished.updatedAt = Fixtures.start.addingTimeInterval(9)
        #expect(try stores.importJobs.update(finished))
        #expect(try stores.importJobs.job("j1") == finished)

        // A late step of the job's thread (or another server) cannot undo the end.
        #expect(try stores.importJobs.update(writing) == false)
        #expect(try stores.importJobs.job("j1") == finished)
        var unknown = writing
        unknown.id = "j2"
        #expect(try stores.importJobs.update(unknown) == false)
        #expect(try stores.importJobs.job("j2") == nil)
    }

    @Test(arguments: StoreKind.engines(for: .staff))
    func recentJobsComeNewestFirstAndOldOnesArePurged(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.importJobs.insert(Self.job("old", startedAt: Fixtures.start.addingTimeInterval(-40 * 86_400)))
        try stores.importJobs.insert(Self.job("new"))
        try stores.importJobs.insert(Self.job("newer", startedAt: Fixtures.start.addingTimeInterval(60)))
        #expect(try stores.importJobs.recent(2).map(\.id) == ["newer", "new"], "newest first")
        #expect(try stores.importJobs.recent(10).map(\.id) == ["newer", "new", "old"])
        #expect(try stores.importJobs.purge(Fixtures.start.addingTimeInterval(-30 * 86_400)) == 1)
        #expect(try stores.importJobs.job("old") == nil)
        #expect(try stores.importJobs.job("new") != nil)
    }

    /// An upsert, and its preview, say how far they are once per draft, ending at the count —
    /// a batch small enough to fold inline and one folded on the second thread alike, unchanged
    /// products included.
    @Test(arguments: StoreKind.engines(for: .catalog), [3, 150])
    func anUpsertReportsEachDraftItPasses(kind: StoreKind, count: Int) throws {
        let stores = try StoreHarness(kind)
        let drafts = (0..<count).map { ProductDraft.mock(handle: "item-\($0)", title: "Item \($0)") }
        var previewed: [Int] = []
        _ = try stores.catalog.previewUpsert(drafts) { previewed.append($0) }
        #expect(previewed == Array(1...count))
        #expect(try stores.catalog.productCount() == 0)

        var written: [Int] = []
        let result = try stores.catalog.upsert(Array(drafts.prefix(count / 2 + 1)), by: .cli) { written.append($0) }
        #expect(written == Array(1...(count / 2 + 1)))
        #expect(result.productsCreated == count / 2 + 1)

        // Half of them again, unchanged: skipped, and still counted.
        written = []
        let again = try stores.catalog.upsert(drafts, by: .cli) { written.append($0) }
        #expect(written == Array(1...count))
        #expect(again.productsUnchanged == count / 2 + 1)
    }
}
