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
