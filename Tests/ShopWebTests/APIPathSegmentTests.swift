import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Found while checking the OpenAPI document's `{name}` parameter (any string): a category name
/// with `/` in it is printed as one percent-encoded segment (`RouteRequest.url`), so the server
/// must split the path before decoding it, or the URL the route declaration prints answers 404.
@Suite("API paths: encoded slashes stay in their segment")
struct APIPathSegmentTests {
    @Test func aCategoryNameWithASlashIsReachableByTheURLTheRouteDeclarationPrints() throws {
        let shop = try TestShop([ProductDraft.mock(handle: "rake", title: "Rake", category: "Home/Garden")])
        let url = APIRoute.fakeStore(.category(name: "Home/Garden", FakeStoreListQuery())).request.url
        #expect(url == "/api/products/category/Home%2FGarden")
        let response = try shop.api(.get, url)
        #expect(response.status == 200)
        let products = try JSONDecoder().decode([FakeStoreProduct].self, from: Data(response.response.body))
        #expect(products.map(\.title) == ["Rake"] && products.first?.category == "Home/Garden")
        #expect(try decodeCategories(shop).contains("Home/Garden"))
    }

    @Test func aSlashInAnIdIsAMalformedIdNotAnotherRoute() throws {
        let shop = try TestShop([])
        #expect(try shop.api(.get, "/api/products/1%2F2").status == 400)
        #expect(try shop.api(.get, "/api/products/category%2Fx").status == 400, "one segment: an id")
    }

    private func decodeCategories(_ shop: TestShop) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(try shop.api(.get, "/api/products/categories").response.body))
    }
}
