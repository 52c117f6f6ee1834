import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.response.body))
}

@Suite("Fake Store API: user reads")
struct FakeStoreUserReadTests {
    @Test func anOperatorListsEveryAccountAndAShopperOnlyItself() throws {
        let shop = try TestShop()
        let (op, opToken) = try shop.apiAccount("op@example.com", name: "Olga Operator", role: .operator)
        let (ana, anaToken) = try shop.apiAccount("ana@example.com", name: "Ana Maria Lima")
        let all = try decode([FakeStoreUser].self, try shop.api(.get, "/api/users", token: opToken))
        #expect(all.map(\.id) == [op.id.rawValue, ana.id.rawValue])
        #expect(all[1] == FakeStoreUser(id: ana.id.rawValue, email: "ana@example.com", username: "ana@example.com",
                                        name: .init(firstname: "Ana", lastname: "Maria Lima")))
        #expect(try decode([FakeStoreUser].self, try shop.api(.get, "/api/users?sort=desc&limit=1", token: opToken))
                .map(\.id) == [ana.id.rawValue])
        let own = try shop.api(.get, "/api/users", token: anaToken)
        #expect(try decode([FakeStoreUser].self, own).map(\.id) == [ana.id.rawValue])
        #expect(!own.text.contains("password") && !own.text.contains("argon"), "never a password or its hash")
        #expect(try shop.api(.get, "/api/users", token: nil).status == 401)
    }

    @Test func oneAccountIsItsOwnersOrAnOperatorsAndAnotherShoppersIdIs404() throws {
        let shop = try TestShop()
        let (_, opToken) = try shop.apiAccount("op@example.com", role: .operator)
        let (ana, anaToken) = try shop.apiAccount("ana@example.com")
        let (bea, _) = try shop.apiAccount("bea@example.com", name: "Bea Souza")
        #expect(try decode(FakeStoreUser.self, try shop.api(.get, "/api/users/\(ana.id.rawValue)", token: anaToken)).email
                == "ana@example.com")
        #expect(try decode(FakeStoreUser.self, try shop.api(.get, "/api/users/\(bea.id.rawValue)", token: opToken)).email
                == "bea@example.com")
        let other = try shop.api(.get, "/api/users/\(bea.id.rawValue)", token: anaToken)
        let unknown = try shop.api(.get, "/api/users/999", token: anaToken)
        #expect(other.status == 404 && unknown.status == 404)
        #expect(try decode(APIErrorEnvelope.self, other).error.code == "not_found")
        #expect(try shop.api(.get, "/api/users/abc", token: anaToken).status == 400)
    }
}
