import Foundation
import ShopAPI
import ShopClient
@testable import ShopKit
import Testing

@MainActor
@Suite("ProductListModel and ProductDetailModel")
struct ProductModelsTests {
    func listModel(_ shop: ShopOperations, settings: MemoryKeyValueStore = MemoryKeyValueStore()) -> ProductListModel {
        ProductListModel(category: "lamps", shop: shop, cart: CartModel(shop: shop, locale: enUS),
                         favorites: FavoritesModel(shop: shop, locale: enUS), settings: settings, pageSize: 2)
    }

    @Test func theLayoutIsRemembered() {
        let settings = MemoryKeyValueStore()
        let first = listModel(.failing, settings: settings)
        #expect(first.layout == .grid)
        first.layout = .list
        #expect(listModel(.failing, settings: settings).layout == .list)
    }

    @Test func pagesFollowTheCursorUntilTheLast() async {
        let queries = Recorded<V1ProductQuery>()
        var shop = ShopOperations.failing
        shop.products = { query in
            queries.append(query)
            return query.cursor == nil
                ? V1ProductPage(products: [summary(1, "a"), summary(2, "b")], totalCount: 3, nextCursor: "c2")
                : V1ProductPage(products: [summary(2, "b"), summary(3, "c")], totalCount: 3, nextCursor: nil)
        }
        let model = listModel(shop)
        await model.load()
        #expect(model.cards.map(\.id) == [1, 2] && model.hasMore && model.totalCount == 3)
        await model.loadMore()
        // A product moved between pages is not shown twice.
        #expect(model.cards.map(\.id) == [1, 2, 3] && !model.hasMore)
        await model.loadMore()
        #expect(queries.all.map(\.cursor) == [nil, "c2"])
        #expect(queries.all.allSatisfy { $0.category == "lamps" && $0.limit == "2" && $0.sort == "featured" })
    }

    @Test func sortAndFiltersAskAgainFromTheFirstPage() async {
        let queries = Recorded<V1ProductQuery>()
        var shop = ShopOperations.failing
        shop.products = { query in
            queries.append(query)
            return V1ProductPage(products: query.instock == "1" ? [] : [summary(1, "a")], totalCount: 1, nextCursor: nil)
        }
        let model = listModel(shop)
        await model.load()
        await model.setSort(.priceAscending)
        await model.setFilters(.init(minPrice: 5, minRating: 4, inStockOnly: true))
        #expect(queries.all.map(\.sort) == ["featured", "price-asc", "price-asc"])
        let last = queries.all.last
        #expect(last?.min == "5" && last?.max == nil && last?.rating == "4" && last?.instock == "1" && last?.cursor == nil)
        guard case .empty = model.state else { Issue.record("\(model.state)"); return }
    }

    @Test func quickAddGoesThroughTheOneCart() async {
        let server = FakeCartServer([])
        var shop = server.operations()
        shop.products = { _ in V1ProductPage(products: [summary(4, "arc-lamp")], totalCount: 1, nextCursor: nil) }
        let model = listModel(shop)
        await model.load()
        #expect(await model.quickAdd(model.cards[0]))
        #expect(model.cart.badge == 1)
    }

    @Test func quickAddOfAProductWithOptionsAsksForItsPage() async {
        var shop = FakeCartServer([]).operations()
        shop.products = { _ in V1ProductPage(products: [summary(9, "shirt"), summary(4, "lamp")], totalCount: 2, nextCursor: nil) }
        shop.addLine = { line in
            if line.product == "shirt" {
                throw NetworkError.serverError(status: 422, code: "variant_not_chosen", message: "Choose a size.")
            }
            throw NetworkError.serverError(status: 422, code: "sold_out", message: "Sold out.")
        }
        let model = listModel(shop)
        await model.load()
        #expect(await model.quickAdd(model.cards[0]) == false)
        #expect(model.cart.optionsNeeded?.handle == "shirt" && model.cart.errorMessage == nil)
        model.cart.dismissOptionsNeeded()
        #expect(await model.quickAdd(model.cards[1]) == false)
        #expect(model.cart.optionsNeeded == nil && model.cart.errorMessage == "Sold out." && model.cart.errorCode == "sold_out")
    }

    nonisolated static let shirt = V1Product(
        id: 9, handle: "shirt", title: "Shirt", descriptionHTML: "", descriptionText: "", vendor: "Acme", category: nil,
        tags: [], publishedAt: nil, images: [V1Image(url: "https://shop.test/1.jpg", altText: ""),
                                             V1Image(url: "https://shop.test/2.jpg", altText: "")],
        rating: nil, options: ["Color", "Size"],
        variants: [
            V1Variant(id: 1, sku: nil, options: ["Red", "S"], price: usd(10_00), compareAtPrice: usd(15_00), available: 3, soldOut: false),
            V1Variant(id: 2, sku: nil, options: ["Red", "M"], price: usd(12_00), compareAtPrice: nil, available: 0, soldOut: true),
            V1Variant(id: 3, sku: nil, options: ["Blue", "M"], price: usd(11_00), compareAtPrice: nil, available: nil, soldOut: false),
        ],
        related: [summary(10, "trousers")])

    /// (choices in order, variant, price, can add, quantity bound)
    nonisolated static let choices: [([String], Int64?, String?, Bool, Int)] = [
        ([], 1, "$10.00", true, 3),
        (["Size:M"], 2, "$12.00", false, 1),
        (["Color:Blue"], 3, "$11.00", true, 99),
        (["Color:Blue", "Size:S"], 1, "$10.00", true, 3),   // Blue/S does not exist: the first S variant
    ]

    @Test(arguments: choices)
    func aVariantIsChosenByItsOptionValues(_ steps: [String], _ variantID: Int64?, _ price: String?, _ canAdd: Bool,
                                           _ maximum: Int) async {
        var shop = ShopOperations.failing
        shop.credentials = { token }
        shop.product = { _ in Self.shirt }
        let model = ProductDetailModel(handle: "shirt", shop: shop, cart: CartModel(shop: shop, locale: enUS),
                                       favorites: FavoritesModel(shop: shop, locale: enUS))
        await model.load()
        for step in steps {
            let parts = step.split(separator: ":").map(String.init)
            model.choose(parts[1], forOption: parts[0] == "Color" ? 0 : 1)
        }
        #expect(model.variant?.id == variantID && model.price == price && model.canAddToCart == canAdd)
        #expect(model.quantityRange.upperBound == maximum)
        model.quantity = 50
        #expect(model.quantity == min(50, maximum))
    }

    @Test func theDetailShowsOptionsGalleryRelatedAndAddsTheChosenVariant() async throws {
        let server = FakeCartServer([])
        var shop = server.operations()
        shop.product = { _ in Self.shirt }
        let added = Recorded<V1AddLine>()
        let addLine = shop.addLine
        shop.addLine = { added.append($0); return try await addLine($0) }
        let model = ProductDetailModel(handle: "shirt", shop: shop, cart: CartModel(shop: shop, locale: enUS),
                                       favorites: FavoritesModel(shop: shop, locale: enUS))
        await model.load()
        let sizes = try #require(model.options.last)
        #expect(sizes.name == "Size" && sizes.values.map(\.name) == ["S", "M"])
        // With Red chosen, M is sold out.
        #expect(sizes.values.map(\.isAvailable) == [true, false] && sizes.values.map(\.isSelected) == [true, false])
        #expect(model.compareAtPrice == "$15.00" && model.related.map(\.handle) == ["trousers"])
        model.showImage(1)
        model.showImage(7)
        #expect(model.imageIndex == 1 && model.images.count == 2)
        model.quantity = 2
        #expect(await model.addToCart())
        #expect(added.all == [V1AddLine(productId: 9, variantId: 1, quantity: 2)] && model.cart.badge == 2)
    }
}

@Suite("ProductCard")
struct ProductCardTests {
    @Test(arguments: [("en_US", 474, "4.7"), ("en_US", 475, "4.8"), ("tr_TR", 475, "4,8"), ("es_ES", 392, "3,9")])
    func ratingsAndPricesAreWrittenForTheLocale(_ locale: String, _ hundredths: Int, _ expected: String) {
        var product = summary(1, "arc-lamp", price: 49_90)
        product.rating = V1Rating(rateHundredths: hundredths, count: 3)
        let card = ProductCard(product, locale: Locale(identifier: locale))
        #expect(card.rating == expected && card.ratingCount == 3)
        #expect(card.price == usd(49_90).text(in: Locale(identifier: locale)) && card.price != "server:4990")
    }
}
