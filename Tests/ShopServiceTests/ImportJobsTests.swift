import Foundation
import ShopCore
import ShopImport
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Testing

/// A Shopify CSV of `count` products whose handles start with `prefix`.
private func catalogFile(_ prefix: String, count: Int) -> Data {
    var text = "Handle,Title,Variant SKU,Variant Price\n"
    for number in 0..<count { text += "\(prefix)-\(number),\(prefix) \(number),\(prefix.uppercased())-\(number),4.25\n" }
    return Data(text.utf8)
}

/// Lines logged from any thread.
private final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    var lines: [String] { lock.withLock { kept } }
    func append(_ line: String) { lock.withLock { kept.append(line) } }
}

/// One shop on a SQLite file (a pool of connections, as `shoppable serve` runs it) whose catalog
/// can hold an import inside its write transaction, after its first product, until released.
private final class JobBench: @unchecked Sendable {
    let path = TemporaryDatabasePath()
    let database: SQLiteDatabase
    let catalog: CatalogStore
    let jobs: ImportJobs
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let logged = LogLines()
    /// What the jobs logged.
    var log: [String] { logged.lines }
    /// Handles whose import is held (the others run through).
    let heldPrefix: String

    init(holding prefix: String) throws {
        heldPrefix = prefix
        database = try SQLiteDatabase.open(path: path.path, poolSize: 4)
        let base = CatalogStore.sqlite(database)
        var catalog = base
        let held = held, release = release
        catalog.upsertBy = { drafts, actor, now, progress in
            let holds = drafts.first?.handle.hasPrefix(prefix) == true
            return try base.upsertBy(drafts, actor, now, { passed in
                if holds && passed == 2 {
                    held.signal()
                    release.wait()
                }
                try progress?(passed)
            })
        }
        self.catalog = catalog
        let logged = logged
        jobs = ImportJobs(store: .sqlite(database), now: Date.init, newID: { UUID().uuidString },
                          log: { line in logged.append(line) })
    }

    deinit {
        database.close()
        path.remove()
    }

    func start(_ data: Data, _ name: String) -> ImportJob {
        jobs.start(data, fileName: name, format: nil, dryRun: false, actor: AuditActor(name: "ayse@shop.test", source: .backOffice),
                   using: CatalogImportService(catalog: catalog, media: .directory(FileManager.default.temporaryDirectory),
                                               currency: .usd))
    }

    /// The job as another server reads it: from its row only.
    func stored(_ id: String) throws -> ImportJobStatus? {
        try ImportJobs(store: .sqlite(database), now: Date.init, newID: { "" }, runner: "other-host:1",
                       isRunnerAlive: { _ in nil }).status(id)
    }
}

/// The back office's import jobs (issue #16, point 4), on a real SQLite file, with real threads.
@Suite("Import jobs")
struct ImportJobsTests {
    /// Found by a fresh tester: of two imports at once, one job's row was refused ("database is
    /// locked") while the other wrote for longer than the busy timeout, so its page ran on for 15
    /// minutes and then said nothing was written — though everything was. The rows now take their
    /// turn behind the other import's write, and every outcome is stored.
    @Test func twoImportsAtOnceBothRecordTheirOutcome() throws {
        let bench = try JobBench(holding: "lamp")
        let first = bench.start(catalogFile("lamp", count: 300), "lamps.csv")
        #expect(bench.held.wait(timeout: .now() + 30) == .success)
        let second = bench.start(catalogFile("vase", count: 300), "vases.csv")
        // Longer than SQLite's busy timeout (5 s) while the second job wants its row written.
        Thread.sleep(forTimeInterval: 5.5)
        #expect(try bench.jobs.status(second.id)?.outcome == nil, "still waiting its turn")
        bench.release.signal()
        #expect(bench.jobs.waitForAll(upTo: 60))
        for job in [first, second] {
            let stored = try #require(try bench.stored(job.id))
            guard case let .report(summary) = stored.outcome else {
                Issue.record("\(job.fileName): \(String(describing: stored.outcome))")
                continue
            }
            #expect(summary.created == 300 && stored.job.step == .finished)
        }
        #expect(try bench.catalog.productCount() == 600)
        #expect(!bench.log.contains { $0.contains("cannot record") }, "\(bench.log)")
    }

    /// Found by a fresh tester: a double click on "Import" started two jobs, the second importing
    /// the same file again behind the first. The same start while the job runs gets that job; a
    /// different file, or the same one once the first is done, starts another.
    @Test func theSameFileStartedTwiceWhileItRunsIsOneJob() throws {
        let bench = try JobBench(holding: "lamp")
        let file = catalogFile("lamp", count: 300)
        let first = bench.start(file, "lamps.csv")
        #expect(bench.held.wait(timeout: .now() + 30) == .success)
        #expect(bench.start(file, "lamps.csv").id == first.id, "a double click")
        let other = bench.start(catalogFile("vase", count: 3), "vases.csv")
        #expect(other.id != first.id)
        bench.release.signal()
        #expect(bench.jobs.waitForAll(upTo: 60))
        bench.release.signal()  // for the hold of the next import, if it is held
        let again = bench.start(file, "lamps.csv")
        #expect(again.id != first.id, "once done, the same file may be imported again")
        #expect(bench.jobs.waitForAll(upTo: 60))
        #expect(try bench.catalog.productCount() == 303)
    }

    /// A server stopping stops its imports: the one under way writes nothing, and its outcome —
    /// stopped — is stored before the server goes, so no page claims it goes on.
    @Test func stoppingTheServerStopsAnImportWhichWritesNothing() throws {
        let bench = try JobBench(holding: "lamp")
        let job = bench.start(catalogFile("lamp", count: 300), "lamps.csv")
        #expect(bench.held.wait(timeout: .now() + 30) == .success)
        #expect(!bench.jobs.waitForAll(upTo: 0.05))
        bench.jobs.stopAll()
        bench.release.signal()
        #expect(bench.jobs.waitForAll(upTo: 30))
        #expect(try bench.catalog.productCount() == 0, "rolled back")
        #expect(try bench.jobs.status(job.id)?.outcome == .stopped)
        #expect(try bench.stored(job.id)?.outcome == .stopped)
        #expect(try bench.stored(job.id)?.job.step == .finished)
    }

    /// A job whose server was killed: on the same host the page says so at once (that process is
    /// gone), not after 15 minutes; a job of a live server on this host is running.
    @Test func aJobOfAServerGoneFromThisHostIsStoppedAtOnce() throws {
        let bench = try JobBench(holding: "none")
        let store = ImportJobStore.sqlite(bench.database)
        let host = ProcessInfo.processInfo.hostName
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        try store.insert(ImportJob(id: "killed", startedBy: "ayse@shop.test", runner: "\(host):\(exited.processIdentifier)",
                                   fileName: "big.csv", isDryRun: false, step: .writing, total: 30_000, startedAt: Date()))
        try store.insert(ImportJob(id: "alive", startedBy: "ayse@shop.test", runner: "\(host):\(getppid())",
                                   fileName: "big.csv", isDryRun: false, step: .writing, total: 30_000, startedAt: Date()))
        #expect(ImportJobs.isAliveOnThisHost("\(host):\(exited.processIdentifier)") == false)
        #expect(ImportJobs.isAliveOnThisHost("\(host):\(getppid())") == true)
        #expect(ImportJobs.isAliveOnThisHost("elsewhere:\(getppid())") == nil)
        #expect(try bench.jobs.status("killed")?.outcome == .stopped)
        #expect(try bench.jobs.status("alive")?.outcome == nil)
    }
}

/// How a finished job's outcome is kept (`ImportJob.outcome`, JSON): typed messages now, plain
/// English strings before — both read.
@Suite("Import job outcomes: stored messages")
struct ImportJobOutcomeEncodingTests {
    private func decode(_ json: String) throws -> ImportJobOutcome {
        try JSONDecoder().decode(ImportJobOutcome.self, from: Data(json.utf8))
    }

    @Test func anOutcomeStoredBeforeMessagesWereTypedStillReads() throws {
        let refused = try decode(#"{"refused":{"_0":"a.csv:3: column “Variant Price”: “x” is not a price such as 12.50"}}"#)
        #expect(refused == .refused(.text("a.csv:3: column “Variant Price”: “x” is not a price such as 12.50")))
        let report = try decode(#"{"report":{"_0":{"fileName":"a.csv","isDryRun":true,"productCount":1,"variantCount":1,"#
            + #""imageCount":0,"created":1,"updated":0,"unchanged":0,"products":[],"productsTouched":0,"#
            + #""warnings":["line 2: stock -1 (oversold, backorders allowed) imported as 0","line 9: grouped product: x"]}}}"#)
        guard case let .report(summary) = report else { Issue.record("not a report: \(report)"); return }
        #expect(summary.warnings == [.text("line 2: stock -1 (oversold, backorders allowed) imported as 0"),
                                     .text("line 9: grouped product: x")])
    }

    @Test(arguments: [
        ImportJobMessage.refusal(ImportError(file: "a.csv", line: 3, column: "Variant SKU", columnIndex: 5,
                                             problem: .duplicateSKU(sku: "TEE-1", earlierLine: 2))),
        .warning(ImportWarning(line: 4, caveat: .oversold(quantity: -1))),
        .skipped(SkippedRow(line: 5, name: "Logo", reason: .grouped)),
        .failed(file: "a.csv", detail: "disk full"), .unreadable(file: "a.csv"), .text("as worded"),
    ])
    func typedMessagesRoundTrip(message: ImportJobMessage) throws {
        let outcome = ImportJobOutcome.refused(message)
        #expect(try JSONDecoder().decode(ImportJobOutcome.self, from: JSONEncoder().encode(outcome)) == outcome)
    }

    /// A message of a kind this version does not know (written by a later one) is shown by the
    /// English text stored beside it.
    @Test func anUnknownKindFallsBackToItsStoredText() throws {
        let outcome = try decode(#"{"refused":{"_0":{"newKind":{"x":1},"text":"a.csv:2: something new"}}}"#)
        #expect(outcome == .refused(.text("a.csv:2: something new")))
        let newerProblem = try decode(#"{"refused":{"_0":{"refusal":{"file":"a.csv","problem":{"fromTheFuture":{}}},"#
            + #""text":"a.csv: a problem from the future"}}}"#)
        #expect(newerProblem == .refused(.text("a.csv: a problem from the future")))
    }
}
