import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

// Shared by the checkout flow tests.

let checkoutAddress: [(String, String)] = [
    ("first_name", "Ana"), ("last_name", "Lima"), ("phone", "+1 555 0100"), ("line1", "1 Main St"), ("line2", ""),
    ("city", "Springfield"), ("postal_code", "12345"), ("region", ""), ("country", "US"), ("address_email", ""),
]

/// Gives the shop the shipping methods and payment instructions the checkout tests expect.
func configureCheckout(_ shop: TestShop) {
    shop.environment.shippingMethods = [
        ShippingMethod(id: "standard", name: "Standard", price: .usd(4_90), freeAbove: .usd(100_00)),
        ShippingMethod(id: "express", name: "Express", price: .usd(12_00), countries: ["US"]),
    ]
    shop.environment.paymentInstructions = "Bank transfer to Example Bank, IBAN XX00 0000.\nReference: your order number."
}

/// Walks a guest through address and shipping to the review page; returns the review page.
@discardableResult
func reachReview(_ shop: TestShop, email: String = "guest@example.com", method: String = "standard") throws -> TestResponse {
    #expect(try shop.get("/checkout").header("Location") == "/checkout/address")
    let submitted = try shop.post("/checkout/address", [("email", email)] + checkoutAddress)
    #expect(submitted.status == 303 && submitted.header("Location") == "/checkout/shipping", "\(submitted.text.prefix(0))")
    #expect(try shop.post("/checkout/shipping", [("method", method)]).header("Location") == "/checkout/review")
    return try shop.get("/checkout/review")
}

func idempotencyKey(_ page: TestResponse) throws -> String {
    String(try #require(page.text.firstMatch(of: /name="idempotency_key" value="([^"]+)"/)?.1))
}

