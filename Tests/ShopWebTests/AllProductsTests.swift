import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// Issue #13, point 1: every published, listed product is reachable by browsing from Home —
/// products without a category included — and catalog visibility decides lists and search.
@Suite("All products")
struct AllProductsTests {
    /// The snapshot catalog plus a product without a category and one of each hidden kind.
    static let extra: [ProductDraft] = [
        .mock(handle: "gift-box", title: "Gift Box"),
        .mock(handle: "secret-lamp", title: "Secret Lamp", category: "Lamps", visibility: .hidden),
        .mock(handle: "search-only-lamp", title: "Search Only Lamp", category: "Lamps", visibility: .search),
        .mock(handle: "catalog-only-lamp", title: "Catalog Only Lamp", category: "Lamps", visibility: .catalog),
    ]

    @Test(.bug(id: "13")) func homeAndCategoriesLinkToAllProducts() throws {
        let shop = try SnapshotShop.make(Self.extra)
        #expect(try shop.get("/").text.contains("href=\"/products\""))
        #expect(try shop.get("/categories").text.contains("href=\"/products\""))
    }

    @Test(.bug(id: "13")) func allProductsListsUncategorizedAndListedProductsOnly() throws {
        let shop = try SnapshotShop.make(Self.extra)
        let page = try shop.get("/products")
        #expect(page.status == 200)
        #expect(page.text.contains("Gift Box") && page.text.contains("Oak Chair") && page.text.contains("Catalog Only Lamp"))
        #expect(!page.text.contains("Secret Lamp") && !page.text.contains("Search Only Lamp"))
        #expect(page.text.contains("href=\"/products?category=_none\"") && page.text.contains("href=\"/products?category=lamps\""))
    }

    /// A shop that files every product shows no "Uncategorized (0)" chip (a fresh tester), while
    /// one with an unfiled product does; asked for, the empty filter stays (it is the page's).
    @Test func theUncategorizedChipShowsOnlyWhenItHoldsProducts() throws {
        let filed = try SnapshotShop.make()
        #expect(try !filed.get("/products").text.contains("Uncategorized"))
        #expect(try filed.get("/products?category=_none").text.contains("Uncategorized (0)"))
        let unfiled = try SnapshotShop.make(Self.extra)
        #expect(try unfiled.get("/products").text.contains("Uncategorized (1)"))
    }

    /// A search that finds nothing offers the largest categories to browse and, when the shop
    /// has more, a link to all of them (a fresh tester missed the seventh).
    @Test func aSearchThatFindsNothingOffersTheLargestCategoriesAndAllOfThem() throws {
        let many = (1...7).map { index in
            ProductDraft.mock(handle: "thing-\(index)", title: "Thing \(index)", category: "Shelf \(index)")
        } + [ProductDraft.mock(handle: "thing-8", title: "Thing 8", category: "Shelf 7")]
        let shop = try TestShop(many)
        let page = try shop.get("/search?q=zzzzqx").text
        #expect(page.contains("Check the spelling") && page.contains(">Shelf 7<") && page.contains("href=\"/categories\">See all"))
        #expect(page.components(separatedBy: "class=\"category-tile ").count - 1 == 6)
    }

    @Test(.bug(id: "13")) func theCategoryFilterNarrowsToOneCategoryOrToUncategorized() throws {
        let shop = try SnapshotShop.make(Self.extra)
        let uncategorized = try shop.get("/products?category=_none")
        #expect(uncategorized.count("class=\"card\"") == 1 && uncategorized.text.contains("Gift Box"))
        #expect(uncategorized.text.contains("<title>Uncategorized · Shoppable</title>"), "the heading names the filter")
        let lamps = try shop.get("/products?category=lamps&sort=price-asc")
        #expect(!lamps.text.contains("Gift Box") && lamps.text.contains("Brass Desk Lamp"))
        #expect(lamps.text.contains("aria-current=\"page\"") && lamps.text.contains("<title>Lamps · Shoppable</title>"))
        #expect(try shop.get("/products?category=nope").status == 404)
        #expect(try shop.get("/products?page=0").status == 404)
    }

    @Test(.bug(id: "13")) func hiddenProductsKeepTheirPageAndSearchFollowsVisibility() throws {
        let shop = try SnapshotShop.make(Self.extra)
        #expect(try shop.get("/products/secret-lamp").status == 200)
        let category = try shop.get("/categories/lamps")
        #expect(!category.text.contains("Secret Lamp") && !category.text.contains("Search Only Lamp"))
        let search = try shop.get("/search?q=lamp")
        #expect(search.text.contains("Search Only Lamp") && !search.text.contains("Secret Lamp"))
        #expect(!search.text.contains("Catalog Only Lamp"))
    }

    @Test(.bug(id: "13")) func theAPIListsEveryListedProductWithoutACategory() throws {
        let shop = try SnapshotShop.make(Self.extra)
        let page = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?limit=100"))
        let handles = Set(page.products.map(\.handle))
        #expect(handles.contains("gift-box") && handles.contains("catalog-only-lamp"))
        #expect(!handles.contains("secret-lamp") && !handles.contains("search-only-lamp"))
        #expect(page.totalCount == SnapshotShop.catalog.count + 2)
    }

    @Test(.bug(id: "13")) func snapshot() throws {
        let shop = try SnapshotShop.make(Self.extra)
        assertResponseSnapshot(of: try shop.get("/products"), named: "all")
        assertResponseSnapshot(of: try shop.get("/products?category=_none"), named: "uncategorized")
    }
}
