import Foundation
import ShopCore
import ShopImport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Folders on disk for one test: a catalog folder with images and traps, a media root, and a
/// folder outside both. Removed by `remove()`.
///
/// ```
/// catalog/images/chair.png, my chair.png   real PNGs
/// catalog/images/notes.jpg                 /etc/passwd-like text named .jpg
/// catalog/images/big.png                   a PNG of 4 KiB (the tests allow 1 KiB)
/// catalog/images/escape.png → ../../outside/secret.png
/// catalog/images/inside.png → chair.png
/// catalog/images/pipe.png                  a FIFO
/// catalog/shop.sqlite3                     a database in the catalog's own folder
/// supplier-media/lamp.webp                 the media root's image
/// outside/secret.png                       a real PNG outside every root
/// ```
struct MediaFolders {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("shoppable-media-\(UUID().uuidString)")
    var catalog: URL { base.appendingPathComponent("catalog") }
    var mediaRoot: URL { base.appendingPathComponent("supplier-media") }
    var outside: URL { base.appendingPathComponent("outside") }

    /// The largest image the tests' `LocalMedia` accepts.
    static let maximumBytes = 1_024

    init() throws {
        let files = FileManager.default
        for folder in [catalog.appendingPathComponent("images"), mediaRoot, outside] {
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let images = catalog.appendingPathComponent("images")
        try Data(SampleFile.png).write(to: images.appendingPathComponent("chair.png"))
        try Data(SampleFile.png).write(to: images.appendingPathComponent("my chair.png"))
        try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(to: images.appendingPathComponent("notes.jpg"))
        try Data(SampleFile.png + [UInt8](repeating: 0, count: 4_096)).write(to: images.appendingPathComponent("big.png"))
        try Data("SQLite format 3\0".utf8).write(to: catalog.appendingPathComponent("shop.sqlite3"))
        try Data(SampleFile.webp).write(to: mediaRoot.appendingPathComponent("lamp.webp"))
        try Data(SampleFile.png).write(to: outside.appendingPathComponent("secret.png"))
        try files.createSymbolicLink(atPath: images.appendingPathComponent("escape.png").path,
                                     withDestinationPath: "../../outside/secret.png")
        try files.createSymbolicLink(atPath: images.appendingPathComponent("inside.png").path,
                                     withDestinationPath: "chair.png")
        #expect(mkfifo(images.appendingPathComponent("pipe.png").path, 0o600) == 0)
    }

    /// `reference` with `{catalog}`, `{media}` and `{outside}` replaced by the folders' paths.
    func expand(_ reference: String) -> String {
        reference.replacingOccurrences(of: "{catalog}", with: catalog.path)
            .replacingOccurrences(of: "{media}", with: mediaRoot.path)
            .replacingOccurrences(of: "{outside}", with: outside.path)
    }

    /// The catalog folder, then the media root when `withMediaRoot`.
    func media(withMediaRoot: Bool = true) throws -> LocalMedia {
        try LocalMedia(roots: withMediaRoot ? [catalog, mediaRoot] : [catalog], maximumBytes: Self.maximumBytes)
    }

    func remove() { try? FileManager.default.removeItem(at: base) }
}

@Suite("Local images: only from the catalog's folder or --media-root, only images", .bug(id: 8))
struct LocalMediaTests {
    struct Attempt: Sendable, CustomTestStringConvertible {
        var reference: String
        /// Part of the refusal message.
        var refusal: String
        var testDescription: String { reference }
    }

    static let outside = "outside the folders images are read from"
    static let notAnImage = "is not a JPEG, PNG, WebP, GIF or AVIF image (judged by its content, not its name)"

    /// Each was a way to publish a file that is not a product image.
    static let refused: [Attempt] = [
        Attempt(reference: "/etc/passwd", refusal: outside),
        Attempt(reference: "file:///etc/passwd", refusal: outside),
        Attempt(reference: "FILE://localhost/etc/passwd", refusal: outside),
        Attempt(reference: "/proc/self/environ", refusal: outside),
        Attempt(reference: "../outside/secret.png", refusal: outside),  // a real PNG, outside the folder
        Attempt(reference: "images/../../outside/secret.png", refusal: outside),
        Attempt(reference: "{outside}/secret.png", refusal: outside),
        Attempt(reference: "file://{outside}/secret.png", refusal: outside),
        Attempt(reference: "images/escape.png", refusal: outside),  // a link inside the folder, pointing out
        Attempt(reference: "images/notes.jpg", refusal: notAnImage),  // text named .jpg
        Attempt(reference: "shop.sqlite3", refusal: notAnImage),  // a database beside the catalog
        Attempt(reference: "images/big.png", refusal: "is 4170 bytes; an image may have at most 1024 bytes"),
        Attempt(reference: "images/pipe.png", refusal: "is not a regular file"),  // and does not block
        Attempt(reference: "images", refusal: "is not a regular file"),
        Attempt(reference: "file://files.example.com/etc/passwd", refusal: "is a file URL on another host"),
        Attempt(reference: "images/missing.png", refusal: "not found (looked in "),
    ]

    @Test(arguments: refused)
    func refusedInACSVNamingFileLineAndColumn(_ attempt: Attempt) throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let reference = folders.expand(attempt.reference)
        let csv = "Handle,Title,Variant Price,Image Src\nchair,Chair,10.00,\nchair,,,\(reference)\n"
        let result = try Fixture.read(text: csv, fileName: "catalog.csv")
        let media = try folders.media()
        let error = Fixture.importError { () throws(ImportError) in try media.check(result, file: "catalog.csv") }
        #expect(error?.file == "catalog.csv")
        #expect(error?.line == 3)
        #expect(error?.column == "Image Src")
        #expect(error?.columnIndex == 4)
        #expect(error?.message.contains("“\(reference)”") == true)
        #expect(error?.message.contains(attempt.refusal) == true, "\(String(describing: error))")
    }

    @Test(arguments: refused)
    func refusedInJSONNamingFileLineAndField(_ attempt: Attempt) throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let json = """
            {"format": "shoppable-catalog", "version": 1, "products": [
              {"title": "Chair", "variants": [{"price": "10.00"}],
               "images": [{"url": "https://cdn.example.com/chair.jpg"},
                          {"url": "\(folders.expand(attempt.reference))"}]}]}
            """
        let result = try Fixture.read(text: json, fileName: "catalog.json")
        let media = try folders.media()
        let error = Fixture.importError { () throws(ImportError) in try media.check(result, file: "catalog.json") }
        #expect(error?.description.hasPrefix("catalog.json:4: field “url”: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains(attempt.refusal) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("Name,Regular price,Images\nChair,10,\"https://cdn.example.com/a.jpg, /etc/passwd\"\n", "catalog.csv",
         "catalog.csv:2: column “Images”: "),
        (#"[{"title": "Chair", "price": 10, "image": "/etc/passwd"}]"#, "catalog.json", "catalog.json:1: field “image”: "),
        (#"{"products": [{"name": "Chair", "price": {"value": 10},"# + "\n" + #""imageUrl": "/etc/passwd"}]}"#,
         "seed.json", "seed.json:2: field “imageUrl”: "),
    ])
    func everyFormatReportsWhereTheImageIs(file: String, name: String, place: String) throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let result = try Fixture.read(text: file, fileName: name)
        let media = try folders.media()
        let error = Fixture.importError { () throws(ImportError) in try media.check(result, file: name) }
        #expect(error?.description.hasPrefix(place + "image “/etc/passwd” leads to /etc/passwd, outside") == true,
                "\(String(describing: error))")
    }

    @Test(arguments: [
        ("images/chair.png", ImageFormat.png), ("./images/chair.png", .png), ("{catalog}/images/chair.png", .png),
        ("file://{catalog}/images/my%20chair.png", .png), ("file://localhost{catalog}/images/chair.png", .png),
        ("images/inside.png", .png),  // a link that stays inside the folder
        ("lamp.webp", .webp), ("{media}/lamp.webp", .webp), ("file://{media}/lamp.webp", .webp),
        ("../supplier-media/lamp.webp", .webp),  // leaves the catalog's folder, but into the media root
    ])
    func imagesInsideTheFolderOrTheMediaRootAreRead(reference: String, format: ImageFormat) throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let image = try folders.media().load(folders.expand(reference))
        #expect(image.format == format)
        #expect(image.bytes == (format == .png ? SampleFile.png : SampleFile.webp))
    }

    @Test func withoutAMediaRootItsImagesAreRefused() throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let media = try folders.media(withMediaRoot: false)
        #expect(throws: LocalMediaError.notFound(reference: "lamp.webp", roots: media.roots)) {
            try media.load("lamp.webp")
        }
        let error = #expect(throws: LocalMediaError.self) { try media.load(folders.expand("{media}/lamp.webp")) }
        guard case .outsideRoots? = error else {
            Issue.record("expected outsideRoots, got \(String(describing: error))")
            return
        }
    }

    @Test func checkReadsEachLocalImageOnceAndLeavesWebImagesAlone() throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let csv = """
            Handle,Title,Variant Price,Image Src
            chair,Chair,10.00,images/chair.png
            chair,,,https://cdn.example.com/chair.jpg
            lamp,Lamp,20.00,lamp.webp
            stool,Stool,5.00,images/chair.png
            """
        let result = try Fixture.read(text: csv, fileName: "catalog.csv")
        #expect(try folders.media().check(result, file: "catalog.csv") == 2)
    }

    @Test func noneReadsNoFileAtAll() throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        for reference in ["images/chair.png", folders.expand("{catalog}/images/chair.png"),
                          "file://" + folders.expand("{catalog}/images/chair.png")] {
            #expect(throws: LocalMediaError.noLocalFiles(reference)) { try LocalMedia.none.load(reference) }
        }
    }

    @Test func aMissingMediaRootIsRefused() throws {
        let folders = try MediaFolders()
        defer { folders.remove() }
        let missing = folders.base.appendingPathComponent("no-such-folder")
        #expect(throws: LocalMediaError.rootNotFound(missing.path)) { try LocalMedia(roots: [folders.catalog, missing]) }
        let file = folders.catalog.appendingPathComponent("shop.sqlite3")
        #expect(throws: LocalMediaError.rootNotFound(file.path)) { try LocalMedia(roots: [file]) }
    }

    @Test(arguments: ["https://cdn.example.com/a.jpg", "HTTP://cdn.example.com/a.jpg", "//cdn.example.com/a.jpg",
                      "/static/images/demo/chair.svg", "/media/0123abcd.png", "data:image/png;base64,iVBORw0KGgo="])
    func webAndSiteURLsAreNotLocalFiles(url: String) {
        #expect(!LocalMedia.isLocal(url))
    }
}
