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
                                         images: [ProductImage(url: "/images/demo/backpack.svg")])
private let tee = ProductDraft.mock(handle: "tee", title: "Slim Tee", category: "men's clothing",
                                    variants: [.mock(price: .usd(22_30))],
                                    images: [ProductImage(url: "https://cdn.example.com/tee.jpg")])
private let ring = ProductDraft.mock(handle: "ring", title: "Silver Ring", category: "jewelery",
                                     variants: [.mock(price: .usd(9_99))])

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.response.body))
}

@Suite("Fake Store API: reads and sign-in")
struct FakeStoreAPITests {
    @Test func productsHaveFakeStoreShapeAndShoppablesData() throws {
        let shop = try TestShop([backpack, tee, ring])
        let response = try shop.api(.get, "/api/products")
        #expect(response.status == 200 && response.header("Content-Type") == "application/json; charset=utf-8")
        let products = try decode([FakeStoreProduct].self, response)
        #expect(products.map(\.title) == ["Fjallraven Backpack", "Slim Tee", "Silver Ring"])
        let first = products[0]
        #expect(first.price == Decimal(string: "109.95") && first.category == "men's clothing")
        #expect(first.image == "https://shop.test/images/demo/backpack.svg", "site paths become absolute")
        #expect(products[1].image == "https://cdn.example.com/tee.jpg")
        #expect(first.rating == .init(rate: 3.92, count: 120) && first.description == "backpack")
        // The raw JSON keeps Fake Store's names and number types.
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(response.response.body)) as? [[String: Any]])
        #expect(raw[0]["price"] is NSNumber && raw[0]["id"] is NSNumber && raw[0]["rating"] is [String: Any])
    }

    @Test func catalogReadsAreCachedOnlyUntilTheCatalogChanges() throws {
        let shop = try TestShop([backpack, tee])
        let first = try shop.api(.get, "/api/products")
        #expect(try shop.api(.get, "/api/products").response.body == first.response.body)
        var dearer = tee
        dearer.variants[0].price = .usd(25_00)
        _ = try shop.catalog.upsert([dearer])
        let changed = try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products"))
        #expect(changed.map(\.price) == [Decimal(string: "109.95"), Decimal(string: "25")], "the next read sees the change")
        let other = try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products?limit=1"))
        #expect(other.count == 1, "each query its own entry")
    }

    @Test func limitAndSortWorkOnListsAndCategories() throws {
        let shop = try TestShop([backpack, tee, ring])
        #expect(try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products?limit=2")).map(\.title)
                == ["Fjallraven Backpack", "Slim Tee"])
        #expect(try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products?sort=desc&limit=1")).map(\.title)
                == ["Silver Ring"])
        #expect(try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products?limit=abc")).count == 3,
                "a limit that is not a number means no limit")
        let clothing = try shop.api(.get, "/api/products/category/men's%20clothing?sort=desc")
        #expect(try decode([FakeStoreProduct].self, clothing).map(\.title) == ["Slim Tee", "Fjallraven Backpack"])
        #expect(try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products/category/nothing")).isEmpty)
        #expect(try decode([String].self, try shop.api(.get, "/api/products/categories")).sorted()
                == ["jewelery", "men's clothing"])
    }

    @Test func oneProductByIdAnd404And400() throws {
        let shop = try TestShop([backpack, tee])
        let id = try #require(try shop.catalog.productByHandle("tee")).id.rawValue
        #expect(try decode(FakeStoreProduct.self, try shop.api(.get, "/api/products/\(id)")).title == "Slim Tee")
        let missing = try shop.api(.get, "/api/products/9999")
        #expect(missing.status == 404)
        #expect(try decode(APIErrorEnvelope.self, missing).error.code == "not_found")
        let malformed = try shop.api(.get, "/api/products/abc")
        #expect(malformed.status == 400)
        #expect(try decode(APIErrorEnvelope.self, malformed).error == .init(code: "malformed_id",
                                                                            message: "“abc” is not a valid product id: ids are positive whole numbers.", field: "id"))
    }

    @Test func unknownRoutesAndMethodsAnswerTheEnvelope() throws {
        let shop = try TestShop([backpack])
        let unknown = try shop.api(.get, "/api/nothing")
        #expect(unknown.status == 404 && unknown.header("Content-Type")?.hasPrefix("application/json") == true)
        let wrongMethod = try shop.api(.delete, "/api/products/category/jewelery")
        #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "GET, HEAD")
        #expect(try decode(APIErrorEnvelope.self, wrongMethod).error.code == "method_not_allowed")
        // A fixed path belongs to its own routes, though `PUT /api/products/{id}` would match it too.
        for method in [HTTPMethod.put, .patch, .delete] {
            let fixed = try shop.api(method, "/api/products/categories")
            #expect(fixed.status == 405 && fixed.header("Allow") == "GET, HEAD", "\(method)")
        }
        #expect(wrongMethod.header("X-Content-Type-Options") == "nosniff", "the security headers too")
    }

    @Test func signInGivesABearerTokenAndRefusesBadCredentials() throws {
        let shop = try TestShop([backpack])
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"),
                                            ("password", "Blue9sky!"), ("password_confirmation", "Blue9sky!")])
        let signedIn = try shop.api(.post, "/api/auth/login", json: #"{"username": "Ana@Example.com", "password": "Blue9sky!"}"#)
        #expect(signedIn.status == 200)
        let token = try decode(FakeStoreToken.self, signedIn).token
        #expect(token.count == 32)
        let session = try #require(try shop.sessions.find(shop.sessionID(forCookie: token)))
        #expect(session.userID != nil, "the token is a signed-in session's")

        let wrong = try shop.api(.post, "/api/auth/login", json: #"{"username": "ana@example.com", "password": "nope"}"#)
        let wrongError = try decode(APIErrorEnvelope.self, wrong).error
        #expect(wrong.status == 401 && wrongError.code == "invalid_credentials")
        let notJSON = try shop.api(.post, "/api/auth/login", json: "username=ana", contentType: "application/x-www-form-urlencoded")
        let notJSONError = try decode(APIErrorEnvelope.self, notJSON).error
        #expect(notJSON.status == 400 && notJSONError.code == "unsupported_media_type")
        let missing = try shop.api(.post, "/api/auth/login", json: #"{"username": "ana@example.com"}"#)
        let missingError = try decode(APIErrorEnvelope.self, missing).error
        #expect(missing.status == 400 && missingError.field == "password")
        let broken = try shop.api(.post, "/api/auth/login", json: #"{"username": "#)
        let brokenError = try decode(APIErrorEnvelope.self, broken).error
        #expect(broken.status == 400 && brokenError.code == "malformed_body")
    }

    @Test func signInIsThrottledLikeTheForm() throws {
        let shop = try TestShop([backpack])
        var last: TestResponse?
        for _ in 0..<12 {
            last = try shop.api(.post, "/api/auth/login", json: #"{"username": "ana@example.com", "password": "nope"}"#)
            if last?.status == 429 { break }
        }
        let throttled = try #require(last)
        #expect(throttled.status == 429 && throttled.header("Retry-After") != nil)
        #expect(try decode(APIErrorEnvelope.self, throttled).error.code == "too_many_attempts")
    }
}
