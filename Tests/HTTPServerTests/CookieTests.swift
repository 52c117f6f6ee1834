import HTTPServer
import Testing

@Suite("Cookies")
struct CookieTests {
    @Test func parsesSeveralCookiesWithWhitespace() {
        let cookies = Cookie.parse(headerValues: ["sid=abc123;  theme = dark ;\tlang=tr"])
        #expect(cookies == ["sid": "abc123", "theme": "dark", "lang": "tr"])
    }

    @Test func unwrapsQuotedValues() {
        let cookies = Cookie.parse(headerValues: [#"a="quoted value"; b=""; c="x"#])
        #expect(cookies["a"] == "quoted value")
        #expect(cookies["b"] == "")
        #expect(cookies["c"] == "\"x")
    }

    @Test func readsEveryCookieHeaderAndFirstValueWins() {
        let cookies = Cookie.parse(headerValues: ["a=1; b=2", "a=3; c=4"])
        #expect(cookies == ["a": "1", "b": "2", "c": "4"])
    }

    @Test func skipsPiecesWithoutNameOrEquals() {
        let cookies = Cookie.parse(headerValues: ["junk; =nameless; ok=1;;"])
        #expect(cookies == ["ok": "1"])
    }

    /// Read on bytes: text that is not ASCII passes through whole, and a value of spaces only is empty.
    @Test func nonASCIITextAndBlankValues() {
        let cookies = Cookie.parse(headerValues: ["név=çay ☕️; \"ş\"=\"İ\"; blank=  \t; 名=値"])
        #expect(cookies == ["név": "çay ☕️", "\"ş\"": "İ", "blank": "", "名": "値"])
    }

    @Test func valueMayContainEquals() {
        #expect(Cookie.parse(headerValues: ["token=a=b=="])["token"] == "a=b==")
    }

    @Test func serializesProjectDefaults() {
        #expect(Cookie(name: "sid", value: "abc").headerValue == "sid=abc; Path=/; HttpOnly; SameSite=Lax")
    }

    @Test func serializesEveryAttribute() {
        let cookie = Cookie(
            name: "sid", value: "abc", maxAge: 3600, path: "/shop", domain: "example.com",
            httpOnly: true, secure: true, sameSite: .strict)
        #expect(cookie.headerValue
            == "sid=abc; Max-Age=3600; Domain=example.com; Path=/shop; Secure; HttpOnly; SameSite=Strict")
    }

    @Test func omitsAttributesThatAreOff() {
        let header = Cookie(name: "a", value: "1", path: nil, httpOnly: false, sameSite: nil).headerValue
        #expect(header == "a=1")
    }

    @Test func expiredCookieHasZeroMaxAge() {
        #expect(Cookie.expired(name: "sid").headerValue == "sid=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")
    }

    @Test func unsafeValueBytesArePercentEncodedSoTheHeaderCannotBreak() {
        let header = Cookie(name: "n", value: "a b;c\r\nSet-Cookie: x=1", path: nil, httpOnly: false, sameSite: nil).headerValue
        #expect(header == "n=a%20b%3Bc%0D%0ASet-Cookie:%20x=1")
        #expect(!header.contains(";"))
    }
}
