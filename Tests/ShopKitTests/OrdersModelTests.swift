import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import Testing

@MainActor
@Suite("ShopKit: orders")
struct OrdersModelTests {
    enum Outcome: String, CaseIterable, Sendable { case orders, none, refused, offline }

    @Test(arguments: Outcome.allCases)
    func theListShowsItsState(outcome: Outcome) async {
        var shop = ShopOperations.failing
        shop.orders = {
            switch outcome {
            case .orders: [order("SH-2", total: 99_50, placedAt: t0 + 86_400), order("SH-1")]
            case .none: []
            case .refused: throw NetworkError.serverError(status: 403, code: "sign_in_required", message: "Sign in to see your orders.")
            case .offline: throw NetworkError.offline
            }
        }
        let model = OrdersModel(shop: shop, timeZone: TimeZone(identifier: "UTC")!)
        #expect(model.snapshot == "[Orders] idle")
        await model.load()
        switch (outcome, model.state) {
        case let (.orders, .loaded(rows)):
            #expect(rows.map(\.number) == ["SH-2", "SH-1"])
            #expect(rows.first?.total == "$99.50" && rows.first?.placedAt == "May 29, 2026" && rows.first?.itemCount == 2)
        case (.none, .empty), (.offline, .offline): break
        case let (.refused, .failed(error)): #expect(error.code == "sign_in_required")
        default: Issue.record("\(outcome) gave \(model.state)")
        }
    }

    @Test(arguments: [(Language.english, "$258.00", "May 28, 2026"), (.turkish, "$258,00", "28 May 2026"),
                      (.spanish, "258,00\u{00A0}US$", "28 may 2026")] as [(Language, String, String)])
    func anOrderIsWrittenForTheLocale(language: Language, total: String, date: String) async throws {
        var shop = ShopOperations.failing
        let asked = Box<[String?]>([])
        shop.order = { number, token in asked.update { $0.append(token) }; return order(number) }
        let model = OrdersModel(shop: shop, language: language, timeZone: TimeZone(identifier: "UTC")!)
        await model.open("SH-7", guestToken: "guest-token")
        let detail = try #require(model.detail.value)
        #expect(detail.number == "SH-7" && detail.charges.total == total && detail.placedAt == date)
        #expect(detail.charges.total == MoneyFormatter.shared.string(Money(minorUnits: 258_00, currency: .usd), locale: language.locale), "ShopCore's money rule")
        #expect(detail.shipTo.first == "Ana Lima")
        #expect(asked.value == ["guest-token"])
    }

    /// A partial refund reaches the app: the order's `refunded`, in the locale; nothing while zero.
    @Test(arguments: [(Language.english, "$60.00"), (.turkish, "$60,00")] as [(Language, String)])
    func aRefundIsShown(language: Language, refunded: String) async throws {
        var shop = ShopOperations.failing
        shop.order = { number, _ in
            var placed = order(number)
            placed.refunded = V1Money(minorUnits: number == "SH-8" ? 60_00 : 0, currency: "USD", formatted: "")
            return placed
        }
        let model = OrdersModel(shop: shop, language: language, timeZone: TimeZone(identifier: "UTC")!)
        await model.open("SH-8")
        #expect(try #require(model.detail.value).refunded == refunded)
        await model.open("SH-9")
        #expect(try #require(model.detail.value).refunded == nil)
    }

    @Test func aMissingOrderFails() async {
        var shop = ShopOperations.failing
        shop.order = { _, _ in throw NetworkError.serverError(status: 404, code: "not_found", message: "No order") }
        let model = OrdersModel(shop: shop)
        await model.open("SH-404")
        guard case let .failed(error) = model.detail else { Issue.record("\(model.detail)"); return }
        #expect(error.status == 404)
    }

    @Test func anOfflineListReloadsWhenTheShopAnswersAgain() async {
        var shop = ShopOperations.failing
        let online = Box(false)
        shop.orders = { guard online.value else { throw NetworkError.offline }; return [order()] }
        let connectivity = Connectivity.manual()
        let model = OrdersModel(shop: shop, connectivity: connectivity)
        await model.load()
        #expect(model.snapshot == "[Orders] offline")
        #expect(connectivity.status == .offline && connectivity.pendingRetries == ["orders"])
        online.value = true
        await connectivity.probeNow()  // the probe of `.manual()` always answers
        #expect(model.state.value?.map(\.number) == ["SH-1001"])
        #expect(connectivity.pendingRetries == [])
    }
}
