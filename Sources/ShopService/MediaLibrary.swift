public import Foundation
import ShopCore

/// Where imported images are kept, each under a name made from its content
/// (`<content hash>.<extension>`) and served from `/media/<name>`. Because the name follows the
/// content, storing a file again is harmless and a file once stored never changes.
///
/// A struct of closures (STYLE.md 3): `.directory(_:)` is the live folder (`--media`); a test can
/// pass a folder in the temporary directory, or its own closure.
///
/// ```swift
/// let media = MediaLibrary.directory(URL(fileURLWithPath: "var/media"))
/// let name = MediaLibrary.fileName(for: bytes, extension: "png")   // "3f1c…9a.png"
/// let wrote = try media.store(name, bytes)                         // false if it was there
/// ```
public struct MediaLibrary: Sendable {
    /// Stores `bytes` under `name` unless a file of that name is already there.
    /// - Returns: `true` when it wrote the file, `false` when it was there already.
    /// - Throws: the file system's error when the file cannot be written.
    public var store: @Sendable (_ name: String, _ bytes: [UInt8]) throws -> Bool
    /// `true` when a file of that name is stored (an image's renditions are made only once).
    public var contains: @Sendable (_ name: String) -> Bool
    /// The stored file of that name, or nil when there is none.
    public var read: @Sendable (_ name: String) -> [UInt8]?

    /// Creates a library from its operations.
    public init(store: @escaping @Sendable (_ name: String, _ bytes: [UInt8]) throws -> Bool,
                contains: @escaping @Sendable (_ name: String) -> Bool = { _ in false },
                read: @escaping @Sendable (_ name: String) -> [UInt8]? = { _ in nil }) {
        self.store = store
        self.contains = contains
        self.read = read
    }

    /// The files of the folder at `directory` (created on the first store); each file is written
    /// whole to a temporary name and then renamed, so a reader never sees half an image.
    public static func directory(_ directory: URL) -> MediaLibrary {
        MediaLibrary(store: { name, bytes in
            let target = directory.appendingPathComponent(name)
            guard !FileManager.default.fileExists(atPath: target.path) else { return false }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: target, options: .atomic)
            return true
        }, contains: { name in
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
        }, read: { name in
            guard !name.contains("/"), !name.hasPrefix(".") else { return nil }
            return FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map { [UInt8]($0) }
        })
    }

    /// The name a content is stored under: its `ContentHash` and the format's extension.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - fileExtension: the extension without a dot, e.g. `"png"`.
    public static func fileName(for bytes: [UInt8], extension fileExtension: String) -> String {
        ContentHash(of: bytes).hex + "." + fileExtension
    }

    /// The site path a stored file is served from, e.g. `/media/3f1c…9a.png`.
    public static func url(of name: String) -> String { "/media/" + name }
}
