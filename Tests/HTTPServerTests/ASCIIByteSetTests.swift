@testable import HTTPServer
import Testing

/// Each written-out mask of `ASCIIByteSet` against its RFC's definition, for all 256 bytes.
@Suite("ASCII byte sets")
struct ASCIIByteSetTests {
    /// The definitions as the RFCs spell them.
    static let definitions: [(name: String, set: ASCIIByteSet, rule: @Sendable (UInt8) -> Bool)] = [
        // RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
        // "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
        ("tchar", .token, { byte in
            let scalar = Unicode.Scalar(byte)
            return byte < 0x80 && (("0"..."9").contains(scalar) || ("a"..."z").contains(scalar)
                || ("A"..."Z").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }),
        // RFC 6265 §4.1.1: cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E
        ("cookie-octet", .cookieOctet, { byte in
            byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte)
                || (0x3C...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
        }),
        // RFC 6265 §4.1.1: av-octet = any CHAR except CTLs or ";"
        ("av-octet", .attributeOctet, { byte in byte < 0x80 && byte >= 0x20 && byte != 0x7F && byte != 0x3B }),
    ]

    @Test(arguments: 0..<definitions.count)
    func everyByteIsAMemberExactlyWhenItsRuleSaysSo(index: Int) {
        let definition = Self.definitions[index]
        for byte in UInt8.min...UInt8.max {
            #expect(definition.set.contains(byte) == definition.rule(byte), "\(definition.name) byte \(byte)")
        }
    }
}
