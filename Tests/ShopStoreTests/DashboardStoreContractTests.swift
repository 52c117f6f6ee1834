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
}
