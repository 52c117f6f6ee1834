/// An HTTP response produced by the application: status, header fields and the complete body.
///
/// The server adds `Content-Length` (from `body.count`), `Date` and `X-Request-ID`; for
/// `HEAD` requests it sends the headers only. Do not set `Content-Length` or
/// `Transfer-Encoding` yourself: they are ignored.
///
/// ```swift
/// Response.text("Not found", status: .notFound)
/// Response.html(renderedBytes)
/// Response.redirect(to: "/cart")            // 303 See Other
/// ```
public struct Response: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// Header fields, sent in order.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// A response with the given parts; defaults to an empty `200 OK`.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(
            status: status,
            headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array(text.utf8))
    }

    /// A `text/html; charset=utf-8` response from already rendered UTF-8 bytes.
    public static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: bytes)
    }

    /// A `text/html; charset=utf-8` response from a string.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        .html(Array(html.utf8), status: status)
    }

    /// A redirect with a `Location` header and an empty body.
    /// - Parameters:
    ///   - location: the target URL or absolute path, already percent-encoded.
    ///   - status: `303 See Other` by default (the answer to a successful form POST); use
    ///     `.found`, `.movedPermanently` or `.temporaryRedirect` as needed.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location])
    }

    /// Appends a `Set-Cookie` header for `cookie`.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.add(name: "Set-Cookie", value: cookie.headerValue)
    }
}
