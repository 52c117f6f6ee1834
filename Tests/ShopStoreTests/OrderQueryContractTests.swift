import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// `OrderStore.findOrders` on every engine (issue #16, the back office's order list): each filter,
/// their combination, paging and the count, with `LIKE`'s wildcards taken as typed.
@Suite("Order query contract")
struct OrderQueryContractTests {
    @Test(arguments: StoreKind.engines(for: .orders))
    func filtersPagesAndCounts(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        let chair = try stores.variant("chair").variant
        var placed: [Order] = []
        for (index, email) in ["ana@example.com", "bora@example.com", "cem_100%@example.com"].enumerated() {
            var request = OrderFixtures.request(try stores.guest("buyer-\(index)"), [(chair, 1)], key: "key-\(index)")
            request.email = email
            placed.append(try #require(try stores.orders.placeOrder(request, Fixtures.start.addingTimeInterval(Double(index) * 86_400))
                .placedOrder))
        }
        _ = try stores.orders.apply(OrderActionRequest(number: placed[1].number, action: .markPaid, actor: "cli"), Fixtures.start)
        func numbers(_ query: OrderQuery) throws -> [String] { try stores.orders.findOrders(query).orders.map(\.number) }

        #expect(try numbers(OrderQuery()) == placed.reversed().map(\.number), "newest first")
        #expect(try numbers(OrderQuery(status: .paid)) == [placed[1].number])
        #expect(try numbers(OrderQuery(customer: "BORA")) == [placed[1].number], "part of the email, without case")
        #expect(try numbers(OrderQuery(customer: "_100%")) == [placed[2].number])
        #expect(try numbers(OrderQuery(customer: "%")) == [placed[2].number], "% is a character, not a wildcard")
        #expect(try numbers(OrderQuery(number: placed[0].number.lowercased())) == [placed[0].number])
        #expect(try numbers(OrderQuery(number: "_")).isEmpty)
        let secondDay = Fixtures.start.addingTimeInterval(86_400)
        #expect(try numbers(OrderQuery(placedFrom: secondDay)) == [placed[2].number, placed[1].number])
        #expect(try numbers(OrderQuery(placedBefore: secondDay)) == [placed[0].number], "the end is left out")
        #expect(try numbers(OrderQuery(status: .awaitingPayment, placedFrom: secondDay)) == [placed[2].number])

        let firstPage = try stores.orders.findOrders(OrderQuery(limit: 2))
        #expect(firstPage.total == 3 && firstPage.orders.map(\.number) == [placed[2].number, placed[1].number])
        let lastPage = try stores.orders.findOrders(OrderQuery(limit: 2, offset: 2))
        #expect(lastPage.total == 3 && lastPage.orders.map(\.number) == [placed[0].number])
        #expect(lastPage.orders.first?.lines.count == 1, "read with its lines")
        #expect(try stores.orders.findOrders(OrderQuery(status: .cancelled)) == OrderPage(orders: [], total: 0))
    }
}
