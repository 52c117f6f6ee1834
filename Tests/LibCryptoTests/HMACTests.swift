import LibCrypto
import Testing

@Suite("HMAC-SHA1 (libcrypto)")
struct HMACTests {
    /// RFC 2202's test cases 1 and 2.
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
    ])
    func rfc2202Vectors(key: [UInt8], message: [UInt8], hex: String) {
        let digest = HMAC.sha1(key: key, message: message)
        #expect(digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == hex)
    }
}
