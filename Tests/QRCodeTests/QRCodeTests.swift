import QRCode
import Testing

@Suite("QR codes (libqrencode)")
struct QRCodeTests {
    @Test func aShortTextIsAVersion1CodeWithItsFinderPatterns() throws {
        let code = try QRCode("HELLO")
        #expect(code.size == 21 && code.modules.count == 21 * 21)
        // The three finder patterns: a dark 7×7 ring with a dark 3×3 centre, at three corners.
        for (x, y) in [(0, 0), (14, 0), (0, 14)] {
            #expect(code[x, y] && code[x + 6, y] && code[x, y + 6] && code[x + 6, y + 6])
            #expect(!code[x + 1, y + 1] && code[x + 3, y + 3])
        }
    }

    @Test func anOtpauthAddressFitsAndLongerTextsGrow() throws {
        let uri = "otpauth://totp/Shoppable:ana%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Shoppable"
        let code = try QRCode(uri)
        #expect(code.size > 21 && (code.size - 21) % 4 == 0)
        #expect(throws: QRCode.EncodingError.self) { try QRCode("") }
        #expect(throws: QRCode.EncodingError.self) { try QRCode(String(repeating: "x", count: 3_000)) }
    }
}
