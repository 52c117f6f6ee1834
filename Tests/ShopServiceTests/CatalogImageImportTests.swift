import Foundation
import ShopCore
import ShopImport
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopWebLive
import Synchronization
import Testing
import Vips

/// An import with the real image library (`ImageProcessor.vips`): a catalog folder of images
/// made by libvips in the test, a media folder, a catalog on SQLite `:memory:`.
final class ImageImportBench {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("shoppable-images-\(UUID().uuidString)")
    let database: SQLiteDatabase
    let catalog: CatalogStore
    /// Every file the media library wrote, in order.
    let stores = StoreLog()
    /// The width of every rendition the image library was asked to make, in order.
    let renders = StoreLog()
    var catalogFolder: URL { base.appendingPathComponent("catalog") }
    var mediaFolder: URL { base.appendingPathComponent("media") }

    init() throws {
        database = try SQLiteDatabase.open(path: ":memory:", poolSize: 1)
        catalog = CatalogStore.sqlite(database, currency: .usd)
        try FileManager.default.createDirectory(at: catalogFolder, withIntermediateDirectories: true)
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: base)
    }

    func service(maximumPixels: Int = VipsImage.defaultMaximumPixels) -> CatalogImportService {
        let folder = MediaLibrary.directory(mediaFolder)
        let stores = stores
        let media = MediaLibrary(store: { name, bytes in
            let wrote = try folder.store(name, bytes)
            if wrote { stores.names.withLock { $0.append(name) } }
            return wrote
        }, contains: folder.contains, read: folder.read)
        var images = ImageProcessor.vips(maximumPixels: maximumPixels)
        let render = images.render, renders = renders
        images.render = { bytes, width, formats in
            renders.names.withLock { $0.append("\(width)") }
            return try render(bytes, width, formats)
        }
        return CatalogImportService(catalog: catalog, media: media, currency: .usd, images: images, downloader: .curl())
    }

    func addFile(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: catalogFolder.appendingPathComponent(name))
    }

    /// Imports a shoppable-json catalog of one product per `(title, image)`; product n (from 0)
    /// is on line 2 + n.
    @discardableResult
    func importCatalog(_ products: [(title: String, image: String)], maximumBytes: Int = LocalMedia.defaultMaximumBytes,
                       maximumPixels: Int = VipsImage.defaultMaximumPixels, dryRun: Bool = false,
                       remoteMedia: RemoteMedia? = nil) throws -> CatalogImportReport {
        let items = products.map { product in
            "{\"title\": \"\(product.title)\", \"images\": [{\"url\": \"\(product.image)\", \"alt\": \"A \(product.title)\"}], "
                + "\"variants\": [{\"sku\": \"\(product.title)-1\", \"price\": \"10.00\"}]}"
        }
        let json = "{\"format\": \"shoppable-catalog\", \"version\": 1, \"products\": [\n\(items.joined(separator: ",\n"))\n]}"
        return try service(maximumPixels: maximumPixels).importCatalog(
            Data(json.utf8), fileName: "catalog.json",
            options: .init(dryRun: dryRun, localMedia: try LocalMedia(roots: [catalogFolder], maximumBytes: maximumBytes),
                           remoteMedia: remoteMedia))
    }

    func mediaFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: mediaFolder.path)) ?? []).sorted()
    }

    func mediaFile(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: mediaFolder.appendingPathComponent(name)))
    }

    func storedImage(_ handle: String) throws -> ProductImage? {
        try catalog.productByHandle(handle)?.images.first
    }
}

/// Names recorded by a test's spy (files written, renditions made).
final class StoreLog: Sendable {
    let names = Mutex<[String]>([])
}

@Suite("Catalog import: images checked by libvips, stored once, renditions made")
struct CatalogImageImportTests {
    /// A 2000 × 1500 JPEG gets WebP and JPEG copies 320, 640 and 1280 pixels wide, each of that
    /// width when decoded again, and the product records the original's size.
    @Test func renditionsAreMadeAtTheStandardWidths() throws {
        let bench = try ImageImportBench()
        let jpeg = try VipsImage.syntheticPhoto(width: 2000, height: 1500, format: .jpeg)
        try bench.addFile("photo.jpg", jpeg)

        try bench.importCatalog([("Lamp", "photo.jpg")])

        let original = MediaLibrary.fileName(for: jpeg, extension: "jpg")
        let image = try #require(try bench.storedImage("lamp"))
        #expect(image.url == MediaLibrary.url(of: original))
        #expect(image.width == 2000 && image.height == 1500 && !image.hasAlpha)
        for width in [320, 640, 1280] {
            for format in [ImageRenditions.Format.webp, .jpeg] {
                let name = ImageRenditions.name(of: original, width: width, format: format)
                let decoded = try VipsImage(bytes: try bench.mediaFile(name))
                #expect(decoded.width == width, "\(name)")
                #expect(decoded.height == width * 3 / 4, "\(name)")
            }
        }
        #expect(bench.mediaFiles().count == 1 + 3 * 2)
    }

    /// An image narrower than 1280 pixels is never enlarged: its largest copies have its own
    /// width; a transparent one gets PNG copies instead of JPEG.
    @Test func aSmallTransparentImageIsNotEnlargedAndKeepsPNG() throws {
        let bench = try ImageImportBench()
        let png = try VipsImage.syntheticPhoto(width: 500, height: 250, alpha: true, format: .png)
        try bench.addFile("logo.png", png)

        try bench.importCatalog([("Sign", "logo.png")])

        let original = MediaLibrary.fileName(for: png, extension: "png")
        let stem = String(original.dropLast(4))
        #expect(bench.mediaFiles() == [original, "\(stem)-320.png", "\(stem)-320.webp", "\(stem)-500.png",
                                       "\(stem)-500.webp"].sorted())
        #expect(try VipsImage(bytes: try bench.mediaFile("\(stem)-500.webp")).width == 500)
        #expect(try VipsImage(bytes: try bench.mediaFile("\(stem)-320.png")).hasAlpha)
        #expect(try bench.storedImage("sign")?.hasAlpha == true)
    }

    /// Type by content, not extension: a PNG named `.jpg` is stored as `.png`.
    @Test func aPNGNamedJPGIsStoredAsPNG() throws {
        let bench = try ImageImportBench()
        let png = try VipsImage.syntheticPhoto(width: 64, height: 64, format: .png)
        try bench.addFile("disguised.jpg", png)

        try bench.importCatalog([("Cup", "disguised.jpg")])

        #expect(try bench.storedImage("cup")?.url == MediaLibrary.url(of: MediaLibrary.fileName(for: png, extension: "png")))
    }

    /// An image the import refuses, and the start of the message naming it.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: @Sendable () throws -> [UInt8]
        var maximumBytes = LocalMedia.defaultMaximumBytes
        var maximumPixels = VipsImage.defaultMaximumPixels
        var message: String
        var testDescription: String { name }
    }

    static let refusals = [
        Refusal(name: "text named .jpg", bytes: { Array("just some words\n".utf8) },
                message: "image “bad.jpg” is not a JPEG, PNG, WebP, GIF or AVIF image"),
        Refusal(name: "over the byte limit", bytes: { try VipsImage.syntheticPhoto(width: 300, height: 300, format: .png) },
                maximumBytes: 2_000, message: "image “bad.jpg” is "),
        Refusal(name: "over the pixel limit", bytes: { try VipsImage.syntheticPhoto(width: 300, height: 200, format: .png) },
                maximumPixels: 50_000, message: "image “bad.jpg”: 300 × 200 pixels is more than the"),
        Refusal(name: "cut in half", bytes: {
            let png = try VipsImage.syntheticPhoto(width: 300, height: 300, format: .png)
            return Array(png.prefix(png.count / 2))
        }, message: "image “bad.jpg”: the image is broken and cannot be decoded"),
    ]

    /// Refusals name the file, the product's line and the image, and nothing is written.
    @Test(arguments: refusals)
    func aRefusedImageNamesFileLineAndImage(refusal: Refusal) throws {
        let bench = try ImageImportBench()
        try bench.addFile("good.png", try VipsImage.syntheticPhoto(width: 8, height: 8, format: .png))
        try bench.addFile("bad.jpg", try refusal.bytes())

        let error = try #require(throws: ImportError.self) {
            try bench.importCatalog([("Good", "good.png"), ("Bad", "bad.jpg")], maximumBytes: refusal.maximumBytes,
                                    maximumPixels: refusal.maximumPixels)
        }

        #expect(error.file == "catalog.json" && error.line == 3 && error.column == "url")
        #expect(error.message.hasPrefix(refusal.message), "\(error.message)")
        #expect(try bench.catalog.productCount() == 0)
    }

    /// Two products with the same picture: one original and one set of renditions; a second
    /// import makes none again.
    @Test func aSharedImageIsStoredAndRenderedOnce() throws {
        let bench = try ImageImportBench()
        let jpeg = try VipsImage.syntheticPhoto(width: 700, height: 700, format: .jpeg)
        try bench.addFile("a.jpg", jpeg)
        try bench.addFile("b.jpg", jpeg)

        try bench.importCatalog([("Left", "a.jpg"), ("Right", "b.jpg")])
        let afterFirst = bench.stores.names.withLock { $0 }
        try bench.importCatalog([("Left", "a.jpg"), ("Right", "b.jpg")])

        #expect(afterFirst.count == 1 + 2 * 3)  // original + WebP and JPEG at 320, 640, 700
        #expect(bench.mediaFiles() == afterFirst.sorted())
        #expect(bench.stores.names.withLock { $0 } == afterFirst)  // the second import wrote nothing
        #expect(bench.renders.names.withLock { $0 } == ["320", "640", "700"])  // and made nothing again
        #expect(try bench.storedImage("left")?.url == bench.storedImage("right")?.url)
    }

    /// An exported catalog names stored images by `/media/…`: importing it again keeps their size
    /// (read back from the stored file) and makes no rendition.
    @Test func aMediaPathKeepsItsSizeOnReimport() throws {
        let bench = try ImageImportBench()
        let jpeg = try VipsImage.syntheticPhoto(width: 900, height: 300, format: .jpeg)
        try bench.addFile("photo.jpg", jpeg)
        try bench.importCatalog([("Lamp", "photo.jpg")])
        let stored = try #require(try bench.storedImage("lamp"))
        let storesBefore = bench.stores.names.withLock { $0.count }

        try bench.importCatalog([("Lamp", stored.url)])

        let again = try #require(try bench.storedImage("lamp"))
        #expect(again.url == stored.url)
        #expect(again.width == 900 && again.height == 300)
        #expect(bench.stores.names.withLock { $0.count } == storesBefore)
    }

    /// A dry run checks the image's header (and size) but writes nothing.
    @Test func aDryRunWritesNoRendition() throws {
        let bench = try ImageImportBench()
        try bench.addFile("photo.jpg", try VipsImage.syntheticPhoto(width: 800, height: 600, format: .jpeg))

        let report = try bench.importCatalog([("Lamp", "photo.jpg")], dryRun: true)

        #expect(report.preview?.productsCreated == 1)
        #expect(bench.mediaFiles().isEmpty)
        #expect(throws: ImportError.self) {
            try bench.importCatalog([("Lamp", "photo.jpg")], maximumPixels: 1_000, dryRun: true)
        }
    }
}
