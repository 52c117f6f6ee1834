import Foundation
import Postgres
import Testing

/// The PostgreSQL server of the tests (`SHOPPABLE_TEST_POSTGRES_URL`, `scripts/pg-test-cluster`).
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["SHOPPABLE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// A new, empty schema; drop it with ``drop(_:)``.
    static func createSchema() throws -> String {
        let name = "harness_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let connection = try PostgresConnection(url: try #require(url))
        try connection.execute("CREATE SCHEMA \(name)")
        return name
    }

    /// Drops a schema with everything in it.
    static func drop(_ schema: String) {
        guard let url, let connection = try? PostgresConnection(url: url) else { return }
        try? connection.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }
}
