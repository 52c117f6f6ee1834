public import Foundation
public import HTTPServer
public import ShopCore
public import ShopStore
public import ShopWeb

/// An in-process storefront for request → response tests: in-memory stores, a fixed clock,
/// predictable session tokens, and a cookie jar that follows the visitor between requests.
public final class TestShop: @unchecked Sendable {
    public let catalog: CatalogStore
    public let sessions: SessionStore
    public var environment: AppEnvironment
    /// Cookies the visitor's browser holds (name → value), updated from `Set-Cookie`.
    public var cookies: [String: String] = [:]
    /// Log lines the app wrote.
    public private(set) var logLines: [String] = []
    private let logLock = NSLock()
    private var tokenCounter = 0

    /// A shop holding `drafts`.
    public init(_ drafts: [ProductDraft] = []) throws {
        catalog = .inMemory()
        sessions = .inMemory()
        if !drafts.isEmpty { _ = try catalog.upsert(drafts) }
        environment = AppEnvironment(catalog: catalog, sessions: sessions,
                                     timeZone: TimeZone(identifier: "UTC")!,
                                     now: { Date(timeIntervalSince1970: 1_780_000_000) })
        let counter = Counter()
        environment.makeSessionToken = { String(format: "%032x", counter.next()) }
        environment.log = { [weak self] line in
            guard let self else { return }
            logLock.lock(); logLines.append(line); logLock.unlock()
        }
    }

    /// Sends a request as the visitor (with their cookies) and keeps the cookies it sets.
    @discardableResult
    public func send(_ method: HTTPMethod = .get, _ target: String, form: [(String, String)]? = nil,
                     headers: HTTPHeaders = [:]) throws -> TestResponse {
        var headers = headers
        if !cookies.isEmpty {
            headers.add(name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        var body: [UInt8] = []
        if let form {
            headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            body = Array(form.map { "\(URLEncoding.formEncode($0.0))=\(URLEncoding.formEncode($0.1))" }.joined(separator: "&").utf8)
        }
        let request = try Request(method: method, target: target, headers: headers, body: body)
        let response = ShopApp.handle(request, environment)
        for header in response.headers.values(for: "Set-Cookie") {
            let pair = header.split(separator: ";", maxSplits: 1)[0]
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { continue }
            if header.contains("Max-Age=0") { cookies[parts[0]] = nil } else { cookies[parts[0]] = parts[1] }
        }
        return TestResponse(response: response)
    }

    /// `GET target`.
    @discardableResult
    public func get(_ target: String) throws -> TestResponse { try send(.get, target) }

    /// `POST target` with a url-encoded form.
    @discardableResult
    public func post(_ target: String, _ form: [(String, String)]) throws -> TestResponse {
        try send(.post, target, form: form)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}

/// A response with its body as text, for assertions.
public struct TestResponse: Sendable {
    public var response: Response
    public var status: Int { response.status.code }
    public var text: String { String(decoding: response.body, as: UTF8.self) }
    public func header(_ name: String) -> String? { response.headers[name] }

    /// How many times `needle` occurs in the body.
    public func count(_ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }
}
