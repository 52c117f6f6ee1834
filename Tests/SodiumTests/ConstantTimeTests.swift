import Sodium
import Testing

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test(arguments: [
        ("", "", true),
        ("a", "a", true),
        ("token", "token", true),
        ("İstanbul", "İstanbul", true),
        ("", "a", false),
        ("a", "", false),
        ("a", "b", false),
        ("token", "tokeN", false),
        ("token", "Token", false),
        ("token", "token ", false),
        ("abc", "abcd", false),
        ("caf\u{E9}", "cafe\u{301}", false),   // same text to a reader, different bytes
    ])
    func equalsIsTrueExactlyForIdenticalUTF8Bytes(a: String, b: String, expected: Bool) {
        #expect(ConstantTime.equals(a, b) == expected)
        #expect(ConstantTime.equals(b, a) == expected)
    }

    @Test func equalsMatchesEqualityForRandomTokens() {
        let token = SecureRandom.token()
        #expect(ConstantTime.equals(token, String(token)))
        #expect(!ConstantTime.equals(token, SecureRandom.token()))
    }
}
