public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif
public import ShopAPI

/// The Shoppable JSON API for a native app: typed calls, typed errors, bearer credentials,
/// retries for idempotent requests and an image cache.
///
/// Every request is printed from the route declarations the server parses (`APIRoute.router`
/// in `ShopAPI`), so the client cannot ask for a path the server does not know.
///
/// ```swift
/// let client = ShopClient(environment: .development)
/// let categories = try await client.categories()
/// let chairs = try await client.products(inCategory: categories[0], limit: 10)
/// try await client.login(username: "ana@example.com", password: "Blue9sky!")
/// let thumbnail = try await client.image(of: chairs[0])
/// ```
///
/// Thread-safe: one client may be shared by every screen of an app.
public final class ShopClient: Sendable {
    /// The shop this client talks to.
    public let environment: Environment
    /// The image cache the client's ``image(of:)`` goes through.
    public let images: ImageCache
    let transport: HTTPTransport
    let retry: RetryPolicy
    let refresher: TokenRefresher?
    let timeout: TimeInterval
    private let state: LockedCredentials

    /// A client.
    /// - Parameters:
    ///   - environment: which shop (``Environment``).
    ///   - transport: how requests go out; default `URLSession.shared`. Tests pass a recording
    ///     or fake one.
    ///   - retry: back-off for idempotent requests (``RetryPolicy/standard``: 3 attempts).
    ///   - credentials: credentials saved from an earlier session, if any.
    ///   - refresher: exchanges refused credentials for new ones on a 401 (none until `/api/v1`).
    ///   - images: the image cache; default: memory only (32 MB) over the same transport.
    ///   - timeout: seconds a request may take.
    public init(environment: Environment = .development, transport: HTTPTransport = .urlSession(),
                retry: RetryPolicy = .standard, credentials: Credentials? = nil, refresher: TokenRefresher? = nil,
                images: ImageCache? = nil, timeout: TimeInterval = 30) {
        self.environment = environment
        self.transport = transport
        self.retry = retry
        self.refresher = refresher
        self.timeout = timeout
        self.images = images ?? ImageCache(transport: transport)
        self.state = LockedCredentials(credentials)
    }

    // MARK: - Credentials

    /// The credentials sent with every request, if signed in.
    public var credentials: Credentials? { state.withLock { $0 } }

    /// Replaces the credentials (e.g. restored from the Keychain); nil signs out on this device.
    /// - Parameter credentials: the new credentials, or nil.
    public func setCredentials(_ credentials: Credentials?) { state.withLock { $0 = credentials } }

    // MARK: - Any route

    /// Sends `route` without a body and decodes the answer.
    /// - Parameters:
    ///   - route: the API route (its method, path and query come from `APIRoute.router`).
    ///   - type: what the body decodes to.
    /// - Returns: the decoded body.
    /// - Throws: ``NetworkError``.
    public func send<Value: Decodable>(_ route: APIRoute, as type: Value.Type = Value.self) async throws(NetworkError) -> Value {
        let (data, _) = try await exchange(route, body: nil)
        return try Self.decode(type, from: data)
    }

    /// Sends `route` with `body` as JSON and decodes the answer.
    /// - Parameters:
    ///   - route: the API route.
    ///   - body: encoded as JSON (`Content-Type: application/json`).
    ///   - type: what the answer decodes to.
    /// - Returns: the decoded body.
    /// - Throws: ``NetworkError``.
    public func send<Value: Decodable>(_ route: APIRoute, body: some Encodable,
                                       as type: Value.Type = Value.self) async throws(NetworkError) -> Value {
        let encoded: Data
        do { encoded = try JSONEncoder().encode(body) } catch { throw .unknown(error) }
        let (data, _) = try await exchange(route, body: encoded)
        return try Self.decode(type, from: data)
    }

    /// The `URLRequest` for `route`: method, URL, `Accept`, the bearer token, the JSON body.
    /// - Throws: ``NetworkError/invalidURL`` when the base URL is not `http(s)://host…`.
    public func urlRequest(for route: APIRoute, body: Data? = nil) throws(NetworkError) -> URLRequest {
        try urlRequest(for: route, body: body, credentials: credentials)
    }

    func urlRequest(for route: APIRoute, body: Data?, credentials: Credentials?,
                    headers: [String: String] = [:]) throws(NetworkError) -> URLRequest {
        let printed = route.request
        let base = environment.baseURL
        guard let scheme = base.scheme?.lowercased(), ["http", "https"].contains(scheme), base.host != nil else {
            throw .invalidURL
        }
        var prefix = base.absoluteString
        while prefix.hasSuffix("/") { prefix.removeLast() }
        guard let url = URL(string: prefix + printed.url) else { throw .invalidURL }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = printed.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let credentials { request.setValue("Bearer \(credentials.accessToken)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends `route` until it succeeds, the retry policy gives up, or the error is not one to retry.
    /// `headers` go with every attempt; a `POST` carrying `Idempotency-Key` is retried like a `PUT`.
    /// - Returns: a 2xx answer.
    func exchange(_ route: APIRoute, body: Data?,
                  headers: [String: String] = [:]) async throws(NetworkError) -> (Data, HTTPURLResponse) {
        let method = route.request.method
        var attempt = 1
        var refreshed = false
        while true {
            let sent = credentials
            let request = try urlRequest(for: route, body: body, credentials: sent, headers: headers)
            let error: NetworkError
            var retryAfter: Duration?
            do {
                let (data, response) = try await transport.send(request)
                if (200..<300).contains(response.statusCode) { return (data, response) }
                if response.statusCode == 401, let sent, let refresher, !refreshed {
                    refreshed = true
                    try await refresh(sent, with: refresher)
                    if credentials != nil { continue }
                }
                error = Self.serverError(data, response)
                retryAfter = RetryPolicy.retryAfter(response.value(forHTTPHeaderField: "Retry-After"))
            } catch let thrown {
                error = NetworkError(thrown)
            }
            guard let delay = retry.delay(after: attempt, method: method, error: error, retryAfter: retryAfter,
                                          idempotencyKey: headers["Idempotency-Key"]) else {
                throw error
            }
            do { try await retry.sleep(delay) } catch { throw .unknown(error) }
            attempt += 1
        }
    }

    /// Asks `refresher` for credentials replacing `refused`; stores them (nil: signed out).
    private func refresh(_ refused: Credentials, with refresher: TokenRefresher) async throws(NetworkError) {
        let renewed: Credentials?
        do { renewed = try await refresher.refresh(refused) } catch { throw NetworkError(error) }
        state.withLock { current in
            // Another request may have refreshed meanwhile: keep its newer credentials.
            if current == refused || current == nil { current = renewed }
        }
    }

    /// The error for a non-2xx answer: the API's envelope when the body is one.
    static func serverError(_ data: Data, _ response: HTTPURLResponse) -> NetworkError {
        let status = response.statusCode
        if let envelope = try? JSONDecoder().decode(APIErrorEnvelope.self, from: data) {
            return .serverError(status: status, code: envelope.error.code, message: envelope.error.message)
        }
        let isText = response.value(forHTTPHeaderField: "Content-Type")?.lowercased().hasPrefix("text/plain") == true
        let text = isText ? String(decoding: data.prefix(1_000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        return .serverError(status: status, code: nil,
                            message: text.isEmpty ? HTTPURLResponse.localizedString(forStatusCode: status) : text)
    }

    /// `data` decoded as JSON (dates as ISO 8601, as the API writes them).
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(NetworkError) -> Value {
        guard !data.isEmpty else { throw .noData }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw .decodingError(error.summary)
        } catch {
            throw .decodingError(String(describing: error))
        }
    }
}

/// The client's credentials behind a Foundation lock (`NSLock`): the module uses Foundation only,
/// so a native app embeds it as it is.
private final class LockedCredentials: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Credentials?

    init(_ value: Credentials?) { self.value = value }

    /// Runs `body` with the credentials, no other thread reading or writing them meanwhile.
    func withLock<Result>(_ body: (inout Credentials?) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
