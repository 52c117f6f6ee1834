public import Foundation

/// Which remote images an import fetches (`shoppable import --fetch-images[=HOST,…]`): the
/// operator's rule, the one home of "may this URL be downloaded, and to which addresses".
///
/// - `--fetch-images` alone (`.anyHost`): every `http(s)://` (and protocol-relative `//`) image
///   URL is fetched — but only from **public** addresses: a host that resolves to loopback,
///   private, link-local (`169.254.169.254`, a cloud's metadata service) or other internal
///   addresses is refused, so a supplier's file cannot make the shop read its own network (SSRF).
/// - `--fetch-images=cdn.example.com,images.example.net` (`.only`): only URLs on those hosts
///   (exact names, any case) are fetched, and redirects must stay on them; a host named here may
///   resolve to any address, internal ones included (the operator named it). Image URLs on other
///   hosts stay remote URLs, as without the flag.
///
/// ```swift
/// let remote = try RemoteMedia(flag: "cdn.example.com")
/// remote.fetches("https://CDN.example.com/a.jpg")   // true
/// remote.fetches("https://other.example/a.jpg")     // false: kept as a remote URL
/// remote.access(host: "cdn.example.com")            // .anyAddress
/// ```
public struct RemoteMedia: Hashable, Sendable {
    /// The hosts images are fetched from.
    public enum Hosts: Hashable, Sendable {
        /// Any host, at public addresses only.
        case anyHost
        /// Only these hosts (lowercased), at any address.
        case only(Set<String>)
    }

    /// What a fetch may do with a host (mirrors `HTTPFetch.HostAccess`, which ShopImport does not
    /// import: it links no C).
    public enum Access: Hashable, Sendable {
        /// Not fetched from.
        case refused
        /// Connected to at public addresses only.
        case publicAddressesOnly
        /// Connected to at any address.
        case anyAddress
    }

    /// The hosts allowed.
    public let hosts: Hosts
    /// The largest image downloaded, in bytes: the same limit as a local file's.
    public let maximumBytes: Int

    /// Creates the rule.
    /// - Parameters:
    ///   - hosts: the hosts allowed.
    ///   - maximumBytes: the largest image downloaded.
    public init(hosts: Hosts, maximumBytes: Int = LocalMedia.defaultMaximumBytes) {
        self.hosts = hosts
        self.maximumBytes = maximumBytes
    }

    /// The rule a `--fetch-images` flag gives: no value (or an empty one) → any host; a
    /// comma-separated list of host names → only those.
    /// - Throws: `RemoteMediaError.invalidHost` for a list item that is not a bare host name
    ///   (`https://cdn…`, `cdn…/images`, `cdn:8080`, spaces).
    public init(flag: String?, maximumBytes: Int = LocalMedia.defaultMaximumBytes) throws(RemoteMediaError) {
        let items = (flag ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            self.init(hosts: .anyHost, maximumBytes: maximumBytes)
            return
        }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_[]:")
        for item in items {
            let isIPv6 = item.hasPrefix("[") && item.hasSuffix("]")
            guard item.unicodeScalars.allSatisfy(allowed.contains), isIPv6 || !item.contains(":"),
                  isIPv6 || !(item.contains("[") || item.contains("]")) else {
                throw .invalidHost(item)
            }
        }
        self.init(hosts: .only(Set(items.map { $0.lowercased() })), maximumBytes: maximumBytes)
    }

    /// `true` when `url` is an image URL this rule downloads: `http://`, `https://` or
    /// protocol-relative `//…`, on an allowed host.
    public func fetches(_ url: String) -> Bool {
        guard let host = Self.host(of: url) else { return false }
        return access(host: host) != .refused
    }

    /// What a download may do with `host` (lowercased): asked for the URL's host and again for
    /// each redirect's.
    public func access(host: String) -> Access {
        switch hosts {
        case .anyHost: .publicAddressesOnly
        case let .only(names): names.contains(host.lowercased()) ? .anyAddress : .refused
        }
    }

    /// The URL a download asks for: a protocol-relative `//host/…` is fetched as `https:`.
    public static func downloadURL(of url: String) -> String {
        url.hasPrefix("//") ? "https:" + url : url
    }

    /// The host of an http(s) or protocol-relative URL, lowercased; nil for anything else.
    static func host(of url: String) -> String? {
        let absolute = downloadURL(of: url)
        let lower = absolute.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
              let host = URLComponents(string: absolute)?.host, !host.isEmpty else { return nil }
        let name = host.lowercased()
        return name.contains(":") && !name.hasPrefix("[") ? "[" + name + "]" : name
    }
}

/// A `--fetch-images` value the import cannot use.
public enum RemoteMediaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A list item that is not a bare host name.
    case invalidHost(String)

    /// The message, naming the item.
    public var description: String {
        switch self {
        case let .invalidHost(item):
            "“\(item)” is not a host name; give bare host names separated by commas "
                + "(--fetch-images=cdn.example.com,images.example.net)"
        }
    }
}
