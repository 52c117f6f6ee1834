import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// Issue #13, point 4 (migration 21): an image's pixel size and transparency are kept with it,
/// and an image without them (a remote URL) reads back without them.
@Suite("Product images keep their size")
struct ProductImageSizeTests {
    @Test(arguments: StoreKind.engines(for: .catalog))
    func sizeAndAlphaRoundTrip(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let images = [ProductImage(url: "/media/ab.png", altText: "Front", width: 1200, height: 800, hasAlpha: true),
                      ProductImage(url: "/media/cd.jpg", width: 300, height: 600),
                      ProductImage(url: "https://cdn.example.com/ef.jpg", altText: "Back")]
        _ = try stores.catalog.upsert([ProductDraft.mock(handle: "lamp", category: "Lamps", images: images)])

        #expect(try stores.product("lamp").images == images)

        var resized = ProductDraft.mock(handle: "lamp", category: "Lamps", images: images)
        resized.images[1].width = 320
        let result = try stores.catalog.upsert([resized])

        #expect(result.productsUpdated == 1)
        #expect(try stores.product("lamp").images[1].width == 320)
    }
}
