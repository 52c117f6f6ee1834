import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// Issue #8: lowering the stock below what shoppers hold trims the holds, latest first, so the
/// stock left stays sellable; each trimmed shopper is told once.
@Suite("Holds versus a lowered stock")
struct ReservationTrimContractTests {
    static let now = Fixtures.start

    /// Holds `quantity` chairs for the shopper until `minutes` from `now`.
    private func hold(_ stores: StoreHarness, _ shopper: Shopper, _ quantity: Int, minutes: Double = 15,
                      at now: Date = now) throws {
        let chair = try stores.variant("chair").variant
        let result = try stores.orders.reserve(shopper, [StockRequest(variantID: chair.id, quantity: quantity)],
                                               now.addingTimeInterval(minutes * 60), now)
        #expect(result == .reserved(until: now.addingTimeInterval(minutes * 60)))
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func loweringTheStockTrimsTheLatestHoldsFirstAndTellsEachShopperOnce(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop(chairs: 15)
        let chair = try stores.variant("chair").variant
        let (early, a, b, c, d) = (try stores.guest("early"), try stores.guest("a"), try stores.guest("b"),
                                   try stores.guest("c"), try stores.guest("d"))
        try hold(stores, early, 5, minutes: 1)  // expired when the stock changes: neither counted nor trimmed
        for (shopper, quantity) in [(a, 3), (b, 4), (c, 2), (d, 1)] { try hold(stores, shopper, quantity) }
        try hold(stores, a, 3, at: Self.now.addingTimeInterval(90))  // renewed: keeps its place, first

        let later = Self.now.addingTimeInterval(120)
        #expect(try stores.orders.setStock("CHAIR-1", 5, later) == StockUpdate(variants: 1, trimmedHolds: 3))

        #expect(try stores.available("chair", at: later) == .some(0), "a's 3 and b's 2 fill the 5")
        #expect(try stores.available("chair", for: b, at: later) == .some(2))
        #expect(try stores.orders.takeReservationTrims(a, later).isEmpty)
        #expect(try stores.orders.takeReservationTrims(early, later).isEmpty)
        #expect(try stores.orders.takeReservationTrims(c, later) == [ReservationTrim(variantID: chair.id, held: 2, kept: 0)])
        #expect(try stores.orders.takeReservationTrims(c, later).isEmpty, "told once")

        // What is left is sellable: a and b buy what they kept, d (trimmed to nothing) cannot.
        #expect(try stores.orders.placeOrder(OrderFixtures.request(a, [(chair, 3)]), later).placedOrder != nil)
        #expect(try stores.orders.placeOrder(OrderFixtures.request(b, [(chair, 2)]), later).placedOrder != nil)
        #expect(try stores.orders.takeReservationTrims(b, later).isEmpty, "a placed order forgets the trim")
        #expect(try stores.orders.placeOrder(OrderFixtures.request(d, [(chair, 1)]), later) == .insufficientStock([chair.id: 0]))
        #expect(try stores.orders.takeReservationTrims(d, later) == [ReservationTrim(variantID: chair.id, held: 1, kept: 0)],
                "a refused order writes nothing: d is still to be told")
    }

    /// Found by a fresh tester: the back office's product form and bulk change and an import
    /// lowered stock without trimming, so two holders of the last unit each counted the other's
    /// hold and nobody could buy it. Every catalog write trims as `setStock` does.
    @Test(arguments: StoreKind.engines(for: .orders))
    func everyCatalogWriteThatLowersStockTrimsTheLatestHolds(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        func chairDraft(_ stock: Int) -> ProductDraft {
            .mock(handle: "chair", title: "Oak Chair", optionNames: ["Size"], variants: [
                .mock(sku: "CHAIR-1", options: ["Large"], price: .usd(49_90), inventory: .tracked(quantity: stock, allowsBackorder: false)),
            ])
        }
        try stores.stockShop(chairs: 4)
        let chair = try stores.variant("chair")
        let (a, b, c, d) = (try stores.guest("a"), try stores.guest("b"), try stores.guest("c"), try stores.guest("d"))
        for shopper in [a, b, c, d] { try hold(stores, shopper, 1) }

        // An import (upsert) down to 3: d's hold, the latest, goes.
        _ = try stores.catalog.upsert([chairDraft(3)], by: .shop, now: Self.now)
        #expect(try stores.available("chair", for: a) == .some(1), "the three kept holds fill the 3 but a's own")
        #expect(try stores.orders.takeReservationTrims(d, Self.now) == [ReservationTrim(variantID: chair.variant.id, held: 1, kept: 0)])
        #expect(try stores.orders.takeReservationTrims(c, Self.now).isEmpty)

        // The product form or a bulk change (changeProducts) down to 1: c's, then b's.
        _ = try stores.catalog.changeProductsBy([chair.product.id], .shop, Self.now) { _ in chairDraft(1) }
        #expect(try stores.orders.takeReservationTrims(c, Self.now) == [ReservationTrim(variantID: chair.variant.id, held: 1, kept: 0)])
        #expect(try stores.orders.takeReservationTrims(b, Self.now) == [ReservationTrim(variantID: chair.variant.id, held: 1, kept: 0)])
        #expect(try stores.orders.placeOrder(OrderFixtures.request(a, [(chair.variant, 1)]), Self.now).placedOrder != nil,
                "the last unit is sold to the first holder")

        // Raising the stock trims nothing.
        _ = try stores.catalog.upsert([chairDraft(5)], by: .shop, now: Self.now)
        try hold(stores, b, 2)
        _ = try stores.catalog.upsert([chairDraft(4)], by: .shop, now: Self.now)
        #expect(try stores.orders.takeReservationTrims(b, Self.now).isEmpty)
        #expect(try stores.available("chair", for: b) == .some(4))
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func aTrimGoesWithReleaseAndLapsesWithItsHold(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop(chairs: 6)
        let chair = try stores.variant("chair").variant
        let (a, b, c) = (try stores.guest("a"), try stores.guest("b"), try stores.guest("c"))
        for shopper in [a, b, c] { try hold(stores, shopper, 2) }
        #expect(try stores.orders.setStock("CHAIR-1", 7, Self.now).trimmedHolds == 0, "more than is held: nothing to trim")
        #expect(try stores.orders.setStock("CHAIR-1", 3, Self.now).trimmedHolds == 2)
        #expect(try stores.orders.setStock("CHAIR-1", 1, Self.now).trimmedHolds == 2, "a's and b's, again")
        #expect(try stores.available("chair", for: b, at: Self.now) == .some(0))

        try stores.orders.releaseReservation(b)  // the cart changed: the old hold's story is over
        #expect(try stores.orders.takeReservationTrims(b, Self.now).isEmpty)
        #expect(try stores.orders.takeReservationTrims(a, Self.now) == [ReservationTrim(variantID: chair.id, held: 2, kept: 1)],
                "trimmed twice: the first held, the last kept")
        let expiry = Self.now.addingTimeInterval(15 * 60)
        #expect(try stores.orders.takeReservationTrims(c, expiry).isEmpty, "the hold would have ended by now anyway")

        #expect(try stores.orders.setStock("CHAIR-1", 0, Self.now).trimmedHolds == 1, "a's last chair")
        #expect(try stores.orders.sweepExpiredReservations(expiry) == 0, "no hold left to sweep")
        #expect(try stores.orders.takeReservationTrims(a, Self.now).isEmpty, "its trim was swept with the hold's time")
    }

    /// The scenario: 1 000 shoppers each hold one chair and the operator sets the stock
    /// to 10 — the 10 earliest holds stay, and exactly 10 orders can be placed.
    @Test(arguments: StoreKind.engines(for: .orders))
    func aThousandHoldersAndAStockOfTenGiveTenOrders(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop(chairs: 1_000)
        let chair = try stores.variant("chair").variant
        let shoppers = try (0..<1_000).map { try stores.guest("holder-\($0)") }
        for shopper in shoppers { try hold(stores, shopper, 1) }
        #expect(try stores.orders.setStock("CHAIR-1", 10, Self.now) == StockUpdate(variants: 1, trimmedHolds: 990))
        let results = try shoppers.map { try stores.orders.placeOrder(OrderFixtures.request($0, [(chair, 1)]), Self.now) }
        #expect(results.prefix(10).allSatisfy { $0.placedOrder != nil })
        #expect(results.dropFirst(10).allSatisfy { $0 == .insufficientStock([chair.id: 0]) })
        #expect(try stores.orders.findOrders(.everything).orders.count == 10)
    }
}
