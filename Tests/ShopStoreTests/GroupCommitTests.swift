import Dispatch
import Foundation
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Synchronization
import Testing

/// `SQLiteDatabase.write` (issue #14): writes that arrive together commit as one transaction,
/// each still all-or-nothing, each answered only after the commit.
@Suite("Group commit")
struct GroupCommitTests {
    /// A database file with `items(name TEXT PRIMARY KEY)`.
    private static func itemsDatabase() throws -> (SQLiteDatabase, TemporaryDatabasePath) {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        try database.withConnection { try $0.execute("CREATE TABLE items (name TEXT PRIMARY KEY)") }
        return (database, path)
    }

    private static func insert(_ name: String, _ connection: Connection) throws {
        try connection.prepare("INSERT INTO items (name) VALUES (?)").run([.text(name)])
    }

    private static func names(_ database: SQLiteDatabase) throws -> Set<String> {
        Set(try database.withConnection { try $0.prepare("SELECT name FROM items").query().map { try $0.string(0) } })
    }

    /// Waits (bounded) until `count` writes are queued behind the batch being committed.
    private static func waitUntil(_ database: SQLiteDatabase, hasWaiting count: Int) {
        for _ in 0..<10_000 where database.writesWaiting < count { usleep(1_000) }
    }

    /// A value the test's threads share (a `Mutex` cannot be captured by their closures).
    private final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    private struct Refused: Error, Equatable { let name: String }

    private enum Outcome: Equatable {
        case committed
        case refused(Refused)
        case failed(String)
    }

    /// Runs `body` on a thread of its own (the global queue caps its threads, and these block).
    private static func spawn(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
    }

    /// Starts a write (inserting `name`, if any) that keeps the first batch open until `hold` is
    /// signalled, and returns once it runs: later writes queue behind it.
    private static func holdFirstBatch(_ database: SQLiteDatabase, inserting name: String? = nil)
        -> (DispatchGroup, DispatchSemaphore) {
        let hold = DispatchSemaphore(value: 0)
        let running = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        Self.spawn(group) {
            _ = try? database.write { connection in
                if let name { try insert(name, connection) }
                running.signal()
                hold.wait()
            }
        }
        running.wait()
        return (group, hold)
    }

    /// Ten writes queue behind a batch that is still running, so they commit as the next batch
    /// together: the odd ones insert and then throw; only their own rows are undone.
    @Test func aFailingWriteUndoesOnlyItsOwnWorkInItsBatch() throws {
        let (database, path) = try Self.itemsDatabase()
        defer { database.close(); path.remove() }
        let (group, hold) = Self.holdFirstBatch(database, inserting: "first")
        let outcomes = Shared<[String: Outcome]>([:])
        let names = (0..<10).map { "item-\($0)" }
        for (index, name) in names.enumerated() {
            Self.spawn(group) {
                let outcome: Outcome
                do {
                    try database.write { connection in
                        try Self.insert(name, connection)
                        if index % 2 == 1 { throw Refused(name: name) }
                    }
                    outcome = .committed
                } catch let refused as Refused {
                    outcome = .refused(refused)
                } catch {
                    outcome = .failed("\(error)")
                }
                outcomes.value.withLock { $0[name] = outcome }
            }
        }
        Self.waitUntil(database, hasWaiting: names.count)
        #expect(database.writesWaiting == names.count)
        hold.signal()
        group.wait()

        #expect(database.groupCommitCounts == (batches: 2, writes: 11))
        let kept = names.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(try Self.names(database) == Set(["first"] + kept))
        outcomes.value.withLock { outcomes in
            for (index, name) in names.enumerated() {
                #expect(outcomes[name] == (index % 2 == 1 ? .refused(Refused(name: name)) : .committed), "\(name)")
            }
        }
    }

    /// A write of a batch is answered only once the whole batch committed: while a later write
    /// of the same batch is still running, the earlier one has not returned.
    @Test func aWriteReturnsOnlyAfterItsBatchCommitted() throws {
        let (database, path) = try Self.itemsDatabase()
        defer { database.close(); path.remove() }
        let (group, hold) = Self.holdFirstBatch(database)
        // The second batch's leader: its thread runs every write of the batch, so the write that
        // must not return early is another thread's.
        Self.spawn(group) { _ = try? database.write { _ in } }
        Self.waitUntil(database, hasWaiting: 1)
        let earlierReturned = DispatchSemaphore(value: 0)
        let seenByLaterWrite = Shared<Bool?>(nil)
        Self.spawn(group) {
            _ = try? database.write { connection in try Self.insert("earlier", connection) }
            earlierReturned.signal()
        }
        Self.waitUntil(database, hasWaiting: 2)
        Self.spawn(group) {
            _ = try? database.write { connection in
                // Runs after "earlier" in the same batch; gives it a moment to (wrongly) return.
                let returned = earlierReturned.wait(timeout: .now() + .milliseconds(200)) == .success
                seenByLaterWrite.value.withLock { $0 = returned }
                try Self.insert("later", connection)
            }
        }
        Self.waitUntil(database, hasWaiting: 3)
        hold.signal()
        group.wait()

        #expect(seenByLaterWrite.value.withLock { $0 } == false)
        #expect(database.groupCommitCounts == (batches: 2, writes: 4))
        // Another connection (another process would be the same) sees both.
        let other = try Connection(path: path.path)
        #expect(try other.prepare("SELECT count(*) FROM items").first()?.int(0) == 2)
        other.close()
    }

    /// Writes from many threads at once all arrive, in fewer transactions than writes.
    @Test func concurrentWritesAllCommit() throws {
        let (database, path) = try Self.itemsDatabase()
        defer { database.close(); path.remove() }
        let names = (0..<200).map { "w\($0)" }
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            do {
                try database.write { connection in try Self.insert(names[index], connection) }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(try Self.names(database) == Set(names))
        #expect(database.groupCommitCounts.writes == 200)
    }

    @Test func aClosedDatabaseRefusesWrites() throws {
        let (database, path) = try Self.itemsDatabase()
        defer { path.remove() }
        database.close()
        let error = #expect(throws: SQLiteError.self) { try database.write { try Self.insert("x", $0) } }
        #expect(error?.code == SQLiteError.misuseCode)
    }
}
