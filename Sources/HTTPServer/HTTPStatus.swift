/// An HTTP response status code (RFC 9110 §15) with its standard reason phrase.
///
/// Integer literals work: `Response(status: 418)`. The reason phrase is informational; the
/// engine writes the status line itself.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The three-digit status code, e.g. `404`.
    public var code: Int

    /// Wraps a status code (100…599 expected; not validated).
    public init(code: Int) { self.code = code }

    /// Wraps an integer literal status code.
    public init(integerLiteral value: Int) { self.code = value }

    /// The RFC 9110 reason phrase (`"Not Found"`), or `""` for codes not in the table.
    public var reasonPhrase: String { Self.reasonPhrases[code] ?? "" }

    /// `"404 Not Found"`.
    public var description: String {
        reasonPhrase.isEmpty ? String(code) : "\(code) \(reasonPhrase)"
    }

    /// 200
    public static let ok: HTTPStatus = 200
    /// 201
    public static let created: HTTPStatus = 201
    /// 202
    public static let accepted: HTTPStatus = 202
    /// 204
    public static let noContent: HTTPStatus = 204
    /// 301
    public static let movedPermanently: HTTPStatus = 301
    /// 302
    public static let found: HTTPStatus = 302
    /// 303: the redirect after a successful form POST.
    public static let seeOther: HTTPStatus = 303
    /// 304
    public static let notModified: HTTPStatus = 304
    /// 307
    public static let temporaryRedirect: HTTPStatus = 307
    /// 400: malformed request (e.g. invalid percent-encoding).
    public static let badRequest: HTTPStatus = 400
    /// 401
    public static let unauthorized: HTTPStatus = 401
    /// 403
    public static let forbidden: HTTPStatus = 403
    /// 404
    public static let notFound: HTTPStatus = 404
    /// 405
    public static let methodNotAllowed: HTTPStatus = 405
    /// 409
    public static let conflict: HTTPStatus = 409
    /// 410: the resource existed and is gone for good (an expired or used single-use link).
    public static let gone: HTTPStatus = 410
    /// 413: request body larger than `Configuration.maxBodyBytes`.
    public static let contentTooLarge: HTTPStatus = 413
    /// 414: request target longer than `Configuration.maxURIBytes`.
    public static let uriTooLong: HTTPStatus = 414
    /// 415
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 422
    public static let unprocessableContent: HTTPStatus = 422
    /// 429
    public static let tooManyRequests: HTTPStatus = 429
    /// 431: request line + headers larger than `Configuration.maxHeaderBytes` (RFC 6585).
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    /// 500
    public static let internalServerError: HTTPStatus = 500
    /// 501: the request uses something the server does not implement (a transfer coding).
    public static let notImplemented: HTTPStatus = 501
    /// 503
    public static let serviceUnavailable: HTTPStatus = 503

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 422: "Unprocessable Content", 428: "Precondition Required",
        429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]
}
