import Foundation
import ShopAPI
import ShopClient
@testable import ShopKit
import Testing

@MainActor
@Suite("HomeModel")
struct HomeModelTests {
    static func shop(recommendationsFail: Bool = false, asked: Recorded<Bool>) -> ShopOperations {
        var shop = ShopOperations.failing
        shop.campaigns = {
            [V1Campaign(handle: "save15", title: "15 % off", description: "", image: "https://shop.test/b.jpg",
                        startsAt: .distantPast, endsAt: .distantFuture,
                        discount: V1CampaignDiscount(kind: "percentage", percent: 15), voucherCode: "SAVE15",
                        appliesTo: "cart", category: nil, productHandles: nil, minimumSubtotal: nil)]
        }
        shop.categories = { [V1Category(id: 1, handle: "lamps", name: "Lamps", productCount: 3, image: nil)] }
        shop.featured = { recommendations in
            asked.append(recommendations)
            if recommendations && recommendationsFail {
                throw NetworkError.serverError(status: 500, code: nil, message: "Not now.")
            }
            return V1Featured(products: recommendations ? [summary(2, "desk-lamp")] : [summary(1, "arc-lamp")],
                              recommendations: recommendations)
        }
        return shop
    }

    func model(_ shop: ShopOperations) -> HomeModel {
        HomeModel(shop: shop, cart: CartModel(shop: shop, locale: enUS), favorites: FavoritesModel(shop: shop, locale: enUS))
    }

    @Test func homeShowsBannersCategoriesAndTheFeaturedRow() async throws {
        let asked = Recorded<Bool>()
        let home = model(Self.shop(asked: asked))
        guard case .idle = home.state else { Issue.record("\(home.state)"); return }
        await home.load()
        let content = try #require(home.state.value)
        #expect(content.banners.map(\.id) == ["save15"] && content.banners[0].voucherCode == "SAVE15")
        #expect(content.categories.map(\.name) == ["Lamps"] && content.products.map(\.handle) == ["arc-lamp"])
        #expect(asked.all == [false] && !home.showsRecommendations)
    }

    @Test(arguments: [false, true])
    func theToggleSwitchesOnlyTheRowAndStaysWhenItFails(_ fails: Bool) async throws {
        let asked = Recorded<Bool>()
        let home = model(Self.shop(recommendationsFail: fails, asked: asked))
        await home.load()
        await home.toggleRecommendations()
        let content = try #require(home.state.value)
        #expect(asked.all == [false, true] && content.banners.count == 1)
        if fails {
            #expect(!home.showsRecommendations && content.products.map(\.handle) == ["arc-lamp"] && home.errorMessage == "Not now.")
        } else {
            #expect(home.showsRecommendations && content.products.map(\.handle) == ["desk-lamp"] && home.errorMessage == nil)
            await home.toggleRecommendations()
            #expect(!home.showsRecommendations && home.state.value?.products.map(\.handle) == ["arc-lamp"])
        }
    }

    @Test func anEmptyShopIsEmpty() async {
        var shop = ShopOperations.failing
        shop.campaigns = { [] }
        shop.categories = { [] }
        shop.featured = { V1Featured(products: [], recommendations: $0) }
        let home = model(shop)
        await home.load()
        guard case .empty = home.state else { Issue.record("\(home.state)"); return }
    }
}
