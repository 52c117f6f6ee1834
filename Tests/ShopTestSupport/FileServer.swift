public import HTTPServer
import Synchronization

/// A loopback HTTP server answering fixed responses by path (404 for any other), counting the
/// requests per path: the far end of `--fetch-images` and `HTTPFetch` tests.
///
/// ```swift
/// let server = try FileServer(["/photo.png": Response(body: png)])
/// defer { server.stop() }
/// server.url("/photo.png")        // "http://127.0.0.1:<port>/photo.png"
/// server.requests("/photo.png")   // 0
/// ```
public final class FileServer: Sendable {
    public let server: HTTPServer
    private let counts: RequestCounts

    /// Starts the server on a free port.
    /// - Parameter routes: the response for each path.
    public init(_ routes: [String: Response]) throws {
        let counts = RequestCounts()
        self.counts = counts
        server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 4), logger: { _ in }) { request in
            counts.paths.withLock { $0[request.path, default: 0] += 1 }
            return routes[request.path] ?? Response(status: .notFound, body: Array("not found".utf8))
        }
        try server.start()
    }

    /// `http://127.0.0.1:<port>` followed by `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    /// How many requests asked for `path`.
    public func requests(_ path: String) -> Int { counts.paths.withLock { $0[path] ?? 0 } }

    /// Stops the server.
    public func stop() { server.stop() }
}

private final class RequestCounts: Sendable {
    let paths = Mutex<[String: Int]>([:])
}
