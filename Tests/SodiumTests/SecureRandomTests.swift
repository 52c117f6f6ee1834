import Sodium
import Testing

@Suite("Secure random")
struct SecureRandomTests {
    static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    static let hexAlphabet = Set("0123456789abcdef")

    @Test(arguments: [0, 1, 16, 32, 1000])
    func bytesHaveTheRequestedCount(count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    @Test func bytesAreNotAllTheSame() {
        // 64 random bytes are all equal with probability 2^-504.
        let bytes = SecureRandom.bytes(64)
        #expect(Set(bytes).count > 1)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    /// Unpadded Base64 of n bytes: 4 characters per 3 bytes, 2 or 3 for a 1- or 2-byte tail.
    @Test(arguments: [(0, 0), (1, 2), (2, 3), (3, 4), (16, 22), (32, 43), (33, 44)])
    func tokenHasUnpaddedBase64LengthAndURLSafeAlphabet(byteCount: Int, expectedLength: Int) {
        let token = SecureRandom.token(byteCount: byteCount)
        #expect(token.count == expectedLength)
        #expect(token.allSatisfy { Self.base64URLAlphabet.contains($0) })
    }

    @Test func defaultTokenIs43URLSafeCharacters() {
        let token = SecureRandom.token()
        #expect(token.count == 43)
        #expect(token.allSatisfy { Self.base64URLAlphabet.contains($0) })
        #expect(!token.contains("="))
    }

    @Test(arguments: [0, 1, 16, 32])
    func hexTokenIsTwoLowerCaseHexDigitsPerByte(byteCount: Int) {
        let token = SecureRandom.hexToken(byteCount: byteCount)
        #expect(token.count == byteCount * 2)
        #expect(token.allSatisfy { Self.hexAlphabet.contains($0) })
    }

    @Test func defaultHexTokenIs32Characters() {
        #expect(SecureRandom.hexToken().count == 32)
    }

    @Test func thousandTokensAreUnique() {
        let tokens = (0..<1000).map { _ in SecureRandom.token() }
        #expect(Set(tokens).count == 1000)
        let hexTokens = (0..<1000).map { _ in SecureRandom.hexToken() }
        #expect(Set(hexTokens).count == 1000)
    }

    @Test func tokensUseTheWholeAlphabetOverManyDraws() {
        // 200 tokens × 43 characters: each of the 64 symbols is missing with probability
        // about (63/64)^8600 ≈ 1e-59, so a skewed or truncated alphabet shows up here.
        let seen = Set((0..<200).flatMap { _ in SecureRandom.token() })
        #expect(seen == Self.base64URLAlphabet)
    }
}
