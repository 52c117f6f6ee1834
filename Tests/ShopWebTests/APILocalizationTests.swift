import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// The API's error messages follow `Accept-Language` (en, tr, es; English otherwise), while
/// the codes stay the same in every language.
@Suite("API: localized messages")
struct APILocalizationTests {
    private static let languages: [(header: String?, language: Language)] = [
        (nil, .english), ("tr-TR,tr;q=0.9", .turkish), ("es", .spanish), ("de, es;q=0.4", .spanish), ("tr;q=0, en", .english),
    ]

    /// One failing request per kind of message: the API's own, the cart's, the voucher form's.
    private static func failures(_ shop: TestShop, token: String)
        throws -> [(code: String, message: (Localizer) -> String, request: (String?) throws -> TestResponse)] {
        func headers(_ language: String?, token: String? = nil) -> HTTPHeaders {
            var headers: HTTPHeaders = [:]
            if let language { headers.add(name: "Accept-Language", value: language) }
            if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
            return headers
        }
        return [
            ("not_found", { $0(.apiNoRoute, ["path": "/api/nowhere"]) }, { try shop.api(.get, "/api/nowhere", headers: headers($0)) }),
            ("malformed_id", { $0(.apiMalformedID, ["id": "abc", "what": "product"]) }, { try shop.api(.get, "/api/products/abc", headers: headers($0)) }),
            ("unauthorized", { $0(.apiTokenRequired) }, { try shop.api(.get, "/api/v1/cart", headers: headers($0)) }),
            ("malformed_body", { $0(.apiMalformedBody) }, {
                try shop.api(.post, "/api/v1/cart/lines", json: "{", headers: headers($0, token: token))
            }),
            ("quantity_exceeds_maximum", { $0.message(for: CartError.quantityExceedsMaximum(99)) }, {
                try shop.api(.post, "/api/v1/cart/lines", json: #"{"product": "night-light", "quantity": 1000}"#,
                             headers: headers($0, token: token))
            }),
            ("invalid_voucher_code", { $0(.voucherInvalidFormat) }, {
                try shop.api(.put, "/api/v1/cart/voucher", json: #"{"code": "no spaces!"}"#, headers: headers($0, token: token))
            }),
        ]
    }

    @Test(arguments: languages)
    func errorMessagesFollowAcceptLanguage(header: String?, language: Language) throws {
        let shop = try TestShop(v1Catalog())
        let token = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        let english = Localizer(language: .english)
        let localizer = Localizer(language: language)
        for failure in try Self.failures(shop, token: token) {
            let error = try decoded(APIErrorEnvelope.self, try failure.request(header)).error
            #expect(error.code == failure.code)
            #expect(error.message == failure.message(localizer), "\(failure.code) in \(language)")
            if language != .english {
                #expect(error.message != failure.message(english), "\(failure.code) has a \(language) text")
            }
        }
    }

    /// Every key the API answers with has its own Turkish and Spanish text (no English in a
    /// Turkish answer; `StringTableTests` checks every key of every table).
    @Test func everyAPIKeyIsTranslated() throws {
        let prefixes = ["api", "cartError", "voucher", "addressError", "errorName", "errorEmail", "errorPassword"]
        let apiKeys = L10nKey.allCases.filter { key in prefixes.contains { key.rawValue.hasPrefix($0) } }
        #expect(apiKeys.count > 60)
        let turkish = try StringTable.load(.turkish), spanish = try StringTable.load(.spanish)
        for key in apiKeys {
            #expect(turkish.entries[key.rawValue] != nil, "\(key) has no Turkish text")
            #expect(spanish.entries[key.rawValue] != nil, "\(key) has no Spanish text")
        }
    }

    /// Cached catalog reads are kept per answer language: after an English read, a Turkish and
    /// a Spanish one get their own locale's money, and the English one is still English.
    @Test func cachedCatalogReadsAreKeptPerLanguage() throws {
        let shop = try TestShop(v1Catalog())
        func price(_ language: String) throws -> String {
            let page = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?category=lamps",
                                                                    headers: ["Accept-Language": language]))
            return try #require(page.products.first { $0.handle == "night-light" }?.price?.formatted)
        }
        let english = Localizer(language: .english).money(.usd(12_50))
        #expect(try price("en") == english)
        #expect(try price("tr") == Localizer(language: .turkish).money(.usd(12_50)))
        #expect(try price("es-ES") == Localizer(language: .spanish).money(.usd(12_50)))
        #expect(try price("tr-TR") == Localizer(language: .turkish).money(.usd(12_50)), "tr-TR shares tr's cached answer")
        #expect(try price("en-GB") == english)
        #expect(Set([english, Localizer(language: .turkish).money(.usd(12_50)),
                     Localizer(language: .spanish).money(.usd(12_50))]).count > 1, "the locales write money differently")
    }
}
