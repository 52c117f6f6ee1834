import Sodium
import Testing

@Suite("Password hashing")
struct PasswordHasherTests {
    let fast = PasswordHasher(strength: .minimum)

    @Test func hashThenVerifyAcceptsTheRightPasswordAndRejectsAWrongOne() throws {
        let encoded = try fast.hash("correct horse battery staple")
        #expect(fast.verify("correct horse battery staple", against: encoded))
        #expect(!fast.verify("correct horse battery stapler", against: encoded))
        #expect(!fast.verify("Correct horse battery staple", against: encoded))
        #expect(!fast.verify("", against: encoded))
    }

    @Test func twoHashesOfTheSamePasswordDifferBecauseOfTheSalt() throws {
        let first = try fast.hash("same password")
        let second = try fast.hash("same password")
        #expect(first != second)
        #expect(fast.verify("same password", against: first))
        #expect(fast.verify("same password", against: second))
    }

    @Test func encodedHashIsArgon2idInPHCFormatWithTheHashersParameters() throws {
        let encoded = try fast.hash("pw")
        #expect(encoded.hasPrefix("$argon2id$v=19$"))
        let kibibytes = fast.memoryLimitBytes / 1024
        #expect(encoded.contains("$m=\(kibibytes),t=\(fast.operationsLimit),p=1$"))
        // $argon2id $v=19 $m=…,t=…,p=1 $salt $hash
        #expect(encoded.split(separator: "$").count == 5)
    }

    @Test func interactiveStrengthHashesVerifiesAndNeedsNoRehash() throws {
        let interactive = PasswordHasher()
        #expect(interactive.strength == .interactive)
        #expect(interactive.memoryLimitBytes == 64 * 1024 * 1024)
        let encoded = try interactive.hash("sign-in password")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"))
        #expect(interactive.verify("sign-in password", against: encoded))
        #expect(!interactive.needsRehash(encoded))
        #expect(PasswordHasher(strength: .minimum).needsRehash(encoded))
    }

    @Test(arguments: [
        "",
        "not a hash",
        "$argon2id$",
        "$argon2id$v=19$m=8,t=1,p=1$",
        "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$",
        "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
        "$argon2id$v=19$m=8,t=1,p=1$" + String(repeating: "A", count: 200),
    ])
    func verifyingAgainstGarbageReturnsFalse(encoded: String) {
        #expect(!fast.verify("password", against: encoded))
        #expect(fast.needsRehash(encoded))
    }

    @Test func verifyingAgainstATruncatedOrAlteredHashReturnsFalse() throws {
        let encoded = try fast.hash("password")
        #expect(!fast.verify("password", against: String(encoded.dropLast(3))))
        var altered = Array(encoded)
        altered[altered.count - 2] = altered[altered.count - 2] == "A" ? "B" : "A"
        #expect(!fast.verify("password", against: String(altered)))
        #expect(!fast.verify("password", against: encoded + "\u{0}trailing"))
    }

    @Test func needsRehashIsFalseForAFreshHashAndTrueWhenTheStrengthDiffers() throws {
        let encoded = try fast.hash("password")
        #expect(!fast.needsRehash(encoded))
        #expect(PasswordHasher(strength: .interactive).needsRehash(encoded))
        #expect(PasswordHasher(strength: .moderate).needsRehash(encoded))
    }

    @Test(arguments: ["İstanbul-ışık-1", "пароль-Ёж", "🔐🛒 emoji 👩‍👩‍👧", "naïve café", " leading and trailing "])
    func utf8PasswordsRoundTrip(password: String) throws {
        let encoded = try fast.hash(password)
        #expect(fast.verify(password, against: encoded))
        #expect(!fast.verify(password + "x", against: encoded))
    }

    @Test func unicodeIsNotNormalisedSoComposedAndDecomposedFormsDiffer() throws {
        let composed = "caf\u{E9}"        // é as one code point
        let decomposed = "cafe\u{301}"    // e + combining acute
        let encoded = try fast.hash(composed)
        #expect(!fast.verify(decomposed, against: encoded))
    }

    @Test func passwordWithANULByteIsRejected() throws {
        let error = #expect(throws: SodiumError.self) {
            try fast.hash("before\u{0}after")
        }
        #expect(error?.isInvalidInput == true)
        #expect(error?.operation == "crypto_pwhash_str")

        let encoded = try fast.hash("before")
        #expect(!fast.verify("before\u{0}after", against: encoded))
    }

    /// Made once with libsodium 1.0.18's `crypto_pwhash_argon2i_str("legacy password",
    /// crypto_pwhash_argon2i_OPSLIMIT_MIN, crypto_pwhash_argon2i_MEMLIMIT_MIN)`.
    static let legacyArgon2i = "$argon2i$v=19$m=8,t=3,p=1$EW7yn2+Z1vezR4AFbe6U5g$SL2/NVmlbpL5qWcu6aMA9Sm9NEtjGL7hKrx8rWKa46M"

    @Test func olderArgon2iHashesStillVerifyButNeedRehashToArgon2id() {
        #expect(fast.verify("legacy password", against: Self.legacyArgon2i))
        #expect(!fast.verify("legacy passwore", against: Self.legacyArgon2i))
        #expect(fast.needsRehash(Self.legacyArgon2i))
        #expect(PasswordHasher(strength: .interactive).needsRehash(Self.legacyArgon2i))
    }

    @Test func emptyPasswordHashesAndVerifies() throws {
        let encoded = try fast.hash("")
        #expect(fast.verify("", against: encoded))
        #expect(!fast.verify(" ", against: encoded))
    }
}
