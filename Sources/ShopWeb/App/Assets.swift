public import Foundation
import ShopCore

/// Static files shipped in `Sources/ShopWeb/Public` (stylesheet, script, demo images), loaded
/// once at start and served from memory.
///
/// The stylesheet and script are linked by content-hashed URLs (`/static/app.css?v=1f3a…`):
/// they are sent with `Cache-Control: public, max-age=31536000, immutable` and a strong ETag,
/// so browsers fetch them once per release. Images get a day of caching plus the ETag.
public struct Assets: Sendable {
    /// One file.
    public struct File: Sendable {
        /// The bytes.
        public var bytes: [UInt8]
        /// The `Content-Type` header value.
        public var contentType: String
        /// Strong ETag: a quoted 64-bit FNV-1a hash of the bytes in hex.
        public var etag: String
        /// The hash alone (the ETag without quotes), for versioned URLs.
        public var version: Substring { etag.dropFirst().dropLast() }
    }

    /// Files by path below `Public`, e.g. `"app.css"`, `"images/demo/oak-chair.svg"`.
    public let files: [String: File]
    /// The stylesheet's URL with its content hash.
    public let stylesheetPath: String
    /// The script's URL with its content hash.
    public let scriptPath: String

    /// Creates assets from files.
    public init(files: [String: File]) {
        self.files = files
        stylesheetPath = Assets.versionedPath("app.css", in: files)
        scriptPath = Assets.versionedPath("app.js", in: files)
    }

    /// The URL of a file with its content hash, e.g. `/static/app.css?v=1f3a…`, for immutable caching.
    public func versionedPath(_ path: String) -> String { Assets.versionedPath(path, in: files) }

    private static func versionedPath(_ path: String, in files: [String: File]) -> String {
        guard let file = files[path] else { return "/static/\(path)" }
        return "/static/\(path)?v=\(file.version)"
    }

    /// The files in the module's `Public` resource folder.
    public static let bundled: Assets = {
        guard let root = Bundle.module.url(forResource: "Public", withExtension: nil) else { return Assets(files: [:]) }
        return load(from: root)
    }()

    /// Loads every regular file below `root` (hidden files skipped).
    ///
    /// A file is told from a folder by `stat` (`fileExists(atPath:isDirectory:)`): asking
    /// `resourceValues` for `isRegularFile` made Foundation read `/etc/passwd` and `/etc/group`
    /// for every file, a tenth of a server's start (issue #14, cold start).
    public static func load(from root: URL) -> Assets {
        var files: [String: File] = [:]
        let fileManager = FileManager.default
        let rootPath = root.standardizedFileURL.path
        guard let relativePaths = fileManager.enumerator(atPath: rootPath) else { return Assets(files: [:]) }
        for case let relative as String in relativePaths {
            let path = rootPath + "/" + relative
            var isDirectory: ObjCBool = false
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  fileManager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = fileManager.contents(atPath: path) else { continue }
            let bytes = [UInt8](data)
            files[relative] = File(bytes: bytes, contentType: contentType(for: (relative as NSString).pathExtension),
                                   etag: etag(for: bytes))
        }
        return Assets(files: files)
    }

    /// The `Content-Type` for a file extension.
    public static func contentType(for pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "avif": "image/avif"
        case "ico": "image/x-icon"
        case "json", "webmanifest": "application/json"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }

    /// A strong ETag: the quoted `ContentHash` of `bytes` (the same name imported media files get).
    public static func etag(for bytes: [UInt8]) -> String { "\"\(ContentHash(of: bytes).hex)\"" }
}
