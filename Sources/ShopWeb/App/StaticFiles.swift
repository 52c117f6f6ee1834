import Foundation
import HTTPServer

/// Serves the files shipped with the app (`/static/…`) and imported media (`/media/…`).
enum StaticFiles {
    /// A shipped file with a strong ETag; `304 Not Modified` when the browser has it already.
    /// Versioned URLs (`?v=…`) are cached for a year as immutable; others for a day.
    static func asset(_ path: String, request: Request, assets: Assets) -> Response? {
        guard let file = assets.files[path] else { return nil }
        // Immutable only for the URL of this very content; a stale or made-up `v` gets a day.
        let cacheControl = request.queryValue("v").map { $0 == String(file.version) } == true
            ? "public, max-age=31536000, immutable" : "public, max-age=86400"
        return respond(bytes: file.bytes, contentType: file.contentType, etag: file.etag,
                       cacheControl: cacheControl, request: request)
    }

    /// A file from the media folder, by plain file name (no folders, no hidden files).
    ///
    /// Every name there follows its content (`MediaLibrary`: `<hash>.<ext>`, renditions
    /// `<hash>-<width>.<ext>`), so a file is cached for a year as immutable. A missing image (a
    /// rendition not made, a media folder lost in a move) is answered `404` with a small grey
    /// SVG picture, which the browser draws in the image's box instead of a broken-image icon —
    /// no JavaScript needed —, cached only briefly so the real file shows once it is there.
    static func media(_ file: String, request: Request, directory: URL?) -> Response? {
        guard !file.contains("/"), !file.hasPrefix(".") else { return nil }
        let pathExtension = (file as NSString).pathExtension
        if let directory, let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) {
            let bytes = [UInt8](data)
            return respond(bytes: bytes, contentType: Assets.contentType(for: pathExtension),
                           etag: Assets.etag(for: bytes), cacheControl: "public, max-age=31536000, immutable", request: request)
        }
        guard Assets.contentType(for: pathExtension).hasPrefix("image/") else { return nil }
        return Response(status: .notFound, headers: ["Content-Type": "image/svg+xml", "Cache-Control": "no-cache"],
                        body: missingImagePlaceholder)
    }

    /// The picture a missing media image shows: `Public/images/placeholder.svg`, a grey square
    /// with a faint landscape mark (also the stylesheet's background for a picture that fails to
    /// load). Plain shapes only — no script, no external reference —, so the CSP allows it as is.
    static let missingImagePlaceholder: [UInt8] = Assets.bundled.files["images/placeholder.svg"]?.bytes
        ?? Array("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"/>".utf8)

    /// The file's `200`; `If-None-Match` is answered once the body's coding is chosen
    /// (`ConditionalRequest`, in `ShopApp.handle`), so a `304` carries the `ETag` and `Vary`
    /// of the `200` it confirms.
    static func respond(bytes: [UInt8], contentType: String, etag: String, cacheControl: String,
                        request: Request) -> Response {
        Response(status: .ok, headers: ["ETag": etag, "Cache-Control": cacheControl, "Content-Type": contentType], body: bytes)
    }
}
