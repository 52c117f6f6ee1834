import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The dashboard's reads on every engine (issue #16, point 7).
@Suite("Dashboard store contract")
struct DashboardStoreContractTests {
    @Test(arguments: StoreKind.engines(for: [.orders, .accounts]))
    func lowStockAndFailingEmails(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()  // chairs 10 tracked, lamp untracked, mugs 3 tracked, posters 0 backorderable
        #expect(try stores.dashboard.lowStock(5, 10).map { "\($0.handle) \($0.sku ?? "-") \($0.stock)" } == ["mug MUG-1 3"])
        _ = try stores.orders.setStock("CHAIR-1", 0, Fixtures.start)
        #expect(try stores.dashboard.lowStock(5, 10).map(\.handle) == ["chair", "mug"], "lowest first")
        #expect(try stores.dashboard.lowStock(5, 1).count == 1)
        #expect(try stores.dashboard.failingEmails() == 0)
        try stores.accounts.enqueue(OutboxDraft(toAddress: "a@b.co", toName: "A", subject: "s", textBody: "t", createdAt: Fixtures.start))
        try stores.accounts.enqueue(OutboxDraft(toAddress: "c@d.co", toName: "C", subject: "s", textBody: "t", createdAt: Fixtures.start))
        let due = try stores.accounts.dueMessages(.distantFuture, 10)
        try stores.accounts.markFailed(due[0].id, "refused", Fixtures.start.addingTimeInterval(60))
        try stores.accounts.markSent(due[1].id, Fixtures.start)
        #expect(try stores.dashboard.failingEmails() == 1)
    }

    /// Each code's orders, revenue and discount given, summed in the database; cancelled
    /// orders and orders without a code do not count (issue #16, point 5).
    @Test(arguments: StoreKind.engines(for: [.orders, .campaigns]))
    func voucherUsageCountsEachCodesOrdersThatStand(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        let (_, lamp) = try stores.variant("lamp")
        _ = try stores.campaigns.replaceAll([Campaign(
            id: "quarter", title: "Quarter off", startsAt: Fixtures.start - 60, endsAt: Fixtures.start + 3_600,
            discount: .percentage(25), voucherCode: VoucherCode("QUARTER"))])
        #expect(try stores.dashboard.voucherUsage().isEmpty)
        var numbers: [String] = []
        for index in 0..<3 {
            let request = OrderFixtures.request(try stores.guest("buyer-\(index)"), [(lamp, 2)], key: "key-\(index)",
                                                voucherCode: VoucherCode("quarter"), discounts: [lamp.id: .usd(10_00)])
            numbers.append(try #require(try stores.orders.placeOrder(request, Fixtures.start).placedOrder).number)
        }
        _ = try stores.orders.placeOrder(OrderFixtures.request(try stores.guest("plain"), [(lamp, 1)], key: "plain"), Fixtures.start)
        _ = try stores.orders.apply(OrderActionRequest(number: numbers[1], action: .cancel, actor: "cli"), Fixtures.start)
        #expect(try stores.dashboard.voucherUsage() == [
            "QUARTER": VoucherUsage(orders: 2, revenueMinor: 2 * 34_99, discountMinor: 2 * 10_00, currency: "USD"),
        ])
    }
}
