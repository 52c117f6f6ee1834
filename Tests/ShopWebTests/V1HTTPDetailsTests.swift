import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopTestSupport
import ShopWeb
import Testing

@Suite("API: CORS and conditional GETs")
struct V1HTTPDetailsTests {
    @Test func anAllowedOriginGetsCORSHeadersAndOthersDoNot() throws {
        let shop = try TestShop(v1Catalog())
        shop.environment.corsAllowedOrigins = ["https://app.example"]
        let allowed = try shop.api(.get, "/api/v1/categories", headers: ["Origin": "https://app.example"])
        #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(allowed.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        #expect(allowed.header("Vary") == "Accept-Language, Origin" && allowed.header("Access-Control-Allow-Credentials") == nil)
        let cart = try shop.api(.get, "/api/v1/cart", headers: ["Origin": "https://app.example"])
        #expect(cart.header("Vary") == "Origin", "an answer in no particular language varies by origin only")
        let other = try shop.api(.get, "/api/v1/categories", headers: ["Origin": "https://evil.example"])
        #expect(other.status == 200 && other.header("Access-Control-Allow-Origin") == nil)
        let errors = try shop.api(.get, "/api/v1/cart", headers: ["Origin": "https://app.example"])
        #expect(errors.status == 401 && errors.header("Access-Control-Allow-Origin") == "https://app.example",
                "a page can read the error envelope too")
    }

    /// Catalog reads are `public` and priced in the asked language (`formatted`), so a shared
    /// cache must key them by `Accept-Language`; and JSON gets the tightest policy.
    @Test(arguments: ["/api/v1/categories", "/api/v1/products?category=lamps", "/api/v1/products/brass-lamp", "/api/products"])
    func catalogReadsVaryByLanguageAndCarryTheJSONPolicy(path: String) throws {
        let shop = try TestShop(v1Catalog())
        for attempt in ["first (stored)", "second (from the cache)"] {
            let read = try shop.api(.get, path, headers: ["Accept-Language": "tr"])
            #expect(read.status == 200 && read.header("Cache-Control") == "public, no-cache", "\(attempt)")
            // (and by Accept-Encoding when the body is large enough to gzip: ContentEncodingTests)
            #expect(read.header("Vary").map { ["Accept-Language", "Accept-Language, Accept-Encoding"].contains($0) } == true,
                    "\(attempt)")
            #expect(read.header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'", "\(attempt)")
            #expect(read.header("X-Content-Type-Options") == "nosniff" && read.header("X-Frame-Options") == "DENY")
        }
        let turkish = try shop.api(.get, "/api/v1/products?category=lamps", headers: ["Accept-Language": "tr"])
        let english = try shop.api(.get, "/api/v1/products?category=lamps", headers: ["Accept-Language": "en"])
        #expect(turkish.response.body != english.response.body, "the answers differ by language, hence the Vary")
    }

    @Test func preflightsAreAnsweredForAPIPaths() throws {
        let shop = try TestShop(v1Catalog())
        shop.environment.corsAllowedOrigins = ["https://app.example"]
        let preflight = try shop.api(.options, "/api/v1/cart/lines/12",
                                     headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "PATCH",
                                               "Access-Control-Request-Headers": "authorization, content-type"])
        #expect(preflight.status == 204 && preflight.response.body.isEmpty)
        #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(preflight.header("Access-Control-Allow-Methods") == "PATCH, DELETE, OPTIONS")
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        #expect(preflight.header("Access-Control-Max-Age") == "600")
        let fakeStore = try shop.api(.options, "/api/products/3", headers: ["Origin": "https://app.example"])
        #expect(fakeStore.status == 204 && fakeStore.header("Access-Control-Allow-Methods") == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS")

        let stranger = try shop.api(.options, "/api/v1/cart", headers: ["Origin": "https://evil.example"])
        #expect(stranger.status == 204 && stranger.header("Access-Control-Allow-Origin") == nil
                && stranger.header("Access-Control-Allow-Methods") == nil, "the browser then refuses")
        let unknown = try shop.api(.options, "/api/v1/nothing", headers: ["Origin": "https://app.example"])
        #expect(unknown.status == 404)
    }

    /// Found by schemathesis: a preflight advertised `PUT, PATCH, DELETE` for
    /// `/api/products/categories` (the methods of `/api/products/{id}`), which answers them 405.
    @Test(.bug("schemathesis ST205: Allow header mismatch"))
    func aPreflightOfAFixedPathListsOnlyItsOwnMethods() throws {
        let shop = try TestShop(v1Catalog())
        let preflight = try shop.api(.options, "/api/products/categories")
        #expect(preflight.status == 204 && preflight.header("Allow") == "GET, HEAD, OPTIONS")
        let put = try shop.api(.put, "/api/products/categories", json: "{}")
        #expect(put.status == 405 && put.header("Allow") == "GET, HEAD")
    }

    @Test func withoutConfiguredOriginsThereIsNoCORSAndAStarAllowsAny() throws {
        let shop = try TestShop(v1Catalog())
        let closed = try shop.api(.options, "/api/v1/cart", headers: ["Origin": "https://app.example"])
        #expect(closed.header("Access-Control-Allow-Origin") == nil && closed.header("Access-Control-Allow-Methods") == nil)
        #expect(closed.header("Vary") == nil)
        shop.environment.corsAllowedOrigins = ["*"]
        let open = try shop.api(.get, "/api/products", headers: ["Origin": "https://anyone.example"])
        #expect(open.header("Access-Control-Allow-Origin") == "*")
    }

    @Test(arguments: ["/api/v1/categories", "/api/v1/products?category=lamps", "/api/v1/products/brass-lamp", "/api/products"])
    func getsCarryAnETagAndAnswer304WhenItStillMatches(target: String) throws {
        let shop = try TestShop(v1Catalog())
        let first = try shop.api(.get, target)
        let tag = try #require(first.header("ETag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        let again = try shop.api(.get, target, headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.response.body.isEmpty && again.header("ETag") == tag)
        #expect(again.header("Cache-Control") == "public, no-cache")
        #expect(try shop.api(.get, target, headers: ["If-None-Match": "W/\(tag), \"other\""]).status == 304)
        #expect(try shop.api(.get, target, headers: ["If-None-Match": "\"other\""]).status == 200)
    }

    @Test func aChangedCartChangesItsETag() throws {
        let shop = try TestShop(v1Catalog())
        let token = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        let empty = try #require(try shop.api(.get, "/api/v1/cart", token: token).header("ETag"))
        try shop.api(.post, "/api/v1/cart/lines", token: token, json: #"{"product": "night-light"}"#)
        var headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
        headers.add(name: "If-None-Match", value: empty)
        let changed = try shop.api(.get, "/api/v1/cart", headers: headers)
        #expect(changed.status == 200 && changed.header("ETag") != empty && changed.header("Cache-Control") == "no-store")
        let post = try shop.api(.post, "/api/v1/sessions/guest")
        #expect(post.header("ETag") == nil, "only GETs")
    }
}
