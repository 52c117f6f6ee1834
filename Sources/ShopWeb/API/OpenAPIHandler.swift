import HTTPServer
import ShopAPI

/// `GET /api/openapi.json`: the OpenAPI 3.1 document (`ShopAPI.OpenAPIDocument`), encoded once.
enum OpenAPIHandler {
    /// The document's bytes: the same for every request, so built on first use.
    static let body: [UInt8] = OpenAPIDocument.current.encoded()

    static func handle() -> Response {
        Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8",
                                        "Cache-Control": "public, max-age=300"],
                 body: body)
    }
}
