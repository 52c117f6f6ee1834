import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

private let chair = ProductDraft.mock(handle: "chair", title: "Oak Chair", category: "Chairs",
                                      variants: [.mock(sku: "CHAIR-1", price: .usd(40_00),
                                                       inventory: .tracked(quantity: 100, allowsBackorder: false))])

/// Issue #8: the operator lowers the stock below what shoppers at checkout hold.
@Suite("Holds versus a lowered stock, at checkout")
struct HoldTrimFlowTests {
    /// A shopper of `shop` who holds `quantity` chairs at the review step; with the review page.
    private func holder(_ shop: TestShop, quantity: Int = 1) throws -> (visitor: TestShop, review: TestResponse) {
        let visitor = try shop.visitor()
        try visitor.post("/cart/add", [("product", "chair"), ("quantity", String(quantity))])
        let review = try reachReview(visitor)
        #expect(review.status == 200 && review.text.contains("We hold these items for you"))
        return (visitor, review)
    }

    @Test func afterTheStockIsLoweredToTenTheTenEarliestHoldersCanBuyAndTheOthersAreTold() throws {
        let shop = try TestShop([chair])
        configureCheckout(shop)
        let holders = try (0..<15).map { _ in try holder(shop) }
        let update = try #require(shop.orders).setStock("CHAIR-1", 10, shop.clock.now)  // `shoppable stock set CHAIR-1 10`
        #expect(update.trimmedHolds == 5)

        for (index, holder) in holders.enumerated().reversed() {  // the trimmed shoppers come back first
            let placed = try holder.visitor.post("/checkout/place", [("idempotency_key", try idempotencyKey(holder.review))])
            if index < 10 {
                #expect(placed.status == 303 && placed.header("Location")?.hasPrefix("/orders/") == true, "holder \(index)")
            } else {
                #expect(placed.status == 409, "holder \(index)")
                #expect(placed.text.contains("The stock changed while you were checking out"))
                #expect(placed.text.contains("Oak Chair: the shop lowered its stock, and what we held for you went to shoppers who reached checkout earlier."))
                #expect(placed.text.contains("href=\"/cart\""))
            }
        }
        #expect(try shop.orders!.findOrders(.everything).orders.count == 10)
        let variant = try #require(try shop.catalog.productByHandle("chair")).variants[0].id
        #expect(try shop.orders!.available([variant], nil, shop.clock.now)[variant] == .some(0))
    }

    @Test func aShopperWhoseHoldWasPartlyTrimmedIsToldOnReloadingTheReview() throws {
        let shop = try TestShop([chair])
        configureCheckout(shop)
        let first = try holder(shop, quantity: 2)
        let second = try holder(shop, quantity: 3)
        _ = try shop.orders!.setStock("CHAIR-1", 3, shop.clock.now)

        let reloaded = try second.visitor.get("/checkout/review")
        #expect(reloaded.status == 409)
        #expect(reloaded.text.contains("Oak Chair: the shop lowered its stock, so we could keep only 1 of the 3 we held for you."))
        #expect(try second.visitor.get("/cart").text.contains("Only 1 available."), "the cart shows what is left for them")
        let again = try second.visitor.get("/checkout/review")
        #expect(again.status == 409 && again.text.contains("Some items just sold out"), "told once, then the usual answer")

        #expect(try first.visitor.get("/checkout/review").status == 200, "the earlier holder keeps all of theirs")
        let placed = try first.visitor.post("/checkout/place", [("idempotency_key", try idempotencyKey(first.review))])
        #expect(placed.status == 303)
    }
}
