import Dispatch
import Foundation
import Postgres
import Synchronization
import Testing

@Suite("PostgreSQL pool", .enabled(if: TestServer.isAvailable, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
struct PostgresPoolTests {
    @Test func aPoolReplacesConnectionsItsServerDropped() throws {
        let pool = PostgresPool(url: try #require(TestServer.url), size: 2)
        defer { pool.close() }
        let first = try pool.withConnection { $0.backendPID }
        // What a server restart does to an idle connection: its backend goes away.
        let admin = try TestServer.connect()
        try admin.query("SELECT pg_terminate_backend($1::int)", [.integer(Int64(first))])
        // Until the backend is gone (its goodbye and the closed socket reach the client).
        for _ in 0..<500 where try admin.first("SELECT 1 FROM pg_stat_activity WHERE pid = $1::int", [.integer(Int64(first))]) != nil {
            try admin.query("SELECT pg_sleep(0.01)")
        }
        let (second, answer) = try pool.withConnection { ($0.backendPID, try $0.first("SELECT 41 + 1")?.int(0)) }
        #expect(second != first)
        #expect(answer == 42)
    }

    @Test func aPoolOpensAtMostItsSizeAndSharesThemAcrossThreads() throws {
        let pool = PostgresPool(url: try #require(TestServer.url), size: 3)
        defer { pool.close() }
        let pids = PIDs()
        // Twelve threads of their own (not the 2-wide concurrentPerform), all wanting a
        // connection at once: a pool that opened more than 3 would show more backends.
        let done = DispatchGroup()
        for _ in 0..<12 {
            done.enter()
            Thread {
                defer { done.leave() }
                let pid = try? pool.withConnection { connection in
                    try connection.query("SELECT pg_sleep(0.05)")
                    return connection.backendPID
                }
                if let pid { pids.set.withLock { _ = $0.insert(pid) } }
            }.start()
        }
        done.wait()
        let used = pids.set.withLock { $0 }
        #expect(!used.isEmpty)
        #expect(used.count <= 3)
    }

    @Test func aTransactionLeftOpenIsRolledBackWhenItsConnectionReturns() throws {
        let schema = try TestSchema()
        let pool = PostgresPool(url: try #require(TestServer.url), parameters: schema.parameters, size: 1)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("CREATE TABLE t (id bigint PRIMARY KEY)") }
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            try connection.run("INSERT INTO t VALUES (1)")
        }
        #expect(try pool.withConnection { try $0.first("SELECT count(*) FROM t")?.int(0) } == 0)
    }

    /// A `REPEATABLE READ` transaction whose row another connection changes after its snapshot:
    /// a real serialization failure (40001) on the attempts listed in `conflictOn`.
    private static func conflictingIncrement(pool: PostgresPool, schema: TestSchema, attempts: Int,
                                             conflictOn: Set<Int>) throws -> (attempts: Int, result: Result<Void, any Error>) {
        let other = try schema.connect()
        let attempt = Mutex(0)
        let result = Result {
            try pool.transaction(.repeatableRead, attempts: attempts) { connection in
                let number = attempt.withLock { $0 += 1; return $0 }
                _ = try connection.first("SELECT v FROM counters WHERE id = 1")  // takes the snapshot
                if conflictOn.contains(number) { try other.run("UPDATE counters SET v = v + 1 WHERE id = 1") }
                try connection.run("UPDATE counters SET v = v + 10 WHERE id = 1")
            }
        }
        return (attempt.withLock { $0 }, result)
    }

    @Test func aSerializationFailureIsRunAgainAndThenSucceeds() throws {
        let schema = try TestSchema()
        let pool = PostgresPool(url: try #require(TestServer.url), parameters: schema.parameters, size: 2)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("CREATE TABLE counters (id bigint PRIMARY KEY, v bigint NOT NULL); INSERT INTO counters VALUES (1, 0)") }
        let (attempts, result) = try Self.conflictingIncrement(pool: pool, schema: schema, attempts: 3, conflictOn: [1])
        #expect(attempts == 2)
        try result.get()
        #expect(try pool.withConnection { try $0.first("SELECT v FROM counters")?.int(0) } == 11)
    }

    @Test func retriesAreBounded() throws {
        let schema = try TestSchema()
        let pool = PostgresPool(url: try #require(TestServer.url), parameters: schema.parameters, size: 2)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("CREATE TABLE counters (id bigint PRIMARY KEY, v bigint NOT NULL); INSERT INTO counters VALUES (1, 0)") }
        let (attempts, result) = try Self.conflictingIncrement(pool: pool, schema: schema, attempts: 3, conflictOn: [1, 2, 3, 4])
        #expect(attempts == 3)
        #expect(throws: PostgresError.self) { try result.get() }
        if case let .failure(error as PostgresError) = result { #expect(error.sqlState == .serializationFailure) }
        #expect(try pool.withConnection { try $0.first("SELECT v FROM counters")?.int(0) } == 3)  // only the other's updates
    }

    @Test func aDeadlockIsReportedAsRetryable() throws {
        let schema = try TestSchema()
        let setup = try schema.connect()
        try setup.execute("CREATE TABLE rows (id bigint PRIMARY KEY, v bigint NOT NULL); INSERT INTO rows VALUES (1, 0), (2, 0)")
        let errors = Errors()
        let locked = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let (a, b) = (try schema.connect(), try schema.connect())
        try a.execute("SET deadlock_timeout = '50ms'")
        try b.execute("SET deadlock_timeout = '50ms'")
        nonisolated(unsafe) let connections = [(a, 1, 2), (b, 2, 1)]
        // Two threads of their own: each waits for the other, so they must run at the same time.
        let done = DispatchGroup()
        for index in 0..<2 {
            done.enter()
            Thread {
                defer { done.leave() }
                let (connection, first, second) = connections[index]
                do {
                    try connection.transaction {
                        try connection.run("UPDATE rows SET v = v + 1 WHERE id = $1", [.integer(Int64(first))])
                        // Each holds its first row, then waits until the other holds its own.
                        locked[index].signal()
                        locked[1 - index].wait()
                        try connection.run("UPDATE rows SET v = v + 1 WHERE id = $1", [.integer(Int64(second))])
                    }
                } catch let error as PostgresError {
                    errors.list.withLock { $0.append(error) }
                } catch {}
            }.start()
        }
        done.wait()
        let seen: [PostgresError] = errors.list.withLock { $0 }
        let states = seen.map { $0.sqlState }
        #expect(states == [.deadlockDetected])
        #expect(seen.allSatisfy { $0.isRetryable })
    }

    @Test func noServerAtTheAddressIsALostConnectionNotACrash() throws {
        let pool = PostgresPool(url: "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", size: 1)
        do {
            try pool.withConnection { _ in }
            Issue.record("connected to port 1")
        } catch let error as PostgresError {
            #expect(error.sqlState == .cannotEstablishConnection)
            #expect(error.isConnectionLost)
        }
    }
}

/// Errors collected from threads.
private final class Errors: Sendable {
    let list = Mutex<[PostgresError]>([])
}

/// Backend ids collected from threads.
private final class PIDs: Sendable {
    let set = Mutex(Set<Int>())
}
