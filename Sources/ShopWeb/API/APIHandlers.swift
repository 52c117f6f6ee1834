import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopImport
import ShopService
import ShopStore

/// The JSON API (`/api/…`, issue #10): the second front door, on the same use cases as the pages.
/// Every answer is JSON; every failure is the one error envelope (`APIErrorEnvelope`) with a
/// stable code.
enum APIApp {
    /// `true` for the paths the API answers.
    static func owns(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") }

    /// Answers one API request. Never throws: failures become the error envelope.
    static func handle(_ request: Request, _ environment: AppEnvironment) -> Response {
        let language = Language.accepted(request.headers["Accept-Language"]) ?? environment.defaultLanguage
        if let cached = cachedCatalogRead(request, language: language, environment) { return cached }
        var context = RequestContext(request: request, environment: environment, language: language)
        var response: Response
        do {
            response = request.method == .options ? try CORS.preflight(request) : try route(&context)
            ConditionalGET.apply(to: &response, request: request)
        } catch let error as APIError {
            response = error.response(context.l10n)
        } catch is AccessError {
            response = APIError.forbidden.response(context.l10n)
        } catch {
            let answer = ShopApp.answerable(error)
            environment.log("error request_id=\(request.id) \(request.method.rawValue) \(request.path): \(error)")
            let busy = answer.status.code == 503
            response = APIError(status: answer.status, code: busy ? "busy" : "internal", busy ? .apiBusy : .apiInternal)
                .response(context.l10n)
            for field in answer.headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        }
        CORS.apply(to: &response, request: request, allowedOrigins: environment.corsAllowedOrigins)
        SecurityHeaders.apply(to: &response, environment: environment, kind: .json)
        return response
    }

    private static func route(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        let query = request.query.map { RouteRequest.QueryItem($0.name, $0.value) }
        let method = request.method.rawValue == "HEAD" ? "GET" : request.method.rawValue
        // Catalog reads without a token are the same for everyone: answered from the page cache
        // while the catalog version (which holds also bump) stays the same. Only `.cacheable`
        // routes are stored, so a hit is one — looked up before routing, which a hit skips.
        let cacheKey = Self.cacheKey(request, language: context.l10n.language)
        let version = try cacheKey.map { _ in try cacheVersion(path: request.rawPath, &context) }
        if let cacheKey, let version, let cached = context.environment.pageCache.lookupResponse(cacheKey, version: version) {
            return cached
        }
        let segments = pathSegments(request)
        let allowed = allowedMethods(segments)
        let match = allowed.contains(method)
            ? APIRoute.router.parse(RouteRequest(method: request.method.rawValue, segments: segments, query: query))
            : nil
        guard let (route, declaration) = match else {
            guard !allowed.isEmpty else { throw APIError.notFound(.apiNoRoute, ["path": request.path]) }
            var error = APIError(status: .methodNotAllowed, code: "method_not_allowed", .apiMethodNotAllowed,
                                 ["path": request.path, "methods": allowed.joined(separator: ", ")])
            error.headers.replaceOrAdd(name: "Allow", value: allowed.map { $0 == "GET" ? "GET, HEAD" : $0 }
                .joined(separator: ", "))
            throw error
        }
        var response: Response = switch route {
        case let .fakeStore(route): try FakeStoreHandlers.handle(route, &context)
        case .openAPI: OpenAPIHandler.handle()
        case let .v1(route): try V1Handlers.handle(route, &context)
        }
        if let cacheKey, let version, declaration.traits.contains(.cacheable), response.status == .ok {
            // Stored with its tag and security headers, so a hit neither hashes nor adds them again.
            response.headers.replaceOrAdd(name: "ETag", value: "\"" + ContentHash(of: response.body).hex + "\"")
            SecurityHeaders.apply(to: &response, environment: context.environment, kind: .json)
            context.environment.pageCache.storeResponse(response, version: version, for: cacheKey)
        }
        return response
    }

    /// The page-cache key of a request that may have a cached answer: a `GET` (or `HEAD`)
    /// without a token, by path, query and answer language; nil for any other request.
    private static func cacheKey(_ request: Request, language: Language) -> String? {
        guard request.method == .get || request.method == .head, request.headers["Authorization"] == nil else { return nil }
        // Appended in place (no array of pieces): computed on every cached read.
        var key = "api "
        key.reserveCapacity(request.rawPath.utf8.count + 32)
        key += request.rawPath
        key += "?"
        for (index, item) in request.query.enumerated() {
            if index > 0 { key += "&" }
            key += item.name
            key += "="
            key += item.value
        }
        key += " "
        key += language.rawValue
        return key
    }

    /// A catalog read answered from the page cache before anything else is built — no request
    /// context, no routing: the stored answer carries its `ETag` and security headers, so only
    /// `If-None-Match` and CORS are looked at. Campaign reads, whose version also needs the
    /// campaign schedule, and every miss or failure go the whole way (`route`).
    private static func cachedCatalogRead(_ request: Request, language: Language, _ environment: AppEnvironment) -> Response? {
        guard let key = cacheKey(request, language: language), !request.rawPath.hasPrefix("/api/v1/campaigns"),
              let version = try? environment.sharedVersion(at: environment.now()),
              var response = environment.pageCache.lookupResponse(key, version: version) else { return nil }
        ConditionalGET.apply(to: &response, request: request)
        CORS.apply(to: &response, request: request, allowedOrigins: environment.corsAllowedOrigins)
        return response
    }

    /// The version a cached answer of the path is valid for: the catalog's; for the campaign
    /// reads (`/api/v1/campaigns…`) also the campaign schedule's, as the pages' cache (a campaign
    /// starting or ending changes them). Decided by path: the lookup comes before routing.
    private static func cacheVersion(path: String, _ context: inout RequestContext) throws -> Int64 {
        let catalog = try context.environment.sharedVersion(at: context.now)
        guard path.hasPrefix("/api/v1/campaigns") else { return catalog }
        return try context.campaignSchedule().cacheVersion(catalog: catalog)
    }

    /// The methods a path answers, in declaration order (for `Allow` and preflights). A fixed path
    /// (`/api/products/categories`) answers only its own methods, even where a parameter route
    /// (`PUT /api/products/{id}`) would also match it.
    static func allowedMethods(_ segments: [String]) -> [String] {
        let fixed = APIRoute.router.fixedMethods(forPath: segments)
        return fixed.isEmpty ? APIRoute.router.methods(forPath: segments) : fixed
    }

    /// The account signed in by the request's `Authorization: Bearer <token>` — a token from
    /// `POST /api/auth/login`, resumed like a session cookie (`SessionService.resume`: expired
    /// sessions end, use slides the expiry).
    /// - Throws: `APIError` 401 `unauthorized` when the header is missing or malformed, or the
    ///   token names no signed-in session.
    static func account(_ context: RequestContext) throws -> User { try signedIn(context).user }

    /// The account and the session (the bearer token's) of the request; see ``account(_:)``.
    /// A guest's token is valid but names no account: 403 `sign_in_required`, as the order list
    /// answers it — a 401 made an app's token refresh take the token for expired (a fresh
    /// tester's finding).
    static func signedIn(_ context: RequestContext) throws -> (user: User, session: Session.ID) {
        guard let session = try bearerSession(context)?.session else { throw APIError.unauthorized }
        guard let userID = session.userID else { throw APIError(status: .forbidden, code: "sign_in_required", .apiAccountRequired) }
        guard let user = try context.environment.accounts.user(userID) else { throw APIError.unauthorized }
        return (user, session.id)
    }

    /// The live session the request's `Authorization: Bearer <token>` names — a signed-in
    /// account's (`POST /api/auth/login`, or an access token of `POST /api/v1/auth/tokens`) or a
    /// guest's (`POST /api/v1/sessions/guest`) — or nil when there is no such header.
    /// - Throws: `APIError` 401 `unauthorized` when the header is malformed or names no live session.
    static func bearerSession(_ context: RequestContext) throws -> (session: Session, token: String)? {
        guard let header = context.request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.unauthorized }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        // A session's own token (Fake Store sign-in, guest tokens) or an access token of
        // `POST /api/v1/auth/tokens`: the two shapes never overlap.
        let session = SessionService.isWellFormed(token: token)
            ? try context.sessionService.resume(token: token).session
            : try context.environment.apiTokenService?.session(accessToken: token)
        guard let session else { throw APIError.unauthorized }
        return (session, token)
    }

    /// A sign-in attempt of the API (`POST /api/auth/login`, `POST /api/v1/auth/tokens`):
    /// `AccountService.signIn`, throttled exactly as the web's form.
    /// - Parameters:
    ///   - emailText: the email or username as sent.
    ///   - refusal: the message for wrong credentials, in the route's terms.
    /// - Returns: the account.
    /// - Throws: `APIError` 429 `too_many_attempts` or 401 `invalid_credentials`.
    static func signIn(_ emailText: String, password: String, refusal: L10nKey, _ context: RequestContext) throws -> User {
        let environment = context.environment
        switch try environment.accountService.signIn(emailText: emailText, password: password,
                                                     client: context.clientAddress, throttles: environment.throttles) {
        case let .throttled(seconds):
            throw APIError.tooManyAttempts(Throttled(retryAfterSeconds: seconds, l10n: context.l10n))
        case .refused:
            throw APIError(status: .unauthorized, code: "invalid_credentials", refusal)
        case let .accepted(user):
            return user
        }
    }

    /// The path's segments, split *before* percent-decoding: an encoded `/` (`%2F`) stays inside
    /// its segment, as `RouteRequest.url` prints it (a category named `Home/Garden` is
    /// `/api/products/category/Home%2FGarden`, one segment).
    static func pathSegments(_ request: Request) -> [String] {
        request.rawPath.split(separator: "/").map { (try? URLEncoding.percentDecode($0, component: .path)) ?? String($0) }
    }

    /// A JSON answer of `value` (keys sorted, so equal values give equal bytes).
    static func json(_ value: some Encodable, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var response = Response(status: status, headers: headers, body: Array(try encoder.encode(value)))
        response.headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        if response.headers["Cache-Control"] == nil { response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store") }
        return response
    }

    /// The request's JSON body decoded as `T`.
    /// - Throws: `APIError` 400 for another content type (as `docs/API.md` promises) or a body that is not `T`.
    static func body<T: Decodable>(_ type: T.Type, of request: Request) throws -> T {
        let contentType = request.headers["Content-Type"]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard contentType == "application/json" else {
            throw APIError(status: .badRequest, code: "unsupported_media_type", .apiUnsupportedMediaType)
        }
        // No text of the shop holds a NUL, and PostgreSQL's text cannot store one (a handle with
        // one was a 500 there): refused at the door, as `%00` in an address is.
        if holdsEscapedNUL(request.body) {
            throw APIError(status: .badRequest, code: "malformed_body", .apiBodyHoldsNUL)
        }
        // `{"quantity": 1, "quantity": 100}` was read as 1 (Foundation keeps the first): a body
        // one reader takes one way and another the other way is refused, not guessed at.
        if let key = JSONFields.repeatedField(in: request.body) {
            throw APIError(status: .badRequest, code: "malformed_body", .apiRepeatedKey, ["key": key], field: key)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body))
        } catch let DecodingError.keyNotFound(key, context) {
            // The whole path, as for a wrong type: `products[0].quantity`, not `quantity`.
            let field = fieldPath(context.codingPath + [key])
            throw APIError(status: .badRequest, code: "missing_field", .apiMissingField, ["field": field], field: field)
        } catch let error as DecodingError where error.isAtTheTop {
            // Valid JSON of another kind than an object (`[1]`, `null`): no field to name.
            throw APIError(status: .badRequest, code: "malformed_body", .apiBodyNotObject)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            // (A corrupted value with a path is a value of the wrong kind: 1.5 for a whole number.)
            let field = fieldPath(context.codingPath)
            throw APIError(status: .badRequest, code: "invalid_field", .apiWrongType, ["field": field], field: field)
        } catch {
            throw APIError(status: .badRequest, code: "malformed_body", .apiMalformedBody)
        }
    }

    /// A field as the API names it: `products[0].quantity`, array positions in brackets.
    private static func fieldPath(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
    }

    /// Whether JSON text `body` spells a NUL in a string (`\u0000`; a raw NUL byte is not JSON
    /// and fails decoding anyway). Each `\` escapes the byte after it, so `\\u0000` — a
    /// backslash, then the text `u0000` — is not one.
    static func holdsEscapedNUL(_ body: [UInt8]) -> Bool {
        let backslash = UInt8(ascii: "\\")
        guard body.contains(backslash) else { return false }
        var index = 0
        while index < body.count - 1 {
            guard body[index] == backslash else {
                index += 1
                continue
            }
            if body[index + 1] == UInt8(ascii: "u"), index + 5 < body.count,
               body[(index + 2)...(index + 5)].allSatisfy({ $0 == UInt8(ascii: "0") }) {
                return true
            }
            index += 2
        }
        return false
    }
}

/// A failure the API answers with the error envelope. Its message is text already in the
/// request's language, or a key the answer localizes (`Accept-Language`: en, tr or es).
struct APIError: Error, HTTPResponseError {
    var status: HTTPStatus
    var headers: HTTPHeaders = [:]
    var code: String
    var message: Message
    var field: String?
    /// A checkout failure's fuller answer (the envelope's `error` plus what it adds), sent instead
    /// of the envelope when set.
    var checkoutDetail: V1CheckoutError?

    enum Message {
        /// Text in the request's language already (made with the request's `Localizer`).
        case text(String)
        /// Localized when answered.
        case localized(L10nKey, [String: String])
    }

    /// A failure whose message is already localized.
    init(status: HTTPStatus, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = .text(message)
        self.field = field
    }

    /// A failure whose message is `key`, localized when answered.
    init(status: HTTPStatus, code: String, _ key: L10nKey, _ arguments: [String: String] = [:], field: String? = nil) {
        self.status = status
        self.code = code
        self.message = .localized(key, arguments)
        self.field = field
    }

    /// A checkout failure answered with ``V1CheckoutError``.
    init(status: HTTPStatus, checkout detail: V1CheckoutError) {
        self.init(status: status, code: detail.error.code, message: detail.error.message, field: detail.error.field)
        self.checkoutDetail = detail
    }

    /// 404 `not_found`.
    static func notFound(_ key: L10nKey, _ arguments: [String: String] = [:]) -> APIError {
        APIError(status: .notFound, code: "not_found", key, arguments)
    }

    /// 401: no bearer token, or one that signs no one in.
    static var unauthorized: APIError {
        var error = APIError(status: .unauthorized, code: "unauthorized", .apiUnauthorized)
        error.headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer")
        return error
    }

    /// 429 `too_many_attempts` with `Retry-After`: a throttle refused the attempt.
    static func tooManyAttempts(_ throttled: Throttled) -> APIError {
        var error = APIError(status: .tooManyRequests, code: "too_many_attempts", message: throttled.message)
        error.headers.replaceOrAdd(name: "Retry-After", value: String(throttled.retryAfterSeconds))
        return error
    }

    /// 403: the account may not do this.
    static var forbidden: APIError { APIError(status: .forbidden, code: "forbidden", .apiForbidden) }

    /// 400 `malformed_id` for an id that is not a positive whole number.
    static func malformedID(_ id: FakeStoreID, _ what: String) -> APIError {
        APIError(status: .badRequest, code: "malformed_id", .apiMalformedID, ["id": id.text, "what": what], field: "id")
    }

    /// The envelope, its message in `l10n`'s language.
    func envelope(_ l10n: Localizer) -> APIErrorEnvelope {
        let text = switch message {
        case let .text(text): text
        case let .localized(key, arguments): l10n(key, arguments)
        }
        return APIErrorEnvelope(.init(code: code, message: text, field: field))
    }

    /// The envelope as a response (encoding cannot fail for these plain strings).
    func response(_ l10n: Localizer) -> Response {
        (try? checkoutDetail.map { try APIApp.json($0, status: status, headers: headers) }
            ?? APIApp.json(envelope(l10n), status: status, headers: headers))
            ?? Response(status: status, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
    }
}

extension DecodingError {
    /// A value of the wrong kind where the whole body should be an object (`[1]`, `null`).
    fileprivate var isAtTheTop: Bool {
        switch self {
        case let .typeMismatch(_, context), let .valueNotFound(_, context): context.codingPath.isEmpty
        default: false
        }
    }
}
