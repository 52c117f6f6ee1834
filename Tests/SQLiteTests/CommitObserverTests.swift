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
        connection.onCommit { _ in commits.add() }
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

    /// Issue #14: a commit says which watched tables it changed — by a statement or by a
    /// trigger — so a value read from one table is read again only when that table changed.
    @Test func aCommitNamesTheWatchedTablesItChangedTriggersIncluded() throws {
        let file = File()
        let connection = try Connection(path: file.path)
        try connection.execute("""
            CREATE TABLE state (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
            INSERT INTO state VALUES (1, 0);
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
            CREATE TRIGGER items_bump AFTER UPDATE ON items BEGIN UPDATE state SET version = version + 1 WHERE id = 1; END;
            INSERT INTO items (name) VALUES ('a');
            """)
        let seen = Mutex<[UInt64]>([])
        connection.onCommit(watching: ["state", "notes"]) { changed in seen.withLock { $0.append(changed) } }
        try connection.execute("INSERT INTO items (name) VALUES ('b')")
        try connection.execute("UPDATE items SET name = 'c' WHERE id = 1")  // the trigger bumps `state`
        try connection.execute("INSERT INTO notes (text) VALUES ('x')")
        try connection.transaction {
            try connection.execute("INSERT INTO notes (text) VALUES ('y')")
            try connection.execute("UPDATE state SET version = 9")
        }
        try? connection.transaction { () throws -> Void in
            try connection.execute("UPDATE state SET version = 10")
            throw CancellationError()
        }
        try connection.execute("INSERT INTO items (name) VALUES ('d')")
        #expect(seen.withLock { $0 } == [0, 0b01, 0b10, 0b11, 0], "a rolled-back change is forgotten")
    }

    /// The observer replaces SQLite's automatic checkpoint hook; the log must still be
    /// checkpointed at 1000 pages instead of growing with every write.
    @Test func theWriteAheadLogIsStillCheckpointed() throws {
        let file = File()
        let connection = try Connection(path: file.path)
        connection.onCommit { _ in }
        try connection.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")
        let insert = "INSERT INTO blobs (data) VALUES (zeroblob(4000))"
        for _ in 0..<3_000 { try connection.execute(insert) }  // ≈ 3000 pages, 3000 commits
        let log = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int ?? 0
        #expect(log < 1_200 * 4_096 + 64 * 1024, "the log is reused after each checkpoint: \(log) bytes")
    }
}
