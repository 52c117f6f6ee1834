import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopTestSupport
import Testing
@testable import ShopWeb

/// Issue #13, point 4: the JSON API lists a stored image's size and renditions; the Fake Store
/// `image` is a stored image's 1280-pixel JPEG/PNG copy, not its original.
@Suite("API images: renditions of stored images")
struct APIImageRenditionTests {
    /// A stored photo, a stored transparent picture under 1280 pixels, a remote URL.
    static func shop() throws -> TestShop {
        var lamp = SnapshotShop.product("dusk-lamp", "Dusk Lamp", category: "Lamps", price: 59_00, stock: 4,
                                        image: "unused", published: 1_773_000_000)
        lamp.images = [ProductImageTests.stored, ProductImageTests.transparent,
                       ProductImage(url: "https://cdn.example.com/lamp.jpg", altText: "Remote")]
        return try SnapshotShop.make([lamp])
    }

    @Test func theV1ProductListsEachStoredImagesRenditions() throws {
        let shop = try Self.shop()
        let response = try shop.api(.get, "/api/v1/products/dusk-lamp")
        let images = try decoded(V1Product.self, response).images
        let base = shop.environment.publicURL + "/media/"

        #expect(images.count == 3)
        #expect(images[0].url == base + "0123456789abcdef.jpg")
        #expect(images[0].width == 6000 && images[0].height == 4000)
        #expect(images[0].renditions == [320, 640, 1280].flatMap { width in
            [V1ImageRendition(width: width, url: base + "0123456789abcdef-\(width).webp", type: "image/webp"),
             V1ImageRendition(width: width, url: base + "0123456789abcdef-\(width).jpg", type: "image/jpeg")]
        })
        #expect(images[1].renditions?.map(\.width) == [320, 320, 500, 500])
        #expect(images[1].renditions?.last == V1ImageRendition(width: 500, url: base + "fedcba9876543210-500.png", type: "image/png"))
        #expect(images[2] == V1Image(url: "https://cdn.example.com/lamp.jpg", altText: "Remote"))
        #expect(!response.text.contains("null"))  // unknown sizes are left out, not null
        assertResponseSnapshot(of: response)
    }

    /// Fake Store clients take one URL and show it: they get the 1280-pixel JPEG, not the 6000-pixel
    /// original; a remote image stays as it is.
    @Test func theFakeStoreImageIsTheLargestFallbackRendition() throws {
        let shop = try Self.shop()
        let id = try SnapshotShop.productID(shop, "dusk-lamp")

        let response = try shop.api(.get, "/api/products/\(id)")

        let product = try decoded(FakeStoreProduct.self, response)
        #expect(product.image == shop.environment.publicURL + "/media/0123456789abcdef-1280.jpg")
        #expect(ImageRenditions.singleURL(of: ProductImageTests.transparent) == "/media/fedcba9876543210-500.png")
        #expect(ImageRenditions.singleURL(of: ProductImage(url: "https://cdn.example.com/lamp.jpg")) == "https://cdn.example.com/lamp.jpg")
        assertResponseSnapshot(of: response)
    }

    /// A list's card (`/api/v1/products`) shows one picture too: the same 1280-pixel copy.
    @Test func aProductSummaryShowsTheLargestFallbackRendition() throws {
        let shop = try Self.shop()

        let response = try shop.api(.get, "/api/v1/products?q=dusk")

        let page = try decoded(V1ProductPage.self, response)
        #expect(page.products.map(\.image) == [shop.environment.publicURL + "/media/0123456789abcdef-1280.jpg"])
    }
}
