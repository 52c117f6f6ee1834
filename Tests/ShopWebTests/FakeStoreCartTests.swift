import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.response.body))
}

private func error(_ response: TestResponse) throws -> APIErrorEnvelope.Body { try decode(APIErrorEnvelope.self, response).error }

private let drafts = [ProductDraft.mock(handle: "oak-chair", title: "Oak Chair"), ProductDraft.mock(handle: "lamp", title: "Lamp"),
                      ProductDraft.mock(handle: "gone", title: "Gone", isPublished: false)]

private func ids(_ shop: TestShop) throws -> (chair: Int64, lamp: Int64, gone: Int64) {
    let chair = try #require(try shop.catalog.productByHandle("oak-chair")).id.rawValue
    let lamp = try #require(try shop.catalog.productByHandle("lamp")).id.rawValue
    // The unpublished one, stored after them (every catalog read hides it).
    return (chair, lamp, max(chair, lamp) + 1)
}

@Suite("Fake Store API: carts")
struct FakeStoreCartTests {
    @Test func creatingACartAnswers201AndItReadsBackInFakeStoresShape() throws {
        let shop = try TestShop(drafts)
        let (chair, lamp, _) = try ids(shop)
        let (ana, token) = try shop.apiAccount("ana@example.com")
        let response = try shop.api(.post, "/api/carts", token: token, json: """
            {"userId": \(ana.id.rawValue), "date": "2020-02-03", "products": [{"productId": \(chair), "quantity": 2},
             {"productId": \(lamp), "quantity": 1}]}
            """)
        #expect(response.status == 201)
        let cart = try decode(FakeStoreCart.self, response)
        #expect(response.header("Location") == "https://shop.test/api/carts/\(cart.id)")
        #expect(cart == FakeStoreCart(id: cart.id, userId: ana.id.rawValue, date: "2020-02-03T00:00:00.000Z",
                                      products: [.init(productId: chair, quantity: 2), .init(productId: lamp, quantity: 1)]))
        #expect(try decode(FakeStoreCart.self, try shop.api(.get, "/api/carts/\(cart.id)", token: token)) == cart)
        #expect(try decode([FakeStoreCart].self, try shop.api(.get, "/api/carts/user/\(ana.id.rawValue)", token: token)) == [cart])
        // Left out: the owner is the caller, the date now.
        let plain = try decode(FakeStoreCart.self, try shop.api(.post, "/api/carts", token: token, json: #"{"products": []}"#))
        #expect(plain.userId == ana.id.rawValue && plain.date == FakeStoreDate.format(shop.clock.now))
        // The storefront cart is untouched.
        #expect(try shop.api(.post, "/api/carts", token: nil, json: #"{"products": []}"#).status == 401)
    }

    @Test func listsFilterByDateWithTheEndExclusiveAndSortAndLimitById() throws {
        let shop = try TestShop(drafts)
        let (chair, _, _) = try ids(shop)
        let (_, opToken) = try shop.apiAccount("op@example.com", role: .operator)
        let (ana, anaToken) = try shop.apiAccount("ana@example.com")
        let (_, beaToken) = try shop.apiAccount("bea@example.com", name: "Bea Souza")
        var made: [Int64] = []
        for (token, date) in [(anaToken, "2020-01-01"), (anaToken, "2020-01-02T12:00:00Z"), (beaToken, "2020-01-03")] {
            made.append(try decode(FakeStoreCart.self, try shop.api(.post, "/api/carts", token: token, json: """
                {"date": "\(date)", "products": [{"productId": \(chair), "quantity": 1}]}
                """)).id)
        }
        func list(_ target: String, _ token: String) throws -> [Int64] {
            try decode([FakeStoreCart].self, try shop.api(.get, target, token: token)).map(\.id)
        }
        #expect(try list("/api/carts", opToken) == made)
        #expect(try list("/api/carts", anaToken) == Array(made.prefix(2)), "a shopper sees only their own")
        #expect(try list("/api/carts?sort=desc&limit=2", opToken) == [made[2], made[1]])
        #expect(try list("/api/carts?startdate=2020-01-02&enddate=2020-01-03", opToken) == [made[1]])
        #expect(try list("/api/carts?enddate=2020-01-03", opToken) == Array(made.prefix(2)), "the end is exclusive")
        #expect(try list("/api/carts/user/\(ana.id.rawValue)?startdate=2020-01-02", opToken) == [made[1]])
        for target in ["/api/carts?startdate=yesterday", "/api/carts?startdate=2020-02-03Tjunk", "/api/carts?startdate=2021-02-29"] {
            let bad = try shop.api(.get, target, token: opToken)
            #expect(try bad.status == 400 && (error(bad)).code == "malformed_date" && (try error(bad)).field == "startdate", "\(target)")
        }
        #expect(try shop.api(.get, "/api/carts", token: nil).status == 401)
    }

    @Test func anotherShoppersCartOrCartsAre404() throws {
        let shop = try TestShop(drafts)
        let (chair, _, _) = try ids(shop)
        let (ana, anaToken) = try shop.apiAccount("ana@example.com")
        let (bea, beaToken) = try shop.apiAccount("bea@example.com", name: "Bea Souza")
        let beas = try decode(FakeStoreCart.self, try shop.api(.post, "/api/carts", token: beaToken,
                                                               json: #"{"products": [{"productId": \#(chair), "quantity": 1}]}"#))
        for method in [HTTPMethod.get, .put, .patch, .delete] {
            let response = try shop.api(method, "/api/carts/\(beas.id)", token: anaToken,
                                        json: method == .get ? nil : #"{"products": []}"#)
            #expect(try response.status == 404 && (error(response)).code == "not_found", "\(method)")
            #expect(try shop.api(method, "/api/carts/999", token: anaToken, json: method == .get ? nil : #"{"products": []}"#).status == 404)
            #expect(try shop.api(method, "/api/carts/x", token: anaToken, json: method == .get ? nil : "{}").status == 400)
        }
        #expect(try shop.api(.get, "/api/carts/user/\(bea.id.rawValue)", token: anaToken).status == 404)
        #expect(try decode(FakeStoreCart.self, try shop.api(.get, "/api/carts/\(beas.id)", token: beaToken)).products.count == 1,
                "untouched")
        let filing = try shop.api(.post, "/api/carts", token: anaToken, json: #"{"userId": \#(bea.id.rawValue), "products": []}"#)
        #expect(filing.status == 403, "a shopper files carts only for themselves")
        _ = ana
    }

    @Test(arguments: [
        (#"[{"productId": PRODUCT, "quantity": 0}]"#, "products[0].quantity"),
        (#"[{"productId": PRODUCT, "quantity": 100}]"#, "products[0].quantity"),
        (#"[{"productId": PRODUCT, "quantity": 1}, {"productId": PRODUCT, "quantity": 1}]"#, "products[1].productId"),
        (#"[{"productId": 9999, "quantity": 1}]"#, "products[0].productId"),
        (#"[{"productId": GONE, "quantity": 1}]"#, "products[0].productId"),
        (#"[{"productId": PRODUCT, "quantity": "2"}]"#, "products[0].quantity"),
        // Left out: the whole path too, not `quantity` (a fresh tester).
        (#"[{"productId": PRODUCT, "quantity": 1}, {"productId": PRODUCT}]"#, "products[1].quantity"),
    ])
    func linesFollowTheCartRules(products: String, field: String) throws {
        let shop = try TestShop(drafts)
        let (chair, _, gone) = try ids(shop)
        let (_, token) = try shop.apiAccount("ana@example.com")
        let body = #"{"products": \#(products)}"#.replacingOccurrences(of: "PRODUCT", with: String(chair))
            .replacingOccurrences(of: "GONE", with: String(gone))
        let response = try shop.api(.post, "/api/carts", token: token, json: body)
        #expect(response.status == 400)
        #expect(try error(response).field == field)
        #expect(try decode([FakeStoreCart].self, try shop.api(.get, "/api/carts", token: token)).isEmpty)
    }

    @Test func putReplacesPatchChangesTheFieldsSentAndDeleteAnswersTheCart() throws {
        let shop = try TestShop(drafts)
        let (chair, lamp, _) = try ids(shop)
        let (_, token) = try shop.apiAccount("ana@example.com")
        let cart = try decode(FakeStoreCart.self, try shop.api(.post, "/api/carts", token: token, json: """
            {"date": "2020-01-01", "products": [{"productId": \(chair), "quantity": 1}]}
            """))
        let patched = try decode(FakeStoreCart.self, try shop.api(.patch, "/api/carts/\(cart.id)", token: token,
                                                                  json: #"{"date": "2021-05-06T07:08:09.123Z"}"#))
        #expect(patched.date == "2021-05-06T07:08:09.123Z" && patched.products == cart.products)
        for date in ["2020-02-03T10:30", "2020-02-03Tgarbage", "2020-02-03T25:61:99Z", "2020-06-31"] {
            let refused = try shop.api(.patch, "/api/carts/\(cart.id)", token: token, json: #"{"date": "\#(date)"}"#)
            #expect(try refused.status == 400 && (error(refused)).code == "malformed_date" && (try error(refused)).field == "date",
                    "\(date)")
        }
        let put = try decode(FakeStoreCart.self, try shop.api(.put, "/api/carts/\(cart.id)", token: token,
                                                              json: #"{"products": [{"productId": \#(lamp), "quantity": 3}]}"#))
        #expect(put.products == [.init(productId: lamp, quantity: 3)] && put.date == FakeStoreDate.format(shop.clock.now))
        let noProducts = try shop.api(.put, "/api/carts/\(cart.id)", token: token, json: #"{"date": "2020-01-01"}"#)
        #expect(try noProducts.status == 400 && (error(noProducts)).field == "products")
        let deleted = try shop.api(.delete, "/api/carts/\(cart.id)", token: token)
        #expect(try deleted.status == 200 && (decode(FakeStoreCart.self, deleted)) == put)
        #expect(try shop.api(.get, "/api/carts/\(cart.id)", token: token).status == 404)
    }

    @Test func simultaneousPatchesOfDifferentFieldsBothLandAndLinesNeverMix() throws {
        let file = try SQLiteTestShop(drafts)
        let shop = file.shop
        let (chair, lamp, _) = try ids(shop)
        let (_, token) = try shop.apiAccount("ana@example.com")
        let cart = try decode(FakeStoreCart.self, try shop.api(.post, "/api/carts", token: token, json: #"{"products": []}"#))
        for round in 0..<30 {
            let date = String(format: "2020-01-%02dT00:00:00.000Z", round % 28 + 1)
            let bodies = [#"{"date": "\#(date)"}"#,
                          #"{"products": [{"productId": \#(chair), "quantity": \#(round % 99 + 1)}]}"#,
                          #"{"products": [{"productId": \#(lamp), "quantity": 1}, {"productId": \#(chair), "quantity": 2}]}"#]
            DispatchQueue.concurrentPerform(iterations: bodies.count) { index in
                _ = try? shop.api(.patch, "/api/carts/\(cart.id)", token: token, json: bodies[index])
            }
            let now = try decode(FakeStoreCart.self, try shop.api(.get, "/api/carts/\(cart.id)", token: token))
            #expect(now.date == date, "round \(round)")
            #expect(now.products == [.init(productId: chair, quantity: round % 99 + 1)]
                    || now.products == [.init(productId: lamp, quantity: 1), .init(productId: chair, quantity: 2)], "round \(round)")
        }
    }
}
