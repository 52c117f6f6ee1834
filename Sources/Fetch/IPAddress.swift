/// An IPv4 or IPv6 address as its bytes, and whether it is a public (globally routed) one: the
/// rule `HTTPFetch` connects by when a host may only be reached at public addresses.
///
/// ```swift
/// IPAddress(bytes: [93, 184, 215, 14])!.isPublic     // true
/// IPAddress(bytes: [169, 254, 169, 254])!.isPublic   // false: link-local (cloud metadata)
/// ```
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]

    /// An address from its 4 or 16 bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// `false` for every address not meant to be reached from the internet: unspecified,
    /// loopback, private (RFC 1918, IPv6 unique-local), shared (carrier-grade NAT), link-local
    /// (`169.254/16` — cloud metadata services —, `fe80::/10`), multicast, reserved and
    /// broadcast, documentation and benchmarking ranges; an IPv4-mapped, IPv4-compatible, NAT64
    /// or 6to4 IPv6 address by the IPv4 address inside it.
    public var isPublic: Bool {
        if bytes.count == 4 { return Self.isPublicIPv4(bytes) }
        let zeros = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeros, bytes[10] == 0xFF, bytes[11] == 0xFF { return Self.isPublicIPv4(Array(bytes[12..<16])) }  // ::ffff:a.b.c.d
        if zeros, bytes[10] == 0, bytes[11] == 0 { return false }  // ::, ::1, ::a.b.c.d (deprecated)
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {  // 64:ff9b::/96 NAT64
            return Self.isPublicIPv4(Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return Self.isPublicIPv4(Array(bytes[2..<6])) }  // 2002::/16 6to4
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local (deprecated)
        if bytes[0] == 0xFF { return false }  // multicast
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0D, bytes[3] == 0xB8 { return false }  // 2001:db8::/32 documentation
        if bytes[0] == 0x01, bytes[1..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64 discard
        return bytes[0] & 0xE0 == 0x20  // 2000::/3, the global unicast space
    }

    private static func isPublicIPv4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1], b[2]) {
        case (0, _, _), (10, _, _), (127, _, _): false                 // this network, private, loopback
        case (100, 64...127, _): false                                 // shared address space (CGNAT)
        case (169, 254, _): false                                      // link-local, cloud metadata
        case (172, 16...31, _), (192, 168, _): false                   // private
        case (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113): false  // IETF protocol, documentation
        case (198, 18...19, _): false                                  // benchmarking
        case (224..., _, _): false                                     // multicast, reserved, broadcast
        default: true
        }
    }

    /// Dotted IPv4 (`10.0.0.5`) or IPv6 in hexadecimal groups (`fe80:0:0:0:0:0:0:1`, not shortened).
    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
