import Foundation
import HTTPServer
import ShopCore
import ShopImport
import ShopService
import ShopStore
import ShopTestSupport
import Testing
import Vips

/// `--fetch-images`: remote images downloaded through libcurl from a loopback server, then taken
/// through the same path as a local file (sniffed, opened by libvips, renditions, content hash).
@Suite("Catalog import: remote images downloaded with --fetch-images")
struct CatalogRemoteImageTests {
    /// The operator named the loopback host, so its address is allowed.
    static let loopback = RemoteMedia(hosts: .only(["127.0.0.1"]))

    private static func server(_ png: [UInt8]) throws -> FileServer {
        try FileServer([
            "/photo.png": Response(headers: ["Content-Type": "image/png"], body: png),
            "/moved.png": .redirect(to: "/photo.png", status: .found),
            "/text.jpg": Response(headers: ["Content-Type": "image/jpeg"], body: Array("<html>not a picture</html>".utf8)),
            "/big.png": Response(body: png + Array(repeating: 0, count: 5_000)),
        ])
    }

    /// Downloaded once (two products name it), stored under its content hash with its size and
    /// renditions, like a local file; the product links to the `/media/` copy.
    @Test func aRemoteImageIsDownloadedOnceAndStoredLikeALocalFile() throws {
        let png = try VipsImage.syntheticPhoto(width: 700, height: 350, alpha: true, format: .png)
        let server = try Self.server(png)
        defer { server.stop() }
        let bench = try ImageImportBench()

        let report = try bench.importCatalog([("Lamp", server.url("/photo.png")), ("Shade", server.url("/photo.png")),
                                              ("Bulb", server.url("/moved.png"))], remoteMedia: Self.loopback)

        let name = MediaLibrary.fileName(for: png, extension: "png")
        for handle in ["lamp", "shade", "bulb"] {
            let image = try #require(try bench.storedImage(handle))
            #expect(image == ProductImage(url: MediaLibrary.url(of: name), altText: image.altText, width: 700, height: 350,
                                          hasAlpha: true), "\(handle)")
        }
        #expect(server.requests("/photo.png") == 2)  // once for itself, once through the redirect
        #expect(server.requests("/moved.png") == 1)
        #expect(report.imagesDownloaded == 2)
        #expect(bench.mediaFiles() == ([name] + [320, 640, 700].flatMap { width in
            [ImageRenditions.Format.webp, .png].map { ImageRenditions.name(of: name, width: width, format: $0) }
        }).sorted())
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var path: String
        var message: String
        var testDescription: String { path }
    }

    /// Each refusal stops the import at the image's line, names the URL and the reason, and
    /// writes no product.
    @Test(arguments: [
        Refusal(path: "/text.jpg", message: "is not a JPEG, PNG, WebP, GIF or AVIF image (judged by its content"),
        Refusal(path: "/missing.png", message: ": the server answered HTTP 404"),
        Refusal(path: "/big.png", message: ": is more than"),
    ])
    func aRefusedDownloadNamesLineURLAndReason(refusal: Refusal) throws {
        let png = try VipsImage.syntheticPhoto(width: 40, height: 40, format: .png)
        let server = try Self.server(png)
        defer { server.stop() }
        let bench = try ImageImportBench()
        let capped = RemoteMedia(hosts: .only(["127.0.0.1"]), maximumBytes: png.count + 1_000)

        let error = try #require(throws: ImportError.self) {
            try bench.importCatalog([("Good", server.url("/photo.png")), ("Bad", server.url(refusal.path))], remoteMedia: capped)
        }

        #expect(error.file == "catalog.json" && error.line == 3 && error.column == "url")
        #expect(error.message.contains("image “\(server.url(refusal.path))”"), "\(error.message)")
        #expect(error.message.contains(refusal.message), "\(error.message)")
        #expect(try bench.catalog.productCount() == 0)
        // The good image stored before the refusal stays (named by its content, harmless), as
        // for local files; nothing of the refused one is.
        #expect(bench.mediaFiles().count == 3)
    }

    /// Without the option, or on a host the operator did not list, the URL stays remote and is
    /// never requested.
    @Test(arguments: [nil, RemoteMedia(hosts: .only(["cdn.example.com"]))] as [RemoteMedia?])
    func anImageNotAllowedStaysARemoteURL(rule: RemoteMedia?) throws {
        let server = try Self.server(try VipsImage.syntheticPhoto(width: 40, height: 40, format: .png))
        defer { server.stop() }
        let bench = try ImageImportBench()

        try bench.importCatalog([("Lamp", server.url("/photo.png"))], remoteMedia: rule)

        #expect(try bench.storedImage("lamp")?.url == server.url("/photo.png"))
        #expect(server.requests("/photo.png") == 0)
        #expect(bench.mediaFiles().isEmpty)
    }

    /// `--fetch-images` with no list allows any host at public addresses only: a URL on the
    /// loopback address is refused (SSRF), before any request reaches it.
    @Test func anyHostMeansPublicAddressesOnly() throws {
        let server = try Self.server(try VipsImage.syntheticPhoto(width: 40, height: 40, format: .png))
        defer { server.stop() }
        let bench = try ImageImportBench()

        let error = try #require(throws: ImportError.self) {
            try bench.importCatalog([("Lamp", server.url("/photo.png"))], remoteMedia: RemoteMedia(hosts: .anyHost))
        }

        #expect(error.line == 2)
        #expect(error.message.contains("resolves to 127.0.0.1"), "\(error.message)")
        #expect(server.requests("/photo.png") == 0)
    }

    /// A dry run downloads and checks (a bad download is found), and stores nothing.
    @Test func aDryRunDownloadsAndChecksButStoresNothing() throws {
        let server = try Self.server(try VipsImage.syntheticPhoto(width: 40, height: 40, format: .png))
        defer { server.stop() }
        let bench = try ImageImportBench()

        let report = try bench.importCatalog([("Lamp", server.url("/photo.png"))], dryRun: true, remoteMedia: Self.loopback)
        #expect(report.imagesDownloaded == 1 && report.preview?.productsCreated == 1)
        #expect(server.requests("/photo.png") == 1)
        #expect(bench.mediaFiles().isEmpty)
        #expect(throws: ImportError.self) {
            try bench.importCatalog([("Lamp", server.url("/text.jpg"))], dryRun: true, remoteMedia: Self.loopback)
        }
    }

    @Test(arguments: [
        (nil, RemoteMedia.Hosts.anyHost), ("", .anyHost), ("CDN.example.com, images.example.net", .only(["cdn.example.com", "images.example.net"])),
        ("[::1],127.0.0.1", .only(["[::1]", "127.0.0.1"])),
    ] as [(String?, RemoteMedia.Hosts)])
    func theFlagNamesHosts(flag: String?, hosts: RemoteMedia.Hosts) throws {
        #expect(try RemoteMedia(flag: flag).hosts == hosts)
    }

    @Test(arguments: ["https://cdn.example.com", "cdn.example.com/images", "cdn.example.com:8080", "cdn example"])
    func aFlagItemThatIsNoHostIsRefused(item: String) {
        #expect(throws: RemoteMediaError.invalidHost(item)) { try RemoteMedia(flag: item) }
    }
}
