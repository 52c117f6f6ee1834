import Synchronization

/// The counter behind ``Request/makeID()``: starts at a random value once per process.
private enum RequestIDs {
    static let counter: Atomic<UInt64> = {
        var generator = SystemRandomNumberGenerator()
        return Atomic(generator.next())
    }()

    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}

/// An HTTP request as the application sees it: decoded, complete (body included), immutable
/// input to a `(Request) -> Response` handler.
///
/// The live server builds it with ``init(method:target:headers:body:remoteAddress:id:)``;
/// tests build it the same way (or with the decoded-path initializer), so cookies and form
/// fields are always derived from the headers and body by the same code.
///
/// ```swift
/// let request = try Request(
///     method: .post, target: "/cart/add?from=list",
///     headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "sid=abc"],
///     body: Array("product=12&quantity=2".utf8))
/// request.formValue("quantity")   // "2"
/// request.cookies["sid"]          // "abc"
/// ```
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path without the query, e.g. `"/products/oak chair"`.
    public var path: String
    /// The path as sent (still percent-encoded), without the query, e.g. `"/products/oak%20chair"`.
    public var rawPath: String
    /// Query parameters in order, decoded by form rules (`+` is space).
    public var query: [(name: String, value: String)]
    /// Request header fields in the order received.
    public var headers: HTTPHeaders
    /// Cookies from the `Cookie` header(s); see ``Cookie/parse(headerValues:)``.
    public var cookies: [String: String]
    /// The raw request body (empty for requests without one).
    public var body: [UInt8]
    /// The peer's numeric IP address, e.g. `"127.0.0.1"` or `"::1"` (the proxy's, behind nginx).
    public var remoteAddress: String
    /// Fields of an `application/x-www-form-urlencoded` body in order, or the text fields of a
    /// `multipart/form-data` body (filled by the server); empty for other bodies.
    public var form: [(name: String, value: String)]
    /// The files of a `multipart/form-data` body (an upload form), in order; the server fills
    /// them and ``form`` and leaves ``body`` empty. Empty for other bodies.
    public var files: [UploadedFile] = []
    /// Short random hex id of this request; also in the access log and the `X-Request-ID`
    /// response header.
    public var id: String

    /// Builds a request from a raw request target as it appears on the request line
    /// (`/path?query`, or absolute-form `http://host/path?query`, or `*`).
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - target: the request target, still percent-encoded.
    ///   - headers: the header fields; `Cookie` and `Content-Type` are interpreted.
    ///   - body: the complete body.
    ///   - remoteAddress: the peer's numeric address.
    ///   - id: the request id; a fresh random one by default.
    /// - Throws: ``RequestDecodingError`` when the path, query or form body has invalid
    ///   percent-encoding or is not UTF-8 (the server answers 400).
    public init(
        method: HTTPMethod = .get,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1",
        id: String = Request.makeID()
    ) throws(RequestDecodingError) {
        guard let target = Self.originForm(of: target), target.utf8.first == UInt8(ascii: "/")
            || (target == "*" && method == .options)
        else { throw .invalidTarget }
        let rawPath: Substring
        let rawQuery: Substring
        if let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = target[..<question]
            rawQuery = target[target.utf8.index(after: question)...]
        } else {
            rawPath = target
            rawQuery = ""
        }
        self.method = method
        self.rawPath = String(rawPath)
        self.path = try URLEncoding.percentDecode(rawPath, component: .path)
        self.query = try URLEncoding.decodeQuery(rawQuery)
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.id = id
        self.cookies = Cookie.parse(headerValues: headers.values(for: "Cookie"))
        self.form = try Self.decodeFormBody(headers: headers, body: body)
    }

    /// Builds a request from an already decoded path and query (convenient in tests);
    /// `rawPath` is derived with ``URLEncoding/percentEncodePath(_:)``.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - path: the decoded path, e.g. `"/products/oak chair"`.
    ///   - query: decoded query parameters.
    ///   - headers: the header fields; `Cookie` and `Content-Type` are interpreted.
    ///   - body: the complete body.
    ///   - remoteAddress: the peer's numeric address.
    ///   - id: the request id; a fresh random one by default.
    /// - Throws: ``RequestDecodingError`` when a form body has invalid percent-encoding or is
    ///   not UTF-8 — exactly the requests the live server rejects with 400.
    public init(
        method: HTTPMethod = .get,
        path: String = "/",
        query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1",
        id: String = Request.makeID()
    ) throws(RequestDecodingError) {
        self.method = method
        self.path = path
        self.rawPath = URLEncoding.percentEncodePath(path)
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.id = id
        self.cookies = Cookie.parse(headerValues: headers.values(for: "Cookie"))
        self.form = try Self.decodeFormBody(headers: headers, body: body)
    }

    /// The first query parameter called `name`, or `nil`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The first form field called `name`, or `nil`.
    public func formValue(_ name: String) -> String? {
        form.first { $0.name == name }?.value
    }

    /// A fresh request id: 16 lower-case hex digits, unique within the process.
    ///
    /// An id names a request in the log; it is not a secret, so it needs no system randomness
    /// per request (a `getrandom` call was 3 % of a cached API read): a counter from a random
    /// start, scrambled by the SplitMix64 finalizer (a bijection, so ids never repeat before
    /// 2⁶⁴ requests) to look unrelated to its neighbours.
    public static func makeID() -> String {
        var value = RequestIDs.next()
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0x0F
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }

    /// The origin-form (`/path?query`) of a request target: the target itself, or — for an
    /// absolute-form one (RFC 9112 §3.2.2, `http://host/path?query`, the scheme in any case) —
    /// what follows its authority, which ends at the first `/`, `?` or `#` (RFC 3986 §3.2):
    /// `http://host?q` is the path `/` with the query `q`. Nil for an absolute-form target
    /// without a host or with a fragment (a fresh tester's `http://host?/admin` was served
    /// `/admin` while a proxy reading the URL right would see `/`). Read on UTF-8 bytes
    /// (`Character` comparisons were 2 % of a first visit, issue #14); the delimiters are ASCII.
    public static func originForm(of target: String) -> Substring? {
        let bytes = target.utf8
        let schemeLength: Int
        if bytes.prefix(7).equalsIgnoringASCIICase("http://") {
            schemeLength = 7
        } else if bytes.prefix(8).equalsIgnoringASCIICase("https://") {
            schemeLength = 8
        } else {
            return Substring(target)
        }
        let authority = bytes.index(bytes.startIndex, offsetBy: schemeLength)
        let end = bytes[authority...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        guard end > authority, !bytes[end...].contains(UInt8(ascii: "#")) else { return nil }
        if end == bytes.endIndex { return "/" }
        return bytes[end] == UInt8(ascii: "/") ? target[end...] : Substring("/" + target[end...])
    }

    /// Form fields when the media type is `application/x-www-form-urlencoded`, else `[]`.
    private static func decodeFormBody(headers: HTTPHeaders, body: [UInt8])
        throws(RequestDecodingError) -> [(name: String, value: String)]
    {
        guard let contentType = headers["Content-Type"] else { return [] }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        let trimmed = mediaType.filter { $0 != " " && $0 != "\t" }
        guard HTTPHeaders.namesMatch(String(trimmed), "application/x-www-form-urlencoded") else {
            return []
        }
        return try URLEncoding.decodeForm(body)
    }
}

/// A file sent with an upload form (`<input type="file">` in a `multipart/form-data` body).
public struct UploadedFile: Sendable, Hashable {
    /// The form field's name.
    public var fieldName: String
    /// The file's name as the browser sent it (may be empty: no file was chosen).
    public var fileName: String
    /// The part's `Content-Type`, when sent.
    public var contentType: String?
    /// The file's bytes.
    public var data: [UInt8]

    public init(fieldName: String, fileName: String, contentType: String? = nil, data: [UInt8]) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }
}

extension Request {
    /// The first file sent in the field called `name`, or `nil`.
    public func file(_ name: String) -> UploadedFile? {
        files.first { $0.fieldName == name }
    }
}
