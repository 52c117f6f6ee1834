public import Foundation
import ShopCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the image files a catalog names by local path, and nothing else.
///
/// A catalog file comes from a supplier; its image paths must not reach files the operator did
/// not mean to publish (issue #8, point 3: `/etc/passwd`, `/proc/self/environ` and the shop's
/// own database had become downloadable from product pages). So:
///
/// - Files are read only from inside the **roots**: the catalog file's own folder and, when the
///   operator names one, a media root (`shoppable import --media-root DIR`).
/// - A relative path is looked up in each root in turn; an absolute path, or a `file://` URL
///   (`file:///abs/path`, `file://localhost/abs/path`, percent-encoded), must lie inside one.
/// - `..` and symbolic links are resolved first (`realpath`); the result must still lie inside
///   the root, so neither `../` nor a link pointing out of the folder escapes it.
/// - Only a regular file is opened (not a device, FIFO or folder), without following a link,
///   and at most `maximumBytes` of it are read.
/// - Its content must be a JPEG, PNG, WebP, GIF or AVIF image (`ImageFormat`), whatever its
///   name says; the stored copy is named after the content and this format.
///
/// ```swift
/// let media = try LocalMedia(roots: [catalogFolder, mediaRoot])
/// let image = try media.load("images/chair.jpg")   // bytes + .jpeg
/// try media.load("/etc/passwd")                     // throws .outsideRoots
/// ```
public struct LocalMedia: Sendable {
    /// The largest image file accepted by default: 32 MiB, room for a camera's full-size JPEG
    /// (25 MB is common); its renditions are what shoppers download (`ImageRenditions`).
    public static let defaultMaximumBytes = 32 * 1024 * 1024

    /// The folders images may come from, as real paths (links resolved), in lookup order.
    public let roots: [String]
    /// The largest file accepted, in bytes.
    public let maximumBytes: Int

    /// Creates a reader for images inside `roots`.
    /// - Parameters:
    ///   - roots: the folders, in the order relative paths are looked up (the catalog file's
    ///     folder first).
    ///   - maximumBytes: the largest file accepted.
    /// - Throws: `LocalMediaError.rootNotFound` when a root is not an existing folder.
    public init(roots: [URL], maximumBytes: Int = defaultMaximumBytes) throws(LocalMediaError) {
        var resolved: [String] = []
        for root in roots {
            var isFolder: ObjCBool = false
            guard let path = Self.realPath(root.path),
                  FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw .rootNotFound(root.path)
            }
            resolved.append(path)
        }
        self.roots = resolved
        self.maximumBytes = maximumBytes
    }

    /// A reader that reads no file: for a catalog that arrives without a folder of its own (an
    /// upload), where every local image is refused with `LocalMediaError.noLocalFiles`.
    public static let none = LocalMedia(resolvedRoots: [], maximumBytes: defaultMaximumBytes)

    private init(resolvedRoots: [String], maximumBytes: Int) {
        roots = resolvedRoots
        self.maximumBytes = maximumBytes
    }

    /// `true` when `url` names a local file: not `http(s)://`, protocol-relative `//…`,
    /// `data:`, or a path this site serves (`/static/…`, `/media/…`).
    public static func isLocal(_ url: String) -> Bool {
        let lower = url.lowercased()
        return !(lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("//")
            || url.hasPrefix("/static/") || url.hasPrefix("/media/") || lower.hasPrefix("data:"))
    }

    /// Reads the image `reference` names (a path or `file://` URL) under the rules above.
    /// - Returns: its bytes, format and real path.
    /// - Throws: `LocalMediaError` saying which rule it breaks.
    public func load(_ reference: String) throws(LocalMediaError) -> LocalImage {
        let path = try resolve(reference)
        let bytes = try contents(of: path, reference: reference)
        guard let format = ImageFormat(sniffing: bytes) else { throw .notAnImage(reference) }
        return LocalImage(bytes: bytes, format: format, path: path)
    }

    /// Reads a local image of `result`, reporting a refusal at the place in the catalog file
    /// where the image first appears (`ImportResult.imageLocations`).
    /// - Parameters:
    ///   - url: the image URL as in the draft.
    ///   - result: what the importer read.
    ///   - file: the catalog file's name, for the message.
    ///   - line: the line to report when the location is unknown (the product's).
    /// - Throws: `ImportError` naming file, line and column (or JSON field).
    public func load(_ url: String, in result: ImportResult, file: String, line: Int) throws(ImportError) -> LocalImage {
        do {
            return try load(url)
        } catch {
            let location = result.imageLocations[url] ?? ImportLocation(line: line, column: "image")
            throw ImportError(file: file, at: location, problem: .localImage(error))
        }
    }

    /// Reads every local image of `result` once, so a bad one stops the import before anything
    /// is written (and `--dry-run` finds it too).
    /// - Returns: how many distinct local files the catalog names.
    /// - Throws: `ImportError` for the first image refused.
    @discardableResult
    public func check(_ result: ImportResult, file: String) throws(ImportError) -> Int {
        var seen: Set<String> = []
        for product in result.products {
            for image in product.images where Self.isLocal(image.url) && seen.insert(image.url).inserted {
                _ = try load(image.url, in: result, file: file, line: product.sourceLine)
            }
        }
        return seen.count
    }

    // MARK: Resolving

    /// The real path of the file `reference` names, inside a root.
    private func resolve(_ reference: String) throws(LocalMediaError) -> String {
        guard !roots.isEmpty else { throw .noLocalFiles(reference) }
        let path = try Self.path(of: reference)
        var escaped: String?
        for root in roots {
            guard let real = Self.realPath(path.hasPrefix("/") ? path : root + "/" + path) else { continue }
            if roots.contains(where: { Self.isInside(real, $0) }) { return real }  // inside any folder images may come from
            escaped = escaped ?? real
        }
        if let escaped { throw .outsideRoots(reference: reference, resolved: escaped, roots: roots) }
        throw .notFound(reference: reference, roots: roots)
    }

    /// The file path of a plain path or a `file://` URL.
    private static func path(of reference: String) throws(LocalMediaError) -> String {
        guard reference.lowercased().hasPrefix("file://") else { return reference }
        var rest = String(reference.dropFirst("file://".count))
        if rest.lowercased().hasPrefix("localhost/") { rest.removeFirst("localhost".count) }
        guard rest.hasPrefix("/") else { throw .fileURLWithHost(reference) }
        return rest.removingPercentEncoding ?? rest
    }

    /// `true` when `path` is `root` or below it (both real paths).
    private static func isInside(_ path: String, _ root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// `realpath(3)`: absolute, `.`/`..` and links resolved; nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: Reading

    /// At most `maximumBytes` of the regular file at `path`, opened without following a link.
    private func contents(of path: String, reference: String) throws(LocalMediaError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(reference, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .notARegularFile(reference)
        }
        guard status.st_size <= maximumBytes else {
            throw .tooLarge(reference, bytes: Int(status.st_size), maximum: maximumBytes)
        }
        // Read to the end, not to st_size: some files (/proc) report 0 and have more.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reference, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= maximumBytes else {
                throw .tooLarge(reference, bytes: bytes.count, maximum: maximumBytes)
            }
        }
    }
}

/// An image file read by `LocalMedia`.
public struct LocalImage: Hashable, Sendable {
    /// The file's content.
    public var bytes: [UInt8]
    /// Its format, from the content.
    public var format: ImageFormat
    /// Its real path.
    public var path: String
}

/// Why `LocalMedia` refused an image. The description is for the merchant and names the image
/// as the catalog file wrote it.
public enum LocalMediaError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// A root folder (the catalog's folder or `--media-root`) does not exist or is not a folder.
    case rootNotFound(String)
    /// This import reads no local files (`LocalMedia.none`: the catalog came without a folder).
    case noLocalFiles(String)
    /// No root holds the file.
    case notFound(reference: String, roots: [String])
    /// The path, once `..` and links are resolved, lies outside every root.
    case outsideRoots(reference: String, resolved: String, roots: [String])
    /// A `file://` URL naming another host.
    case fileURLWithHost(String)
    /// A folder, device, FIFO or socket, or a link swapped in after the path was resolved.
    case notARegularFile(String)
    /// Larger than the limit.
    case tooLarge(String, bytes: Int, maximum: Int)
    /// Not a JPEG, PNG, WebP, GIF or AVIF file by content.
    case notAnImage(String)
    /// The operating system refused to open or read it.
    case unreadable(String, reason: String)

    /// What is wrong, in English (the CLI's words; `message(in:)` in other languages), e.g.
    /// `image “/etc/passwd” is outside the folders images are read from …`.
    public var description: String { message(in: .english) }
}
