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
    private let state: Locked<Credentials?>
    private let language: Locked<String?>
    private let renewalObserver = Locked<(@Sendable (Credentials?) -> Void)?>(nil)
    /// Refreshes one at a time: requests refused together share the first one's refresh.
    private let refreshGate = RefreshGate()

    /// A client.
    /// - Parameters:
    ///   - environment: which shop (``Environment``).
    ///   - transport: how requests go out; default `URLSession.shared`. Tests pass a recording
    ///     or fake one.
    ///   - retry: back-off for idempotent requests (``RetryPolicy/standard``: 3 attempts).
    ///   - credentials: credentials saved from an earlier session, if any.
    ///   - refresher: exchanges refused credentials for new ones on a 401; nil: credentials with a
    ///     refresh token are renewed through `POST /api/v1/auth/refresh` (``TokenRefresher``).
    ///   - images: the image cache; default: memory only (32 MB) over the same transport.
    ///   - timeout: seconds a request may take.
    ///   - acceptLanguage: the `Accept-Language` every request carries (``acceptLanguage``).
    public init(environment: Environment = .development, transport: HTTPTransport = .urlSession(),
                retry: RetryPolicy = .standard, credentials: Credentials? = nil, refresher: TokenRefresher? = nil,
                images: ImageCache? = nil, timeout: TimeInterval = 30, acceptLanguage: String? = nil) {
        self.environment = environment
        self.transport = transport
        self.retry = retry
        self.refresher = refresher
        self.timeout = timeout
        self.images = images ?? ImageCache(transport: transport)
        self.state = Locked(credentials)
        self.language = Locked(acceptLanguage)
    }

    // MARK: - Credentials

    /// The credentials sent with every request, if signed in.
    public var credentials: Credentials? { state.withLock { $0 } }

    /// Replaces the credentials (e.g. restored from the Keychain); nil signs out on this device.
    /// - Parameter credentials: the new credentials, or nil.
    public func setCredentials(_ credentials: Credentials?) { state.withLock { $0 = credentials } }

    /// Calls `observer` whenever the client replaces its credentials by itself: a refused access
    /// token renewed with the refresh token (which rotates: the old one is spent), or nil when the
    /// refresher signs the shopper out. An app saves them there (the Keychain), or the next launch
    /// would send a spent refresh token. Not called for ``setCredentials(_:)`` or sign-in, whose
    /// caller knows. A second call replaces the observer.
    /// - Parameter observer: receives the new credentials, on the thread of the request.
    public func onCredentialsRenewed(_ observer: @escaping @Sendable (Credentials?) -> Void) {
        renewalObserver.withLock { $0 = observer }
    }

    // MARK: - Language

    /// The `Accept-Language` header every request carries (`"tr"`, `"es-ES, en;q=0.5"`), so the
    /// server's messages — errors, voucher problems, money it formats — come in the app's
    /// language; nil sends none (the server answers in the shop's default language).
    public var acceptLanguage: String? { language.withLock { $0 } }

    /// Replaces the `Accept-Language` header of the requests that follow (the app's language changed).
    /// - Parameter acceptLanguage: the header's value (a language tag such as `"tr"`), or nil for none.
    public func setAcceptLanguage(_ acceptLanguage: String?) { language.withLock { $0 = acceptLanguage } }

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
        if let acceptLanguage { request.setValue(acceptLanguage, forHTTPHeaderField: "Accept-Language") }
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
                if response.statusCode == 401, let sent, !refreshed, refresher != nil || sent.refreshToken != nil,
                   Self.refusesToken(data) {
                    refreshed = true
                    try await refresh(sent)
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

    /// Replaces `refused` with new credentials from the refresher (or `POST /api/v1/auth/refresh`);
    /// nil from it signs out. Refreshes run one at a time, and one finding the credentials already
    /// replaced (a request refused together with it refreshed first) does nothing: a refresh token
    /// is spent once, and spending it twice would end the session.
    private func refresh(_ refused: Credentials) async throws(NetworkError) {
        do {
            try await refreshGate.run { [self] in
                guard credentials == refused else { return }
                let renewed = try await (refresher ?? TokenRefresher.shopAPI(self)).refresh(refused)
                let replaced = state.withLock { current in
                    guard current == refused else { return false }
                    current = renewed
                    return true
                }
                if replaced { renewalObserver.withLock { $0 }?(renewed) }
            }
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError(error)
        }
    }

    /// `true` when a 401 is about the bearer token — not wrong credentials sent in the body of a
    /// sign-in (`invalid_credentials`) or a refresh (`invalid_refresh_token`, `refresh_token_reused`),
    /// which a refresh cannot mend.
    static func refusesToken(_ data: Data) -> Bool {
        guard let envelope = try? JSONDecoder().decode(APIErrorEnvelope.self, from: data) else { return true }
        return !["invalid_credentials", "invalid_refresh_token", "refresh_token_reused"].contains(envelope.error.code)
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

/// Runs refreshes one after another, in the order they were asked for.
private actor RefreshGate {
    private var last: Task<Void, any Error>?

    func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let previous = last
        let task = Task {
            _ = try? await previous?.value
            try await body()
        }
        last = task
        try await task.value
    }
}

/// A value behind a Foundation lock (`NSLock`) — the client's credentials, its language: the
/// module uses Foundation only, so a native app embeds it as it is.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, no other thread reading or writing it meanwhile.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
