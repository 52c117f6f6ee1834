import Foundation
import HTML
import ShopCore
import ShopTestSupport
import Testing
@testable import ShopWeb

/// Issue #13, point 4: stored product images as `<picture>` with renditions, their real size,
/// lazy below the fold, and a placeholder for a missing media file.
@Suite("Product images: renditions in pages, placeholder for missing media")
struct ProductImageTests {
    /// A photo stored in the media library (6000 × 4000) and one of its renditions' names.
    static let stored = ProductImage(url: "/media/0123456789abcdef.jpg", altText: "Lamp at dusk", width: 6000, height: 4000)
    static let transparent = ProductImage(url: "/media/fedcba9876543210.png", width: 500, height: 250, hasAlpha: true)

    /// The whole markup, as a snapshot kept inline: WebP source, JPEG fallback, real size.
    @Test func aStoredImageIsAPictureWithRenditions() {
        let html = renderString(ProductPicture(image: Self.stored, alt: "Lamp", sizes: "50vw", boxWidth: 400, boxHeight: 400).body)

        #expect(html == """
            <picture><source type="image/webp" srcset="/media/0123456789abcdef-320.webp 320w, \
            /media/0123456789abcdef-640.webp 640w, /media/0123456789abcdef-1280.webp 1280w" sizes="50vw">\
            <img src="/media/0123456789abcdef-1280.jpg" srcset="/media/0123456789abcdef-320.jpg 320w, \
            /media/0123456789abcdef-640.jpg 640w, /media/0123456789abcdef-1280.jpg 1280w" sizes="50vw" alt="Lamp" \
            width="6000" height="4000" loading="lazy" decoding="async"></picture>
            """)
    }

    /// A transparent image's fallback is PNG, and no width above its own is offered.
    @Test func aTransparentImageFallsBackToPNGAtItsOwnWidth() {
        let html = renderString(ProductPicture(image: Self.transparent, alt: "", sizes: "40px", boxWidth: 40, boxHeight: 40,
                                         eager: true).body)

        #expect(html.contains("srcset=\"/media/fedcba9876543210-320.png 320w, /media/fedcba9876543210-500.png 500w\""))
        #expect(html.contains("/media/fedcba9876543210-500.webp 500w\""))
        #expect(!html.contains("1280"))
        #expect(html.contains("loading=\"eager\""))
    }

    /// A remote image (or one imported before renditions, size unknown) stays a plain lazy `<img>`.
    @Test(arguments: [ProductImage(url: "https://cdn.example.com/lamp.jpg", width: 900, height: 900),
                      ProductImage(url: "/media/0123456789abcdef.jpg")])
    func anImageWithoutRenditionsIsAPlainImg(image: ProductImage) {
        let html = renderString(ProductPicture(image: image, alt: "Lamp", sizes: "50vw", boxWidth: 400, boxHeight: 400).body)

        #expect(html == "<img src=\"\(image.url)\" alt=\"Lamp\" width=\"400\" height=\"400\" loading=\"lazy\" decoding=\"async\">")
    }

    /// The product page: its first picture loads at once with the gallery's sizes, the next lazily.
    @Test func theProductPageLoadsTheFirstPictureEagerly() throws {
        var lamp = SnapshotShop.product("dusk-lamp", "Dusk Lamp", category: "Lamps", price: 59_00, stock: 4,
                                        image: "unused", published: 1_773_000_000)
        lamp.images = [Self.stored, Self.transparent]
        let shop = try SnapshotShop.make([lamp])

        let page = try shop.get("/products/dusk-lamp")

        #expect(page.status == 200)
        #expect(page.count("<picture>") == 4)  // two gallery pictures, two thumbnails
        #expect(page.text.contains("sizes=\"\(ProductPicture.gallerySizes)\" alt=\"Lamp at dusk\" width=\"6000\" height=\"4000\" loading=\"eager\""))
        #expect(page.text.contains("width=\"500\" height=\"250\" loading=\"lazy\""))
        assertResponseSnapshot(of: page)
    }

    /// A listing's first row loads eagerly, the rest lazily.
    @Test func aListingsFirstRowLoadsEagerly() throws {
        let shop = try SnapshotShop.make()

        let page = try shop.get("/products")
        let cards = page.text.components(separatedBy: "class=\"card-media\"").dropFirst()

        #expect(cards.count > ProductPicture.eagerCards)
        for (index, card) in cards.enumerated() {
            let loading = card.range(of: "loading=\"").map { String(card[$0.upperBound...].prefix(while: { $0 != "\"" })) }
            #expect(loading == (index < ProductPicture.eagerCards ? "eager" : "lazy"), "card \(index)")
        }
    }

    /// A missing media image is a grey SVG picture (404, not cached for long), never a broken
    /// image icon; a stored one is cached for a year as immutable; a missing non-image is the
    /// ordinary 404 page.
    @Test func aMissingMediaImageIsAPlaceholder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x52, 0x49, 0x46, 0x46]).write(to: folder.appendingPathComponent("0123456789abcdef-320.webp"))
        let shop = try SnapshotShop.make()
        shop.environment.mediaDirectory = folder

        let missing = try shop.get("/media/0123456789abcdef-640.webp")
        let found = try shop.get("/media/0123456789abcdef-320.webp")
        let notAnImage = try shop.get("/media/notes.txt")

        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "image/svg+xml")
        #expect(missing.header("Cache-Control") == "no-cache")
        #expect(missing.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!missing.text.contains("<script"))
        #expect(found.status == 200 && found.header("Content-Type") == "image/webp")
        #expect(found.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(notAnImage.status == 404 && notAnImage.header("Content-Type")?.hasPrefix("text/html") == true)
    }
}
