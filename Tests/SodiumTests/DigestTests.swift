import Sodium
import Testing

@Suite("SHA-256 digest")
struct DigestTests {
    /// Vectors from FIPS 180-4 examples / NIST CAVP (`""`, `"abc"`, the 448-bit message) and
    /// a UTF-8 string checked with `printf '%s' 'İstanbul' | sha256sum`.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("İstanbul", "24ec8f72b5eac4594cf4401235af1639159192194e025495d4a1055ab0f6dc9b"),
    ])
    func sha256HexMatchesKnownVectors(text: String, expected: String) {
        #expect(Digest.sha256Hex(text) == expected)
    }

    @Test func sha256HashesTheUTF8Bytes() {
        let text = "İstanbul 🛒"
        #expect(Digest.sha256Hex(text) == Digest.sha256(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined())
        #expect(Digest.sha256(Array(text.utf8)).count == 32)
    }

    @Test func differentInputsGiveDifferentDigests() {
        #expect(Digest.sha256Hex("token-a") != Digest.sha256Hex("token-b"))
        #expect(Digest.sha256Hex("token-a") == Digest.sha256Hex("token-a"))
    }
}
