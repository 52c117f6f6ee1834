import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Synchronization
import Testing

private func product(_ handle: String, category: String = "Lamps", tags: [String] = [], stock: Int = 5,
                     options: [String] = []) -> ProductDraft {
    let variants: [VariantDraft] = options.isEmpty
        ? [.mock(sku: handle, price: .usd(10_00), inventory: .tracked(quantity: stock, allowsBackorder: false))]
        : options.map { .mock(sku: "\(handle)-\($0)", options: [$0], price: .usd(10_00),
                              inventory: .tracked(quantity: stock, allowsBackorder: false)) }
    return .mock(handle: handle, title: handle.capitalized, category: category, optionNames: options.isEmpty ? [] : ["Size"],
                 variants: variants, tags: tags)
}

@Suite("Quick add, related products, badges, layout")
struct ShoppingFeatureTests {
    @Test func quickAddWithoutJavaScriptComesBackWithAMessage() throws {
        let shop = try TestShop([product("lamp")])
        let page = try shop.get("/categories/lamps")
        #expect(page.text.contains("class=\"quick-add-form\""))
        let added = try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1"), ("return_to", "/categories/lamps")])
        #expect(added.status == 303 && added.header("Location") == "/categories/lamps")
        let back = try shop.get("/categories/lamps")
        #expect(back.text.contains("Added Lamp to your cart.") && back.text.contains("data-cart-count=\"1\""))
    }

    @Test func quickAddWithJavaScriptAnswersJSON() throws {
        let shop = try TestShop([product("lamp", stock: 1)])
        let first = try shop.send(.post, "/cart/add", form: [("product", "lamp"), ("quantity", "1")],
                                  headers: ["Accept": "application/json"])
        #expect(first.status == 200 && first.text == #"{"ok":true,"message":"Added Lamp to your cart.","cartCount":1}"#)
        let second = try shop.send(.post, "/cart/add", form: [("product", "lamp"), ("quantity", "1")],
                                   headers: ["Accept": "application/json"])
        #expect(second.status == 422 && second.text.contains(#""ok":false"#) && second.text.contains("Only 1 available"))
    }

    @Test(.bug(id: 9, "quick add of a product no longer sold answered an HTML 404 to the script"))
    func quickAddOfAProductNoLongerSoldAnswersJSON() throws {
        var lamp = product("lamp", stock: 5)
        let shop = try TestShop([lamp])
        lamp.isPublished = false
        _ = try shop.catalog.upsert([lamp])
        let answer = try shop.send(.post, "/cart/add", form: [("product", "lamp"), ("quantity", "1")],
                                   headers: ["Accept": "application/json"])
        #expect(answer.status == 404 && answer.header("Content-Type") == "application/json")
        #expect(answer.text == #"{"ok":false,"message":"That product is no longer available."}"#)
        // Without JavaScript it is still the styled 404 page.
        #expect(try shop.post("/cart/add", [("product", "lamp"), ("quantity", "1")]).text.contains("<html"))
    }

    @Test func productsWithSeveralVariantsOfferAChoiceInsteadOfQuickAdd() throws {
        let shop = try TestShop([product("tee", options: ["S", "M"])])
        let page = try shop.get("/categories/lamps")
        #expect(page.text.contains("href=\"/products/tee#options\"") && !page.text.contains("value=\"tee\""))
    }

    @Test func relatedProductsShareCategoryAndTagsAndPutStockFirst() throws {
        let shop = try TestShop([
            product("main", tags: ["brass", "desk"]), product("twin", tags: ["brass", "desk"]),
            product("cousin", tags: ["brass"]), product("stranger"), product("sold", tags: ["brass", "desk"], stock: 0),
            product("other-category", category: "Rugs", tags: ["brass", "desk"]),
        ])
        let page = try shop.get("/products/main").text
        let related = try #require(page.components(separatedBy: "class=\"related\"").last)
        let order = ["Twin", "Sold", "Cousin", "Stranger"].map { related.range(of: ">\($0)<")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order[0]! < order[1]! && order[1]! < order[2]! && order[2]! < order[3]!, "shared tags first, then the rest")
        #expect(!related.contains(">Main<") && !related.contains("Other-Category"))
    }

    /// Issue #14: a category's candidates are read once per catalog version, not per product page;
    /// a catalog change is seen on the next page.
    @Test func relatedCandidatesAreReadOncePerCategoryAndCatalogVersion() throws {
        let shop = try TestShop([product("main", tags: ["brass"]), product("twin", tags: ["brass"]), product("cousin"),
                                 product("rug", category: "Rugs")])
        let reads = Mutex(0)
        let products = shop.environment.catalog.products
        shop.environment.catalog.products = { query in
            if query.categoryID != nil && query.sort == .rating { reads.withLock { $0 += 1 } }
            return try products(query)
        }
        for handle in ["main", "twin", "cousin"] { #expect(try shop.get("/products/\(handle)").status == 200) }
        #expect(reads.withLock { $0 } == 1, "one read for the three Lamps pages")
        _ = try shop.get("/products/rug")
        #expect(reads.withLock { $0 } == 2, "another category, another read")
        _ = try shop.environment.catalog.upsert([product("newcomer", tags: ["brass"])])
        let page = try shop.get("/products/main").text
        #expect(reads.withLock { $0 } == 3, "a new catalog version is read again")
        let related = try #require(page.components(separatedBy: "class=\"related\"").last)
        #expect(related.contains(">Newcomer<") && related.contains(">Twin<") && !related.contains(">Main<"))
    }

    @Test func badgeCountsComeAsJSON() throws {
        let shop = try TestShop([product("lamp")])
        #expect(try shop.get("/badge").text == #"{"cart":0,"favorites":0}"#)
        try shop.post("/cart/add", [("product", "lamp"), ("quantity", "2")])
        #expect(try shop.get("/badge").text == #"{"cart":2,"favorites":0}"#)
    }

    @Test func theListLayoutIsRememberedForTheVisitor() throws {
        let shop = try TestShop([product("lamp")])
        #expect(try shop.get("/categories/lamps").text.contains("<body class=\"layout-grid\">"))
        let set = try shop.get("/layout?set=list&return_to=/categories/lamps")
        #expect(set.status == 303 && set.header("Location") == "/categories/lamps")
        #expect(try shop.get("/categories/lamps").text.contains("<body class=\"layout-list\">"))
        #expect(try shop.get("/layout?set=tiles").status == 404)
        #expect(try shop.get("/layout?set=list&return_to=//evil.example").header("Location") == "/")
    }

    @Test func categoriesCanBeSearchedWithoutJavaScript() throws {
        let shop = try TestShop([product("lamp", category: "Lamps"), product("rug", category: "Rugs & Runners"),
                                 product("cafe", category: "Café Tables")])
        let found = try shop.get("/categories?q=CAFE")
        #expect(found.text.contains("Café Tables") && !found.text.contains(">Lamps<"))
        #expect(found.text.contains("value=\"CAFE\""))
        let none = try shop.get("/categories?q=%3Cscript%3E")
        #expect(none.text.contains("No category matches “&lt;script&gt;”."))
    }
}
