import Foundation
import SQLite
import Synchronization
import Testing

@Suite("SQLite commit observer")
struct CommitObserverTests {
    /// A database file in the temporary directory, removed with its log when the test ends.
    final class File {
        let path = NSTemporaryDirectory() + "commit-observer-\(UUID().uuidString).sqlite3"
        deinit {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

    final class Count: Sendable {
        let value = Atomic(0)
        func add() { value.add(1, ordering: .relaxed) }
        var now: Int { value.load(ordering: .relaxed) }
    }

    @Test func everyCommitIsObservedAndReadsAreNot() throws {
        let file = File()
        let connection = try Connection(path: file.path)
        let commits = Count()
        connection.onCommit { commits.add() }
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
        #expect(commits.now == 1)
        try connection.prepare("INSERT INTO t (name) VALUES (?)").run(["a"])
        #expect(commits.now == 2, "an autocommit statement")
        try connection.transaction {
            try connection.prepare("INSERT INTO t (name) VALUES (?)").run(["b"])
            try connection.prepare("INSERT INTO t (name) VALUES (?)").run(["c"])
        }
        #expect(commits.now == 3, "one transaction, one commit")
        _ = try connection.prepare("SELECT count(*) FROM t").first([])
        try? connection.transaction { () throws -> Void in
            try connection.prepare("INSERT INTO t (name) VALUES (?)").run(["d"])
            throw CancellationError()
        }
        #expect(commits.now == 3, "reads and rolled-back transactions commit nothing")
        // Another connection's commits are its own.
        let other = try Connection(path: file.path)
        try other.prepare("INSERT INTO t (name) VALUES (?)").run(["e"])
        #expect(commits.now == 3)
    }

    /// The observer replaces SQLite's automatic checkpoint hook; the log must still be
    /// checkpointed at 1000 pages instead of growing with every write.
    @Test func theWriteAheadLogIsStillCheckpointed() throws {
        let file = File()
        let connection = try Connection(path: file.path)
        connection.onCommit {}
        try connection.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")
        let insert = "INSERT INTO blobs (data) VALUES (zeroblob(4000))"
        for _ in 0..<3_000 { try connection.execute(insert) }  // ≈ 3000 pages, 3000 commits
        let log = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int ?? 0
        #expect(log < 1_200 * 4_096 + 64 * 1024, "the log is reused after each checkpoint: \(log) bytes")
    }
}
