import Foundation
import Postgres
import ShopStore
import ShopStorePostgres
import Testing

/// A tester stopped PostgreSQL under two servers: every page and API call answered 500, so
/// apps did not retry and nginx did not try the other server. A server that cannot be reached,
/// or a connection it ends, is a temporary store failure (the storefront's 503 with
/// `Retry-After`: `ShopApp.answerable`, checked by the busy-store snapshot).
@Suite("PostgreSQL outages are temporary")
struct PostgresOutageTests {
    @Test func aServerThatCannotBeReachedIsATemporaryFailure() throws {
        let database = try PostgresDatabase(url: "postgresql://shop@127.0.0.1:1/shop?connect_timeout=2", poolSize: 1)
        defer { database.close() }
        let error = try #require(throws: PostgresError.self) { try database.withConnection { _ in } }
        #expect(error.sqlState.errorClass == "08")
        #expect((error as any TemporaryStoreFailure).isTemporary)
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
    func aConnectionTheServerEndsIsATemporaryFailure() throws {
        let url = try #require(PostgresTestServer.url)
        let database = try PostgresDatabase(url: url, poolSize: 1)
        defer { database.close() }
        let admin = try PostgresConnection(url: url)
        // Ended while a request holds it (the pool replaces one that died while idle).
        let error = try #require(throws: PostgresError.self) {
            try database.withConnection { connection in
                let pid = try connection.query("SELECT pg_backend_pid()").first?.int64(0) ?? 0
                // Waits (up to 5 s) until the backend is gone: the signal alone races the next query.
                _ = try admin.query("SELECT pg_terminate_backend($1::int, 5000)", [.integer(pid)])
                _ = try connection.query("SELECT 1")
            }
        }
        #expect((error as any TemporaryStoreFailure).isTemporary, "\(error)")
        // The pool opens a new connection for the next request.
        #expect(try database.withConnection { try $0.query("SELECT 1").first?.int64(0) } == 1)
    }

    @Test func aQueryThatIsWrongIsNot() {
        #expect(!(PostgresError(sqlState: .syntaxError, message: "x") as any TemporaryStoreFailure).isTemporary)
        #expect(!(PostgresError(sqlState: .uniqueViolation, message: "x") as any TemporaryStoreFailure).isTemporary)
    }
}
