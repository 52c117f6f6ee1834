import HTTPServer
@testable import ShopWeb
import Testing

/// Who sent an action, as the browser says (`RequestSite`): the storefront's CSRF defence.
@Suite("Cross-site requests: the browser's word")
struct RequestSiteTests {
    @Test(arguments: [
        // Fetch Metadata decides when it is there, whatever Origin says.
        ([("Sec-Fetch-Site", "same-origin")], RequestSite.sameOrigin),
        ([("Sec-Fetch-Site", "Same-Origin"), ("Origin", "https://evil.example")], .sameOrigin),
        ([("Sec-Fetch-Site", "cross-site")], .crossOrigin),
        ([("Sec-Fetch-Site", "same-site")], .crossOrigin),
        ([("Sec-Fetch-Site", "cross-site"), ("Origin", "https://shop.example")], .crossOrigin),
        ([("Sec-Fetch-Site", "none")], .unknown),
        ([("Sec-Fetch-Site", "something-new")], .unknown),
        // A value that decides nothing leaves it to Origin.
        ([("Sec-Fetch-Site", "none"), ("Origin", "http://evil.test")], .crossOrigin),
        ([("Sec-Fetch-Site", "xyz"), ("Origin", "http://evil.test")], .crossOrigin),
        ([("Sec-Fetch-Site", "none"), ("Origin", "https://shop.example")], .sameOrigin),
        // Origin alone (browsers before Fetch Metadata): the public URL's, or the Host asked for.
        ([("Origin", "https://shop.example")], .sameOrigin),
        ([("Origin", "HTTPS://Shop.Example")], .sameOrigin),
        ([("Origin", "http://shop.example")], .crossOrigin),
        ([("Origin", "https://shop.example:8443")], .crossOrigin),
        ([("Origin", "https://shop.example.evil.example")], .crossOrigin),
        ([("Origin", "null")], .crossOrigin),
        ([("Origin", "http://10.0.0.5:8080"), ("Host", "10.0.0.5:8080")], .sameOrigin),
        ([("Origin", "http://10.0.0.5:8080"), ("Host", "10.0.0.5")], .crossOrigin),
        ([("Origin", "ftp://10.0.0.5"), ("Host", "10.0.0.5")], .crossOrigin),
        ([("Origin", "https://evil.example"), ("Host", "shop.example")], .crossOrigin),
        // Twice, or a list: no browser's request (a fresh tester's), so proof of nothing.
        ([("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Site", "cross-site")], .crossOrigin),
        ([("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Site", "same-origin")], .crossOrigin),
        ([("Sec-Fetch-Site", "same-origin, cross-site")], .crossOrigin),
        ([("Sec-Fetch-Site", " same-origin ")], .sameOrigin),
        ([("Origin", "https://shop.example"), ("Origin", "https://evil.example")], .crossOrigin),
        ([("Sec-Fetch-Site", "none"), ("Origin", "https://shop.example"), ("Origin", "https://shop.example")], .crossOrigin),
        ([("Origin", "https://shop.example https://evil.example")], .crossOrigin),
        // Neither: not a browser, or one from before 2020.
        ([], .unknown),
        ([("Host", "shop.example")], .unknown),
    ] as [([(String, String)], RequestSite)])
    func theBrowsersHeadersSayWhoSentIt(fields: [(String, String)], expected: RequestSite) throws {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        let request = try Request(method: .post, target: "/cart/add", headers: headers, body: [], remoteAddress: "127.0.0.1")
        #expect(RequestSite(request, publicURL: "https://shop.example") == expected)
    }

    @Test(arguments: [("https://shop.example", "https://shop.example"), ("https://Shop.Example/store/", "https://shop.example"),
                      ("http://127.0.0.1:8080", "http://127.0.0.1:8080"), ("https://shop.example?x#y", "https://shop.example")])
    func thePublicURLsOrigin(url: String, origin: String) {
        #expect(RequestSite.origin(of: url) == origin)
    }
}
