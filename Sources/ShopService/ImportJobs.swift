public import Foundation
public import ShopImport
public import ShopStore

/// What a finished import job did, kept as JSON in its row (`ImportJob.outcome`) so that any app
/// server can show it. Its messages are kept typed (`ImportJobMessage`), so each reader sees them
/// in their own language; an outcome stored before that (`{"refused": {"_0": "text"}}`, warnings
/// as strings) still reads, its texts shown as stored.
public enum ImportJobOutcome: Codable, Hashable, Sendable {
    /// Read, checked and — unless a check — written.
    case report(ImportSummary)
    /// Refused, with the message naming the file, line and column; nothing was written.
    case refused(ImportJobMessage)
    /// Stopped before the end, with nothing written: its server stopped it (`ImportJobs.stopAll`),
    /// or is gone — on this host no longer running, elsewhere not heard of for
    /// `ImportJobs.stallTime` (its write transaction died with it).
    case stopped
}

/// What the back office shows of a `CatalogImportReport`: the counts, the products created or
/// changed (by handle, the first `listLimit`), and the file's caveats.
public struct ImportSummary: Codable, Hashable, Sendable {
    /// A created or changed product.
    public struct Product: Codable, Hashable, Sendable {
        public var handle: String
        public var isNew: Bool
        /// The handle the product had before this import gave it `handle` (a take-over by its
        /// SKUs); nil otherwise, and in outcomes stored before it was kept.
        public var previousHandle: String?

        public init(handle: String, isNew: Bool, previousHandle: String? = nil) {
            self.handle = handle
            self.isNew = isNew
            self.previousHandle = previousHandle
        }

        /// `mug → plate` for a take-over, else the handle.
        public var handles: String { previousHandle.map { "\($0) → \(handle)" } ?? handle }
    }

    /// At most this many products are listed by handle.
    public static let listLimit = 1_000

    public var fileName: String
    /// A check: nothing was written; the counts say what an import would do.
    public var isDryRun: Bool
    public var productCount: Int
    public var variantCount: Int
    public var imageCount: Int
    public var created: Int
    public var updated: Int
    public var unchanged: Int
    /// The products created or changed, in the file's order, at most `listLimit` of them.
    public var products: [Product]
    /// How many products were created or changed in all.
    public var productsTouched: Int
    /// The file's warnings, then the records skipped (as `.warning` and `.skipped`).
    public var warnings: [ImportJobMessage]

    /// The summary of a report.
    public init(_ report: CatalogImportReport) {
        fileName = report.fileName
        isDryRun = report.isDryRun
        productCount = report.productCount
        variantCount = report.variantCount
        imageCount = report.imageCount
        let outcome = report.changes ?? report.preview ?? CatalogUpsertResult()
        created = outcome.productsCreated
        updated = outcome.productsUpdated
        unchanged = outcome.productsUnchanged
        let touched = outcome.products.filter { $0.change != .unchanged }
        productsTouched = touched.count
        products = touched.prefix(Self.listLimit).map {
            Product(handle: $0.handle, isNew: $0.change == .created, previousHandle: $0.previousHandle)
        }
        warnings = report.warnings.map(ImportJobMessage.warning) + report.skipped.map(ImportJobMessage.skipped)
    }
}

/// Where a job is, as the job page shows it.
public struct ImportJobStatus: Hashable, Sendable {
    /// The job, with its live counts when this server runs it.
    public var job: ImportJob
    /// What it did once finished, or `.stopped`; nil while it runs.
    public var outcome: ImportJobOutcome?
}

/// The back office's catalog imports, each on its own thread, with their progress (issue #16,
/// point 4).
///
/// A job's row (`ImportJobStore`) holds its step and, once it ends, its outcome, so every app
/// server behind a load balancer can show it; it is written between the import's steps, never
/// inside its write transaction. The counts within a step (records read, products written) are
/// held in the memory of the server running the job, which is where a reload most often lands;
/// another server shows the step without them. A job stays in that memory until its outcome is
/// stored, so its page tells the truth even while the database refuses the row for a while.
public final class ImportJobs: @unchecked Sendable {
    /// A job not finished whose row has not changed for this long is one whose server stopped
    /// (unless that server is on this host and still running: then it is asked directly).
    public static let stallTime: TimeInterval = 15 * 60
    /// Jobs are kept this long, then purged as new ones start.
    public static let keptFor: TimeInterval = 30 * 24 * 60 * 60

    /// This process, as a job's `runner` names it: `host:pid`.
    public static let thisRunner = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"

    private let store: ImportJobStore
    private let now: @Sendable () -> Date
    private let newID: @Sendable () -> String
    private let log: @Sendable (String) -> Void
    private let runner: String
    private let isRunnerAlive: @Sendable (String) -> Bool?
    private let condition = NSCondition()
    /// This server's jobs whose outcome is not stored yet, with their live counts (and, once
    /// finished, their outcome). Guarded by `condition`.
    private var running: [String: ImportJob] = [:]
    /// Set by `stopAll`: running imports stop and write nothing. Guarded by `condition`.
    private var isStopping = false
    /// What each unfinished job was started with, by id: the same start again — a double click,
    /// a form sent twice — is answered with that job, not a second one. Guarded by `condition`.
    private var starts: [String: Start] = [:]

    private struct Start: Equatable {
        var data: Data
        var fileName: String
        var format: CatalogFormat?
        var dryRun: Bool
        var actor: String
    }

    /// - Parameters:
    ///   - store: where jobs are kept.
    ///   - now: the clock.
    ///   - newID: a fresh random token for each job (`Crypto.randomToken`).
    ///   - log: where a job's unexpected failures are reported.
    ///   - runner: this server, as its jobs' rows name it (`thisRunner`).
    ///   - isRunnerAlive: whether the server a row names still runs — nil when this server
    ///     cannot tell (another host); by default a process on this host is asked with `kill 0`.
    public init(store: ImportJobStore, now: @escaping @Sendable () -> Date, newID: @escaping @Sendable () -> String,
                log: @escaping @Sendable (String) -> Void = { _ in }, runner: String = ImportJobs.thisRunner,
                isRunnerAlive: @escaping @Sendable (String) -> Bool? = ImportJobs.isAliveOnThisHost) {
        self.store = store
        self.now = now
        self.newID = newID
        self.log = log
        self.runner = runner
        self.isRunnerAlive = isRunnerAlive
    }

    /// Starts checking (`dryRun`) or importing the file on a new thread; the job's row is stored
    /// there (it may wait its turn behind another import's write), so this returns at once.
    /// The same staff member starting the same file the same way while that job is unfinished
    /// gets that job: a double click imports once.
    /// - Returns: the job.
    public func start(_ data: Data, fileName: String, format: CatalogFormat?, dryRun: Bool, actor: AuditActor,
                      using service: CatalogImportService) -> ImportJob {
        let start = Start(data: data, fileName: fileName, format: format, dryRun: dryRun, actor: actor.name)
        let job = ImportJob(id: newID(), startedBy: actor.name, runner: runner, fileName: fileName, isDryRun: dryRun,
                            startedAt: now())
        let existing: ImportJob? = condition.withLock {
            if let same = starts.first(where: { $0.value == start }), let job = running[same.key], job.step != .finished {
                return job
            }
            running[job.id] = job
            starts[job.id] = start
            return nil
        }
        if let existing { return existing }
        let thread = Thread { [self] in
            run(job, data, format: format, actor: actor, service: service)
        }
        thread.name = "import-job"
        thread.start()
        return job
    }

    /// The job with this id, with its live counts when this server runs it; nil when none.
    public func status(_ id: String) throws -> ImportJobStatus? {
        if let job = condition.withLock({ running[id] }) { return status(of: job) }
        return try store.job(id).map(status(of:))
    }

    /// The `limit` jobs started last, newest first (the import page's list), with their live
    /// counts when this server runs them.
    public func recent(_ limit: Int) throws -> [ImportJobStatus] {
        let local = condition.withLock { running }
        var jobs = try store.recent(limit)
        let stored = Set(jobs.map(\.id))
        jobs += local.values.filter { !stored.contains($0.id) }  // not stored yet
        return jobs.sorted { ($0.startedAt, $1.id) > ($1.startedAt, $0.id) }.prefix(limit)
            .map { status(of: local[$0.id] ?? $0) }
    }

    /// Where `job` (this server's, or as stored) is.
    private func status(of job: ImportJob) -> ImportJobStatus {
        if condition.withLock({ running[job.id] != nil }) {
            return ImportJobStatus(job: job, outcome: job.step == .finished ? Self.outcome(of: job) : nil)
        }
        guard job.step == .finished else {
            // Not running here (or it would be in memory), and its server gone or silent too long.
            let isGone = job.runner == runner || isRunnerAlive(job.runner) == false
            return ImportJobStatus(job: job, outcome: isGone || now().timeIntervalSince(job.updatedAt) > Self.stallTime
                                   ? .stopped : nil)
        }
        return ImportJobStatus(job: job, outcome: Self.outcome(of: job))
    }


    /// Waits until this server's job `id` has finished, at most `seconds`.
    /// - Returns: whether it has finished (or is not this server's).
    @discardableResult
    public func wait(_ id: String, upTo seconds: TimeInterval) -> Bool {
        waitUntil(seconds) { running[id].map { $0.step == .finished } ?? true }
    }

    /// Waits until none of this server's jobs is running or waiting to store its outcome, at
    /// most `seconds`.
    /// - Returns: whether none is.
    @discardableResult
    public func waitForAll(upTo seconds: TimeInterval) -> Bool {
        waitUntil(seconds) { running.isEmpty }
    }

    /// Stops every running import of this server (a server stopping): each stops at its next
    /// product, writes nothing, and its outcome is stored as `.stopped`. Jobs started later stop
    /// at once.
    public func stopAll() {
        condition.withLock { isStopping = true }
    }

    /// Whether the server `runner` names (`host:pid`) still runs: asked with `kill(pid, 0)` when
    /// it is on this host; nil for another host.
    public static func isAliveOnThisHost(_ runner: String) -> Bool? {
        guard let colon = runner.lastIndex(of: ":"), runner[..<colon] == ProcessInfo.processInfo.hostName,
              let pid = Int32(runner[runner.index(after: colon)...]), pid > 0 else { return nil }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Waits until `isDone` (asked under the lock, again each time a job ends), at most `seconds`.
    private func waitUntil(_ seconds: TimeInterval, _ isDone: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isDone() {
            guard condition.wait(until: deadline) else { return isDone() }
        }
        return true
    }

    private static func outcome(of job: ImportJob) -> ImportJobOutcome {
        job.outcome.flatMap { try? JSONDecoder().decode(ImportJobOutcome.self, from: Data($0.utf8)) }
            ?? .refused(.unreadable(file: job.fileName))
    }

    // MARK: The job's thread

    private func run(_ job: ImportJob, _ data: Data, format: CatalogFormat?, actor: AuditActor,
                     service: CatalogImportService) {
        do {
            _ = try store.purge(job.startedAt.addingTimeInterval(-Self.keptFor))
        } catch {
            log("import jobs: purge failed: \(error)")
        }
        var isStored = persist(job, insert: true, for: 60)
        var options = CatalogImportService.Options(dryRun: job.isDryRun, actor: actor)
        options.shouldStop = { [self] in condition.withLock { isStopping } }
        // Steps start outside the write transaction: their row is written then (once).
        options.phase = { [self] phase in
            let (step, total): (ImportJob.Step, Int) = switch phase {
            case .reading: (.reading, 0)
            case let .checkingImages(count): (.checkingImages, count)
            case let .downloadingImages(count): (.downloadingImages, count)
            case let .writing(products): (.writing, products)
            }
            let changed = change(job.id) {
                $0.step = step
                $0.done = 0
                $0.total = total
            }
            if let changed { isStored = persist(changed, insert: !isStored, for: 0) || isStored }
        }
        // Counts within a step: memory only (the write transaction may be open).
        options.progress = { [self] done, total in
            _ = change(job.id) {
                $0.done = done
                $0.total = total
            }
        }
        let outcome: ImportJobOutcome
        do {
            let report = try service.importCatalog(data, fileName: job.fileName, format: format, options: options)
            outcome = .report(ImportSummary(report))
            log("catalog file \(job.fileName) \(job.isDryRun ? "checked" : "imported") by \(actor.name) (job \(job.id))")
        } catch let error as ImportError {
            outcome = .refused(.refusal(error))
        } catch let error as CatalogStoreError {
            outcome = .refused(.refusal(ImportError(file: job.fileName, refusal: error)))
        } catch is CancellationError {
            log("catalog file \(job.fileName): stopped with the server, nothing written (job \(job.id))")
            outcome = .stopped
        } catch {
            log("import job \(job.id) failed: \(error)")
            outcome = .refused(.failed(file: job.fileName, detail: "\(error)"))
        }
        // Finished in memory first (the page shows it at once), then stored, trying until it is.
        let finished = change(job.id) {
            $0.step = .finished
            $0.outcome = (try? JSONEncoder().encode(outcome)).map { String(decoding: $0, as: UTF8.self) }
        } ?? job
        condition.withLock {
            starts[job.id] = nil
            condition.broadcast()
        }
        if !persist(finished, insert: !isStored, for: Self.stallTime) {
            log("import job \(job.id): its outcome could not be stored; other servers will show it as stopped")
        }
        condition.withLock {
            running[job.id] = nil
            condition.broadcast()
        }
    }

    /// Changes this server's running job `id`; returns it changed.
    private func change(_ id: String, _ body: (inout ImportJob) -> Void) -> ImportJob? {
        condition.withLock {
            guard var job = running[id] else { return nil }
            body(&job)
            running[id] = job
            return job
        }
    }

    /// Stores the job's row (inserted, or updated), stamped now, trying again for up to `seconds`
    /// (another process's write may hold the database past its busy timeout).
    /// - Returns: whether it was stored.
    private func persist(_ job: ImportJob, insert: Bool, for seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var pause: TimeInterval = 0.2
        while true {
            var job = job
            job.updatedAt = now()
            do {
                if insert {
                    try store.insert(job)
                } else {
                    _ = try store.update(job)
                }
                return true
            } catch {
                guard Date() < deadline else {
                    log("import job \(job.id): cannot record its \(job.step.rawValue) step: \(error)")
                    return false
                }
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 5)
            }
        }
    }
}
