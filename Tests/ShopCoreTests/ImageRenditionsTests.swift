import ShopCore
import Testing

@Suite("Image renditions: widths and names")
struct ImageRenditionsTests {
    /// The standard widths below the original, plus the original when narrower than the
    /// largest: never enlarged.
    @Test(arguments: [(6000, [320, 640, 1280]), (1281, [320, 640, 1280]), (1280, [320, 640, 1280]),
                      (800, [320, 640, 800]), (640, [320, 640]), (321, [320, 321]), (320, [320]), (90, [90]), (0, [])])
    func widths(original: Int, expected: [Int]) {
        #expect(ImageRenditions.widths(forOriginalWidth: original) == expected)
    }

    @Test(arguments: [(ImageRenditions.Format.webp, "3f1c9a-640.webp"), (.jpeg, "3f1c9a-640.jpg"), (.png, "3f1c9a-640.png")])
    func names(format: ImageRenditions.Format, expected: String) {
        #expect(ImageRenditions.name(of: "3f1c9a.png", width: 640, format: format) == expected)
    }

    /// Only a stored image of known size has renditions.
    @Test(arguments: [
        (ProductImage(url: "/media/ab.jpg", width: 700, height: 500), ["/media/ab-320.webp", "/media/ab-640.webp", "/media/ab-700.webp"]),
        (ProductImage(url: "/media/ab.jpg"), []),
        (ProductImage(url: "https://cdn.example.com/ab.jpg", width: 700, height: 500), []),
        (ProductImage(url: "/static/images/demo/ab.svg", width: 700, height: 500), []),
    ])
    func renditions(image: ProductImage, expected: [String]) {
        #expect(ImageRenditions.renditions(of: image, format: .webp).map(\.url) == expected)
    }

    @Test func fallbackFormat() {
        #expect(ImageRenditions.fallbackFormat(hasAlpha: true) == .png)
        #expect(ImageRenditions.fallbackFormat(hasAlpha: false) == .jpeg)
    }
}
