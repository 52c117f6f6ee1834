import Brotli
import Foundation
import HTML
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing
import Zlib

@Suite("gzip for text answers")
struct ContentEncodingTests {
    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("br;q=1.0, gzip;q=0.5", true), ("GZIP", true),
        ("x-gzip", true), ("*", true), ("gzip;q=0", false), ("*, gzip;q=0", false), ("gzip;q=0.0, *", false),
        ("identity", false), ("deflate, br", false), ("*;q=0", false), ("", false),
        // Spaces and tabs around each part (OWS); `Q` for `q`; a weight that is not a number is 0.
        (" deflate ,\tgzip ", true), ("gzip ; q = 0 ", false), ("gzip;Q=0", false), ("gzip;q=0.001", true),
        ("gzip;q=high", false), ("gzip;level=1", true), ("\tgzip\t;\tq=0.5", true), ("gzip2", false), (" , ,", false),
        // A weight is a qvalue (0 to 1, at most three decimals) or refuses the coding.
        ("gzip;q=1.5", false), ("gzip;q=inf", false), ("gzip;q=1.000", true), ("gzip;q=1.001", false),
        ("gzip;q=0.0001", false), ("gzip;q=-1", false), ("gzip;q=.5", false), ("gzip;q=1.", true),
        ("gzip;q=0.000", false), ("X-GZip;q=0.5", true), ("x gzip", false), ("gzi", false),
        // A q without a qvalue refuses, as any weight that is not one (a fresh tester found an
        // empty `q=` taken as 1 while `q=1.0000` refused); a parameter without a name is none.
        ("gzip;q=", false), ("gzip;q", false), ("gzip;q=1.0000", false), ("gzip;=0", true), ("gzip;;q=0", false),
        (";q=0, gzip", true),
    ])
    func acceptEncodingIsReadWithItsWeights(header: String, accepted: Bool) {
        #expect(ContentEncoding.accepted(header).gzip == accepted)
    }

    @Test(arguments: [
        ("gzip, deflate, br", true), ("br", true), ("BR;q=0.5", true), ("*", true), ("gzip", false), ("", false),
        ("br;q=0", false), ("*, br;q=0", false), ("br;q=0, *", false), ("gzip;q=0, *", true), ("brotli", false),
        (" br ;\tq=1.0", true), ("br, br;q=0", true), ("br;q=1.5", false), ("br;q=inf", false),
        ("gzip;q=0.333, br;q=0.332", true), ("b r", false), ("br;q=0.00", false),
    ])
    func brotliIsReadWithItsWeights(header: String, accepted: Bool) {
        #expect(ContentEncoding.accepted(header).brotli == accepted)
    }

    /// The client's ranking decides between the codings; a tie goes to brotli (the smaller).
    @Test(arguments: [("gzip;q=1, br;q=0.5", "gzip"), ("br;q=0.5, gzip;q=0.5", "br"), ("gzip, br", "br"),
                      ("br;q=0.9, gzip;q=1", "gzip"), ("br", "br"), ("*;q=0.2, gzip;q=0.1", "br")])
    func theClientsRankingChoosesTheCoding(header: String, coding: String) throws {
        let shop = try TestShop()
        let answer = try shop.send(.get, shop.environment.assets.stylesheetPath, headers: ["Accept-Encoding": header])
        #expect(answer.header("Content-Encoding") == coding)
    }

    /// Several `Accept-Encoding` lines are one list (RFC 9110 §5.3).
    @Test func severalHeaderLinesAreReadAsOne() throws {
        let request = try Request(target: "/", headers: HTTPHeaders([("Accept-Encoding", "br;q=0"), ("Accept-Encoding", "gzip")]))
        #expect(ContentEncoding.accepted(request) == ContentEncoding.Accepted(gzipWeight: 1, brotliWeight: 0))
        let none = try Request(target: "/")
        #expect(ContentEncoding.accepted(none) == ContentEncoding.Accepted())
    }

    /// A `304` carries the `ETag` (weak when the `200` was compressed) and `Vary` of the `200`
    /// it confirms (RFC 9110 §15.4.5), for assets and cached API reads alike.
    @Test(arguments: ["gzip", "br", "identity"])
    func notModifiedAnswersCarryTheTagAndVaryOfTheirOK(coding: String) throws {
        let shop = try TestShop(v1Catalog())
        for target in [shop.environment.assets.stylesheetPath, "/static/app.js", "/api/v1/products?limit=24"] {
            let ok = try shop.send(.get, target, headers: ["Accept-Encoding": coding])
            let tag = try #require(ok.header("ETag"))
            for sent in [tag, tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : "W/" + tag] {
                let again = try shop.send(.get, target, headers: ["Accept-Encoding": coding, "If-None-Match": sent])
                #expect(again.status == 304 && again.response.body.isEmpty, "\(target) \(coding) \(sent)")
                #expect(again.header("ETag") == tag && again.header("Vary") == ok.header("Vary"), "\(target) \(coding)")
                #expect(again.header("Content-Encoding") == nil)
            }
            let other = try shop.send(.get, target, headers: ["Accept-Encoding": coding, "If-None-Match": "\"other\", W/\"else\""])
            #expect(other.status == 200)
        }
    }

    @Test func noHeaderTakesNothing() {
        #expect(ContentEncoding.accepted(nil) == ContentEncoding.Accepted())
    }

    @Test func pagesAreCompressedPerRequestWhenAccepted() throws {
        let shop = try TestShop(v1Catalog())
        let plain = try shop.send(.get, "/")
        let packed = try shop.send(.get, "/", headers: ["Accept-Encoding": "gzip, deflate, br"])
        #expect(plain.header("Content-Encoding") == nil && plain.header("Vary")?.contains("Accept-Encoding") == true,
                "compressible, so it varies even when sent as it is")
        #expect(packed.header("Content-Encoding") == "gzip" && packed.header("Vary")?.contains("Accept-Encoding") == true)
        let html = String(decoding: try Gzip.decompress(packed.response.body), as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>") && packed.response.body.count * 3 < plain.response.body.count,
                "\(packed.response.body.count) of \(plain.response.body.count) bytes")
    }

    /// Issue #14: a first visitor's page is one kept document, compressed whole — fast the
    /// first time, smaller the second, and answered as it is after — until the catalog changes
    /// it, and never for a visitor whose page carries the introduction.
    @Test(.bug(id: "14")) func aKeptDocumentIsCompressedWholeAndFollowsTheCatalog() throws {
        let shop = try TestShop(v1Catalog())
        let target = "/products/night-light"
        let plain = try shop.get(target)
        let answers = try (0..<3).map { _ in try shop.send(.get, target, headers: ["Accept-Encoding": "gzip"]) }
        for answer in answers {
            #expect(answer.header("Content-Encoding") == "gzip")
            #expect(try Gzip.decompress(answer.response.body) == plain.response.body)
        }
        #expect(answers[1].response.body.count < answers[0].response.body.count, "the second at a higher level")
        #expect(answers[2].response.body == answers[1].response.body, "kept")

        let welcomed = try shop.send(.get, target, headers: ["Accept-Encoding": "gzip", "User-Agent": AppStatesTests.chrome])
        let introduced = String(decoding: try Gzip.decompress(welcomed.response.body), as: UTF8.self)
        #expect(introduced.contains("id=\"welcome\""), "the introduction is inserted, not the joined member sent")

        var renamed = try #require(v1Catalog().first { $0.handle == "night-light" })
        renamed.title = "Moon Light"
        _ = try shop.catalog.upsert([renamed])
        let changed = try shop.send(.get, target, headers: ["Accept-Encoding": "gzip"])
        let html = String(decoding: try Gzip.decompress(changed.response.body), as: UTF8.self)
        #expect(html.contains("<h1 class=\"product-title\">Moon Light</h1>"), "\(html)")
        #expect(try Gzip.decompress(changed.response.body) == shop.get(target).response.body)
    }

    @Test func assetsAreCompressedOnceAndRevalidateUnderTheWeakTag() throws {
        let shop = try TestShop()
        let plain = try shop.get("/static/app.css")
        let strong = try #require(plain.header("ETag"))
        let first = try shop.send(.get, "/static/app.css", headers: ["Accept-Encoding": "gzip"])
        #expect(first.header("Content-Encoding") == "gzip" && first.header("ETag") == "W/" + strong)
        #expect(try Gzip.decompress(first.response.body) == plain.response.body)
        let second = try shop.send(.get, "/static/app.css", headers: ["Accept-Encoding": "gzip"])
        #expect(second.response.body == first.response.body && shop.environment.compressedBodies.count == 1,
                "kept, not compressed again")
        for tag in ["W/" + strong, strong] {
            let revalidated = try shop.send(.get, "/static/app.css", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag])
            #expect(revalidated.status == 304 && revalidated.response.body.isEmpty, "\(tag)")
        }
    }

    /// Issue #14: what never changes under its URL is sent as brotli, made once at quality 11.
    @Test func immutableAssetsAreSentAsBrotliWhenAccepted() throws {
        let shop = try TestShop()
        let path = shop.environment.assets.stylesheetPath
        let plain = try shop.get(path)
        let strong = try #require(plain.header("ETag"))
        #expect(plain.header("Cache-Control")?.contains("immutable") == true)
        let gzip = try shop.send(.get, path, headers: ["Accept-Encoding": "gzip"])
        for attempt in 0..<2 {
            let packed = try shop.send(.get, path, headers: ["Accept-Encoding": "gzip, deflate, br"])
            #expect(packed.header("Content-Encoding") == "br" && packed.header("ETag") == "W/" + strong, "attempt \(attempt)")
            #expect(packed.header("Vary")?.contains("Accept-Encoding") == true)
            #expect(try Brotli.decompress(packed.response.body) == plain.response.body)
            #expect(packed.response.body.count < gzip.response.body.count,
                    "\(packed.response.body.count) brotli bytes against \(gzip.response.body.count) gzip bytes")
        }
        #expect(shop.environment.compressedBodies.count == 2, "one gzip and one brotli form, each made once")
        let revalidated = try shop.send(.get, path, headers: ["Accept-Encoding": "br", "If-None-Match": "W/" + strong])
        #expect(revalidated.status == 304)
    }

    /// A body that may change under its URL (an unversioned asset, a cached API read) stays gzip:
    /// quality 11 would be paid by its first reader after every change.
    @Test func answersThatMayChangeStayGzip() throws {
        let shop = try TestShop(v1Catalog())
        for target in ["/static/app.css", "/api/v1/products?limit=24"] {
            let both = try shop.send(.get, target, headers: ["Accept-Encoding": "br, gzip"])
            #expect(both.header("Content-Encoding") == "gzip", "\(target)")
            let brotliOnly = try shop.send(.get, target, headers: ["Accept-Encoding": "br"])
            #expect(brotliOnly.header("Content-Encoding") == nil && brotliOnly.header("Vary")?.contains("Accept-Encoding") == true,
                    "\(target)")
        }
        let page = try shop.send(.get, "/", headers: ["Accept-Encoding": "br, gzip"])
        #expect(page.header("Content-Encoding") == "gzip")
    }

    @Test func cachedAPIReadsAreCompressedWithTheirLanguageVary() throws {
        let shop = try TestShop(v1Catalog())
        for attempt in 0..<2 {
            let read = try shop.send(.get, "/api/v1/products?limit=24", headers: ["Accept-Encoding": "gzip"])
            #expect(read.header("Content-Encoding") == "gzip", "attempt \(attempt)")
            #expect(read.header("Vary") == "Accept-Language, Accept-Encoding")
            #expect(read.header("ETag")?.hasPrefix("W/\"") == true)
            let page = try JSONDecoder().decode(V1ProductPage.self, from: Data(try Gzip.decompress(read.response.body)))
            #expect(!page.products.isEmpty)
        }
    }

    @Test func smallAndBinaryAnswersStayAsTheyAre() throws {
        let shop = try TestShop()
        let health = try shop.send(.get, "/healthz", headers: ["Accept-Encoding": "gzip"])
        #expect(health.header("Content-Encoding") == nil && health.header("Vary") == nil)
        let icon = try shop.send(.get, "/static/images/icon-192.png", headers: ["Accept-Encoding": "gzip"])
        #expect(icon.status == 200 && icon.header("Content-Encoding") == nil)
    }
}

/// BREACH: a gzipped page reflecting a search query must not carry the CSRF secret verbatim.
@Suite("CSRF token masked per page")
struct CSRFMaskTests {
    @Test(arguments: ["rnd0000000000000000000000000000000000000003", "Zx-_09aB", String(repeating: "k", count: 128)])
    func masksRoundTrip(token: String) {
        let pad = String(repeating: "pQ-_7", count: 30)
        let masked = CSRFMask.mask(token, pad: pad)
        #expect(!masked.contains(token) && CSRFMask.unmask(masked) == token)
    }

    @Test(arguments: ["", "abc", "ab.cd", "ab.zzzz", "a.b.c", "abcd.0011"])
    func valuesThatAreNotMasksGiveNil(value: String) {
        // "abcd.0011" is too short a hex part for a 4-character pad.
        #expect(CSRFMask.unmask(value) == nil)
    }

    @Test func everyPageCarriesADifferentMaskOfTheOneTokenAndBothFormsPost() throws {
        let shop = try TestShop(v1Catalog())
        #expect(try shop.post("/cart/add", [("product", "brass-lamp"), ("quantity", "1")]).status == 303)  // a session's pages carry it
        _ = try shop.get("/search?q=lamp")
        let firstToken = try #require(shop.csrfToken)
        _ = try shop.get("/search?q=lamp")
        let secondToken = try #require(shop.csrfToken)
        let cookie = try #require(shop.cookies["shoppable_csrf"])
        let packed = try shop.send(.get, "/search?q=lamp", headers: ["Accept-Encoding": "gzip"])
        let page = String(decoding: try Gzip.decompress(packed.response.body), as: UTF8.self)
        #expect(packed.header("Content-Encoding") == "gzip" && page.contains("csrf_token") && !page.contains(cookie))
        #expect(firstToken != secondToken && !firstToken.contains(cookie) && !secondToken.contains(cookie))
        #expect(CSRFMask.unmask(firstToken) == cookie && CSRFMask.unmask(secondToken) == cookie)
        #expect(try shop.post("/cart/add", [("product", "brass-lamp"), ("quantity", "1"), ("csrf_token", firstToken)]).status == 303)
        #expect(try shop.post("/cart/add", [("product", "brass-lamp"), ("quantity", "1"), ("csrf_token", cookie)]).status == 303,
                "an unmasked token is the same secret")
        #expect(try shop.post("/cart/add", [("product", "brass-lamp"), ("quantity", "1"),
                                            ("csrf_token", CSRFMask.mask((cookie.first == "x" ? "y" : "x") + cookie.dropFirst(), pad: String(repeating: "p", count: 64)))]).status == 403)
    }
}

/// Issue #14: a cached page is answered by joining gzip pieces kept with it (`CompressedPage`) —
/// and the joined answer is, byte for byte, the page a client without gzip gets.
@Suite("cached pages joined from kept gzip pieces")
struct CompressedPageTests {
    /// `html` with every CSRF field's per-page mask replaced by one placeholder.
    static func unmasked(_ html: String) -> String {
        html.replacing(/name="csrf_token" value="[^"]+"/, with: "name=\"csrf_token\" value=\"…\"")
    }

    /// Requests `target` plainly and with gzip, as the same visitor, and compares.
    @discardableResult
    func expectSameAnswer(_ shop: TestShop, _ target: String, userAgent: String? = nil, carriesToken: Bool = true,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        var headers = HTTPHeaders()
        if let userAgent { headers.add(name: "User-Agent", value: userAgent) }
        let plain = try shop.send(.get, target, headers: headers)
        headers.add(name: "Accept-Encoding", value: "gzip")
        let packed = try shop.send(.get, target, headers: headers)
        #expect(packed.status == 200 && plain.status == 200, sourceLocation: sourceLocation)
        #expect(packed.header("Content-Encoding") == "gzip" && packed.header("Vary")?.contains("Accept-Encoding") == true,
                sourceLocation: sourceLocation)
        let inflated = String(decoding: try Gzip.decompress(packed.response.body), as: UTF8.self)
        let expected = String(decoding: plain.response.body, as: UTF8.self)
        #expect(Self.unmasked(inflated) == Self.unmasked(expected), "\(target)", sourceLocation: sourceLocation)
        #expect(inflated.contains("name=\"csrf_token\"") == carriesToken, sourceLocation: sourceLocation)
        return inflated
    }

    /// Issue #14: a run keeps its template for shoppers with no heart pressed and one for the
    /// last other set of favorites; every fill, kept or not, inflates to the page filled plainly.
    @Test func aRunKeepsTwoTemplatesAndEveryFillIsThePagePlainlyFilled() throws {
        let card = { (id: Int) in "<article><form><!--p:csrf--><!--p:fav:\(id)--></form><p>Card \(id) text</p></article>" }
        let document = Array(("<html><body>" + (1...6).map(card).joined() + "<footer><form><!--p:csrf--></form></footer></body></html>").utf8)
        func values(_ favorites: Set<Product.ID>, token: String) -> Personalization.Values {
            Personalization.Values(csrfToken: token, favorites: favorites, addLabel: "Save", removeLabel: "Remove")
        }
        let first = Personalization.Replacements(values([], token: "tok-0-" + String(repeating: "a", count: 40)))
        let page = CompressedPage(document, cutBefore: CompressedPage.bodyEnd(in: document), fills: .init(first))
        let sets: [Set<Product.ID>] = [[], [1], [6], [], [1, 6], [], [2]]
        for (index, favorites) in sets.enumerated() {
            let filled = values(favorites, token: "tok-\(index)-" + String(repeating: "b", count: 40))
            let member = try #require(page.gzip(Personalization.Replacements(filled)))
            #expect(try Gzip.decompress(member) == Personalization.apply(document, filled), "\(favorites)")
            #expect(page.runs.allSatisfy { $0.keptTemplates <= CompressedPage.Run.templateLimit })
        }
        #expect(page.runs.count == 2, "split before </body>")
        #expect(page.runs[0].keptTemplates == 2, "the unpressed one and the last other")
    }

    /// The CSRF field spliced into a shopper's page: a token as `CSRFMask` makes it goes in as it
    /// is, anything else escaped — byte for byte what `HTMLWriter` writes either way.
    @Test(arguments: [CSRFMask.mask("tok-Ab_9", pad: "Zz0-_aQ7"), "Ab-_.09", "", "a\"b", "<x>&'", "ünï"])
    func theCSRFFieldIsWhatTheWriterWrites(token: String) {
        var writer = HTMLWriter(reservingCapacity: 160)
        writer.void("input", .type("hidden"), .name(ShopApp.csrfField), .value(token))
        #expect(Personalization.Replacements.csrfInput(token) == writer.bytes)
    }

    @Test(arguments: ["/categories/lamps", "/products/brass-lamp", "/search?q=lamp", "/", "/products"])
    func aVisitorWithoutASessionGetsTheKeptDocument(target: String) throws {
        let shop = try TestShop(v1Catalog())
        // The first answer sets the CSRF cookie (their session will take its token) but carries
        // no token: the page is every such visitor's, kept whole.
        let first = try shop.get(target)
        #expect(first.response.headers.values(for: "Set-Cookie").contains { $0.hasPrefix("shoppable_csrf=") })
        #expect(!first.text.contains("csrf_token"))
        let page = try expectSameAnswer(shop, target, carriesToken: false)
        #expect(page == first.text)
    }

    @Test func visitorsWithCSRFCookiesOfAnyLengthGetTheSamePage() throws {
        let shop = try TestShop(v1Catalog())
        let first = try shop.get("/categories/lamps")
        try expectSameAnswer(shop, "/categories/lamps", carriesToken: false)
        for length in [32, 41, 50, 64, 77, 90] {
            let visitor = try shop.visitor()
            visitor.cookies["shoppable_csrf"] = String(repeating: "k", count: length)
            #expect(try expectSameAnswer(visitor, "/categories/lamps", carriesToken: false) == first.text)
        }
    }

    @Test func theFirstVisitIntroductionIsJoinedInBeforeTheEndOfTheBody() throws {
        let shop = try TestShop(v1Catalog())
        _ = try shop.get("/categories/lamps")
        let page = try expectSameAnswer(shop, "/categories/lamps", userAgent: AppStatesTests.chrome, carriesToken: false)
        #expect(page.contains("class=\"welcome\"") && page.hasSuffix("</body></html>"))
    }

    @Test func aShopperWithACartAndAFavoriteGetsTheirLayoutAroundTheKeptMain() throws {
        let shop = try TestShop(v1Catalog())
        #expect(try shop.post("/cart/add", [("product", "brass-lamp"), ("quantity", "2")]).status == 303)
        let lamps = String(decoding: try shop.get("/categories/lamps").response.body, as: UTF8.self)
        let id = try #require(lamps.firstMatch(of: /data-heart="(\d+)"/)?.1)
        #expect(try shop.post("/favorites/\(id)", [("favorite", "1"), ("return_to", "/categories/lamps")]).status == 303)
        _ = try shop.get("/categories/lamps")  // shows (and clears) the "saved to favorites" message
        let page = try expectSameAnswer(shop, "/categories/lamps")
        #expect(page.contains("data-cart-count=\"2\"") && page.contains("aria-pressed=\"true\""))
        let layouts = shop.environment.pageCache.layouts
        let kept = layouts.keptShellCount
        #expect(kept > 0, "the layout's pieces are kept with its shell")
        try expectSameAnswer(shop, "/categories/lamps")
        #expect(layouts.keptShellCount == kept, "the same layout again is found, not compressed again")
        #expect(shop.environment.pageCache.pageMemo.count == 0, "no layout looked up by its bytes")
        try expectSameAnswer(shop, "/products/brass-lamp")
        #expect(layouts.keptShellCount == kept + 1)
        // Another badge count: another shell, its page the same as sent plain.
        #expect(try shop.post("/cart/add", [("product", "night-light"), ("quantity", "1")]).status == 303)
        _ = try shop.get("/cart")
        let more = try expectSameAnswer(shop, "/categories/lamps")
        #expect(more.contains("data-cart-count=\"3\""))
    }
}
