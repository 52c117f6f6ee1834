import Foundation
import Postgres
import Testing

/// The test server: `SHOPPABLE_TEST_POSTGRES_URL` (`make test` starts a private cluster and sets
/// it, `scripts/pg-test-cluster`). Without it — a developer's plain `swift test` — the suites
/// that need a server are skipped.
enum TestServer {
    static let url = ProcessInfo.processInfo.environment["SHOPPABLE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The trait of every suite that needs the server.
    static var isAvailable: Bool { url != nil }

    /// A new connection to the test server.
    static func connect(_ parameters: [String: String] = [:]) throws -> PostgresConnection {
        try PostgresConnection(url: try #require(url), parameters: parameters)
    }
}

/// A schema of its own for one test (tables several connections share), dropped at the end.
final class TestSchema {
    let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    private let admin: PostgresConnection

    init() throws {
        admin = try TestServer.connect()
        try admin.execute("CREATE SCHEMA \(name)")
    }

    /// Connection keywords that put new connections in this schema.
    var parameters: [String: String] { ["options": "-c search_path=\(name)"] }

    func connect() throws -> PostgresConnection { try TestServer.connect(parameters) }

    deinit {
        try? admin.execute("DROP SCHEMA \(name) CASCADE")
        admin.close()
    }
}
