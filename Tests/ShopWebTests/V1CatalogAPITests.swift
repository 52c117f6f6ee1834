import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

private func lamp(_ handle: String, _ title: String, price: Int64, rating: Int? = nil, tags: [String] = [],
                  stock: Int? = nil, category: String = "Lamps") -> ProductDraft {
    ProductDraft.mock(handle: handle, title: title, category: category,
                      rating: rating.map { Rating(rateHundredths: $0, count: 10) },
                      variants: [.mock(sku: handle.uppercased(), price: .usd(price),
                                       inventory: stock.map { .tracked(quantity: $0, allowsBackorder: false) } ?? .untracked)],
                      images: [ProductImage(url: "/media/\(handle).jpg", altText: title)], tags: tags,
                      publishedAt: Date(timeIntervalSince1970: 1_700_000_000))
}

/// A small catalog: four lamps (one tracked at 5), a Turkish-titled glass, a shirt with options.
func v1Catalog() -> [ProductDraft] {
    var shirt = ProductDraft.mock(handle: "shirt", title: "Linen Shirt", category: "Shirts", optionNames: ["Size"],
                                  variants: [.mock(sku: "SHIRT-S", options: ["S"], price: .usd(30_00)),
                                             .mock(sku: "SHIRT-M", options: ["M"], price: .usd(32_00),
                                                   inventory: .tracked(quantity: 3, allowsBackorder: false),
                                                   barcode: "0012345678905")])
    shirt.vendor = "Loom"
    return [
        lamp("brass-lamp", "Brass Desk Lamp", price: 89_00, rating: 450, tags: ["brass", "desk"], stock: 5),
        lamp("linen-shade", "Linen Shade", price: 25_00, rating: 480, tags: ["desk"]),
        lamp("floor-lamp", "Floor Lamp", price: 120_00, rating: 300),
        lamp("night-light", "Night Light", price: 12_50),
        lamp("istanbul", "IŞIK İstanbul Glass", price: 12_00, category: "Kitchen"),
        shirt,
    ]
}

func decoded<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(T.self, from: Data(response.response.body))
}

@Suite("API v1: catalog")
struct V1CatalogAPITests {
    @Test func categoriesListCountsAndAbsoluteImages() throws {
        let shop = try TestShop(v1Catalog())
        let response = try shop.api(.get, "/api/v1/categories")
        #expect(response.status == 200 && response.header("Cache-Control") == "public, no-cache")
        let categories = try decoded([V1Category].self, response)
        #expect(categories.map(\.name) == ["Kitchen", "Lamps", "Shirts"])
        #expect(categories.map(\.productCount) == [1, 4, 1])
        #expect(categories[1].handle == "lamps" && categories[1].image == "https://shop.test/media/brass-lamp.jpg")
    }

    /// Issue #13: `facets=1` adds the counts; each facet ignores its own filter (`price` here).
    @Test(.bug("issue #13", "facets in the API")) func facetsComeOnlyWhenAskedWithDisjunctiveCounts() throws {
        let shop = try TestShop(v1Catalog())
        let plain = try shop.api(.get, "/api/v1/products?price=0-25")
        #expect(try decoded(V1ProductPage.self, plain).facets == nil)
        #expect(!String(decoding: plain.response.body, as: UTF8.self).contains("\"facets\""))
        let page = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?price=0-25&facets=1&sort=price-asc"))
        #expect(page.products.map(\.handle) == ["istanbul", "night-light"] && page.totalCount == 2)
        let facets = try #require(page.facets)
        #expect(facets.categories.map { "\($0.handle) \($0.count)" } == ["kitchen 1", "lamps 1"])
        #expect(facets.vendors.map { "\($0.vendor) \($0.count)" } == ["Acme 2"])
        #expect(facets.priceBands.map { "\($0.key) \($0.count)" } == ["0-25 2", "25-50 2", "50-100 1", "100-250 1", "250- 0"])
        #expect(facets.priceBands[1].min.minorUnits == 25_00 && facets.priceBands[1].max?.minorUnits == 50_00)
        #expect(facets.priceBands[4].max == nil)
        #expect(facets.inStock == 2 && facets.uncategorized == 0)
    }

    @Test func productsPageThroughACategoryWithACursorUntilTheEnd() throws {
        let shop = try TestShop(v1Catalog())
        var titles: [String] = []
        var target = "/api/v1/products?category=lamps&limit=3"
        var pages = 0
        while true {
            let page = try decoded(V1ProductPage.self, try shop.api(.get, target))
            #expect(page.totalCount == 4)
            titles += page.products.map(\.title)
            pages += 1
            guard let next = page.nextCursor else { break }
            target = "/api/v1/products?category=lamps&limit=3&cursor=\(next)"
        }
        #expect(pages == 2 && titles == ["Brass Desk Lamp", "Linen Shade", "Floor Lamp", "Night Light"], "featured: import order")
    }

    @Test func sortAndFiltersAreTheWebListings() throws {
        let shop = try TestShop(v1Catalog())
        let byPrice = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?category=lamps&sort=price-desc"))
        #expect(byPrice.products.map(\.handle) == ["floor-lamp", "brass-lamp", "linen-shade", "night-light"])
        let first = try #require(byPrice.products.first)
        #expect(first.price == V1Money(minorUnits: 120_00, currency: "USD", formatted: "$120.00"))
        let filtered = try decoded(V1ProductPage.self,
                                   try shop.api(.get, "/api/v1/products?category=lamps&min=20&max=100&rating=4&tag=desk"))
        #expect(filtered.products.map(\.handle) == ["brass-lamp", "linen-shade"] && filtered.totalCount == 2)
        // The raw JSON carries money as an integer, never a floating-point number.
        let raw = try shop.api(.get, "/api/v1/products?category=lamps&sort=price-desc&limit=1").text
        #expect(raw.contains(#""price":{"currency":"USD","formatted":"$120.00","minorUnits":12000}"#))
    }

    @Test func searchFoldsByTheAcceptLanguageLocale() throws {
        let shop = try TestShop(v1Catalog())
        let turkish = try shop.api(.get, "/api/v1/products?q=%C4%B1%C5%9F%C4%B1k", headers: ["Accept-Language": "tr-TR,tr;q=0.9"])
        #expect(try decoded(V1ProductPage.self, turkish).products.map(\.handle) == ["istanbul"], "ışık finds IŞIK in Turkish")
        let dotted = try shop.api(.get, "/api/v1/products?q=isik", headers: ["Accept-Language": "tr"])
        #expect(try decoded(V1ProductPage.self, dotted).products.map(\.handle) == ["istanbul"],
                "typed with i, a Turkish search also reads it as ı")
        let english = try shop.api(.get, "/api/v1/products?q=isik", headers: ["Accept-Language": "en-US,en;q=0.8"])
        #expect(try decoded(V1ProductPage.self, english).products.map(\.handle) == ["istanbul"], "English folds I to i")
        let istanbul = try shop.api(.get, "/api/v1/products?q=istanbul", headers: ["Accept-Language": "tr"])
        #expect(try decoded(V1ProductPage.self, istanbul).products.map(\.handle) == ["istanbul"])
        let lamps = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?q=lamp"))
        #expect(lamps.products.map(\.handle) == ["brass-lamp", "floor-lamp", "linen-shade", "night-light"],
                "relevance: title matches first, then the category's name")
    }

    /// Words without a letter or digit find nothing (the search page shows its box), not the
    /// whole catalog; blank is no search at all.
    @Test(arguments: [("q=%F0%9F%AA%91", true), ("q=%22", true), ("q=-%20-", true), ("q=%20", false), ("q=", false)])
    func searchWordsWithoutALetterOrDigitFindNothing(query: String, findsNothing: Bool) throws {
        let shop = try TestShop(v1Catalog())
        let page = try decoded(V1ProductPage.self, try shop.api(.get, "/api/v1/products?\(query)&facets=1"))
        #expect(page.products.isEmpty == findsNothing && (page.totalCount == 0) == findsNothing, "\(query)")
        #expect(page.facets != nil, "facets of nothing are still answered")
    }

    @Test(arguments: [("sort=cheapest", "sort"), ("limit=0", "limit"), ("limit=101", "limit"), ("limit=x", "limit"),
                      ("cursor=nonsense", "cursor"), ("cursor=bzotMQ", "cursor")])
    func badParametersAre400NamingThem(query: String, field: String) throws {
        let shop = try TestShop(v1Catalog())
        let response = try shop.api(.get, "/api/v1/products?\(query)")
        #expect(response.status == 400)
        let error = try decoded(APIErrorEnvelope.self, response).error
        #expect(error.code == "invalid_parameter" && error.field == field)
    }

    @Test func anUnknownCategoryOrProductIs404() throws {
        let shop = try TestShop(v1Catalog())
        let category = try shop.api(.get, "/api/v1/products?category=nothing")
        #expect(try category.status == 404 && (decoded(APIErrorEnvelope.self, category)).error.code == "not_found")
        let product = try shop.api(.get, "/api/v1/products/nothing")
        #expect(try product.status == 404 && (decoded(APIErrorEnvelope.self, product)).error.code == "not_found")
    }

    @Test func productDetailHasVariantsImagesVendorDateTagsRatingAndRelated() throws {
        let shop = try TestShop(v1Catalog())
        let response = try shop.api(.get, "/api/v1/products/brass-lamp")
        #expect(response.status == 200 && response.header("Cache-Control") == "public, no-cache")
        let product = try decoded(V1Product.self, response)
        #expect(product.title == "Brass Desk Lamp" && product.vendor == "Acme" && product.tags == ["brass", "desk"])
        #expect(product.category == V1CategoryRef(handle: "lamps", name: "Lamps"))
        #expect(product.publishedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(product.images == [V1Image(url: "https://shop.test/media/brass-lamp.jpg", altText: "Brass Desk Lamp")])
        #expect(product.rating == V1Rating(rateHundredths: 450, count: 10))
        #expect(product.variants.map(\.available) == [5] && product.variants[0].price.minorUnits == 89_00)
        #expect(product.related.map(\.handle) == ["linen-shade", "floor-lamp", "night-light"], "shared tags first, then rating")
        #expect(response.text.contains(#""publishedAt":"2023-11-14T22:13:20Z""#))
        #expect(!response.text.contains("barcode"), "left out without one")

        let shirt = try decoded(V1Product.self, try shop.api(.get, "/api/v1/products/shirt"))
        #expect(shirt.options == ["Size"] && shirt.variants.map(\.options) == [["S"], ["M"]])
        #expect(shirt.variants.map(\.available) == [nil, 3] && shirt.vendor == "Loom")
        #expect(shirt.variants.map(\.barcode) == [nil, "0012345678905"])
    }

    @Test func stockIsNetOfOtherShoppersHoldsButNotTheCallersOwn() throws {
        let shop = try TestShop(v1Catalog())
        let token = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        let holder = Shopper.guest(shop.sessionID(forCookie: token))
        let variant = try #require(try shop.catalog.productByHandle("brass-lamp")).variants[0].id
        _ = try #require(shop.orders).reserve(holder, [StockRequest(variantID: variant, quantity: 2)],
                                              shop.clock.now + 600, shop.clock.now)
        let everyone = try decoded(V1Product.self, try shop.api(.get, "/api/v1/products/brass-lamp"))
        #expect(everyone.variants[0].available == 3)
        let own = try shop.api(.get, "/api/v1/products/brass-lamp", token: token)
        #expect(try decoded(V1Product.self, own).variants[0].available == 5, "the caller's own hold is theirs to buy")
        #expect(own.header("Cache-Control") == "private, no-cache", "an answer for one shopper is not shared")
        #expect(own.header("Vary")?.contains("Accept-Language") == true, "its prices follow the asked language")
    }

    /// The home row of the app is the home page's: the same two rules (`ShopApp.featuredProducts`,
    /// `recommendedProducts`), the bearer's cart and favorites standing in for the visitor's.
    @Test func featuredAndRecommendationsFollowTheHomePagesRules() throws {
        var catalog = v1Catalog()
        catalog.append(lamp("sold-out", "Sold Out Lamp", price: 10_00, rating: 500, stock: 0))
        let shop = try TestShop(catalog)
        let featured = try shop.api(.get, "/api/v1/featured")
        #expect(featured.status == 200 && featured.header("Cache-Control") == "public, no-cache")
        let row = try decoded(V1Featured.self, featured)
        // Best rated first, what can be bought before what is sold out.
        #expect(!row.recommendations && row.products.prefix(3).map(\.handle) == ["linen-shade", "brass-lamp", "floor-lamp"])
        #expect(row.products.last?.handle == "sold-out")

        let guest = try decoded(V1GuestToken.self, try shop.api(.post, "/api/v1/sessions/guest")).token
        #expect(try shop.api(.post, "/api/v1/cart/lines", token: guest, json: #"{"product": "linen-shade"}"#).status == 200)
        #expect(try shop.api(.put, "/api/v1/favorites/\(try #require(try shop.catalog.productByHandle("shirt")).id.rawValue)",
                             token: guest).status == 200)
        let personal = try shop.api(.get, "/api/v1/featured?view=recommendations", token: guest)
        #expect(personal.status == 200 && personal.header("Cache-Control") == "private, no-cache")
        #expect(personal.header("Vary")?.contains("Accept-Language") == true)
        let recommended = try decoded(V1Featured.self, personal)
        // Not in the cart, nothing sold out, the favorite's category (Shirts) first.
        #expect(recommended.recommendations && recommended.products.first?.handle == "shirt")
        #expect(!recommended.products.contains { $0.handle == "linen-shade" || $0.handle == "sold-out" })
        // Without a token: a visitor with an empty cart and no favorites.
        let anonymous = try decoded(V1Featured.self, try shop.api(.get, "/api/v1/featured?view=recommendations"))
        #expect(anonymous.products.first?.handle == "linen-shade")
        #expect(try shop.api(.get, "/api/v1/featured?view=recommendations", token: "nonsense").status == 401)
    }
}
