public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// How `ShopClient` and `ImageCache` put a request on the wire: one `@Sendable` closure, so tests
/// can record, fake or fail exchanges while the live value uses `URLSession`.
///
/// ```swift
/// // Record every request while still talking to the real server.
/// let live = HTTPTransport.urlSession()
/// let recorded = Mutex<[URLRequest]>([])
/// let transport = HTTPTransport { request in
///     recorded.withLock { $0.append(request) }
///     return try await live.send(request)
/// }
/// ```
public struct HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the HTTP response, whatever its status.
    /// Throws only when there is no HTTP answer (the `URLError` of a refused connection, …).
    public var send: @Sendable (_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// A transport from a closure.
    /// - Parameter send: sends a request; see ``send``.
    public init(send: @escaping @Sendable (_ request: URLRequest) async throws -> (Data, HTTPURLResponse)) {
        self.send = send
    }

    /// The live transport: `session.data(for:)`.
    /// - Parameter session: the session to use (default `URLSession.shared`).
    /// - Returns: a transport that throws `URLError(.badServerResponse)` for a non-HTTP response.
    public static func urlSession(_ session: URLSession = .shared) -> HTTPTransport {
        HTTPTransport { request in
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return (data, http)
        }
    }

    /// A transport that fails every request with `URLError(.unsupportedURL)`: for tests that
    /// must not touch the network.
    public static let unimplemented = HTTPTransport { request in
        throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey:
            "HTTPTransport.unimplemented was asked for \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"])
    }
}
