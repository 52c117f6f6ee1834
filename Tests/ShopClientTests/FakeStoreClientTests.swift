import Foundation
import ShopAPI
import ShopClient
import ShopCore
import ShopTestSupport
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A catalog with Fake Store's category names.
private let fakeStoreCatalog: [ProductDraft] = [
    .mock(handle: "silver-ring", title: "Silver Ring", category: "jewelery", variants: [.mock(price: .usd(9_99))],
          images: [ProductImage(url: LiveShop.chairImage)]),
    .mock(handle: "gold-chain", title: "Gold Chain", category: "jewelery", variants: [.mock(price: .usd(695_00))]),
    .mock(handle: "ssd", title: "Portable SSD", category: "electronics", variants: [.mock(price: .usd(64_00))]),
    .mock(handle: "backpack", title: "Backpack", category: "men's clothing", variants: [.mock(price: .usd(109_95))]),
    .mock(handle: "tee", title: "Slim Tee", category: "men's clothing", variants: [.mock(price: .usd(22_30))]),
    .mock(handle: "jacket", title: "Cotton Jacket", category: "men's clothing", variants: [.mock(price: .usd(55_99))]),
]

@Suite("ShopClient: Fake Store named methods")
struct FakeStoreClientTests {
    @Test func productUserAndCartWritesByName() async throws {
        let live = try LiveShop(fakeStoreCatalog)
        defer { live.stop() }
        _ = try live.shop.apiAccount("op@example.com", role: .operator)
        let client = live.client()
        try await client.login(username: "op@example.com", password: "Blue9sky!")

        // Products (operator).
        var stool = try await client.createProduct(FakeStoreProductInput(title: "Stool", price: Decimal(string: "19.5"),
                                                                          category: "furniture"))
        #expect(stool.title == "Stool" && stool.price == Decimal(string: "19.5") && stool.category == "furniture")
        stool = try await client.updateProduct(id: stool.id, with: FakeStoreProductInput(title: "Oak Stool"))
        #expect(stool.title == "Oak Stool" && stool.price == Decimal(string: "19.5"))
        #expect(try await client.products(inCategory: "furniture").map(\.id) == [stool.id])
        stool = try await client.replaceProduct(id: stool.id, with: FakeStoreProductInput(title: "Pine Stool", price: 12))
        #expect(stool.title == "Pine Stool" && stool.price == 12 && stool.category == "", "PUT clears what it leaves out")
        #expect(try await client.deleteProduct(id: stool.id).id == stool.id)
        let gone = await #expect(throws: NetworkError.self) { try await client.product(id: stool.id) }
        #expect(gone?.status == 404)

        // Users.
        let input = FakeStoreUserInput(email: "john@example.com", username: "johnd", password: "Blue9sky!",
                                       name: .init(firstname: "John", lastname: "Doe"), phone: "1-570-236-7033")
        var john = try await client.createUser(input)
        #expect(john.username == "johnd" && john.name.firstname == "John")
        john = try await client.updateUser(id: john.id, with: FakeStoreUserInput(phone: "1-570-000-0000"))
        #expect(john.phone == "1-570-000-0000")
        var replacement = input
        replacement.name = .init(firstname: "Johnny", lastname: "Doe")
        john = try await client.replaceUser(id: john.id, with: replacement)
        #expect(try await client.user(id: john.id).name.firstname == "Johnny")
        #expect(try await client.users(sort: .desc).first?.id == john.id)
        #expect(try await client.users(limit: 1).count == 1)

        // Carts, as John.
        let shopper = live.client()
        try await shopper.login(username: "johnd", password: "Blue9sky!")
        let products = try await shopper.products(limit: 2)
        var cart = try await shopper.createCart(FakeStoreCartInput(date: "2020-02-03",
                                                                    products: [.init(productId: products[0].id, quantity: 4)]))
        #expect(cart.userId == john.id && cart.date == "2020-02-03T00:00:00.000Z")
        let later = try await shopper.createCart(FakeStoreCartInput(date: "2020-03-01",
                                                                     products: [.init(productId: products[1].id, quantity: 1)]))
        cart = try await shopper.updateCart(id: cart.id, with: FakeStoreCartInput(products: [.init(productId: products[1].id,
                                                                                                    quantity: 2)]))
        #expect(cart.products == [.init(productId: products[1].id, quantity: 2)] && cart.date == "2020-02-03T00:00:00.000Z")
        cart = try await shopper.replaceCart(id: cart.id, with: FakeStoreCartInput(date: "2020-02-10",
                                                                                    products: [.init(productId: products[0].id, quantity: 1)]))
        #expect(try await shopper.cart(id: cart.id) == cart)
        #expect(try await shopper.carts().map(\.id) == [cart.id, later.id])
        #expect(try await shopper.carts(sort: .desc, startDate: FakeStoreDate.parse("2020-02-15")).map(\.id) == [later.id])
        #expect(try await shopper.carts(endDate: FakeStoreDate.parse("2020-02-15")).map(\.id) == [cart.id])
        #expect(try await shopper.carts(ofUser: john.id, limit: 1).map(\.id) == [cart.id])
        #expect(try await shopper.deleteCart(id: cart.id) == cart)
        #expect(try await client.carts(ofUser: john.id).map(\.id) == [later.id], "an operator sees every cart")

        #expect(try await shopper.deleteUser(id: john.id).id == john.id)
        let signedOut = await #expect(throws: NetworkError.self) { try await shopper.carts() }
        #expect(signedOut?.status == 401)
    }
}

/// Issue #10's "Done when": a Fake Store client pointed at `/api` works unchanged. These requests
/// are the ones fakestoreapi.com's documentation shows, sent with plain `URLSession` and decoded
/// into the structs such a client declares — nothing of `ShopAPI` or `ShopClient`.
@Suite("Fake Store compatibility: an unchanged Fake Store client")
struct FakeStoreCompatibilityTests {
    // The app's own models, as a Fake Store tutorial writes them.
    struct Product: Codable {
        struct Rating: Codable {
            let rate: Double
            let count: Int
        }

        let id: Int
        let title: String
        let price: Double
        let description: String
        let category: String
        let image: String
        let rating: Rating
    }

    struct CartProduct: Codable, Equatable {
        let productId: Int
        let quantity: Int
    }

    struct Cart: Codable {
        let id: Int
        let userId: Int
        let date: String
        let products: [CartProduct]
    }

    struct User: Codable {
        struct Name: Codable {
            let firstname: String
            let lastname: String
        }

        let id: Int
        let email: String
        let username: String
        let name: Name
        let phone: String
    }

    struct Token: Codable { let token: String }

    /// `fetch(base + path, {method, headers, body})` as the app does it.
    struct FakeStoreAPI {
        let base: URL
        var token: String?

        func call<T: Decodable>(_ method: String, _ path: String, json: String? = nil,
                                as type: T.Type = T.self) async throws -> T {
            let url = try #require(URL(string: base.absoluteString + "/api" + path))
            var request = URLRequest(url: url)
            request.httpMethod = method
            if let json {
                request.httpBody = Data(json.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            #expect((200..<300).contains(status), "\(method) \(path): \(status) \(String(decoding: data, as: UTF8.self))")
            return try JSONDecoder().decode(T.self, from: data)
        }
    }

    @Test func readsSignInAndCartWritesWorkUnchanged() async throws {
        let live = try LiveShop(fakeStoreCatalog)
        defer { live.stop() }
        var api = FakeStoreAPI(base: live.baseURL)

        // Reads.
        let five: [Product] = try await api.call("GET", "/products?limit=5")
        #expect(five.map(\.id) == Array(five.map(\.id).sorted()) && five.count == 5)
        #expect(five[0].title == "Silver Ring" && five[0].price == 9.99 && five[0].image == live.baseURL.absoluteString + LiveShop.chairImage)
        let categories: [String] = try await api.call("GET", "/products/categories")
        #expect(Set(categories) == ["jewelery", "electronics", "men's clothing"])
        let jewelery: [Product] = try await api.call("GET", "/products/category/jewelery")
        #expect(jewelery.map(\.title) == ["Silver Ring", "Gold Chain"])
        let clothing: [Product] = try await api.call("GET", "/products/category/men's%20clothing?sort=desc&limit=2")
        #expect(clothing.map(\.title) == ["Cotton Jacket", "Slim Tee"])
        let one: Product = try await api.call("GET", "/products/\(five[1].id)")
        #expect(one.title == "Gold Chain" && one.price == 695 && one.category == "jewelery")
        let descending: [Product] = try await api.call("GET", "/products?sort=desc")
        #expect(descending.first?.title == "Cotton Jacket" && descending.count == 6)

        // Sign-up and sign-in with the documentation's bodies.
        let user: User = try await api.call("POST", "/users", json: """
            {"email": "John@gmail.com", "username": "johnd", "password": "m38rmF9x",
             "name": {"firstname": "John", "lastname": "Doe"},
             "address": {"city": "kilcoole", "street": "7835 new road", "number": 3, "zipcode": "12926-3874",
                         "geolocation": {"lat": "-37.3159", "long": "81.1496"}},
             "phone": "1-570-236-7033"}
            """)
        #expect(user.username == "johnd" && user.name.lastname == "Doe")
        let token: Token = try await api.call("POST", "/auth/login", json: #"{"username": "johnd", "password": "m38rmF9x"}"#)
        api.token = token.token

        // Cart writes.
        let created: Cart = try await api.call("POST", "/carts", json: """
            {"userId": \(user.id), "date": "2020-02-03", "products": [{"productId": \(five[0].id), "quantity": 5},
                                                                    {"productId": \(five[2].id), "quantity": 1}]}
            """)
        #expect(created.userId == user.id && created.date.hasPrefix("2020-02-03"))
        #expect(created.products == [CartProduct(productId: five[0].id, quantity: 5), CartProduct(productId: five[2].id, quantity: 1)])
        let replaced: Cart = try await api.call("PUT", "/carts/\(created.id)", json: """
            {"userId": \(user.id), "date": "2019-12-10", "products": [{"productId": \(five[1].id), "quantity": 3}]}
            """)
        #expect(replaced.id == created.id && replaced.products == [CartProduct(productId: five[1].id, quantity: 3)])
        let patched: Cart = try await api.call("PATCH", "/carts/\(created.id)", json: """
            {"products": [{"productId": \(five[1].id), "quantity": 4}]}
            """)
        #expect(patched.products == [CartProduct(productId: five[1].id, quantity: 4)] && patched.date.hasPrefix("2019-12-10"))
        let mine: [Cart] = try await api.call("GET", "/carts/user/\(user.id)")
        #expect(mine.map(\.id) == [created.id])
        let ranged: [Cart] = try await api.call("GET", "/carts?startdate=2019-12-01&enddate=2020-01-01")
        #expect(ranged.map(\.id) == [created.id])
        let single: Cart = try await api.call("GET", "/carts/\(created.id)")
        #expect(single.products == patched.products)
        let deleted: Cart = try await api.call("DELETE", "/carts/\(created.id)")
        #expect(deleted.id == created.id)
        let none: [Cart] = try await api.call("GET", "/carts")
        #expect(none.isEmpty)
    }
}
