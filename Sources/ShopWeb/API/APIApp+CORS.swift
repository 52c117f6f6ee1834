import Foundation
import HTTPServer
import ShopAPI
import ShopCore

extension APIApp {
    /// Cross-origin access to the API from browsers (issue #10, point 3): only the origins the
    /// shop allows (`AppEnvironment.corsAllowedOrigins`, `--cors-origin`; `*` for any). The API
    /// authenticates with bearer tokens, never cookies, so credentials are not allowed.
    enum CORS {
        /// Request headers a page may send.
        static let allowedHeaders = "Authorization, Content-Type, If-None-Match, Accept-Language, Idempotency-Key"
        /// Response headers a page may read.
        static let exposedHeaders = "ETag, Location, Retry-After, WWW-Authenticate, Allow"
        /// How long a browser may keep a preflight's answer (seconds).
        static let maxAge = "600"

        /// `OPTIONS` on an API path: 204 with the methods the path answers (the origin check and
        /// its headers come in ``apply(to:request:allowedOrigins:)``).
        /// - Throws: `APIError` 404 for a path the API does not have.
        static func preflight(_ request: Request) throws -> Response {
            let methods = APIApp.allowedMethods(APIApp.pathSegments(request))
            guard !methods.isEmpty else { throw APIError.notFound(.apiNoRoute, ["path": request.path]) }
            let listed = methods.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] } + ["OPTIONS"]
            var response = Response(status: .noContent)
            response.headers.replaceOrAdd(name: "Allow", value: listed.joined(separator: ", "))
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Methods", value: listed.joined(separator: ", "))
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Headers", value: allowedHeaders)
            response.headers.replaceOrAdd(name: "Access-Control-Max-Age", value: maxAge)
            return response
        }

        /// Adds `Access-Control-Allow-Origin` when the request's `Origin` is allowed; every API
        /// answer varies by `Origin` once any origin is configured. A preflight from an origin
        /// that is not allowed keeps no `Access-Control-*` header, so the browser refuses.
        static func apply(to response: inout Response, request: Request, allowedOrigins: [String]) {
            guard !allowedOrigins.isEmpty else {
                stripPreflightHeaders(&response)
                return
            }
            // One `Vary` field: catalog reads already vary by `Accept-Language`.
            let vary = response.headers["Vary"].map { $0 + ", Origin" } ?? "Origin"
            response.headers.replaceOrAdd(name: "Vary", value: vary)
            guard let origin = request.headers["Origin"],
                  allowedOrigins.contains("*") || allowedOrigins.contains(origin) else {
                stripPreflightHeaders(&response)
                return
            }
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: allowedOrigins.contains("*") ? "*" : origin)
            response.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: exposedHeaders)
        }

        private static func stripPreflightHeaders(_ response: inout Response) {
            for name in ["Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age"] {
                response.headers.remove(name: name)
            }
        }
    }

    /// `ETag` on every successful API `GET` (a hash of the body, so equal answers have equal
    /// tags whoever serves them). `If-None-Match` is answered later, once the body's coding is
    /// chosen (`ConditionalRequest`, in `ShopApp.handle`).
    enum ConditionalGET {
        static func apply(to response: inout Response, request: Request) {
            guard request.method == .get || request.method == .head, response.status.code == 200 else { return }
            // A cached answer keeps the tag it was stored with (the body is the same bytes), and
            // its fields are not rewritten (that would copy the ones shared with the cache).
            if response.headers["ETag"] == nil {
                response.headers.replaceOrAdd(name: "ETag", value: "\"" + ContentHash(of: response.body).hex + "\"")
            }
        }
    }
}
