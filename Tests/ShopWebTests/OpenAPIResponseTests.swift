import Foundation
import HTTPServer
import Routing
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

private let backpack = ProductDraft.mock(handle: "backpack", title: "Fjallraven Backpack", category: "men's clothing",
                                         rating: Rating(rateHundredths: 392, count: 120),
                                         variants: [.mock(price: .usd(109_95))],
                                         images: [ProductImage(url: "/images/demo/backpack.svg")])
private let ring = ProductDraft.mock(handle: "ring", title: "Silver Ring", category: "jewelery",
                                     variants: [.mock(price: .usd(9_00))])

/// What the server answers fits what `/api/openapi.json` says it answers: the status is
/// documented for the route, the body fits the status's schema, the documented headers are sent.
@Suite("OpenAPI document: the server's answers fit it")
struct OpenAPIResponseTests {
    @Test func theServedDocumentIsTheBuiltOne() throws {
        let shop = try TestShop([backpack])
        let response = try shop.api(.get, "/api/openapi.json")
        #expect(response.status == 200 && response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.header("Cache-Control") == "public, max-age=300")
        let served = try JSONDecoder().decode(JSONValue.self, from: Data(response.response.body))
        #expect(served == OpenAPIDocument.current)
        #expect(served["openapi"] == "3.1.0")
    }

    @Test(arguments: [
        ("GET", "/api/products", nil, 200),
        ("GET", "/api/products?limit=1&sort=desc", nil, 200),
        ("GET", "/api/products/{backpack}", nil, 200),
        ("GET", "/api/products/categories", nil, 200),
        ("GET", "/api/products/category/jewelery", nil, 200),
        ("GET", "/api/products/category/nothing", nil, 200),
        ("GET", "/api/products/9999", nil, 404),
        ("GET", "/api/products/abc", nil, 400),
        ("POST", "/api/auth/login", #"{"username": "ana@example.com", "password": "Blue9sky!"}"#, 200),
        ("POST", "/api/auth/login", #"{"username": "ana@example.com", "password": "nope"}"#, 401),
        ("POST", "/api/auth/login", #"{"username": "ana@example.com"}"#, 400),
        ("GET", "/api/openapi.json", nil, 200),
    ] as [(String, String, String?, Int)])
    func answersFitTheDocumentedSchema(method: String, target: String, body: String?, status: Int) throws {
        let shop = try TestShop([backpack, ring])
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"),
                                            ("password", "Blue9sky!"), ("password_confirmation", "Blue9sky!")])
        let id = try #require(try shop.catalog.productByHandle("backpack")).id.rawValue
        let target = target.replacingOccurrences(of: "{backpack}", with: String(id))
        let response = try shop.api(HTTPMethod(rawValue: method), target, json: body)
        #expect(response.status == status)

        let path = String(target.split(separator: "?").first ?? "")
        let declaration = try #require(APIRoute.router.parse(RouteRequest(method: method, path: path))?.declaration)
        let operation = try #require(OpenAPIDocument.current["paths"]?[OpenAPIDocument.openAPIPath(declaration.pattern)]?[method.lowercased()])
        let documented = try #require(operation["responses"]?[String(response.status)], "status \(response.status) is documented")
        let schema = try #require(documented["content"]?["application/json"]?["schema"])
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(response.response.body))
        let errors = JSONSchemaCheck(document: OpenAPIDocument.current).errors(value, schema)
        #expect(errors.isEmpty, "\(method) \(target): \(errors)")
        for header in (documented["headers"]?.objectValue ?? [:]).keys {
            #expect(response.header(header) != nil, "\(header) is sent with \(response.status)")
        }
    }

    /// The checker itself: it finds what is wrong.
    @Test func theCheckerRejectsWhatDoesNotFit() {
        let check = JSONSchemaCheck(document: OpenAPIDocument.current)
        let product = FakeStoreProduct.schemaReference
        #expect(!check.errors(["id": 1], product).isEmpty, "missing members")
        #expect(!check.errors(["error": ["code": "x", "message": "y", "extra": 1]], APIErrorEnvelope.schemaReference).isEmpty,
                "an undocumented member")
        #expect(!check.errors(["error": ["code": 1, "message": "y"]], APIErrorEnvelope.schemaReference).isEmpty, "a wrong type")
        #expect(check.errors(["error": ["code": "x", "message": "y"]], APIErrorEnvelope.schemaReference).isEmpty)
    }
}
