/// A set of ASCII bytes as two 64-bit masks (bytes 0–63 and 64–127): a membership test is a
/// shift and an AND. For the rules checked at every byte of a header — a search through a list of
/// delimiters was 7 % of a cached API answer (issue #10), and a closure called per byte 1 % of a
/// first visit (issue #14). The masks are written out, so no lazy global is checked per byte;
/// `ASCIIByteSetTests` holds each to its RFC's definition. Bytes from 128 up are never members.
struct ASCIIByteSet: Sendable {
    let low: UInt64
    let high: UInt64

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }

    /// RFC 9110 §5.6.2 `tchar`: 0x21–0x7E but `"(),/:;<=>?@[\]{}`.
    static let token = ASCIIByteSet(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
    /// RFC 6265 §4.1.1 `cookie-octet`: 0x21–0x7E but `"`, `,`, `;` and `\`.
    static let cookieOctet = ASCIIByteSet(low: 0xF7FF_EFFA_0000_0000, high: 0x7FFF_FFFF_EFFF_FFFF)
    /// RFC 6265 §4.1.1 `av-octet`: any `CHAR` but the controls and `;`.
    static let attributeOctet = ASCIIByteSet(low: 0xF7FF_FFFF_0000_0000, high: 0x7FFF_FFFF_FFFF_FFFF)
}
