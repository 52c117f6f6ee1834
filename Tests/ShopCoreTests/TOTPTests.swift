import Foundation
import LibCrypto
import ShopCore
import Testing

/// RFC 6238 with the RFC's own SHA-1 vectors (the 8-digit codes; authenticator apps show the
/// last 6 of the same number).
@Suite("TOTP")
struct TOTPTests {
    static let secret = Array("12345678901234567890".utf8)
    static let totp = TOTP(hmacSHA1: { HMAC.sha1(key: $0, message: $1) })

    @Test(arguments: [(59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
                      (2_000_000_000, "69279037"), (20_000_000_000, "65353130")])
    func rfc6238Vectors(seconds: Int64, code: String) {
        let step = TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(seconds)))
        #expect(Self.totp.code(secret: Self.secret, step: step, digits: 8) == code)
        #expect(Self.totp.code(secret: Self.secret, step: step) == String(code.suffix(6)))
    }

    @Test func aCodeIsTakenWithinOneStepEitherSideAndNotBeyond() {
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = TOTP.step(at: now)
        for offset: Int64 in [-1, 0, 1] {
            let code = Self.totp.code(secret: Self.secret, step: step + offset)
            #expect(Self.totp.matchingStep(code, secret: Self.secret, now: now) == step + offset)
        }
        #expect(Self.totp.matchingStep(Self.totp.code(secret: Self.secret, step: step + 2), secret: Self.secret, now: now) == nil)
        let spaced = Self.totp.code(secret: Self.secret, step: step)
        #expect(Self.totp.matchingStep(String(spaced.prefix(3)) + " " + String(spaced.suffix(3)), secret: Self.secret, now: now) == step)
        #expect(Self.totp.matchingStep("12345", secret: Self.secret, now: now) == nil)
        #expect(Self.totp.matchingStep("12345a", secret: Self.secret, now: now) == nil)
    }

    /// RFC 4648's Base32 vectors, without padding.
    @Test(arguments: [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
                      ("foobar", "MZXW6YTBOI")])
    func base32Vectors(plain: String, encoded: String) {
        #expect(Base32.encode(Array(plain.utf8)) == encoded)
        #expect(Base32.decode(encoded) == Array(plain.utf8))
        #expect(Base32.decode(encoded.lowercased() + "===") == Array(plain.utf8))
    }

    @Test func theProvisioningAddressNamesTheShopAndTheAccount() {
        let uri = TOTP.provisioningURI(secret: Self.secret, issuer: "Shoppable Demo", account: "ana@example.com")
        #expect(uri == "otpauth://totp/Shoppable%20Demo:ana@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                + "&issuer=Shoppable%20Demo&algorithm=SHA1&digits=6&period=30")
        #expect(Base32.decode("not base32!") == nil)
    }
}
