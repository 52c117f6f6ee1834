import Foundation
import HTTPServer
import ShopClient
import ShopCore
import ShopTestSupport
import ShopWeb
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `body` with a bare `HTTPServer` answering with `handler` on a free port.
func withServer<T>(_ handler: @escaping @Sendable (Request) -> Response,
                   _ body: (URL) async throws -> T) async throws -> T {
    let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 2), logger: { _ in },
                            handler: handler)
    try server.start()
    defer { server.stop() }
    return try await body(URL(string: "http://127.0.0.1:\(server.port)")!)
}

/// A port nothing listens on: one a server just bound and released.
func closedPort() throws -> Int {
    let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 1), logger: { _ in },
                            handler: { _ in .text("") })
    try server.start()
    let port = server.port
    server.stop()
    return port
}

/// A transport that forwards to `URLSession` and remembers every request it sent.
final class Recorder: Sendable {
    private let sent = Mutex<[URLRequest]>([])
    let live = HTTPTransport.urlSession()

    var requests: [URLRequest] { sent.withLock { $0 } }

    var transport: HTTPTransport {
        HTTPTransport { [self] request in
            sent.withLock { $0.append(request) }
            return try await live.send(request)
        }
    }
}

/// A retry policy that records its waits instead of sleeping.
final class Sleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    var recorded: [Duration] { waits.withLock { $0 } }

    func policy(maxAttempts: Int = 3) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, sleep: { [self] duration in waits.withLock { $0.append(duration) } })
    }
}

/// Counts calls across the server's threads.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    /// Adds one and returns the new count.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}
