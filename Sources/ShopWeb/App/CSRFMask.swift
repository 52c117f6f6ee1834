/// The CSRF token as it appears in a page: masked with a fresh pad for every page, so the
/// secret never repeats across responses (BREACH: a gzipped page that also reflects a search
/// query must not let an attacker guess the token from compressed lengths).
///
/// `pad.hex(pad XOR token)`: the pad is random URL-safe text (no `.`); a form posts the masked
/// value back and `unmask` recovers the token. Unmasked tokens (forms rendered before masking,
/// scripts reading the cookie) are still accepted by `RequestContext.hasValidCSRFToken`.
enum CSRFMask {
    /// `token` masked with `pad` (random text at least as long as the token).
    static func mask(_ token: String, pad: String) -> String {
        let tokenBytes = Array(token.utf8), padBytes = Array(pad.utf8.prefix(tokenBytes.count))
        precondition(padBytes.count == tokenBytes.count, "the pad must be as long as the token")
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(tokenBytes.count * 2)
        for (byte, key) in zip(tokenBytes, padBytes) {
            let mixed = byte ^ key
            hex.append(digits[Int(mixed >> 4)])
            hex.append(digits[Int(mixed & 0x0F)])
        }
        return String(decoding: padBytes, as: UTF8.self) + "." + String(decoding: hex, as: UTF8.self)
    }

    /// The token inside a masked value; nil when `value` is not one.
    static func unmask(_ value: String) -> String? {
        let parts = value.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].count == parts[0].count * 2 else { return nil }
        var token: [UInt8] = []
        token.reserveCapacity(parts[0].count)
        var hex = parts[1].makeIterator()
        for key in parts[0] {
            guard let high = hex.next().flatMap(hexValue), let low = hex.next().flatMap(hexValue) else { return nil }
            token.append((high << 4 | low) ^ key)
        }
        return String(validating: token, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
