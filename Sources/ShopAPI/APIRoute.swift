public import Foundation

/// Every route of the JSON API, declared once (`APIRoute.router`): the server parses requests
/// with it and `ShopClient` builds its requests from it, so the two cannot drift.
public enum APIRoute: Hashable, Sendable {
    /// The Fake Store compatible routes under `/api` (issue #10, point 1).
    case fakeStore(FakeStoreRoute)
    /// `GET /api/openapi.json`: the OpenAPI 3.1 document of every route (`OpenAPIDocument`).
    case openAPI
    /// The Shoppable API under `/api/v1` (issue #10, point 2; `V1Route.swift`).
    case v1(V1Route)
}

/// A Fake Store id as it arrived in the path: clients send anything, and a malformed id is a
/// 400, not a missing route.
public struct FakeStoreID: Hashable, Sendable, CustomStringConvertible {
    /// The path segment as sent.
    public var text: String
    /// The id, when the segment is a positive whole number.
    public var value: Int64? { Int64(text).flatMap { $0 > 0 ? $0 : nil } }

    public init(text: String) { self.text = text }
    public init(_ value: Int64) { self.text = String(value) }
    public var description: String { text }
}

/// `limit` and `sort` of Fake Store lists. Fake Store treats a missing, non-numeric or
/// non-positive `limit` as "no limit" and any `sort` but `desc` as ascending by id.
public struct FakeStoreListQuery: Hashable, Sendable {
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        case asc, desc
    }

    /// At most this many, or nil for all.
    public var limit: Int?
    /// By id, ascending (nil: the default, ascending) or descending.
    public var sort: Sort?

    public init(limit: Int? = nil, sort: Sort? = nil) {
        self.limit = limit.flatMap { $0 > 0 ? $0 : nil }
        self.sort = sort
    }

    init(_ parameters: RouteParameters) {
        self.init(limit: parameters.queryValue("limit").flatMap { Int($0) },
                  sort: parameters.queryValue("sort").flatMap(Sort.init(rawValue:)))
    }

    var queryItems: [RouteRequest.QueryItem] {
        var items: [RouteRequest.QueryItem] = []
        if let limit { items.append(.init("limit", String(limit))) }
        if let sort { items.append(.init("sort", sort.rawValue)) }
        return items
    }
}

/// The Fake Store routes (https://fakestoreapi.com/docs), same paths and JSON shapes.
public enum FakeStoreRoute: Hashable, Sendable {
    /// `GET /api/products?limit=&sort=`.
    case products(FakeStoreListQuery)
    /// `GET /api/products/{id}`.
    case product(FakeStoreID)
    /// `GET /api/products/categories`: the category names.
    case categories
    /// `GET /api/products/category/{name}?limit=&sort=`: the products of one category (exact name).
    case category(name: String, FakeStoreListQuery)
    /// `POST /api/auth/login` — body `{username, password}` → `{token}`.
    case login
    /// `POST /api/products` (operator) — body `FakeStoreProductInput` → 201 + `Location`.
    case createProduct
    /// `PUT /api/products/{id}` (operator): the Fake Store fields replaced.
    case replaceProduct(FakeStoreID)
    /// `PATCH /api/products/{id}` (operator): the fields sent changed.
    case updateProduct(FakeStoreID)
    /// `DELETE /api/products/{id}` (operator): unpublished; answers the product.
    case deleteProduct(FakeStoreID)
    /// `GET /api/users?limit=&sort=`: every account for an operator, else the caller's own.
    case users(FakeStoreListQuery)
    /// `GET /api/users/{id}`: the caller's own account, or any for an operator.
    case user(FakeStoreID)
    /// `POST /api/users` — body `FakeStoreUserInput` → 201 + `Location`: registers an account.
    case createUser
    /// `PUT /api/users/{id}` (the account's own token, or an operator's): the fields replaced.
    case replaceUser(FakeStoreID)
    /// `PATCH /api/users/{id}` (the account's own token, or an operator's): the fields sent changed.
    case updateUser(FakeStoreID)
    /// `DELETE /api/users/{id}` (the account's own token, or an operator's): deletes the account.
    case deleteUser(FakeStoreID)
    /// `GET /api/carts?limit=&sort=&startdate=&enddate=`: the caller's carts, every cart for an operator.
    case carts(FakeStoreCartQuery)
    /// `GET /api/carts/{id}`.
    case cart(FakeStoreID)
    /// `GET /api/carts/user/{userId}?limit=&sort=&startdate=&enddate=`.
    case userCarts(FakeStoreID, FakeStoreCartQuery)
    /// `POST /api/carts` — body `FakeStoreCartInput` → 201 + `Location`.
    case createCart
    /// `PUT /api/carts/{id}`: user, date and products replaced.
    case replaceCart(FakeStoreID)
    /// `PATCH /api/carts/{id}`: the fields sent replaced.
    case updateCart(FakeStoreID)
    /// `DELETE /api/carts/{id}`: deletes the cart; answers it.
    case deleteCart(FakeStoreID)
}

/// The query of Fake Store cart lists: `limit`, `sort` and the date range, each date as sent
/// (the server answers 400 for one that `FakeStoreDate.parse` cannot read).
public struct FakeStoreCartQuery: Hashable, Sendable {
    public var list: FakeStoreListQuery
    /// Carts dated on or after this ISO 8601 date (`2020-01-01`, or a date and time).
    public var startDate: String?
    /// Carts dated before this ISO 8601 date (exclusive).
    public var endDate: String?

    public init(_ list: FakeStoreListQuery = FakeStoreListQuery(), startDate: String? = nil, endDate: String? = nil) {
        self.list = list
        self.startDate = startDate
        self.endDate = endDate
    }

    init(_ parameters: RouteParameters) {
        self.init(FakeStoreListQuery(parameters), startDate: parameters.queryValue("startdate"),
                  endDate: parameters.queryValue("enddate"))
    }

    var queryItems: [RouteRequest.QueryItem] {
        var items = list.queryItems
        if let startDate { items.append(.init("startdate", startDate)) }
        if let endDate { items.append(.init("enddate", endDate)) }
        return items
    }
}

extension APIRoute {
    public typealias Declaration = RouteDeclaration<APIRoute>

    /// Every API route, tried in this order.
    public static let router = Router<APIRoute>(fakeStoreDeclarations + v1Declarations + documentDeclarations)

    static let fakeStoreDeclarations: [Declaration] = [
        Declaration("GET", "/api/products", [.cacheable],
                    make: { .fakeStore(.products(FakeStoreListQuery($0))) },
                    match: { if case let .fakeStore(.products(query)) = $0 { RouteParameters([:], query: query.queryItems) } else { nil } }),
        Declaration("GET", "/api/products/categories", [.cacheable],
                    make: { _ in .fakeStore(.categories) },
                    match: { $0 == .fakeStore(.categories) ? RouteParameters() : nil }),
        Declaration("GET", "/api/products/category/{name}", [.cacheable],
                    make: { .fakeStore(.category(name: $0["name"], FakeStoreListQuery($0))) },
                    match: {
                        if case let .fakeStore(.category(name, query)) = $0 {
                            RouteParameters(["name": name], query: query.queryItems)
                        } else { nil }
                    }),
        Declaration("GET", "/api/products/{id}", [.cacheable],
                    make: { .fakeStore(.product(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.product(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("POST", "/api/auth/login", [.changesState],
                    make: { _ in .fakeStore(.login) },
                    match: { $0 == .fakeStore(.login) ? RouteParameters() : nil }),
        Declaration("POST", "/api/products", [.changesState],
                    make: { _ in .fakeStore(.createProduct) },
                    match: { $0 == .fakeStore(.createProduct) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/products/{id}", [.changesState],
                    make: { .fakeStore(.replaceProduct(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.replaceProduct(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("PATCH", "/api/products/{id}", [.changesState],
                    make: { .fakeStore(.updateProduct(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.updateProduct(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("DELETE", "/api/products/{id}", [.changesState],
                    make: { .fakeStore(.deleteProduct(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.deleteProduct(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("GET", "/api/users", [],
                    make: { .fakeStore(.users(FakeStoreListQuery($0))) },
                    match: { if case let .fakeStore(.users(query)) = $0 { RouteParameters([:], query: query.queryItems) } else { nil } }),
        Declaration("GET", "/api/users/{id}", [],
                    make: { .fakeStore(.user(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.user(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("POST", "/api/users", [.changesState],
                    make: { _ in .fakeStore(.createUser) },
                    match: { $0 == .fakeStore(.createUser) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/users/{id}", [.changesState],
                    make: { .fakeStore(.replaceUser(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.replaceUser(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("PATCH", "/api/users/{id}", [.changesState],
                    make: { .fakeStore(.updateUser(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.updateUser(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("DELETE", "/api/users/{id}", [.changesState],
                    make: { .fakeStore(.deleteUser(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.deleteUser(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("GET", "/api/carts", [],
                    make: { .fakeStore(.carts(FakeStoreCartQuery($0))) },
                    match: { if case let .fakeStore(.carts(query)) = $0 { RouteParameters([:], query: query.queryItems) } else { nil } }),
        Declaration("GET", "/api/carts/user/{userId}", [],
                    make: { .fakeStore(.userCarts(FakeStoreID(text: $0["userId"]), FakeStoreCartQuery($0))) },
                    match: {
                        if case let .fakeStore(.userCarts(id, query)) = $0 {
                            RouteParameters(["userId": id.text], query: query.queryItems)
                        } else { nil }
                    }),
        Declaration("GET", "/api/carts/{id}", [],
                    make: { .fakeStore(.cart(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.cart(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("POST", "/api/carts", [.changesState],
                    make: { _ in .fakeStore(.createCart) },
                    match: { $0 == .fakeStore(.createCart) ? RouteParameters() : nil }),
        Declaration("PUT", "/api/carts/{id}", [.changesState],
                    make: { .fakeStore(.replaceCart(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.replaceCart(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("PATCH", "/api/carts/{id}", [.changesState],
                    make: { .fakeStore(.updateCart(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.updateCart(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
        Declaration("DELETE", "/api/carts/{id}", [.changesState],
                    make: { .fakeStore(.deleteCart(FakeStoreID(text: $0["id"]))) },
                    match: { if case let .fakeStore(.deleteCart(id)) = $0 { RouteParameters(["id": id.text]) } else { nil } }),
    ]

    /// The route a request asks for, or nil (404, or 405 when ``allowedMethods(path:)`` is not empty).
    public static func parse(method: String, path: String, query: [RouteRequest.QueryItem]) -> APIRoute? {
        router.parse(RouteRequest(method: method, path: path, query: query))?.route
    }

    /// The methods declared for a path.
    public static func allowedMethods(path: String) -> [String] {
        router.methods(forPath: RouteRequest(method: "GET", path: path).segments)
    }

    /// The request that asks for this route: method, path and query.
    public var request: RouteRequest { Self.router.request(for: self) }
}
