import Foundation
import Postgres
import ShopCore
import ShopStore
import ShopStorePostgres
import ShopTestSupport
import Synchronization
import Testing

/// Issue #15, points 3 and 5, at the store level: two app servers — two pools, two order
/// stores — on one PostgreSQL database, racing real threads. (The end-to-end test with two
/// `shoppable serve` processes behind nginx is the other half.)
@Suite("Orders from two servers on PostgreSQL")
struct OrderStoreTwoServerTests {
    /// The harness's stores and a second server's order store on the same schema.
    private static func servers(poolSize: Int = 8) throws -> (StoreHarness, [OrderStore], PostgresDatabase) {
        let stores = try StoreHarness(.postgres, poolSize: poolSize)
        let postgres = try #require(stores.postgres)
        let second = try PostgresDatabase.open(url: try #require(PostgresTestServer.url), poolSize: poolSize,
                                               schema: postgres.schema)
        return (stores, [stores.orders, OrderStore.postgres(second)], second)
    }

    private static let enabled = PostgresTestServer.url != nil

    @Test(.enabled(if: enabled), .bug("issue #15", "300 checkouts for a stock of 10 over both servers"))
    func threeHundredCheckoutsForTenChairsGiveTenOrders() throws {
        let (stores, servers, second) = try Self.servers()
        defer { second.close() }
        try stores.stockShop(chairs: 10)
        let chair = try stores.variant("chair").variant
        let shoppers = try (0..<300).map { try stores.guest("racer-\($0)") }
        let all = try ConcurrentRun.together(shoppers.count) { index in
            try servers[index % 2].placeOrder(OrderFixtures.request(shoppers[index], [(chair, 1)], key: "k\(index)"),
                                              Fixtures.start)
        }
        #expect(all.count { $0.placedOrder != nil } == 10)
        #expect(all.count { $0 == .insufficientStock([chair.id: 0]) } == 290)
        #expect(Set(all.compactMap(\.placedOrder?.number)).count == 10)
        #expect(try stores.variant("chair").variant.inventory == .tracked(quantity: 0, allowsBackorder: false))
        #expect(try servers[1].findOrders(.everything).orders.count == 10)
    }

    @Test(.enabled(if: enabled), .bug("issue #15", "idempotent order placement through a unique key"))
    func oneRequestSentToBothServersAtOncePlacesOneOrder() throws {
        let (stores, servers, second) = try Self.servers()
        defer { second.close() }
        try stores.stockShop(chairs: 20)
        let chair = try stores.variant("chair").variant
        for round in 0..<20 {
            let shopper = try stores.guest("double-\(round)")
            let request = OrderFixtures.request(shopper, [(chair, 1)], key: "same-key")
            let results = try ConcurrentRun.together(4) { index in try servers[index % 2].placeOrder(request, Fixtures.start) }
            #expect(results.count { $0.placedOrder != nil } == 1, "round \(round): \(results)")
            #expect(Set(results.compactMap { result -> String? in
                switch result {
                case let .placed(order), let .alreadyPlaced(order): order.number
                default: nil
                }
            }).count == 1, "round \(round)")
        }
        #expect(try servers[0].findOrders(.everything).orders.count == 20)
    }

    @Test(.enabled(if: enabled), .bug("issue #15", "holds from two servers never exceed the stock"))
    func twoServersNeverHoldMoreThanTheStock() throws {
        let (stores, servers, second) = try Self.servers()
        defer { second.close() }
        try stores.stockShop(chairs: 5)
        let chair = try stores.variant("chair").variant
        let shoppers = try (0..<40).map { try stores.guest("holder-\($0)") }
        let until = Fixtures.start.addingTimeInterval(900)
        let results = try ConcurrentRun.together(shoppers.count) { index in
            try servers[index % 2].reserve(shoppers[index], [StockRequest(variantID: chair.id, quantity: 1)], until, Fixtures.start)
        }
        #expect(results.count { if case .reserved = $0 { true } else { false } } == 5)
        #expect(try stores.available("chair") == .some(0))
    }

    @Test(.enabled(if: enabled), .bug("issue #15", "expired holds are swept once"))
    func bothServersSweepingAtOnceSweepEachHoldOnce() throws {
        let (stores, servers, second) = try Self.servers()
        defer { second.close() }
        try stores.stockShop(chairs: 50)
        let chair = try stores.variant("chair").variant
        for index in 0..<30 {
            let shopper = try stores.guest("expired-\(index)")
            _ = try servers[0].reserve(shopper, [StockRequest(variantID: chair.id, quantity: 1)],
                                       Fixtures.start.addingTimeInterval(60), Fixtures.start)
        }
        let later = Fixtures.start.addingTimeInterval(120)
        let swept = try ConcurrentRun.together(6) { index in try servers[index % 2].sweepExpiredReservations(later) }
        #expect(swept.reduce(0, +) == 30)
        #expect(try stores.available("chair") == .some(50))
    }
}
