import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// The cart page in each state, and every cart action with its answer (redirect, 422 page or JSON).
@Suite("Cart snapshots")
struct CartSnapshotTests {
    private static let json: HTTPHeaders = ["Accept": "application/json"]

    @Test func emptyCart() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/cart"))
    }

    @Test func cartWithLines() throws {
        let shop = try SnapshotShop.make()
        let sage = try SnapshotShop.variantID(shop, "linen-cushion", 1)
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "2"),
                                                               ("return_to", "/categories/chairs")]), named: "add")
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "linen-cushion"), ("variant", String(sage)),
                                                               ("quantity", "1")]), named: "add-variant")
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "3")])
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart")
        assertResponseSnapshot(of: try shop.get("/badge"), named: "badge")
    }

    @Test func rejectedAdds() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "brass-desk-lamp"), ("quantity", "4")]),
                               named: "above-stock")
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "linen-cushion"), ("quantity", "1")]),
                               named: "no-variant-chosen")
    }

    @Test func quickAdd() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.send(.post, "/cart/add", form: [("product", "stoneware-mug"), ("quantity", "1")],
                                                 headers: Self.json), named: "added")
        assertResponseSnapshot(of: try shop.send(.post, "/cart/add", form: [("product", "glass-vase"), ("quantity", "1")],
                                                 headers: Self.json), named: "sold-out")
        assertResponseSnapshot(of: try shop.send(.post, "/cart/add", form: [("product", "no-such-thing"), ("quantity", "1")],
                                                 headers: Self.json), named: "gone")
    }

    /// Issue #13, point 2: a WooCommerce "any" variant — one SKU, one stock pool of 5 — whose
    /// size the shopper picks on the product page (a `<select>`, no JavaScript needed); each
    /// size is its own cart line, and the lines share the variant's stock.
    @Test(.bug(id: "13")) func openVariantPickedOnTheProductPage() throws {
        let shop = try SnapshotShop.make([.openTee()])
        let tee = try SnapshotShop.variantID(shop, "tee")
        assertResponseSnapshot(of: try shop.get("/products/tee"), named: "product")
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "tee"), ("variant", String(tee)), ("quantity", "1")]),
                               named: "no-size")
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "tee"), ("variant", String(tee)), ("quantity", "1"),
                                                               ("choice.\(tee).Size", "XL")]), named: "size-not-offered")
        try shop.post("/cart/add", [("product", "tee"), ("variant", String(tee)), ("quantity", "2"), ("choice.\(tee).Size", "M")])
        try shop.post("/cart/add", [("product", "tee"), ("variant", String(tee)), ("quantity", "1"), ("choice.\(tee).Size", "L")])
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart")
        // 3 of the 5 are in the cart: 3 more L is refused, naming the 3.
        assertResponseSnapshot(of: try shop.post("/cart/add", [("product", "tee"), ("variant", String(tee)), ("quantity", "3"),
                                                               ("choice.\(tee).Size", "L")]), named: "above-shared-stock")
        try shop.post("/cart/lines/\(tee)", [("quantity", "3"), ("chosen", "Size=L")])
        try shop.post("/cart/lines/\(tee)/remove", [("chosen", "Size=M")])
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart-after-changes")
    }

    @Test func badgeOfANewVisitor() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/badge"))
    }

    @Test func changingALine() throws {
        let shop = try SnapshotShop.make()
        let lamp = try SnapshotShop.variantID(shop, "brass-desk-lamp")
        try shop.post("/cart/add", [("product", "brass-desk-lamp"), ("quantity", "1")])
        assertResponseSnapshot(of: try shop.post("/cart/lines/\(lamp)", [("quantity", "2")]), named: "updated")
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart")
        assertResponseSnapshot(of: try shop.post("/cart/lines/\(lamp)", [("quantity", "9")]), named: "above-stock")
        assertResponseSnapshot(of: try shop.post("/cart/lines/999", [("quantity", "1")]), named: "not-in-cart")
    }

    @Test func removingALine() throws {
        let shop = try SnapshotShop.make()
        let mug = try SnapshotShop.variantID(shop, "stoneware-mug")
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "1")])
        assertResponseSnapshot(of: try shop.post("/cart/lines/\(mug)/remove", []), named: "removed")
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart")
    }

    @Test func selectingLines() throws {
        let shop = try SnapshotShop.make()
        let chair = try SnapshotShop.variantID(shop, "oak-chair")
        try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "2")])
        assertResponseSnapshot(of: try shop.post("/cart/lines/\(chair)/select", []), named: "unticked")
        assertResponseSnapshot(of: try shop.get("/cart"), named: "one-unselected")
        assertResponseSnapshot(of: try shop.post("/cart/select-all", [("selected", "0")]), named: "none")
        assertResponseSnapshot(of: try shop.get("/cart"), named: "nothing-selected")
        assertResponseSnapshot(of: try shop.send(.post, "/cart/select-all", form: [("selected", "1")], headers: Self.json),
                               named: "all-json")
    }

    @Test func voucherApplied() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "brass-desk-lamp"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "1")])
        assertResponseSnapshot(of: try shop.post("/cart/voucher", [("code", " welcome10 ")]), named: "entered")
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart")
        assertResponseSnapshot(of: try shop.post("/cart/voucher/remove", []), named: "removed")
    }

    @Test func categoryVoucherSharedOverLines() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "brass-desk-lamp"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "mushroom-lamp"), ("quantity", "2")])
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "LAMPS15")])
        assertResponseSnapshot(of: try shop.get("/cart"))
    }

    @Test func voucherRejected() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "stoneware-mug"), ("quantity", "1")])
        try shop.post("/cart/voucher", [("code", "WELCOME10")])
        assertResponseSnapshot(of: try shop.get("/cart"), named: "minimum-not-met")
        try shop.post("/cart/voucher", [("code", "NOPE")])
        assertResponseSnapshot(of: try shop.get("/cart"), named: "unknown")
        assertResponseSnapshot(of: try shop.post("/cart/voucher", [("code", "no spaces!")]), named: "malformed")
    }

    @Test func lineAboveStock() throws {
        let shop = try SnapshotShop.make()
        try shop.post("/cart/add", [("product", "brass-desk-lamp"), ("quantity", "3")])
        var fewer = SnapshotShop.deskLamp
        fewer.variants[0].inventory = .tracked(quantity: 1, allowsBackorder: false)
        _ = try shop.catalog.upsert([fewer])
        assertResponseSnapshot(of: try shop.get("/cart"))
    }
}
