import ShopAPI
import Testing

/// Which copy of an image a native client shows (`V1Image.url(forPixelWidth:)`).
@Suite("V1Image: picking a rendition")
struct V1ImageTests {
    static let stored = V1Image(url: "https://shop.test/media/a.jpg", altText: "", width: 6000, height: 4000, renditions:
        [320, 640, 1280].flatMap { width in
            [V1ImageRendition(width: width, url: "https://shop.test/media/a-\(width).webp", type: "image/webp"),
             V1ImageRendition(width: width, url: "https://shop.test/media/a-\(width).jpg", type: "image/jpeg")]
        })

    @Test(arguments: [
        (100, true, "https://shop.test/media/a-320.webp"), (320, true, "https://shop.test/media/a-320.webp"),
        (321, true, "https://shop.test/media/a-640.webp"), (1170, false, "https://shop.test/media/a-1280.jpg"),
        (5000, true, "https://shop.test/media/a-1280.webp"),  // the widest copy, never the original
    ])
    func theNarrowestRenditionAtLeastAsWideIsShown(pixelWidth: Int, webp: Bool, url: String) {
        #expect(Self.stored.url(forPixelWidth: pixelWidth, webp: webp) == url)
    }

    @Test func anImageWithoutRenditionsIsShownAsItIs() {
        #expect(V1Image(url: "https://cdn.example.com/a.jpg", altText: "").url(forPixelWidth: 640) == "https://cdn.example.com/a.jpg")
    }
}
