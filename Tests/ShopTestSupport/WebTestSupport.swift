public import Foundation
public import ShopService
public import HTTPServer
public import ShopCore
public import ShopStore
public import ShopWeb
public import ShopStoreSQLite
import Sodium
import ShopWebLive

/// An in-process storefront for request → response tests: SQLite stores, a fixed clock,
/// predictable session tokens, and a cookie jar that follows the visitor between requests.
public final class TestShop: @unchecked Sendable {
    public let catalog: CatalogStore
    public let sessions: SessionStore
    public let accounts: AccountStore
    /// The campaigns the shop knows.
    public let campaigns: CampaignStore
    /// Orders, reservations and checkouts (in the same database as sessions).
    public var orders: OrderStore? { environment.orders }
    public var environment: AppEnvironment
    /// Cookies the visitor's browser holds (name → value), updated from `Set-Cookie`.
    public var cookies: [String: String] = [:]
    /// Log lines the app wrote.
    public private(set) var logLines: [String] = []
    private let logLock = NSLock()
    private var tokenCounter = 0

    /// The clock the shop sees; tests move it forward (`clock.advance(by:)`).
    public let clock = TestClock(Date(timeIntervalSince1970: 1_780_000_000))

    /// A shop holding `drafts`, on the real engine: a private SQLite `:memory:` database with
    /// every migration: the web tests run on what production runs (search ranking, holds,
    /// placement), not on a copy of it.
    public convenience init(_ drafts: [ProductDraft] = []) throws {
        try self.init(drafts, sqlite: try SQLiteDatabase.open(path: ":memory:", poolSize: 1))
    }

    /// A shop holding `drafts` in a migrated SQLite database (for tests that race threads
    /// through the real store and its connection pool).
    public convenience init(_ drafts: [ProductDraft] = [], sqlite database: SQLiteDatabase) throws {
        // The product cache as `shoppable serve` runs it: every web test checks it is never stale.
        try self.init(drafts, catalog: CatalogStore.sqlite(database).caching(), sessions: .sqlite(database),
                      accounts: .sqlite(database),
                      campaigns: .sqlite(database), orders: .sqlite(database), addresses: .sqlite(database))
        environment.readingTogether = { body in try database.readingTogether(body) }  // as `shoppable serve` runs it
        environment.savedCarts = .sqlite(database)
        environment.apiTokens = .sqlite(database)
        environment.staff = .sqlite(database)
        environment.audit = .sqlite(database)
        environment.dashboard = .sqlite(database)
        environment.qrCode = AppEnvironment.liveQRCode
        let clock = self.clock, log = environment.log
        environment.importJobs = ImportJobs(store: .sqlite(database), now: { clock.now }, newID: { UUID().uuidString },
                                            log: log)
    }

    private init(_ drafts: [ProductDraft], catalog: CatalogStore, sessions: SessionStore, accounts: AccountStore,
                 campaigns: CampaignStore, orders: OrderStore, addresses: AddressStore) throws {
        self.catalog = catalog
        self.sessions = sessions
        self.accounts = accounts
        self.campaigns = campaigns
        if !drafts.isEmpty { _ = try catalog.upsert(drafts) }
        let clock = self.clock
        environment = AppEnvironment(catalog: catalog, sessions: sessions, accounts: accounts, campaigns: campaigns,
                                     crypto: .testing,
                                     publicURL: "https://shop.test", timeZone: TimeZone(identifier: "UTC")!,
                                     now: { clock.now })
        environment.orders = orders
        environment.addresses = addresses
        let counter = Counter()
        environment.crypto.sessionToken = { String(format: "%032x", counter.next()) }
        environment.log = { [weak self] line in
            guard let self else { return }
            logLock.lock(); logLines.append(line); logLock.unlock()
        }
    }

    /// Another visitor (their own cookies) of the same shop: same stores, clock and settings.
    public func visitor() throws -> TestShop {
        let other = try TestShop()
        other.environment = environment
        return other
    }

    /// The CSRF token of the visitor's forms (as a browser would read it from the last page).
    public var csrfToken: String?

    /// Sends a request as the visitor (with their cookies) and keeps the cookies it sets. POSTs
    /// carry the visitor's CSRF token unless `csrf` is false or the form has its own.
    @discardableResult
    /// With `files`, the form is an upload form's (`multipart/form-data`), arriving as the server
    /// hands it over once split: text fields in `form`, files in `files`, no raw body.
    public func send(_ method: HTTPMethod = .get, _ target: String, form: [(String, String)]? = nil,
                     files: [UploadedFile] = [],
                     headers: HTTPHeaders = [:], csrf: Bool = true, remoteAddress: String = "127.0.0.1") throws -> TestResponse {
        var form = form
        if method == .post, csrf, form?.contains(where: { $0.0 == "csrf_token" }) != true {
            // As a browser would: the form comes from a page loaded just before.
            _ = try send(.get, "/account/sign-in", remoteAddress: remoteAddress)
            form = (form ?? []) + [("csrf_token", csrfToken ?? "")]
        }
        var headers = headers
        if !cookies.isEmpty {
            headers.add(name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        var body: [UInt8] = []
        if !files.isEmpty {
            headers.add(name: "Content-Type", value: "multipart/form-data; boundary=test-boundary")
        } else if let form {
            headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            body = Array(form.map { "\(URLEncoding.formEncode($0.0))=\(URLEncoding.formEncode($0.1))" }.joined(separator: "&").utf8)
        }
        var request = try Request(method: method, target: target, headers: headers, body: body, remoteAddress: remoteAddress)
        if !files.isEmpty {
            request.form = (form ?? []).map { (name: $0.0, value: $0.1) }
            request.files = files
        }
        let response = ShopApp.handle(request, environment)
        let html = String(decoding: response.body, as: UTF8.self)
        if let token = html.firstMatch(of: /name="csrf_token" value="([^"]+)"/)?.1 { csrfToken = String(token) }
        for header in response.headers.values(for: "Set-Cookie") {
            let pair = header.split(separator: ";", maxSplits: 1)[0]
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { continue }
            if header.contains("Max-Age=0") { cookies[parts[0]] = nil } else { cookies[parts[0]] = parts[1] }
        }
        return TestResponse(response: response, request: request, target: target)
    }

    /// An API request: `body` sent as JSON (or with `contentType`), no cookies, no CSRF token.
    @discardableResult
    public func api(_ method: HTTPMethod = .get, _ target: String, json body: String? = nil,
                    contentType: String = "application/json", headers: HTTPHeaders = [:]) throws -> TestResponse {
        var headers = headers
        if body != nil { headers.add(name: "Content-Type", value: contentType) }
        let request = try Request(method: method, target: target, headers: headers, body: Array((body ?? "").utf8),
                                  remoteAddress: "127.0.0.1")
        return TestResponse(response: ShopApp.handle(request, environment), request: request, target: target)
    }

    /// `GET target`.
    @discardableResult
    public func get(_ target: String) throws -> TestResponse { try send(.get, target) }

    /// `HEAD target` (the app's whole answer: the engine is what leaves the body out).
    @discardableResult
    public func head(_ target: String) throws -> TestResponse { try send(.head, target) }

    /// `POST target` with a url-encoded form (and the visitor's CSRF token).
    @discardableResult
    public func post(_ target: String, _ form: [(String, String)], csrf: Bool = true) throws -> TestResponse {
        try send(.post, target, form: form, csrf: csrf)
    }

    /// The store's id of the session whose cookie holds `token`: its SHA-256, as the shop keeps it.
    public func sessionID(forCookie token: String) -> Session.ID {
        Session.ID(rawValue: environment.crypto.sha256Hex(token))
    }

    /// Emails queued in the outbox and not yet delivered, oldest first.
    public func outbox() throws -> [OutboxMessage] { try accounts.dueMessages(.distantFuture, 1_000) }

    /// The first `https://shop.test/...` link in the newest queued email, as a site path.
    public func lastEmailedPath() throws -> String? {
        guard let body = try outbox().last?.draft.textBody,
              let match = body.firstMatch(of: /https:\/\/shop\.test(\/\S+)/) else { return nil }
        return String(match.1)
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
    /// The request as the app received it (with the visitor's cookies and the form body).
    public var request: Request
    /// The request target as sent, e.g. `/search?q=lamp` (for snapshots of the exchange).
    public var target: String
    public var status: Int { response.status.code }
    public var text: String { String(decoding: response.body, as: UTF8.self) }
    public func header(_ name: String) -> String? { response.headers[name] }

    /// How many times `needle` occurs in the body.
    public func count(_ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }
}

/// A clock tests can move.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// A clock showing `start`.
    public init(_ start: Date) { current = start }

    /// The time now.
    public var now: Date { lock.lock(); defer { lock.unlock() }; return current }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { lock.lock(); current += seconds; lock.unlock() }
}

extension Crypto {
    /// Real libsodium with the cheapest argon2id settings, so tests stay fast and still exercise
    /// the real hash format.
    /// libsodium as in production (`Crypto.sodium`), with the cheapest argon2id limits and a
    /// fixed guest-session key.
    public static let testing = Crypto.sodium(strength: .minimum, guestSessionKey: [UInt8](repeating: 42, count: 32))
}
