import Foundation
import HTTPServer

/// Where a request that changes something comes from, as the browser tells it: the
/// Fetch Metadata header `Sec-Fetch-Site`, or else the `Origin` header. Neither can be set by a
/// page, so a form or `fetch` on another site cannot claim to be the shop's own.
///
/// The storefront's CSRF defence (docs/ARCHITECTURE.md, "Cross-site requests") rests on it:
/// a cross-origin action is refused whatever it carries; a same-origin one needs no token; and
/// only a request that says neither (a browser older than 2020, or not a browser) falls back to
/// the session's CSRF token. Pages for visitors without a session therefore carry no token and
/// are the same bytes for every such visitor, kept whole with their gzip (issue #14).
/// Go's `net/http.CrossOriginProtection` (1.25) takes the same approach.
enum RequestSite: Equatable, Sendable {
    /// The shop's own page sent it.
    case sameOrigin
    /// Another site (or subdomain, or an opaque `null` origin) sent it.
    case crossOrigin
    /// The request says neither.
    case unknown

    /// What `request` says about its sender. `publicURL` is the shop's address as shoppers reach
    /// it (`AppEnvironment.publicURL`); an `Origin` matches it, or the `Host` the request names
    /// (a shop reached under another name than its public URL, e.g. by its IP address).
    ///
    /// A browser sends each header once, with one value: two of either (or a list in one) is
    /// not a browser's request and proves nothing — cross-origin (a fresh tester's
    /// `same-origin, cross-site` had been read as its first value).
    init(_ request: Request, publicURL: String) {
        let sites = request.headers.values(for: "Sec-Fetch-Site").flatMap { $0.split(separator: ",") }
        let origins = request.headers.values(for: "Origin")
        guard sites.count <= 1, origins.count <= 1 else {
            self = .crossOrigin
            return
        }
        switch sites.first.map({ String($0).trimmingCharacters(in: .whitespaces).lowercased() }) {
        case "same-origin":
            self = .sameOrigin
            return
        case "same-site", "cross-site":
            self = .crossOrigin
            return
        // `none` (a navigation the person started themselves, which a POST is not), a value a
        // later browser may add, or no header: `Origin` says what it can (a fresh tester's
        // `none` with another site's `Origin` was let through).
        default:
            break
        }
        guard let origin = origins.first else {
            self = .unknown
            return
        }
        self = Self.isShopOrigin(origin, publicURL: publicURL, host: request.headers["Host"]) ? .sameOrigin : .crossOrigin
    }

    /// `true` when `origin` (`scheme://host[:port]`) is the public URL's origin, or names the
    /// request's `Host` (compared without case).
    static func isShopOrigin(_ origin: String, publicURL: String, host: String?) -> Bool {
        let origin = origin.trimmingCharacters(in: .whitespaces).lowercased()
        if origin == Self.origin(of: publicURL) { return true }
        guard let host, !host.isEmpty, let separator = origin.range(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound]
        return (scheme == "http" || scheme == "https") && origin[separator.upperBound...] == host.lowercased()
    }

    /// `scheme://host[:port]` of `url`, lower-cased, without a path.
    static func origin(of url: String) -> String {
        let lowered = url.lowercased()
        guard let separator = lowered.range(of: "://") else { return lowered }
        let authority = lowered[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(lowered[..<separator.upperBound]) + authority
    }
}
