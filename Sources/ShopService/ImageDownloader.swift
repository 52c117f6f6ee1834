public import ShopImport

/// How the import downloads a remote image (`shoppable import --fetch-images`), as a struct of
/// closures (STYLE.md 3): ShopService imports no C; `ImageDownloader.curl()` (ShopWebLive, over
/// the `Fetch` module's libcurl wrapper) is the live one, and a test may pass its own closure.
///
/// ```swift
/// let downloader = ImageDownloader.curl()
/// let bytes = try downloader.download("https://cdn.example.com/chair.jpg", RemoteMedia(hosts: .anyHost))
/// ```
public struct ImageDownloader: Sendable {
    /// The body at `url` (http/https), downloaded under `rule`'s hosts, address rule and byte
    /// cap. Throws an error whose description says, for the merchant, why nothing came back
    /// (without repeating the URL).
    public var download: @Sendable (_ url: String, _ rule: RemoteMedia) throws -> [UInt8]

    /// Creates a downloader from its operation.
    public init(download: @escaping @Sendable (_ url: String, _ rule: RemoteMedia) throws -> [UInt8]) {
        self.download = download
    }
}
