import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// Browsing: home, categories, listings, products, search and campaigns (see
/// `Support/ResponseSnapshot.swift`).
@Suite("Catalog snapshots")
struct CatalogSnapshotTests {
    /// What a new visitor gets for each address: one GET on the fixture shop.
    @Test(arguments: [
        ("home", "/"),
        ("categories", "/categories"),
        ("categories-matching", "/categories?q=lam"),
        ("category-grid", "/categories/lamps"),
        ("category-sorted", "/categories/lamps?sort=price-asc"),
        ("category-filtered", "/categories/lamps?min=100&vendor=Lumen"),
        ("category-in-stock-only", "/categories/textiles?instock=1"),
        ("category-nothing-matches", "/categories/chairs?max=10"),
        ("product-simple", "/products/oak-chair"),
        ("product-with-variants", "/products/linen-cushion"),
        ("product-sold-out", "/products/glass-vase"),
        ("product-on-sale", "/products/brass-desk-lamp"),
        ("search-results", "/search?q=lamp"),
        ("search-sorted-and-filtered", "/search?q=lamp&sort=price-desc&max=100"),
        ("search-no-results", "/search?q=sofa"),
        ("search-no-words", "/search?q=%20%21"),
        ("campaigns", "/campaigns"),
        ("campaign-percentage-with-code", "/campaigns/spring-lamps"),
        ("campaign-fixed-amount", "/campaigns/welcome"),
        ("campaign-not-started", "/campaigns/summer"),
    ])
    func page(name: String, target: String) throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get(target), named: name)
    }

    @Test func homeRecommendations() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "1")])
        try shop.post("/favorites/\(SnapshotShop.productID(shop, "oak-chair"))", [("favorite", "1")])
        _ = try shop.get("/favorites")  // shows and clears the flash
        assertResponseSnapshot(of: try shop.get("/?view=recommendations"))
    }

    @Test func categoryInListLayout() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/layout?set=list&return_to=%2Fcategories%2Flamps"), named: "choose")
        assertResponseSnapshot(of: try shop.get("/categories/lamps"), named: "listing")
    }

    @Test func darkTheme() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/theme?set=dark&return_to=%2Fcategories%2Flamps"), named: "choose")
        assertResponseSnapshot(of: try shop.get("/categories/lamps"), named: "listing")
    }

    @Test func categorySecondPage() throws {
        let shop = try SnapshotShop.make(SnapshotShop.manyKitchenItems(26))
        assertResponseSnapshot(of: try shop.get("/categories/kitchen?sort=price-asc&page=2"))
    }

    @Test func productWithAVariantChosen() throws {
        let shop = try SnapshotShop.make()
        let rust = try SnapshotShop.variantID(shop, "linen-cushion", 2)
        assertResponseSnapshot(of: try shop.get("/products/linen-cushion?variant=\(rust)"))
    }
}
