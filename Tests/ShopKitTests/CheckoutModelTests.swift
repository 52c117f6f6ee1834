import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import Testing

/// A fake shop for checkout: the steps answer as the server does; `placeOrder` answers from a
/// script of outcomes and records the keys it was sent.
@MainActor
private func checkoutShop(placing outcomes: [Result<V1Order, NetworkError>] = [.success(order())],
                          review: Box<V1Checkout> = Box(checkout("review", heldUntil: t0 + 300)),
                          keys: Box<[String]>, reviews: Box<Int> = Box(0)) -> ShopOperations {
    var shop = ShopOperations.failing
    let outcomes = Box(outcomes)
    shop.checkout = { checkout("address") }
    shop.setAddress = { _ in checkout("shipping") }
    shop.setShipping = { _ in checkout("review") }
    shop.review = { reviews.update { $0 += 1 }; return review.value }
    shop.placeOrder = { key in
        keys.update { $0.append(key) }
        return try outcomes.update { $0.removeFirst() }.get()
    }
    return shop
}

@MainActor
private func model(_ shop: ShopOperations, clock: ManualClock = ManualClock(t0), keys: [String] = ["k1", "k2", "k3"]) -> CheckoutModel {
    let next = Box(keys)
    return CheckoutModel(shop: shop, timeZone: TimeZone(identifier: "UTC")!, now: { clock.now }, sleep: { _ in },
                         makeIdempotencyKey: { next.update { $0.removeFirst() } })
}

/// Drives `model` from the start to the review.
@MainActor
private func toReview(_ model: CheckoutModel) async {
    await model.start()
    await model.useAddress(AddressForm(homeAddress))
    await model.chooseShipping("standard")
}

@MainActor
@Suite("ShopKit: checkout")
struct CheckoutModelTests {
    @Test func stepsGoAddressThenShippingThenReviewWithTheStockHeld() async throws {
        let keys = Box<[String]>([]), reviews = Box(0)
        let model = model(checkoutShop(keys: keys, reviews: reviews))
        await model.start()
        #expect(model.step == .address)
        await model.useAddress(AddressForm(homeAddress))
        #expect(model.step == .shipping)
        #expect(model.shippingOptions.map(\.name) == ["Standard"])
        #expect(model.address?.first == "Ana Lima")
        await model.chooseShipping("standard")
        #expect(model.step == .review)
        #expect(reviews.value == 1, "choosing shipping reviews the order (holding its stock)")
        let review = try #require(model.review)
        #expect(review.charges.total == "$258.00" && review.charges.lines.first?.quantity == 2)
        #expect(model.holdRemaining == "5:00" && model.canPlaceOrder)
        await model.placeOrder()
        #expect(model.step == .placed && model.order?.number == "SH-1001")
        #expect(keys.value == ["k1"])
    }

    @Test func anInvalidAddressStaysOnTheAddressStepWithShopCoresMessages() async {
        let model = model(checkoutShop(keys: Box([])))
        await model.start()
        var form = AddressForm(homeAddress)
        form[.phone] = "12"
        await model.useAddress(form, email: "not-an-email")
        #expect(model.step == .address)
        #expect(model.fieldErrors[.phone] == [AddressProblem.invalidPhone.message(in: .english)])
        #expect(model.fieldErrors[.email] == [AccountFieldError.emailInvalid.message(in: .english)])
    }

    @Test func aRetryAfterAFailureReusesTheKeyAndTheNextOrderGetsANewOne() async {
        let keys = Box<[String]>([])
        let shop = checkoutShop(placing: [.failure(.offline), .failure(.serverError(status: 503, code: nil, message: "busy")),
                                          .success(order("SH-1")), .success(order("SH-2"))], keys: keys)
        let model = model(shop)
        await toReview(model)
        await model.placeOrder()
        #expect(model.step == .offline && model.idempotencyKey == "k1")
        #expect(!model.canPlaceOrder, "placing waits for the network")
        await model.placeOrder()
        #expect(model.step == .failed("busy") && model.idempotencyKey == "k1")
        await model.placeOrder()
        #expect(model.step == .placed && model.order?.number == "SH-1" && model.idempotencyKey == nil)

        await toReview(model)
        await model.placeOrder()
        #expect(model.order?.number == "SH-2")
        #expect(keys.value == ["k1", "k1", "k1", "k2"])
    }

    @Test func confirmationNeededShowsTheNewReviewAndKeepsTheAttempt() async {
        let keys = Box<[String]>([]), reviews = Box(0)
        let review = Box(checkout("review", total: 258_00, heldUntil: t0 + 300))
        let shop = checkoutShop(placing: [.failure(.serverError(status: 409, code: "confirmation_needed",
                                                                 message: "Your order changed.")),
                                          .success(order(total: 300_00))],
                                review: review, keys: keys, reviews: reviews)
        let model = model(shop)
        await toReview(model)
        #expect(model.review?.charges.total == "$258.00")
        review.value = checkout("review", total: 300_00, heldUntil: t0 + 300)  // a price went up
        await model.placeOrder()
        #expect(model.step == .review)
        #expect(model.notice == "Your order changed.")
        #expect(model.review?.charges.total == "$300.00", "the changed order is shown for confirmation")
        #expect(reviews.value == 2)
        await model.placeOrder()
        #expect(model.step == .placed && model.order?.charges.total == "$300.00")
        #expect(keys.value == ["k1", "k1"])
    }

    @Test func otherConflictsGoBackToWhereCheckoutStands() async {
        let stand = Box("address")
        var shop = checkoutShop(placing: [.failure(.serverError(status: 409, code: "insufficient_stock", message: "Sold out"))],
                                keys: Box([]))
        shop.checkout = { checkout(stand.value) }
        let model = model(shop)
        await toReview(model)
        stand.value = "cart"  // the sold-out line left nothing to buy
        await model.placeOrder()
        #expect(model.notice == "Sold out")
        #expect(model.step == .cart)
    }

    @Test func theHoldCountsDownWithTheClockAndMustBeRenewedWhenItRunsOut() async {
        let clock = ManualClock(t0), keys = Box<[String]>([]), reviews = Box(0)
        let review = Box(checkout("review", heldUntil: t0 + 300))
        let model = model(checkoutShop(review: review, keys: keys, reviews: reviews), clock: clock)
        await toReview(model)
        #expect(model.holdRemaining == "5:00")
        clock.advance(by: 61)
        model.tick()
        #expect(model.holdRemaining == "3:59" && model.holdSecondsLeft == 239)
        clock.advance(by: 238.5)
        model.tick()
        #expect(model.holdRemaining == "0:01" && !model.holdExpired)
        clock.advance(by: 0.5)
        model.tick()
        #expect(model.holdExpired && !model.canPlaceOrder)
        await model.placeOrder()
        #expect(keys.value == [], "an expired hold places nothing")

        review.value = checkout("review", heldUntil: clock.now + 300)
        await model.renewHold()
        #expect(model.holdRemaining == "5:00" && model.canPlaceOrder)
        #expect(reviews.value == 2)
    }

    @Test func runCountdownTicksEverySecondUntilTheHoldEnds() async {
        let clock = ManualClock(t0), sleeps = Box(0)
        var shop = checkoutShop(keys: Box([]))
        shop.review = { checkout("review", heldUntil: t0 + 90) }
        let model = CheckoutModel(shop: shop, now: { clock.now }, sleep: { duration in
            sleeps.update { $0 += 1 }
            clock.advance(by: TimeInterval(duration.components.seconds))
        })
        await toReview(model)
        await model.runCountdown()
        #expect(sleeps.value == 90)
        #expect(model.holdExpired && model.holdRemaining == "0:00")
    }
}
