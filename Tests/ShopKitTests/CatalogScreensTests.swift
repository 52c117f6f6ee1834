import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import Testing

@MainActor
@Suite("ShopKit: categories and campaigns")
struct CatalogScreensTests {
    private nonisolated static let categories = [
        V1Category(id: 1, handle: "lamps", name: "Lamps", productCount: 1_234, image: nil),
        V1Category(id: 2, handle: "cafe", name: "Café Tables", productCount: 3, image: nil),
        V1Category(id: 3, handle: "aydinlatma", name: "Aydınlatma", productCount: 0, image: nil),
    ]

    @Test(arguments: [
        ("", false, ["Lamps", "Café Tables", "Aydınlatma"]),
        ("", true, ["Lamps", "Café Tables"]),
        ("cafe", false, ["Café Tables"]),
        ("TAB caf", false, ["Café Tables"]),
        ("lamb", false, []),
        ("aydın", false, ["Aydınlatma"]),
    ] as [(String, Bool, [String])])
    func searchAndFilterKeepTheMatchingCategories(query: String, hidesEmpty: Bool, expected: [String]) async {
        var shop = ShopOperations.failing
        shop.categories = { Self.categories }
        let model = CategoriesModel(shop: shop)
        await model.load()
        model.query = query
        model.hidesEmpty = hidesEmpty
        #expect(model.visible.map(\.name) == expected)
    }

    @Test(arguments: [(Language.english, "1,234"), (.turkish, "1.234"), (.spanish, "1234")] as [(Language, String)])
    func countsAreWrittenForTheLocale(language: Language, expected: String) async {
        var shop = ShopOperations.failing
        shop.categories = { Self.categories }
        let model = CategoriesModel(shop: shop, language: language)
        await model.load()
        #expect(model.visible.first?.productCountText == expected)
    }

    @Test func noCategoriesIsEmptyAndOfflineIsOffline() async {
        var shop = ShopOperations.failing
        let answer = Box<NetworkError?>(nil)
        shop.categories = { if let error = answer.value { throw error }; return [] }
        let model = CategoriesModel(shop: shop)
        await model.load()
        #expect(model.snapshot == "[Categories] empty")
        answer.value = .offline
        await model.load()
        #expect(model.snapshot == "[Categories] offline")
    }

    @Test(arguments: [(Language.english, "15%", "May 27, 2026 – Jun 4, 2026"), (.turkish, "%15", "27 May 2026 – 4 Haz 2026"),
                      (.spanish, "15 %", "27 may 2026 – 4 jun 2026")] as [(Language, String, String)])
    func campaignsAreWrittenForTheLocale(language: Language, percent: String, dates: String) async throws {
        var shop = ShopOperations.failing
        shop.campaigns = {
            [V1Campaign(handle: "summer", title: "Summer", description: "Sun", image: nil, startsAt: t0 - 86_400,
                        endsAt: t0 + 7 * 86_400, discount: V1CampaignDiscount(kind: "percentage", percent: 15),
                        voucherCode: "SUMMER15", appliesTo: "cart", category: nil, productHandles: nil, minimumSubtotal: usd(50_00)),
             V1Campaign(handle: "five", title: "Five off", description: "", image: nil, startsAt: t0, endsAt: t0 + 86_400,
                        discount: V1CampaignDiscount(kind: "amount", amount: usd(5_00)), voucherCode: nil, appliesTo: "cart",
                        category: nil, productHandles: nil, minimumSubtotal: nil)]
        }
        let model = CampaignsModel(shop: shop, language: language, timeZone: TimeZone(identifier: "UTC")!)
        await model.load()
        let rows = try #require(model.state.value)
        #expect(rows[0].discount.replacingOccurrences(of: "\u{00A0}", with: " ") == percent)
        #expect(rows[0].dates == dates)
        #expect(rows[0].minimumSubtotal == MoneyFormatter.shared.string(Money(minorUnits: 50_00, currency: .usd), locale: language.locale))
        #expect(rows[1].discount == MoneyFormatter.shared.string(Money(minorUnits: 5_00, currency: .usd), locale: language.locale))
    }
}

@MainActor
@Suite("ShopKit: campaign page")
struct CampaignDetailModelTests {
    @Test func aCampaignShowsItsProductsAndAnEndedOneIsNotFound() async throws {
        var shop = ShopOperations.failing
        shop.campaign = { handle in
            guard handle == "lamps" else { throw NetworkError.serverError(status: 404, code: "not_found", message: "No campaign") }
            return V1Campaign(handle: "lamps", title: "Lamp week", description: "", image: nil, startsAt: t0, endsAt: t0 + 86_400,
                              discount: V1CampaignDiscount(kind: "percentage", percent: 20), voucherCode: nil,
                              appliesTo: "category", category: "lamps", productHandles: nil, minimumSubtotal: nil,
                              products: [summary(2, "arc-lamp", price: 49_90)])
        }
        let model = CampaignDetailModel(handle: "lamps", shop: shop, language: .turkish, timeZone: TimeZone(identifier: "UTC")!)
        await model.load()
        let detail = try #require(model.state.value)
        #expect(detail.campaign.discount == "%20")
        #expect(detail.products.map(\.handle) == ["arc-lamp"])
        #expect(detail.products.first?.price == MoneyFormatter.shared.string(Money(minorUnits: 49_90, currency: .usd), locale: Language.turkish.locale))

        let ended = CampaignDetailModel(handle: "summer", shop: shop)
        await ended.load()
        guard case let .failed(error) = ended.state else { Issue.record("\(ended.state)"); return }
        #expect(error.status == 404)
    }
}
