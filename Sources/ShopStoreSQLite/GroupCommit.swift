import Dispatch
import SQLite
import Synchronization

/// Group commit (issue #14): small write transactions that arrive while another is committing
/// wait in a queue, and the next one to run takes the whole queue into ONE SQLite transaction —
/// one `BEGIN IMMEDIATE`, one set of locks, one write of each changed page to the log, one
/// `COMMIT` — instead of one of each per request.
///
/// - Each write keeps its own all-or-nothing: it runs inside a `SAVEPOINT` of the batch, so a
///   write that throws is rolled back alone and the others of its batch still commit.
/// - A write is answered only after the batch's `COMMIT` returned: acknowledged means committed.
/// - When the batch's transaction itself fails (its `BEGIN` or `COMMIT`, or a write whose error
///   made SQLite abandon the whole transaction, such as a full disk), every write of the batch
///   runs again in a transaction of its own and gets its own outcome.
///
/// There is no writer thread: the caller that finds nobody committing leads. It runs one batch
/// (the queue's first `maximumBatch` writes, its own among them) on the database's writer
/// connection and answers each; if writes queued meanwhile, it hands the lead to the oldest of
/// them and returns — no caller commits others' work for longer than one batch.
final class GroupCommit: Sendable {
    /// The most writes in one transaction.
    let maximumBatch: Int

    private let state = Mutex(State())
    private let open: @Sendable () throws -> Connection

    private struct State {
        var queue: [Job] = []
        var isLeading = false
        var writer: WriterConnection?
        var isClosed = false
        var batches: UInt64 = 0
        var writes: UInt64 = 0
    }

    /// The writer connection, used by the leader alone (taken out of `State` while leading).
    private struct WriterConnection: @unchecked Sendable {
        let connection: Connection
    }

    /// - Parameters:
    ///   - maximumBatch: the most writes in one transaction (≥ 1).
    ///   - open: opens the writer connection (on first use).
    init(maximumBatch: Int, open: @escaping @Sendable () throws -> Connection) {
        self.maximumBatch = max(maximumBatch, 1)
        self.open = open
    }

    /// Batches committed so far, and the writes in them.
    var counts: (batches: UInt64, writes: UInt64) { state.withLock { ($0.batches, $0.writes) } }

    /// Writes waiting for a batch (not counting those of the batch being committed).
    var waiting: Int { state.withLock { $0.queue.count } }

    /// Runs `body` in the next batch and returns once that batch committed (see the type).
    func write<T>(_ body: (Connection) throws -> T) throws -> T {
        var result: T?
        try withoutActuallyEscaping(body) { body in
            let job = Job { connection in result = try body(connection) }
            var leads = try state.withLock { (state: inout State) throws(SQLiteError) -> Bool in
                guard !state.isClosed else {
                    throw SQLiteError(code: SQLiteError.misuseCode, message: "the database is closed")
                }
                state.queue.append(job)
                if state.isLeading { return false }
                state.isLeading = true
                return true
            }
            while !job.isAnswered {
                if leads {
                    leads = lead(for: job)
                } else {
                    job.wakeUp.wait()
                    leads = !job.isAnswered  // woken to lead
                }
            }
            if let failure = job.failure { throw failure }
        }
        return result!
    }

    /// Closes the writer connection now, or when the current batch ends; later writes throw.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.writer = nil }
            return state.writer
        }
        idle?.connection.close()
    }

    /// Runs one batch, answers its writes, then hands the lead on.
    /// - Returns: `true` when `own` is still waiting and its caller keeps the lead.
    private func lead(for own: Job) -> Bool {
        let (batch, writer) = state.withLock { state in
            let batch = Array(state.queue.prefix(maximumBatch))
            state.queue.removeFirst(batch.count)
            defer { state.writer = nil }
            return (batch, state.writer)
        }
        var connection: Connection?
        do {
            connection = try writer?.connection ?? open()
        } catch {
            for job in batch { job.failure = error }
        }
        if let connection { commit(batch, on: connection) }
        return state.withLock { state in
            if let connection {
                if state.isClosed { connection.close() } else { state.writer = WriterConnection(connection: connection) }
            }
            state.batches += 1
            state.writes += UInt64(batch.count)
            for job in batch {
                job.work = nil  // the caller's closure must not outlive its call (`withoutActuallyEscaping`)
                job.isAnswered = true
                if job !== own { job.wakeUp.signal() }
            }
            if !own.isAnswered { return true }
            guard let next = state.queue.first else {
                state.isLeading = false
                return false
            }
            next.wakeUp.signal()  // the lead passes to the oldest waiting write
            return false
        }
    }

    /// Runs `batch` in one transaction, each write in a savepoint (a write alone: in its own
    /// transaction); when the batch's transaction itself fails, each write again in its own.
    private func commit(_ batch: [Job], on connection: Connection) {
        guard batch.count > 1 else {
            batch.first?.run(on: connection)  // alone: its own transaction, no savepoint needed
            return
        }
        do {
            try connection.transaction(.immediate) {
                for job in batch {
                    job.run(on: connection)
                    if connection.isAutocommit { throw BatchAbandoned() }  // SQLite rolled it all back
                }
            }
        } catch {
            for job in batch { job.run(on: connection) }
        }
    }

    /// One queued write: its work, its outcome and the semaphore its caller sleeps on.
    private final class Job: @unchecked Sendable {
        /// The caller's work; dropped when the write is answered.
        var work: ((Connection) throws -> Void)?
        /// Set by the leader before it signals (or, for its own write, before it looks).
        var isAnswered = false
        var failure: (any Error)?
        let wakeUp = DispatchSemaphore(value: 0)

        init(_ work: @escaping (Connection) throws -> Void) { self.work = work }

        /// Runs the work in a transaction — a savepoint inside the batch's — keeping the outcome.
        func run(on connection: Connection) {
            do {
                try connection.transaction(.immediate) { try work?(connection) }
                failure = nil
            } catch {
                failure = error
            }
        }
    }

    private struct BatchAbandoned: Error {}
}
