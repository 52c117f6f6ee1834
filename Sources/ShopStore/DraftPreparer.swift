import Foundation
public import ShopCore

/// Folds an upsert's drafts (`PreparedDraft`: search text in both rule families, stems,
/// sort keys) on a second thread, ahead of the thread that writes them, so the two cores share
/// an import (issue #13, point 6): the writer finds each changed draft's fold ready instead of
/// making it between two statements of its transaction.
///
/// The folder starts at the first draft the writer takes (an unchanged file folds nothing), runs
/// at most `window` drafts ahead of the writer (so at most that many folds are held) and never
/// folds a draft the writer has passed: `skip` (an unchanged product, which is not written) lets
/// it jump ahead. The fold itself is the same function the writer would call
/// (one home); only where it runs changes. `stop()` ends the thread and waits for it — the
/// writer calls it however its transaction ends, so no thread outlives the upsert.
///
/// Small batches (an API write, a short file) fold inline: a thread is not worth it.
public final class DraftPreparer: @unchecked Sendable {
    /// Batches of at most this many drafts are folded by the writer itself.
    public static let inlineLimit = 64

    private let drafts: [ProductDraft]
    private let window: Int
    /// Told, on the writer's thread, of each draft the writer passes (taken or skipped).
    private let progress: UpsertProgress?
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var ready: [Int: PreparedDraft] = [:]
    /// The next draft the folder takes (unless the writer is further on).
    private var next = 0
    /// Drafts below this the writer has taken or skipped.
    private var passed = 0
    private var isStopped = false
    /// Set by the first `take`: until the writer meets a product to write, nothing is folded
    /// (a re-import of an unchanged file folds nothing).
    private var isWanted = false
    private var isFinished = false
    // Only for inline folding (the writer's thread).
    private let inline: Bool
    private let inlineStemmer: ProductSearchStemmer?
    private var inlineCategoryHandles: [String: String?] = [:]

    /// Starts folding `drafts` on a new thread (or not at all, for a small batch).
    /// - Parameter progress: told how many drafts the writer has passed, as it passes each —
    ///   the upsert's progress (`CatalogStore.upsertBy`).
    public init(_ drafts: [ProductDraft], window: Int = 256, progress: UpsertProgress? = nil) {
        self.drafts = drafts
        self.progress = progress
        self.window = max(window, 1)
        inline = drafts.count <= Self.inlineLimit
        inlineStemmer = inline ? ProductSearchStemmer() : nil
        if inline {
            isFinished = true
        } else {
            let thread = Thread { [self] in fold() }
            thread.name = "import-fold"
            thread.start()
        }
    }

    /// The folder thread: drafts in order, from wherever the writer is, `window` ahead at most.
    private func fold() {
        let stemmer = ProductSearchStemmer()
        var categoryHandles: [String: String?] = [:]
        while true {
            condition.lock()
            while !isStopped && (!isWanted || (next < drafts.count && next - passed >= window)) { condition.wait() }
            guard !isStopped, max(next, passed) < drafts.count else {
                isFinished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let index = max(next, passed)
            next = index + 1
            condition.unlock()

            let prepared = PreparedDraft(drafts[index], stemmer: stemmer, categoryHandles: &categoryHandles)

            condition.lock()
            if index >= passed { ready[index] = prepared }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The fold of draft `index`, waiting for it if needed. Called in increasing `index` order.
    /// - Throws: what `progress` throws (the fold is dropped).
    public func take(_ index: Int) throws -> PreparedDraft {
        try progress?(index + 1)
        if inline {
            return PreparedDraft(drafts[index], stemmer: inlineStemmer!, categoryHandles: &inlineCategoryHandles)
        }
        condition.lock()
        defer { condition.unlock() }
        passed = max(passed, index)
        isWanted = true
        condition.broadcast()
        while ready[index] == nil { condition.wait() }
        let prepared = ready.removeValue(forKey: index)!
        passed = index + 1
        condition.broadcast()
        return prepared
    }

    /// Draft `index` is not written: its fold is dropped, or never made.
    /// - Throws: what `progress` throws.
    public func skip(_ index: Int) throws {
        try progress?(index + 1)
        guard !inline else { return }
        condition.lock()
        passed = max(passed, index + 1)
        ready[index] = nil  // the folder stores no fold below `passed`, and the writer visits every index
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the folder and waits until its thread has ended.
    public func stop() {
        condition.lock()
        isStopped = true
        condition.broadcast()
        while !isFinished { condition.wait() }
        ready.removeAll()
        condition.unlock()
    }
}
