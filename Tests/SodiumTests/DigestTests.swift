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

    /// Expected tags computed with Python's `hmac` (key = bytes 0…31).
    @Test(arguments: [
        ("what do ya want for nothing?", "099805f4ac310786968565c098db515cc50862b420ae31e20238312344bed36a"),
        ("İstanbul", "78df16c59a07038660fd842b46ee7d17016e9cabfce12266af3bfd72e6103610"),
    ])
    func hmacSHA256MatchesAReferenceImplementation(message: String, expected: String) {
        #expect(Digest.hmacSHA256Hex(key: Array(0..<32), message: message) == expected)
        #expect(Digest.hmacSHA256Hex(key: Array(repeating: 7, count: 32), message: message) != expected)
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
