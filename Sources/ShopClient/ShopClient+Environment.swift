public import Foundation

extension ShopClient {
    /// Which shop the client talks to.
    ///
    /// Shoppable is self-hosted: every merchant runs it at their own address, so there is no one
    /// production host to bake in. ``production`` is a reserved placeholder
    /// (`https://shop.example`, RFC 2606: it never resolves, so a forgotten override fails as
    /// `.offline` instead of reaching somebody else's shop). An app names its own shop once:
    ///
    /// ```swift
    /// extension ShopClient.Environment {
    ///     static let myShop = Self.custom(URL(string: "https://shop.my-brand.com")!)
    /// }
    /// let client = ShopClient(environment: .myShop)
    /// ```
    public enum Environment: Hashable, Sendable {
        /// `shoppable serve` on this machine: `http://127.0.0.1:8080` (the simulator reaches the
        /// Mac's loopback; a device needs `.custom` with the Mac's address).
        case development
        /// The placeholder `https://shop.example`; use ``custom(_:)`` for a real shop.
        case production
        /// The shop at `url` (scheme and host, optionally a path prefix such as `/shop`).
        case custom(URL)

        /// The base URL the API paths (`/api/…`) are appended to.
        public var baseURL: URL {
            switch self {
            case .development: URL(string: "http://127.0.0.1:8080")!
            case .production: URL(string: "https://shop.example")!
            case let .custom(url): url
            }
        }
    }
}
