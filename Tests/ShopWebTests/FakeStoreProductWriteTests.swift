import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

private let chair = ProductDraft.mock(handle: "oak-chair", title: "Oak Chair", category: "Chairs",
                                      variants: [.mock(sku: "OAK-S", options: ["S"], price: .usd(49_90),
                                                       inventory: .tracked(quantity: 4, allowsBackorder: false)),
                                                 .mock(sku: "OAK-L", options: ["L"], price: .usd(59_90))],
                                      images: [ProductImage(url: "/a.jpg"), ProductImage(url: "/b.jpg")],
                                      tags: ["wood"])

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.response.body))
}

private func errorCode(_ response: TestResponse) throws -> String { try decode(APIErrorEnvelope.self, response).error.code }

@Suite("Fake Store API: bearer tokens and the operator role")
struct APIBearerAuthTests {
    @Test func aMissingMalformedOrEndedTokenIs401() throws {
        let shop = try TestShop([chair])
        let body = #"{"title": "Stool", "price": 10}"#
        for token in [nil, "nope", String(repeating: "a", count: 32)] as [String?] {
            let response = try shop.api(.post, "/api/products", token: token, json: body)
            #expect(response.status == 401 && response.header("WWW-Authenticate") == "Bearer")
            #expect(try errorCode(response) == "unauthorized")
        }
        let basic = try shop.api(.post, "/api/products", json: body, headers: ["Authorization": "Basic YTpi"])
        #expect(basic.status == 401)
        // A signed-out token stops working.
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let session = try #require(try shop.sessions.find(shop.sessionID(forCookie: token)))
        try shop.sessions.delete(session.id)
        #expect(try shop.api(.post, "/api/products", token: token, json: body).status == 401)
    }

    @Test func aShoppersTokenIsForbiddenFromCatalogWrites() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("ana@example.com")
        let id = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
        for (method, path) in [(HTTPMethod.post, "/api/products"), (.put, "/api/products/\(id)"),
                               (.patch, "/api/products/\(id)"), (.delete, "/api/products/\(id)")] {
            let response = try shop.api(method, path, token: token, json: #"{"title": "X", "price": 1}"#)
            #expect(response.status == 403, "\(method) \(path)")
            #expect(try errorCode(response) == "forbidden")
        }
        #expect(try shop.catalog.productByHandle("oak-chair")?.title == "Oak Chair")
    }

    @Test func theRoleIsStoredAndReadBack() throws {
        let shop = try TestShop()
        let (created, _) = try shop.apiAccount("op@example.com", role: .operator)
        #expect(created.isOperator)
        #expect(try shop.accounts.user(created.id)?.role == .operator)
        #expect(try shop.accounts.credentials("op@example.com")?.user.isOperator == true)
        let (shopper, _) = try shop.apiAccount("ana@example.com")
        #expect(try shop.accounts.users().map(\.role) == [.operator, .shopper] && !shopper.isOperator)
    }
}

@Suite("Fake Store API: product writes")
struct FakeStoreProductWriteTests {
    @Test func creatingAProductAnswers201WithLocationAndANewCategory() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let response = try shop.api(.post, "/api/products", token: token, json: """
            {"title": "Linen Lamp", "price": 13.5, "description": "Warm <b>light</b>", "category": "lamps",
             "image": "https://cdn.example.com/lamp.jpg"}
            """)
        #expect(response.status == 201)
        let product = try decode(FakeStoreProduct.self, response)
        #expect(response.header("Location") == "https://shop.test/api/products/\(product.id)")
        #expect(product.title == "Linen Lamp" && product.price == Decimal(string: "13.5") && product.category == "lamps")
        #expect(product.description == "Warm <b>light</b>" && product.handle == "linen-lamp")
        #expect(product.image == "https://cdn.example.com/lamp.jpg" && product.currency == "USD")
        let stored = try #require(try shop.catalog.productByHandle("linen-lamp"))
        #expect(stored.variants.map(\.price) == [.usd(13_50)], "integer minor units")
        #expect(stored.descriptionHTML == "<p>Warm &lt;b&gt;light&lt;/b&gt;</p>", "plain text, escaped like an import")
        #expect(try decode([String].self, try shop.api(.get, "/api/products/categories")).contains("lamps"))
        let read = try decode(FakeStoreProduct.self, try shop.api(.get, "/api/products/\(product.id)"))
        #expect(read == product)
    }

    @Test func aSecondProductWithTheSameTitleGetsItsOwnHandle() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let created = try decode(FakeStoreProduct.self,
                                 try shop.api(.post, "/api/products", token: token, json: #"{"title": "Oak Chair", "price": 1}"#))
        #expect(created.handle == "oak-chair-2")
        #expect(try shop.catalog.productByHandle("oak-chair")?.variants.count == 2, "the first one is untouched")
    }

    @Test(arguments: [
        (#"{"title": "Lamp", "price": 19.999}"#, "invalid_field", "price"),
        (#"{"title": "Lamp", "price": -1}"#, "invalid_field", "price"),
        (#"{"title": "Lamp", "price": "12"}"#, "invalid_field", "price"),
        (#"{"price": 12}"#, "invalid_field", "title"),
        (#"{"title": "  ", "price": 12}"#, "invalid_field", "title"),
        (#"{"title": "Lamp", "price": 12, "image": "javascript:alert(1)"}"#, "invalid_field", "image"),
        // Stored and served as sent, so only what an app can load (a fresh tester).
        (#"{"title": "Lamp", "price": 12, "image": "not a url"}"#, "invalid_field", "image"),
        (#"{"title": "Lamp", "price": 12, "image": "../../x.png"}"#, "invalid_field", "image"),
        (#"{"title": "Lamp", "price": 12, "image": "file:///etc/passwd"}"#, "invalid_field", "image"),
        (#"{"title": "Lamp", "price": 12, "image": "//evil.example/x.png"}"#, "invalid_field", "image"),
        (#"{"title": "Lamp", "price": 12, "image": "https://"}"#, "invalid_field", "image"),
        (#"{"title": "Lamp"}"#, "invalid_field", "price"),
        (#"{"title": "Lamp", "price": 1, "category": "\#(String(repeating: "c", count: 300))"}"#, "invalid_field", "category"),
    ])
    func badProductBodiesAre400WithTheField(body: String, code: String, field: String) throws {
        let shop = try TestShop()
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let response = try shop.api(.post, "/api/products", token: token, json: body)
        #expect(response.status == 400)
        let error = try decode(APIErrorEnvelope.self, response).error
        #expect(error.code == code && error.field == field, "\(error)")
        #expect(try shop.catalog.productCount() == 0)
    }

    @Test(arguments: ["https://cdn.example.com/lamp.jpg", "HTTP://cdn.example.com/a.png", "/media/lamp.jpg", ""])
    func anImageAnAppCanLoadIsTaken(image: String) throws {
        let shop = try TestShop()
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let response = try shop.api(.post, "/api/products", token: token,
                                    json: #"{"title": "Lamp", "price": 12, "image": "\#(image)"}"#)
        #expect(response.status == 201, "\(response.text)")
    }

    /// A price past what minor units hold says so, not that it has too many decimals; a blank
    /// title is a sentence, not the importers' "is required".
    @Test func refusalsReadAsSentences() throws {
        let shop = try TestShop()
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let huge = try decode(APIErrorEnvelope.self,
                              try shop.api(.post, "/api/products", token: token, json: #"{"title": "x", "price": 1e20}"#)).error
        #expect(huge.field == "price" && huge.message.contains("not a price USD can hold"), "\(huge.message)")
        let blank = try decode(APIErrorEnvelope.self,
                               try shop.api(.post, "/api/products", token: token, json: #"{"title": " ", "price": 1}"#)).error
        #expect(blank.field == "title" && blank.message == "The product needs a “title”.", "\(blank.message)")
        let nul = try shop.api(.post, "/api/products", token: token, json: #"{"title": "La\u0000mp", "price": 12}"#)
        #expect(try nul.status == 400 && decode(APIErrorEnvelope.self, nul).error.code == "malformed_body")
        let precise = try decode(APIErrorEnvelope.self,
                                 try shop.api(.post, "/api/products", token: token, json: #"{"title": "x", "price": 1.005}"#)).error
        #expect(precise.message.contains("more decimals"), "\(precise.message)")
    }

    @Test func patchChangesOnlyTheFieldsSentAndKeepsWhatFakeStoreCannotSay() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let id = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
        let response = try shop.api(.patch, "/api/products/\(id)", token: token, json: #"{"price": 45}"#)
        #expect(response.status == 200)
        #expect(try decode(FakeStoreProduct.self, response).price == 45)
        let stored = try #require(try shop.catalog.productByHandle("oak-chair"))
        #expect(stored.title == "Oak Chair" && stored.descriptionHTML == "<p>oak-chair</p>" && stored.tags == ["wood"])
        #expect(stored.variants.map(\.price) == [.usd(45_00), .usd(59_90)], "the shown variant's price")
        #expect(stored.variants.map(\.sku) == ["OAK-S", "OAK-L"] && stored.variants[0].inventory == .tracked(quantity: 4, allowsBackorder: false))
        #expect(stored.images.map(\.url) == ["/a.jpg", "/b.jpg"])
        // An API write is in the audit log as the operator's, through the API (issue #16).
        let audit = try #require(shop.environment.audit)
        let entry = try #require(try audit.entries(AuditQuery(source: .api, subject: "product")).entries.first)
        #expect(entry.actor == "op@example.com" && entry.source == .api)
        #expect(entry.changes == [AuditChange(field: "variant OAK-S price", before: "4990 USD minor units", after: "4500 USD minor units")])
    }

    @Test func putReplacesTheFakeStoreFields() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let id = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
        let response = try shop.api(.put, "/api/products/\(id)", token: token,
                                    json: #"{"title": "Oak Armchair", "price": 79.9, "category": "Armchairs", "image": "https://x.example/c.jpg"}"#)
        #expect(response.status == 200)
        let answer = try decode(FakeStoreProduct.self, response)
        #expect(answer.title == "Oak Armchair" && answer.category == "Armchairs" && answer.description == "")
        let stored = try #require(try shop.catalog.productByHandle("oak-chair"), "the handle (URL) stays")
        #expect(stored.images.map(\.url) == ["https://x.example/c.jpg", "/b.jpg"])
        #expect(try shop.api(.put, "/api/products/\(id)", token: token, json: #"{"title": "No price"}"#).status == 400)
    }

    @Test func deleteUnpublishesAndAnswersTheProduct() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let id = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
        let response = try shop.api(.delete, "/api/products/\(id)", token: token)
        #expect(response.status == 200)
        #expect(try decode(FakeStoreProduct.self, response).title == "Oak Chair")
        #expect(try decode(FakeStoreProduct.self, response).category == "Chairs")
        #expect(try shop.api(.get, "/api/products/\(id)").status == 404)
        #expect(try shop.catalog.productCount() == 1, "unpublished, not destroyed")
        #expect(try shop.api(.delete, "/api/products/\(id)", token: token).status == 404)
        #expect(try shop.api(.patch, "/api/products/\(id)", token: token, json: #"{"price": 1}"#).status == 404)
    }

    @Test func unknownAndMalformedIdsAre404And400() throws {
        let shop = try TestShop([chair])
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        #expect(try shop.api(.patch, "/api/products/999", token: token, json: #"{"price": 1}"#).status == 404)
        #expect(try shop.api(.delete, "/api/products/999", token: token).status == 404)
        let malformed = try shop.api(.put, "/api/products/abc", token: token, json: #"{"price": 1}"#)
        #expect(malformed.status == 400)
        #expect(try errorCode(malformed) == "malformed_id")
        let notJSON = try shop.api(.post, "/api/products", json: "title=x", contentType: "text/plain",
                                   headers: ["Authorization": "Bearer \(token)"])
        #expect(notJSON.status == 400)
        #expect(try errorCode(notJSON) == "unsupported_media_type")
    }

    @Test func simultaneousPatchesOfDifferentFieldsAllLand() throws {
        let file = try SQLiteTestShop([chair])
        let shop = file.shop
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        let id = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
        for round in 0..<30 {
            let bodies = [#"{"title": "Chair \#(round)"}"#, #"{"price": \#(round + 1)}"#,
                          #"{"description": "round \#(round)"}"#, #"{"category": "Chairs \#(round)"}"#]
            DispatchQueue.concurrentPerform(iterations: bodies.count) { index in
                _ = try? shop.api(.patch, "/api/products/\(id)", token: token, json: bodies[index])
            }
            let product = try decode(FakeStoreProduct.self, try shop.api(.get, "/api/products/\(id)"))
            #expect(product.title == "Chair \(round)" && product.price == Decimal(round + 1)
                    && product.description == "round \(round)" && product.category == "Chairs \(round)", "round \(round)")
        }
    }

    @Test func simultaneousCreatesWithOneTitleMakeDistinctProducts() throws {
        let file = try SQLiteTestShop()
        let shop = file.shop
        let (_, token) = try shop.apiAccount("op@example.com", role: .operator)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            _ = try? shop.api(.post, "/api/products", token: token, json: #"{"title": "Stool", "price": \#(index + 1)}"#)
        }
        #expect(try shop.catalog.productCount() == 8)
        let prices = try decode([FakeStoreProduct].self, try shop.api(.get, "/api/products")).map(\.price)
        #expect(Set(prices) == Set((1...8).map { Decimal($0) }))
    }
}
