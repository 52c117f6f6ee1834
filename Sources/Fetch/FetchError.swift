/// Why `HTTPFetch.get` fetched nothing. Each case names the URL as it was asked for; the
/// description is for the merchant whose file named it.
public enum FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an http(s) URL, or not a URL at all.
    case unsupportedURL(url: String, reason: String)
    /// The URL's host is not one the caller allows.
    case hostNotAllowed(url: String, host: String)
    /// A redirect to a URL that is not http(s), or to a host not allowed.
    case redirectNotAllowed(url: String, location: String, reason: String)
    /// More redirects than allowed.
    case tooManyRedirects(url: String, maximum: Int)
    /// The host resolved only to addresses that are not public, and it may only be reached at
    /// public ones.
    case privateAddress(url: String, host: String, address: String)
    /// The body is (or says it is) larger than the cap; the transfer was aborted.
    case tooLarge(url: String, maximum: Int)
    /// The server answered with a status other than 2xx.
    case httpStatus(url: String, status: Int)
    /// libcurl failed (DNS, connection, TLS, time-out…), with its code and text.
    case transfer(url: String, code: Int, message: String)

    /// The URL the fetch was asked for.
    public var url: String {
        switch self {
        case let .unsupportedURL(url, _), let .hostNotAllowed(url, _), let .redirectNotAllowed(url, _, _),
             let .tooManyRedirects(url, _), let .privateAddress(url, _, _), let .tooLarge(url, _),
             let .httpStatus(url, _), let .transfer(url, _, _):
            url
        }
    }

    /// What went wrong, without the URL (the caller names it), e.g. `the server answered HTTP 404`.
    public var description: String {
        switch self {
        case let .unsupportedURL(_, reason):
            "cannot be fetched: \(reason)"
        case let .hostNotAllowed(_, host):
            "host “\(host)” is not one images may be fetched from"
        case let .redirectNotAllowed(_, location, reason):
            "redirects to “\(location)”, which is not followed: \(reason)"
        case let .tooManyRedirects(_, maximum):
            "more than \(maximum) redirects"
        case let .privateAddress(_, host, address):
            "host “\(host)” resolves to \(address), a loopback, private or otherwise non-public address; "
                + "such hosts are fetched from only when named explicitly"
        case let .tooLarge(_, maximum):
            "is more than \(maximum) bytes; an image may have at most \(maximum) bytes (download stopped)"
        case let .httpStatus(_, status):
            "the server answered HTTP \(status)"
        case let .transfer(_, code, message):
            "download failed: \(message) (curl error \(code))"
        }
    }
}
