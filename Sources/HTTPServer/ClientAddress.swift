#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which address a request comes from, when the server may sit behind reverse proxies.
///
/// A request's client address is the connection's peer, unless that peer is a proxy the operator
/// trusts (``HTTPServer/Configuration/trustedProxies``). Then it is taken from `X-Forwarded-For`,
/// read from the right (each proxy appends the address it received the request from) and skipping
/// the trusted proxies: the first address that is not one of them is the client. Entries left of
/// it were written by the client itself and are never believed.
public enum ClientAddress {
    /// `address` in canonical numeric form: IPv6 compressed and lower-case, an IPv4-mapped IPv6
    /// address as its IPv4 form, brackets and a port removed; `nil` when it is not an address.
    public static func canonical(_ address: some StringProtocol) -> String? {
        var text = address.trimmingSpaces()
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = String(text[..<colon])  // "192.0.2.1:4711"
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if inet_pton(AF_INET, text, &v4) == 1 {
            guard inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        } else {
            return nil
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `canonical(address)`, or the text itself when it is not an address.
    static func normalized(_ address: String) -> String { canonical(address) ?? address }

    /// The client behind a trusted proxy `peer`, from the `X-Forwarded-For` field values.
    /// - Parameters:
    ///   - peer: the connection's peer (a trusted proxy).
    ///   - forwardedFor: every `X-Forwarded-For` field value, in order.
    ///   - isTrustedProxy: whether a canonical address is a trusted proxy.
    /// - Returns: the right-most forwarded address that is not a trusted proxy; the left-most one
    ///   when all are; `peer` when there is none or a malformed entry comes first from the right.
    public static func forwarded(
        peer: String, forwardedFor: [String], isTrustedProxy: (String) -> Bool
    ) -> String {
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        var client = peer
        for hop in hops.reversed() {
            guard let address = canonical(hop) else { return client }
            client = address
            if !isTrustedProxy(address) { return address }
        }
        return client
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

/// Escaping for the access log, whose fields are separated by spaces.
public enum AccessLog {
    /// `text` with every byte outside printable ASCII, and the space, `"` and `\`, written as
    /// `%XX`, so a request path or method cannot add fields or lines to the log.
    public static func escaped(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: needsEscape) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if needsEscape(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
