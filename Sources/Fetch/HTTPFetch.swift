import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `GET` of an http(s) URL through libcurl, for content a merchant's file names (the
/// import's `--fetch-images`), so made safe against a hostile or broken URL:
///
/// - **http and https only**, on the first request and on every redirect (`CURLOPT_PROTOCOLS_STR`;
///   redirects are followed here, not by libcurl, at most `Limits.maximumRedirects` of them).
/// - **Every host asked about** (`access`), the first one and each redirect's: `.refused` stops
///   the transfer, `.publicAddressesOnly` lets it connect only to public addresses — checked on
///   the address libcurl is about to connect to (`CURLOPT_OPENSOCKETFUNCTION`), so a name that
///   resolves to `127.0.0.1`, `10.…`, `169.254.169.254` or `::1` is refused even when DNS changes
///   between the check and the connection (SSRF) —, `.anyAddress` for a host the operator named.
/// - **Time limits**: connecting, and the whole fetch with its redirects.
/// - **A byte cap**: a `Content-Length` over it is refused before the body
///   (`CURLOPT_MAXFILESIZE_LARGE`), and a body that grows past it aborts the transfer as soon as
///   it does; no more than the cap is ever kept in memory.
/// - **2xx only**: any other final status is an error (`CURLOPT_FAILONERROR`: no error body read).
/// - No proxy from the environment (`http_proxy` would otherwise see every URL and hide the
///   address checked), no cookies, no compression (the bytes are the server's).
///
/// Every libcurl pointer and code stays in this file.
///
/// ```swift
/// let response = try HTTPFetch.get("https://cdn.example.com/chair.jpg",
///                                  limits: .init(maximumBytes: 32 << 20)) { _ in .publicAddressesOnly }
/// response.bytes   // the image
/// ```
public enum HTTPFetch {
    /// How far a fetch may go.
    public struct Limits: Hashable, Sendable {
        /// The largest body accepted, in bytes.
        public var maximumBytes: Int
        /// Seconds to connect (each connection).
        public var connectTimeout: Double
        /// Seconds for the whole fetch, redirects included.
        public var totalTimeout: Double
        /// Redirects followed before giving up.
        public var maximumRedirects: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maximumBytes: the largest body accepted.
        ///   - connectTimeout: seconds to connect.
        ///   - totalTimeout: seconds for the whole fetch.
        ///   - maximumRedirects: redirects followed.
        public init(maximumBytes: Int, connectTimeout: Double = 10, totalTimeout: Double = 60, maximumRedirects: Int = 5) {
            self.maximumBytes = maximumBytes
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maximumRedirects = maximumRedirects
        }
    }

    /// What a fetch may do with a host.
    public enum HostAccess: Hashable, Sendable {
        /// Not fetched from at all.
        case refused
        /// Connected to only at public addresses (not loopback, private, link-local, …).
        case publicAddressesOnly
        /// Connected to at any address (a host the operator named).
        case anyAddress
    }

    /// A fetched body.
    public struct Response: Hashable, Sendable {
        /// The body, at most `Limits.maximumBytes` of it.
        public var bytes: [UInt8]
        /// The URL the body came from (after redirects).
        public var url: String
        /// The final HTTP status (2xx).
        public var status: Int
    }

    /// Fetches `url` with `GET`, following redirects, under the rules above.
    /// - Parameters:
    ///   - url: an `http://` or `https://` URL.
    ///   - limits: bytes, time and redirects allowed.
    ///   - userAgent: the `User-Agent` sent.
    ///   - access: what may be done with a host (lowercased, as libcurl parsed it; IPv6 in
    ///     brackets); asked for the URL's host and for each redirect's.
    ///   - certificateAuthorities: a PEM file of the certificate authorities an `https` server's
    ///     certificate must chain to, instead of the system's (`ca-certificates`); for a shop's
    ///     own image server under a private authority, and for tests. The certificate is always
    ///     verified, and so is the host name it is for.
    /// - Returns: the body of the final 2xx answer.
    /// - Throws: `FetchError` saying which rule was broken or what failed (an untrusted
    ///   certificate or a wrong host name: `.transfer` with libcurl's code 60).
    public static func get(_ url: String, limits: Limits, userAgent: String = "Shoppable-import",
                           certificateAuthorities: String? = nil,
                           access: (_ host: String) -> HostAccess) throws(FetchError) -> Response {
        let globalStatus = curlGlobalInitStatus
        guard globalStatus == CURLE_OK else {
            throw .transfer(url: url, code: Int(globalStatus.rawValue), message: "curl_global_init failed")
        }
        let started = ContinuousClock.now
        var current = url
        for hop in 0...max(0, limits.maximumRedirects) {
            let target = try ParsedURL(current, original: url, isRedirect: hop > 0)
            defer { target.free() }
            let hostAccess = access(target.host)
            guard hostAccess != .refused else {
                throw hop == 0 ? .hostNotAllowed(url: url, host: target.host)
                    : .redirectNotAllowed(url: url, location: current, reason: "host “\(target.host)” is not allowed")
            }
            let elapsed = ContinuousClock.now - started
            let remaining = limits.totalTimeout - Double(elapsed.components.seconds)
                - Double(elapsed.components.attoseconds) / 1e18
            guard limits.totalTimeout <= 0 || remaining > 0 else {
                throw .transfer(url: url, code: Int(CURLE_OPERATION_TIMEDOUT.rawValue),
                                message: "timed out after \(limits.totalTimeout) s")
            }
            let transfer = Transfer(url: url, host: target.host, maximumBytes: limits.maximumBytes,
                                    allowsAnyAddress: hostAccess == .anyAddress)
            switch try transfer.run(target, limits: limits, remaining: remaining, userAgent: userAgent,
                                    certificateAuthorities: certificateAuthorities) {
            case let .body(bytes, status):
                return Response(bytes: bytes, url: current, status: status)
            case let .redirect(location):
                current = location
            }
        }
        throw .tooManyRedirects(url: url, maximum: limits.maximumRedirects)
    }
}

/// `curl_global_init(CURL_GLOBAL_DEFAULT)`, once per process on first use.
private let curlGlobalInitStatus: CURLcode = shoppable_curl_global_init_default()

/// A URL parsed by libcurl's own parser (`curl_url`), so the host checked is the host fetched:
/// the handle itself is given to the transfer (`CURLOPT_CURLU`).
private struct ParsedURL {
    let handle: OpaquePointer
    let host: String

    init(_ text: String, original: String, isRedirect: Bool) throws(FetchError) {
        func refuse(_ reason: String) -> FetchError {
            isRedirect ? .redirectNotAllowed(url: original, location: text, reason: reason) : .unsupportedURL(url: text, reason: reason)
        }
        guard let handle = curl_url() else { throw .transfer(url: original, code: 0, message: "curl_url failed (out of memory)") }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK else {
            curl_url_cleanup(handle)
            throw refuse("not a valid URL")
        }
        func part(_ which: CURLUPart) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https" else {
            curl_url_cleanup(handle)
            throw refuse("only http and https URLs are fetched")
        }
        guard let host = part(CURLUPART_HOST), !host.isEmpty else {
            curl_url_cleanup(handle)
            throw refuse("the URL has no host")
        }
        self.handle = handle
        self.host = host.lowercased()
    }

    func free() { curl_url_cleanup(handle) }
}

/// One request (one hop): the body collected under the cap, the address check's verdict.
/// Reached from libcurl's callbacks through their user-data pointers; one thread only.
private final class Transfer {
    enum Outcome {
        case body([UInt8], status: Int)
        case redirect(String)
    }

    let url: String
    let host: String
    let maximumBytes: Int
    let allowsAnyAddress: Bool
    var bytes: [UInt8] = []
    var exceeded = false
    var refusedAddress: String?

    init(url: String, host: String, maximumBytes: Int, allowsAnyAddress: Bool) {
        self.url = url
        self.host = host
        self.maximumBytes = maximumBytes
        self.allowsAnyAddress = allowsAnyAddress
    }

    func run(_ target: ParsedURL, limits: HTTPFetch.Limits, remaining: Double, userAgent: String,
             certificateAuthorities: String?) throws(FetchError) -> Outcome {
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        guard let handle = curl_easy_init() else {
            throw .transfer(url: url, code: 0, message: "curl_easy_init failed")
        }
        defer { curl_easy_cleanup(handle) }

        return try withExtendedLifetime(self) { () throws(FetchError) -> Outcome in
            let context = Unmanaged.passUnretained(self).toOpaque()
            func milliseconds(_ seconds: Double) -> Int { seconds > 0 ? max(1, Int(min(seconds * 1000, Double(Int32.max)))) : 0 }
            var options: [(String, () -> CURLcode)] = [
                ("ERRORBUFFER", { shoppable_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer) }),
                ("CURLU", { shoppable_curl_setopt_pointer(handle, CURLOPT_CURLU, UnsafeMutableRawPointer(target.handle)) }),
                ("PROTOCOLS_STR", { shoppable_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https") }),
                ("FOLLOWLOCATION", { shoppable_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0) }),
                ("PROXY", { shoppable_curl_setopt_string(handle, CURLOPT_PROXY, "") }),
                ("NOSIGNAL", { shoppable_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1) }),
                ("FAILONERROR", { shoppable_curl_setopt_long(handle, CURLOPT_FAILONERROR, 1) }),
                ("USERAGENT", { shoppable_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent) }),
                ("CONNECTTIMEOUT_MS", { shoppable_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(limits.connectTimeout)) }),
                ("TIMEOUT_MS", { shoppable_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(remaining)) }),
                ("MAXFILESIZE_LARGE", { shoppable_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes)) }),
                ("WRITEFUNCTION", { shoppable_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, fetchWriteCallback) }),
                ("WRITEDATA", { shoppable_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context) }),
                ("OPENSOCKETFUNCTION", { shoppable_curl_setopt_opensocket_callback(handle, CURLOPT_OPENSOCKETFUNCTION, fetchOpenSocketCallback) }),
                ("OPENSOCKETDATA", { shoppable_curl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, context) }),
                // libcurl's defaults, stated: the peer's certificate and its host name are checked.
                ("SSL_VERIFYPEER", { shoppable_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1) }),
                ("SSL_VERIFYHOST", { shoppable_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2) }),
            ]
            if let certificateAuthorities {
                options.append(("CAINFO", { shoppable_curl_setopt_string(handle, CURLOPT_CAINFO, certificateAuthorities) }))
            }
            for (name, setOption) in options {
                let status = setOption()
                guard status == CURLE_OK else {
                    throw .transfer(url: url, code: Int(status.rawValue),
                                    message: "setting CURLOPT_\(name) failed: \(String(cString: curl_easy_strerror(status)))")
                }
            }

            let status = curl_easy_perform(handle)
            var code = 0
            _ = shoppable_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
            if exceeded || status == CURLE_FILESIZE_EXCEEDED { throw .tooLarge(url: url, maximum: maximumBytes) }
            if status == CURLE_HTTP_RETURNED_ERROR { throw .httpStatus(url: url, status: code) }
            guard status == CURLE_OK else {
                // Only when no address was left to try: a name may have a public address too.
                if let refusedAddress { throw .privateAddress(url: url, host: host, address: refusedAddress) }
                let buffered = String(cString: errorBuffer)
                throw .transfer(url: url, code: Int(status.rawValue),
                                message: buffered.isEmpty ? String(cString: curl_easy_strerror(status)) : buffered)
            }
            if (300..<400).contains(code) {
                var location: UnsafeMutablePointer<CChar>?
                guard shoppable_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location) == CURLE_OK, let location else {
                    throw .httpStatus(url: url, status: code)
                }
                return .redirect(String(cString: location))
            }
            guard (200..<300).contains(code) else { throw .httpStatus(url: url, status: code) }
            return .body(bytes, status: code)
        }
    }
}

/// libcurl's `CURLOPT_WRITEFUNCTION`: appends the chunk unless the body would pass the cap, in
/// which case it returns 0 and libcurl aborts the transfer (`CURLE_WRITE_ERROR`).
private func fetchWriteCallback(data: UnsafeMutablePointer<CChar>?, size: Int, count: Int,
                                userdata: UnsafeMutableRawPointer?) -> Int {
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    guard transfer.bytes.count + length <= transfer.maximumBytes else {
        transfer.exceeded = true
        return 0
    }
    transfer.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    return length
}

/// libcurl's `CURLOPT_OPENSOCKETFUNCTION`: called with each address libcurl is about to connect
/// to (after DNS); refuses a non-public one unless the host may use any address.
private func fetchOpenSocketCallback(clientp: UnsafeMutableRawPointer?, purpose: curlsocktype,
                                     address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
    guard let clientp, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<Transfer>.fromOpaque(clientp).takeUnretainedValue()
    let family = address.pointee.family
    let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
    let socketAddress = UnsafeRawBufferPointer(start: UnsafeRawPointer(address) + offset,
                                               count: Int(address.pointee.addrlen))
    let ip: IPAddress? = switch family {
    case AF_INET where socketAddress.count >= 8: IPAddress(bytes: Array(socketAddress[4..<8]))
    case AF_INET6 where socketAddress.count >= 24: IPAddress(bytes: Array(socketAddress[8..<24]))
    default: nil
    }
    guard let ip else {
        transfer.refusedAddress = "an address of family \(family)"
        return CURL_SOCKET_BAD
    }
    guard transfer.allowsAnyAddress || ip.isPublic else {
        transfer.refusedAddress = ip.description
        return CURL_SOCKET_BAD
    }
    return socket(family, address.pointee.socktype, address.pointee.protocol)
}
