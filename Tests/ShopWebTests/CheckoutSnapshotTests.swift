import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// The address book, each checkout step, the placed order and the order history.
@Suite("Checkout snapshots")
struct CheckoutSnapshotTests {
    @Test func addressBook() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/account/addresses"), named: "signed-out")
        try SnapshotShop.register(shop)
        assertResponseSnapshot(of: try shop.get("/account/addresses"), named: "empty")
        assertResponseSnapshot(of: try shop.get("/account/addresses/new"), named: "new-form")
        assertResponseSnapshot(of: try shop.post("/account/addresses", [("first_name", ""), ("phone", "12"), ("country", "XX")]),
                               named: "create-invalid")
        assertResponseSnapshot(of: try shop.post("/account/addresses", SnapshotShop.address + [("default", "1")]),
                               named: "created")
        try shop.post("/account/addresses", [("first_name", "Bruno"), ("last_name", "Costa"), ("phone", "+44 20 7946 0000"),
                                             ("line1", "2 High Street"), ("line2", ""), ("city", "London"),
                                             ("postal_code", "SW1A 1AA"), ("region", ""), ("country", "GB"),
                                             ("address_email", "bruno@example.com")])
        assertResponseSnapshot(of: try shop.get("/account/addresses"), named: "two-addresses")
    }

    @Test func editingAndDeletingAnAddress() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        try shop.post("/account/addresses", SnapshotShop.address)
        let id = try #require(try SnapshotShop.addressIDs(shop).first)
        assertResponseSnapshot(of: try shop.get("/account/addresses/\(id)"), named: "edit-form")
        var moved = SnapshotShop.address.filter { $0.0 != "city" }
        moved.append(("city", "Shelbyville"))
        assertResponseSnapshot(of: try shop.post("/account/addresses/\(id)", moved), named: "updated")
        assertResponseSnapshot(of: try shop.get("/account/addresses/\(id)/delete"), named: "delete-confirmation")
        assertResponseSnapshot(of: try shop.post("/account/addresses/\(id)/delete", []), named: "deleted")
        assertResponseSnapshot(of: try shop.get("/account/addresses/\(id)"), named: "gone")
    }

    /// A guest from the cart through every step to the order page their link opens.
    @Test func guestCheckout() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/checkout"), named: "empty-cart")
        try shop.post("/cart/add", [("product", "brass-desk-lamp"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "2")])
        try shop.post("/cart/voucher", [("code", "WELCOME10")])
        assertResponseSnapshot(of: try shop.get("/checkout"), named: "start")
        assertResponseSnapshot(of: try shop.get("/checkout/address"), named: "address")
        assertResponseSnapshot(of: try shop.post("/checkout/address", [("email", "guest@")] + SnapshotShop.address),
                               named: "address-invalid")
        assertResponseSnapshot(of: try shop.post("/checkout/address", [("email", "guest@example.com")] + SnapshotShop.address),
                               named: "address-submitted")
        assertResponseSnapshot(of: try shop.get("/checkout/shipping"), named: "shipping")
        assertResponseSnapshot(of: try shop.post("/checkout/shipping", [("method", "teleport")]), named: "shipping-invalid")
        assertResponseSnapshot(of: try shop.post("/checkout/shipping", [("method", "express")]), named: "shipping-submitted")
        let review = try shop.get("/checkout/review")
        assertResponseSnapshot(of: review, named: "review")
        let key = String(try #require(review.text.firstMatch(of: /name="idempotency_key" value="([^"]+)"/)?.1))
        let placed = try shop.post("/checkout/place", [("idempotency_key", key)])
        let number = try SnapshotShop.orderNumber(in: placed.header("Location"))
        let masks = SnapshotShop.orderNumberMasks(number)
        assertResponseSnapshot(of: placed, named: "placed", masking: masks)
        assertResponseSnapshot(of: try shop.get(try #require(placed.header("Location"))), named: "order", masking: masks)
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart-after-order")
        assertResponseSnapshot(of: try shop.get("/orders/\(number)"), named: "order-without-token", masking: masks)
    }

    @Test func priceChangedBeforePlacing() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "1")])
        try shop.post("/checkout/address", [("email", "guest@example.com")] + SnapshotShop.address)
        try shop.post("/checkout/shipping", [("method", "standard")])
        let review = try shop.get("/checkout/review")
        let key = String(try #require(review.text.firstMatch(of: /name="idempotency_key" value="([^"]+)"/)?.1))
        var dearer = SnapshotShop.oakChair
        dearer.variants[0].price = .usd(159_00)
        _ = try shop.catalog.upsert([dearer])
        assertResponseSnapshot(of: try shop.post("/checkout/place", [("idempotency_key", key)]))
    }

    /// A signed-in shopper picks a saved address; the order shows in their history.
    @Test func signedInCheckoutAndOrderHistory() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        assertResponseSnapshot(of: try shop.get("/orders"), named: "no-orders")
        try shop.post("/account/addresses", SnapshotShop.address + [("default", "1")])
        try shop.post("/cart/add", [("product", "pine-chair"), ("quantity", "2")])
        assertResponseSnapshot(of: try shop.get("/checkout/address"), named: "address-with-saved")
        let id = try #require(try SnapshotShop.addressIDs(shop).first)
        assertResponseSnapshot(of: try shop.post("/checkout/address", [("address_id", String(id))]), named: "saved-address-chosen")
        assertResponseSnapshot(of: try shop.get("/checkout/shipping"), named: "shipping-free")
        try shop.post("/checkout/shipping", [("method", "standard")])
        let review = try shop.get("/checkout/review")
        let key = String(try #require(review.text.firstMatch(of: /name="idempotency_key" value="([^"]+)"/)?.1))
        let placed = try shop.post("/checkout/place", [("idempotency_key", key)])
        let number = try SnapshotShop.orderNumber(in: placed.header("Location"))
        let masks = SnapshotShop.orderNumberMasks(number)
        assertResponseSnapshot(of: try shop.get("/orders"), named: "history", masking: masks)
        assertResponseSnapshot(of: try shop.get("/orders/\(number)"), named: "order", masking: masks)
    }

    @Test func reviewWhenStockRanOut() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "arc-floor-lamp"), ("quantity", "2")])
        try shop.post("/checkout/address", [("email", "guest@example.com")] + SnapshotShop.address)
        try shop.post("/checkout/shipping", [("method", "standard")])
        var fewer = SnapshotShop.floorLamp
        fewer.variants[0].inventory = .tracked(quantity: 1, allowsBackorder: false)
        _ = try shop.catalog.upsert([fewer])
        assertResponseSnapshot(of: try shop.get("/checkout/review"))
    }
}
