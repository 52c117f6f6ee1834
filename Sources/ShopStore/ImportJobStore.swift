public import Foundation
public import ShopCore

/// A catalog file checked or imported from the back office, as the job page shows it (issue
/// #16, point 4: "with progress"). The import runs on its own thread in the server that received
/// the file; the row is how every app server — and the page after a reload — learns where it is
/// and, once it ends, what it did.
public struct ImportJob: Hashable, Sendable {
    /// A random token (`Crypto.randomToken`), named in the job page's address.
    public var id: String
    /// Who started it (a staff member's email), for the page.
    public var startedBy: String
    /// The server running it, as `host:pid` (`ImportJobs.runner`): a server on the same host
    /// can tell that process is gone.
    public var runner: String
    /// The uploaded file's name.
    public var fileName: String
    /// A check (dry run): nothing is written.
    public var isDryRun: Bool
    /// The step the import is in, or `.finished`.
    public var step: Step
    /// Records read or products written so far in the step, and how many there are (0 when the
    /// step is not counted).
    public var done: Int
    public var total: Int
    /// What it did once finished, as the service encodes it (`ImportJobOutcome`); nil before.
    public var outcome: String?
    public var startedAt: Date
    /// When the row last changed: a job not finished and not changed for long is one whose server
    /// stopped (`ImportJobs.stallTime`).
    public var updatedAt: Date

    /// An import's steps, in order (`CatalogImportService.Phase`, and the end).
    public enum Step: String, Hashable, Sendable, CaseIterable {
        case reading
        case checkingImages = "checking-images"
        case downloadingImages = "downloading-images"
        case writing
        case finished
    }

    public init(id: String, startedBy: String, runner: String = "", fileName: String, isDryRun: Bool, step: Step = .reading,
                done: Int = 0, total: Int = 0, outcome: String? = nil, startedAt: Date, updatedAt: Date? = nil) {
        self.id = id
        self.startedBy = startedBy
        self.runner = runner
        self.fileName = fileName
        self.isDryRun = isDryRun
        self.step = step
        self.done = done
        self.total = total
        self.outcome = outcome
        self.startedAt = startedAt
        self.updatedAt = updatedAt ?? startedAt
    }
}

/// The back office's import jobs (table `import_jobs`, migration 33 on both engines). A finished
/// job is never changed again; old jobs are purged.
public struct ImportJobStore: Sendable {
    /// Stores a new job.
    public var insert: @Sendable (ImportJob) throws -> Void
    /// Writes the job's step, counts, outcome and `updatedAt` — unless the stored job has
    /// finished already. - Returns: whether it was written.
    public var update: @Sendable (ImportJob) throws -> Bool
    /// The job with this id, or nil.
    public var job: @Sendable (_ id: String) throws -> ImportJob?
    /// Deletes jobs started before `date`; returns how many.
    public var purge: @Sendable (_ startedBefore: Date) throws -> Int
    /// The `limit` jobs started last, newest first.
    public var recent: @Sendable (_ limit: Int) throws -> [ImportJob]

    public init(insert: @escaping @Sendable (ImportJob) throws -> Void,
                update: @escaping @Sendable (ImportJob) throws -> Bool,
                job: @escaping @Sendable (_ id: String) throws -> ImportJob?,
                purge: @escaping @Sendable (_ startedBefore: Date) throws -> Int,
                recent: @escaping @Sendable (_ limit: Int) throws -> [ImportJob]) {
        self.recent = recent
        self.insert = insert
        self.update = update
        self.job = job
        self.purge = purge
    }
}

/// How `import_jobs` rows are written and read, the same on every engine.
public enum StoredImportJob {
    /// The columns ``job(_:)`` reads and ``values(_:)`` fills, in order.
    public static let columns = "id, started_by, runner, file_name, dry_run, step, done, total, outcome, started_at, updated_at"

    /// The columns ``updateValues(_:)`` fills, as `column = ?` pairs.
    public static let updateAssignments = "step = ?, done = ?, total = ?, outcome = ?, updated_at = ?"

    /// A job's row.
    public static func values(_ job: ImportJob) -> [StoredValue] {
        [.text(job.id), .text(job.startedBy), .text(job.runner), .text(job.fileName), .bool(job.isDryRun), .text(job.step.rawValue),
         .integer(Int64(job.done)), .integer(Int64(job.total)), StoredValue(job.outcome),
         .integer(StoredTime.unixSeconds(job.startedAt)), .integer(StoredTime.unixSeconds(job.updatedAt))]
    }

    /// What an update writes (``updateAssignments``).
    public static func updateValues(_ job: ImportJob) -> [StoredValue] {
        [.text(job.step.rawValue), .integer(Int64(job.done)), .integer(Int64(job.total)), StoredValue(job.outcome),
         .integer(StoredTime.unixSeconds(job.updatedAt))]
    }

    /// The job in a row of ``columns``.
    public static func job(_ row: some StoredRow) throws -> ImportJob {
        ImportJob(id: try row.string(0), startedBy: try row.string(1), runner: try row.string(2), fileName: try row.string(3),
                  isDryRun: try row.bool(4), step: ImportJob.Step(rawValue: try row.string(5)) ?? .finished,
                  done: Int(try row.int64(6)), total: Int(try row.int64(7)), outcome: try row.optionalString(8),
                  startedAt: StoredTime.date(unixSeconds: try row.int64(9)),
                  updatedAt: StoredTime.date(unixSeconds: try row.int64(10)))
    }
}
