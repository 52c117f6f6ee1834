import Fetch
public import ShopService
import ShopImport

extension ImageDownloader {
    /// Downloads through libcurl (`Fetch.HTTPFetch`): http/https only, each host (and each
    /// redirect's) asked of the `RemoteMedia` rule — a host it allows only at public addresses is
    /// refused when it resolves to a loopback, private or link-local one —, at most
    /// `RemoteMedia.maximumBytes` (the transfer is aborted past it), non-2xx refused.
    /// - Parameters:
    ///   - connectTimeout: seconds to connect.
    ///   - totalTimeout: seconds per image, redirects included.
    ///   - maximumRedirects: redirects followed per image.
    ///   - certificateAuthorities: a PEM file of the authorities an `https` server's certificate
    ///     must chain to, instead of the system's (`--fetch-images-ca`); nil: the system's.
    public static func curl(connectTimeout: Double = 10, totalTimeout: Double = 60,
                            maximumRedirects: Int = 5, certificateAuthorities: String? = nil) -> ImageDownloader {
        ImageDownloader { url, rule in
            let limits = HTTPFetch.Limits(maximumBytes: rule.maximumBytes, connectTimeout: connectTimeout,
                                          totalTimeout: totalTimeout, maximumRedirects: maximumRedirects)
            return try HTTPFetch.get(url, limits: limits, certificateAuthorities: certificateAuthorities) { host in
                switch rule.access(host: host) {
                case .refused: .refused
                case .publicAddressesOnly: .publicAddressesOnly
                case .anyAddress: .anyAddress
                }
            }.bytes
        }
    }
}
