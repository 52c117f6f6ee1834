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
        .v1(.categories),
        .v1(.products(V1ProductQuery())),
        .v1(.products(V1ProductQuery(category: "lamps", q: "ışık & co", sort: "price-asc", cursor: "bzoyNA", limit: "12",
                                     min: "10", max: "99.5", rating: "4", instock: "1", vendor: "Çay Evi", tag: "a=b"))),
        .v1(.product(handle: "oak-chair")),
        .v1(.featured(recommendations: false)),
        .v1(.featured(recommendations: true)),
        .v1(.guestSession),
        .v1(.cart),
        .v1(.addLine),
        .v1(.updateLine(FakeStoreID(12))),
        .v1(.removeLine(FakeStoreID(12))),
        .v1(.removeLine(FakeStoreID(12), chosen: "Size=M\nColor=Red")),
        .v1(.setVoucher),
        .v1(.removeVoucher),
        .v1(.favorites),
        .v1(.addFavorite(FakeStoreID(3))),
        .v1(.removeFavorite(FakeStoreID(3))),
        .v1(.checkout),
        .v1(.setCheckoutAddress),
        .v1(.setCheckoutShipping),
        .v1(.reviewCheckout),
        .v1(.placeOrder),
        .v1(.orders),
        .v1(.order(number: "1042-KX7M", token: nil)),
        .v1(.order(number: "1042-KX7M", token: "s3cr3t")),
        .v1(.register),
        .v1(.account),
        .v1(.resendVerification),
        .v1(.confirmVerification),
        .v1(.requestPasswordReset),
        .v1(.confirmPasswordReset),
        .v1(.signIn),
        .v1(.refreshTokens),
        .v1(.signOut(everywhere: false)),
        .v1(.signOut(everywhere: true)),
        .v1(.campaigns),
        .v1(.campaign(handle: "spring-sale")),
        .v1(.addresses),
        .v1(.addAddress),
        .v1(.updateAddress(FakeStoreID(7))),
        .v1(.deleteAddress(FakeStoreID(7))),
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

    @Test func v1PathsParseAsClientsSendThem() {
        #expect(APIRoute.parse(method: "GET", path: "/api/v1/products", query: [.init("category", "lamps"), .init("limit", "2")])
                == .v1(.products(V1ProductQuery(category: "lamps", limit: "2"))))
        #expect(APIRoute.parse(method: "PATCH", path: "/api/v1/cart/lines/abc", query: []) == .v1(.updateLine(FakeStoreID(text: "abc"))))
        #expect(APIRoute.allowedMethods(path: "/api/v1/cart/voucher").sorted() == ["DELETE", "PUT"])
    }
}
