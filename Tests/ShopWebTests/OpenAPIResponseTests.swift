import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

private let backpack = ProductDraft.mock(handle: "backpack", title: "Fjallraven Backpack", category: "men's clothing",
                                         rating: Rating(rateHundredths: 392, count: 120),
                                         variants: [.mock(price: .usd(109_95))],
                                         images: [ProductImage(url: "/images/demo/backpack.svg"),
                                                  // stored, with renditions: their schema is checked too
                                                  ProductImage(url: "/media/0123456789abcdef.jpg", width: 2000, height: 1500)])
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
        try check(Sample(method, target, body, status))
    }

    /// The routes that need a token, with one: a shopper's sign-in token (`ana`) or a guest
    /// token holding a cart line (`guest`); and the `/api/v1` catalog and registration.
    @Test(arguments: [
        Sample("POST", "/api/users",
               #"{"email": "bo@example.com", "password": "Green7tree!", "name": {"firstname": "Bo", "lastname": "Ek"}, "phone": "+1 555"}"#,
               201),
        Sample("POST", "/api/users", #"{"email": "ana@example.com", "password": "Green7tree!", "name": {"firstname": "Ana"}}"#, 409),
        Sample("PATCH", "/api/users/{ana}", #"{"phone": "+1 555 0100"}"#, 200, token: .ana),
        Sample("GET", "/api/users/{ana}", nil, 200, token: .ana),
        Sample("POST", "/api/carts", #"{"date": "2020-03-02", "products": [{"productId": {backpack}, "quantity": 2}]}"#, 201,
               token: .ana),
        Sample("GET", "/api/carts?startdate=2020-01-01", nil, 200, token: .ana),
        Sample("GET", "/api/carts?startdate=yesterday", nil, 400, token: .ana),
        Sample("GET", "/api/carts/user/{ana}", nil, 200, token: .ana),
        Sample("GET", "/api/carts/9999", nil, 404, token: .ana),
        Sample("GET", "/api/carts", nil, 401),
        Sample("GET", "/api/v1/categories", nil, 200),
        Sample("GET", "/api/v1/products?limit=1", nil, 200),
        Sample("GET", "/api/v1/products?sort=cheapest", nil, 400),
        Sample("GET", "/api/v1/products/backpack", nil, 200),
        Sample("GET", "/api/v1/featured", nil, 200),
        Sample("GET", "/api/v1/featured?view=recommendations", nil, 200, token: .guest),
        Sample("GET", "/api/v1/products/backpack", nil, 200, token: .guest),
        Sample("GET", "/api/v1/products/nothing", nil, 404),
        Sample("POST", "/api/v1/sessions/guest", nil, 201),
        Sample("GET", "/api/v1/cart", nil, 200, token: .guest),
        Sample("GET", "/api/v1/cart", nil, 401),
        Sample("PUT", "/api/v1/cart/voucher", #"{"code": "NOPE"}"#, 200, token: .guest),
        Sample("PATCH", "/api/v1/cart/lines/9999", #"{"quantity": 2}"#, 404, token: .guest),
        Sample("POST", "/api/v1/cart/lines", #"{"product": "nothing"}"#, 422, token: .guest),
        Sample("PUT", "/api/v1/favorites/{backpack}", nil, 200, token: .guest),
        Sample("GET", "/api/v1/favorites", nil, 200, token: .ana),
        Sample("GET", "/api/v1/checkout", nil, 200, token: .guest),
        Sample("PUT", "/api/v1/checkout/address", #"{"email": "guest@example.com", "address": {"firstName": "Ana", "lastName": "Lima", "phone": "+1 555 0100", "line1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"}}"#, 200, token: .guest),
        Sample("PUT", "/api/v1/checkout/address", #"{"email": "nope", "address": {"country": "XX"}}"#, 400, token: .guest),
        Sample("PUT", "/api/v1/checkout/address", #"{"savedAddressId": 9999}"#, 404, token: .ana),
        Sample("PUT", "/api/v1/checkout/shipping", #"{"method": "standard"}"#, 409, token: .guest),
        Sample("POST", "/api/v1/checkout/review", nil, 409, token: .guest),
        Sample("POST", "/api/v1/orders", nil, 400, token: .guest),
        Sample("GET", "/api/v1/orders", nil, 200, token: .ana),
        Sample("GET", "/api/v1/orders", nil, 403, token: .guest),
        Sample("GET", "/api/v1/orders/1042-KX7M", nil, 404, token: .ana),
        Sample("GET", "/api/v1/orders/1042-KX7M?token=nope", nil, 404),
        Sample("POST", "/api/v1/account", #"{"email": "bo@example.com", "password": "Green7tree!", "name": "Bo Ek"}"#, 201),
        Sample("POST", "/api/v1/account", #"{"email": "ana@example.com", "password": "Green7tree!", "name": "Ana"}"#, 409),
        Sample("POST", "/api/v1/account", #"{"email": "bo@example.com", "password": "short", "name": "Bo Ek"}"#, 400),
        Sample("GET", "/api/v1/account", nil, 200, token: .ana),
        Sample("GET", "/api/v1/account", nil, 401),
        Sample("POST", "/api/v1/account/verification", nil, 202, token: .ana),
        Sample("POST", "/api/v1/account/verification/confirm", #"{"token": "nope"}"#, 400),
        Sample("POST", "/api/v1/account/password-reset", #"{"email": "ana@example.com"}"#, 202),
        Sample("POST", "/api/v1/account/password-reset/confirm", #"{"token": "nope", "password": "Green7tree!"}"#, 400),
        Sample("POST", "/api/v1/auth/tokens", #"{"email": "ana@example.com", "password": "Blue9sky!"}"#, 200),
        Sample("POST", "/api/v1/auth/tokens", #"{"email": "ana@example.com", "password": "Wrong9sky!"}"#, 401),
        Sample("POST", "/api/v1/auth/refresh", #"{"refreshToken": "nope"}"#, 401),
        Sample("POST", "/api/v1/auth/sign-out", nil, 401),
        Sample("GET", "/api/v1/campaigns", nil, 200),
        Sample("GET", "/api/v1/campaigns/nope", nil, 404),
        Sample("GET", "/api/v1/addresses", nil, 200, token: .ana),
        Sample("POST", "/api/v1/addresses", #"{"address": {"firstName": "Ana", "lastName": "Lima", "phone": "+1 555 0100", "line1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"}, "isDefault": true}"#, 201, token: .ana),
        Sample("POST", "/api/v1/addresses", #"{"address": {"country": "XX"}}"#, 400, token: .ana),
        Sample("PUT", "/api/v1/addresses/9999", #"{"address": {"firstName": "Ana", "lastName": "Lima", "phone": "+1 555 0100", "line1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"}}"#, 404, token: .ana),
        Sample("DELETE", "/api/v1/addresses/9999", nil, 404, token: .ana),
    ])
    func tokenAndV1AnswersFitTheDocumentedSchema(sample: Sample) throws {
        try check(sample)
    }

    /// Sends `sample` to a shop with two products and Ana's account, then checks the answer
    /// against the document: the status is listed, the body fits, the documented headers are sent.
    private func check(_ sample: Sample) throws {
        let shop = try TestShop([backpack, ring])
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"),
                                            ("password", "Blue9sky!"), ("password_confirmation", "Blue9sky!")])
        let product = try #require(try shop.catalog.productByHandle("backpack"))
        let ana = try #require(try shop.accounts.credentials("ana@example.com")).user.id.rawValue
        var token: String?
        switch sample.token {
        case .none: token = nil
        case .ana: token = try shop.apiToken("ana@example.com")
        case .guest:
            let issued = try shop.api(.post, "/api/v1/sessions/guest")
            struct Issued: Decodable { var token: String }
            token = try JSONDecoder().decode(Issued.self, from: Data(issued.response.body)).token
            let added = try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "backpack", "quantity": 2}"#)
            #expect(added.status == 200)
        }
        func filled(_ text: String) -> String {
            text.replacingOccurrences(of: "{backpack}", with: String(product.id.rawValue))
                .replacingOccurrences(of: "{ana}", with: String(ana))
        }
        let method = sample.method, target = filled(sample.target)
        let response = try shop.api(HTTPMethod(rawValue: method), target, token: token, json: sample.body.map(filled))
        #expect(response.status == sample.status, "\(method) \(target)")

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

    /// A `GET` answered from its `ETag` is the documented 304, with the tag and no body.
    @Test func aRevalidatedGetIsTheDocumented304() throws {
        let shop = try TestShop([backpack])
        let first = try shop.api(.get, "/api/v1/products/backpack")
        let tag = try #require(first.header("ETag"))
        let again = try shop.api(.get, "/api/v1/products/backpack", headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.header("ETag") == tag && again.response.body.isEmpty)
        let documented = OpenAPIDocument.current["paths"]?["/api/v1/products/{handle}"]?["get"]?["responses"]?["304"]
        #expect(documented?["headers"]?["ETag"] != nil && documented?["content"] == nil)
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

/// One request of ``OpenAPIResponseTests``: `{backpack}` and `{ana}` in the target and body stand
/// for the product's and the account's ids.
struct Sample: Sendable, CustomTestStringConvertible {
    enum Token: Sendable { case none, ana, guest }

    var method: String
    var target: String
    var body: String?
    var status: Int
    var token: Token

    init(_ method: String, _ target: String, _ body: String?, _ status: Int, token: Token = .none) {
        self.method = method
        self.target = target
        self.body = body
        self.status = status
        self.token = token
    }

    var testDescription: String { "\(method) \(target) → \(status)" }
}
