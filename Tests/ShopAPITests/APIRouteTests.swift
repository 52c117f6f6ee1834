import Routing
import ShopAPI
import Testing

@Suite("API routes")
struct APIRouteTests {
    /// Every route declared: printing a value and parsing the request gives the value back.
    static let samples: [APIRoute] = [
        .fakeStore(.products(FakeStoreListQuery())),
        .fakeStore(.products(FakeStoreListQuery(limit: 5, sort: .desc))),
        .fakeStore(.product(FakeStoreID(7))),
        .fakeStore(.categories),
        .fakeStore(.category(name: "men's clothing", FakeStoreListQuery(limit: 2))),
        .fakeStore(.category(name: "a b ç?", FakeStoreListQuery(sort: .asc))),
        .fakeStore(.login),
        .fakeStore(.createProduct),
        .fakeStore(.replaceProduct(FakeStoreID(3))),
        .fakeStore(.updateProduct(FakeStoreID(3))),
        .fakeStore(.deleteProduct(FakeStoreID(3))),
        .fakeStore(.users(FakeStoreListQuery(limit: 2, sort: .desc))),
        .fakeStore(.user(FakeStoreID(4))),
        .openAPI,
        .fakeStore(.createUser),
        .fakeStore(.replaceUser(FakeStoreID(4))),
        .fakeStore(.updateUser(FakeStoreID(4))),
        .fakeStore(.deleteUser(FakeStoreID(4))),
        .fakeStore(.carts(FakeStoreCartQuery())),
        .fakeStore(.carts(FakeStoreCartQuery(FakeStoreListQuery(limit: 3, sort: .desc), startDate: "2020-01-01",
                                             endDate: "2020-02-01T00:00:00Z"))),
        .fakeStore(.cart(FakeStoreID(5))),
        .fakeStore(.userCarts(FakeStoreID(2), FakeStoreCartQuery(startDate: "2020-01-01"))),
        .fakeStore(.createCart),
        .fakeStore(.replaceCart(FakeStoreID(5))),
        .fakeStore(.updateCart(FakeStoreID(5))),
        .fakeStore(.deleteCart(FakeStoreID(5))),
    ]

    @Test(arguments: samples)
    func everyRouteRoundTrips(route: APIRoute) {
        #expect(APIRoute.router.parse(route.request)?.route == route)
    }

    @Test func everyDeclarationHasASample() {
        let printed = Set(Self.samples.map { APIRoute.router.declaration(for: $0).declaration.pattern + " " + $0.request.method })
        let declared = Set(APIRoute.router.declarations.map { $0.pattern + " " + $0.method })
        #expect(printed == declared)
    }

    @Test(arguments: [("GET", "/api/products/categories", APIRoute.fakeStore(.categories)),
                      ("GET", "/api/products/abc", .fakeStore(.product(FakeStoreID(text: "abc")))),
                      ("GET", "/api/products/category/jewelery", .fakeStore(.category(name: "jewelery", FakeStoreListQuery())))])
    func pathsParseAsFakeStoreClientsSendThem(method: String, path: String, route: APIRoute) {
        #expect(APIRoute.parse(method: method, path: path, query: []) == route)
    }

    @Test(arguments: [("limit", "x", nil), ("limit", "0", nil), ("limit", "-3", nil), ("limit", "3", 3)] as [(String, String, Int?)])
    func aLimitThatIsNotAPositiveNumberMeansNoLimit(name: String, value: String, limit: Int?) {
        #expect(APIRoute.parse(method: "GET", path: "/api/products", query: [.init(name, value)])
                == .fakeStore(.products(FakeStoreListQuery(limit: limit))))
    }

    @Test func aCategoryNameIsPercentEncodedInThePath() {
        let route = APIRoute.fakeStore(.category(name: "men's clothing ç?", FakeStoreListQuery()))
        #expect(route.request.url.hasPrefix("/api/products/category/men") && !route.request.url.contains(" ")
                && !route.request.url.contains("?"))
    }
}
