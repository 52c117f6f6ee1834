import Dispatch
public import Foundation
import Synchronization

/// Races real threads: one thread per call, all released together by one signal, so far more
/// callers than pooled connections or cores contend at once (the concurrency rule of the project:
/// conditional updates in the database, proven by racing threads).
public enum ConcurrentRun {
    /// Runs `body(index)` for `0..<count` on `count` threads released together and waits for all.
    /// - Returns: the results in index order.
    /// - Throws: the first error a call threw (after every thread finished).
    public static func together<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = Mutex<[Int: Result<T, any Error>]>([:])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread {
                start.wait()
                let result = Result { try body(index) }
                results.withLock { $0[index] = result }
                done.leave()
            }.start()
        }
        for _ in 0..<count { start.signal() }
        done.wait()
        let all = results.withLock { $0 }
        return try (0..<count).map { try all[$0]!.get() }
    }
}
