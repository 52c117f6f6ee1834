public import Foundation

/// A request as routing sees it: the method, the percent-decoded path segments and the decoded
/// query items, in order. The server builds it from an HTTP request; a client prints it from a
/// route value and turns it into a URL (``url``).
public struct RouteRequest: Hashable, Sendable {
    /// The upper-case method (`GET`, `POST`, …). `HEAD` matches what `GET` matches.
    public var method: String
    /// The path's segments, percent-decoded, without empty ones (`/products/oak-chair` →
    /// `["products", "oak-chair"]`).
    public var segments: [String]
    /// The query items, decoded, in order (a name may repeat).
    public var query: [QueryItem]

    /// A name and value from the query string.
    public struct QueryItem: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a routing request.
    public init(method: String, segments: [String], query: [QueryItem] = []) {
        self.method = method
        self.segments = segments
        self.query = query
    }

    /// Creates a routing request from a decoded path such as `"/products/oak chair"`.
    public init(method: String, path: String, query: [QueryItem] = []) {
        self.init(method: method, segments: path.split(separator: "/").map(String.init), query: query)
    }

    /// The first value of the query item `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The site-relative URL: `/` + segments percent-encoded + `?query` when there is one.
    public var url: String {
        var url = segments.isEmpty ? "/" : ""
        for segment in segments {
            url += "/"
            url += RouteRequest.encodeSegment(segment)
        }
        for (index, item) in query.enumerated() {
            url += index == 0 ? "?" : "&"
            url += item.name
            url += "="
            url += RouteRequest.encodeQueryValue(item.value)
        }
        return url
    }

    /// RFC 3986 unreserved bytes: letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (97...122).contains(byte) || (65...90).contains(byte) || (48...57).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "~")
    }

    /// What a path segment keeps as it is: a `pchar` (unreserved, sub-delims, `:`, `@`) but for
    /// `;`, which Foundation's `urlPathAllowed` encodes too (old path parameters).
    private static func segmentKeeps(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,=:@".utf8.contains(byte)
    }

    /// What a query value keeps: a query character but for the separators `&`, `=`, `+`, `?`
    /// (and `#`, never a query character).
    private static func queryKeeps(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$'()*,;:@/".utf8.contains(byte)
    }

    /// `text` with every byte of its UTF-8 form that `keeps` refuses written `%XX` (upper-case
    /// hex) — the same bytes Foundation's `addingPercentEncoding` writes for these sets, without
    /// its bridging (3 % of a page printing its links on Linux, issue #14).
    private static func percentEncode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        if text.utf8.allSatisfy(keeps) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if keeps(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A path segment percent-encoded (`/`, `?`, `#` and anything outside `pchar`).
    public static func encodeSegment(_ segment: String) -> String { percentEncode(segment, keeping: segmentKeeps) }

    /// A query value percent-encoded (`&`, `=`, `+`, `?`, `#` too).
    public static func encodeQueryValue(_ value: String) -> String { percentEncode(value, keeping: queryKeeps) }
}

/// What a route declaration says about its requests, besides method and path.
public struct RouteTraits: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The request changes state: it must carry the CSRF token (and be a POST).
    public static let changesState = RouteTraits(rawValue: 1 << 0)
    /// Only a signed-in shopper may use it; others are sent to sign in.
    public static let requiresSignIn = RouteTraits(rawValue: 1 << 1)
    /// Its page is the same for every visitor of a locale and may be served from the page cache.
    public static let cacheable = RouteTraits(rawValue: 1 << 2)
}

/// The values a route's path parameters and query hold.
public struct RouteParameters: Hashable, Sendable {
    /// Path parameters by name (`{handle}` → `"oak-chair"`; a `{rest...}` parameter joins its
    /// segments with `/`).
    public var path: [String: String]
    /// The query items the route reads or prints, in order.
    public var query: [RouteRequest.QueryItem]

    /// Parameters with these path values and query items.
    public init(_ path: [String: String] = [:], query: [RouteRequest.QueryItem] = []) {
        self.path = path
        self.query = query
    }

    /// Parameters with these path values and the query items whose value is not nil.
    public init(_ path: [String: String] = [:], query items: KeyValuePairs<String, String?>) {
        self.path = path
        self.query = items.compactMap { name, value in value.map { RouteRequest.QueryItem(name, $0) } }
    }

    /// A path parameter.
    public subscript(_ name: String) -> String { path[name] ?? "" }
    /// A path parameter as a whole number, or nil.
    public func int64(_ name: String) -> Int64? { path[name].flatMap { Int64($0) } }
    /// The first value of a query item.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
}

/// One route, declared once: method, path pattern, traits, and both directions — how its
/// parameters make a route value (parsing), and how a route value gives its parameters
/// (printing; nil when the value belongs to another declaration). ``Router`` tests nothing else;
/// a round-trip test over sample values of every route keeps the two directions in step.
public struct RouteDeclaration<Route: Sendable>: Sendable {
    /// `GET` (also answers `HEAD`), `POST`, `PUT`, `PATCH` or `DELETE`.
    public let method: String
    /// The path as declared, e.g. `/products/{handle}` or `/static/{path...}`.
    public let pattern: String
    /// Whether it changes state, needs a signed-in shopper, may be cached.
    public let traits: RouteTraits
    let segments: [Segment]
    /// `true` when the pattern has no parameters (worked out once: routing asks on every request).
    let isFixed: Bool
    let make: @Sendable (RouteParameters) -> Route?
    let match: @Sendable (Route) -> RouteParameters?

    enum Segment: Hashable, Sendable {
        case literal(String)
        case parameter(String)
        /// The remaining segments (at least one), joined by `/`.
        case rest(String)
    }

    /// Declares a route.
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - pattern: `/`-separated literals and `{name}` parameters; a last `{name...}` takes the
    ///     remaining segments (at least one).
    ///   - traits: what else is true of it.
    ///   - make: the route for parsed parameters, or nil when they are not valid (the request
    ///     then matches nothing: 404).
    ///   - match: the parameters of a route value when it is this declaration's, else nil.
    public init(
        _ method: String, _ pattern: String, _ traits: RouteTraits = [],
        make: @escaping @Sendable (RouteParameters) -> Route?,
        match: @escaping @Sendable (Route) -> RouteParameters?
    ) {
        self.method = method
        self.pattern = pattern
        self.traits = traits
        self.segments = pattern.split(separator: "/").map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return .literal(String(part)) }
            let name = part.dropFirst().dropLast()
            return name.hasSuffix("...") ? .rest(String(name.dropLast(3))) : .parameter(String(name))
        }
        self.isFixed = segments.allSatisfy { if case .literal = $0 { true } else { false } }
        self.make = make
        self.match = match
    }

    /// The path parameters of `segments` when they fit the pattern.
    func pathParameters(_ segments: [String]) -> [String: String]? {
        var values: [String: String] = [:]
        var index = 0
        for part in self.segments {
            switch part {
            case let .literal(text):
                guard index < segments.count, segments[index] == text else { return nil }
                index += 1
            case let .parameter(name):
                guard index < segments.count else { return nil }
                values[name] = segments[index]
                index += 1
            case let .rest(name):
                guard index < segments.count else { return nil }
                values[name] = segments[index...].joined(separator: "/")
                index = segments.count
            }
        }
        return index == segments.count ? values : nil
    }

    /// The path segments for `parameters`.
    func printSegments(_ parameters: RouteParameters) -> [String] {
        // A loop, not `flatMap`: a page prints dozens of links, and the array per part showed.
        var printed: [String] = []
        printed.reserveCapacity(segments.count)
        for part in segments {
            switch part {
            case let .literal(text): printed.append(text)
            case let .parameter(name): printed.append(parameters[name])
            case let .rest(name): for piece in parameters[name].split(separator: "/") { printed.append(String(piece)) }
            }
        }
        return printed
    }

    func answers(_ method: String) -> Bool {
        method == self.method || (method == "HEAD" && self.method == "GET")
    }
}

/// Routes declared once and used both ways: parse a request into a route value, print a route
/// value back into a request (method, path, query) — for links, redirects and API clients.
///
/// ```swift
/// let router = Router<Page>([
///     .init("GET", "/products/{handle}", [.cacheable],
///           make: { .product(handle: $0["handle"]) },
///           match: { if case let .product(handle) = $0 { RouteParameters(["handle": handle]) } else { nil } }),
/// ])
/// router.parse(RouteRequest(method: "GET", path: "/products/oak-chair"))  // .product(handle: "oak-chair")
/// router.url(for: .product(handle: "oak chair"))                          // "/products/oak%20chair"
/// ```
public struct Router<Route: Sendable>: Sendable {
    /// Every declaration, in the order they are tried.
    public let declarations: [RouteDeclaration<Route>]
    /// The methods of each fixed path (a pattern without parameters), in declaration order.
    private let fixedPaths: [[String]: [String]]

    /// A router trying `declarations` in order.
    public init(_ declarations: [RouteDeclaration<Route>]) {
        self.declarations = declarations
        var fixedPaths: [[String]: [String]] = [:]
        for declaration in declarations where declaration.isFixed {
            let path = declaration.printSegments(RouteParameters())
            if fixedPaths[path, default: []].contains(declaration.method) == false {
                fixedPaths[path, default: []].append(declaration.method)
            }
        }
        self.fixedPaths = fixedPaths
    }

    /// The route a request asks for, with its declaration; nil when none matches (404).
    public func parse(_ request: RouteRequest) -> (route: Route, declaration: RouteDeclaration<Route>)? {
        for declaration in declarations where declaration.answers(request.method) {
            guard let path = declaration.pathParameters(request.segments),
                  let route = declaration.make(RouteParameters(path, query: request.query)) else { continue }
            return (route, declaration)
        }
        return nil
    }

    /// The methods some declaration answers for this path (for a 405's `Allow`), in order.
    public func methods(forPath segments: [String]) -> [String] {
        var methods: [String] = []
        for declaration in declarations where declaration.pathParameters(segments) != nil
            && !methods.contains(declaration.method) {
            methods.append(declaration.method)
        }
        return methods
    }

    /// The methods of the declarations whose pattern is this path word for word (no
    /// parameters), in order. A path that is a fixed route — `/api/products/categories` — belongs
    /// to those declarations, even when a parameter pattern (`/api/products/{id}`) would also
    /// match it: another method on it is 405, not that parameter route.
    public func fixedMethods(forPath segments: [String]) -> [String] {
        fixedPaths[segments] ?? []
    }

    /// The declaration a route value belongs to, with its parameters.
    /// - Precondition: some declaration matches the value (a route case without one is a
    ///   programming error, caught by the round-trip test).
    public func declaration(for route: Route) -> (declaration: RouteDeclaration<Route>, parameters: RouteParameters) {
        for declaration in declarations {
            if let parameters = declaration.match(route) { return (declaration, parameters) }
        }
        preconditionFailure("no route declaration matches \(route)")
    }

    /// The request that asks for `route`.
    public func request(for route: Route) -> RouteRequest {
        let (declaration, parameters) = declaration(for: route)
        return RouteRequest(method: declaration.method, segments: declaration.printSegments(parameters),
                            query: parameters.query)
    }

    /// The site-relative URL of `route` (path and query).
    public func url(for route: Route) -> String { request(for: route).url }
}
