import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// Registration, sign-in and out, email confirmation, passwords, the account page and favorites.
@Suite("Account snapshots")
struct AccountSnapshotTests {
    @Test func signingIn() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/account/sign-in?next=%2Forders"), named: "page")
        try SnapshotShop.register(shop)
        try shop.post("/account/sign-out", [])
        try shop.post("/cart/add", [("product", "oak-chair"), ("quantity", "1")])
        assertResponseSnapshot(of: try shop.post("/account/sign-in", [("email", "ana@example.com"), ("password", "wrong")]),
                               named: "wrong-password")
        assertResponseSnapshot(of: try shop.post("/account/sign-in", [("email", "ANA@example.com"),
                                                                      ("password", SnapshotShop.password),
                                                                      ("remember", "1"), ("next", "/cart")]), named: "signed-in")
        assertResponseSnapshot(of: try shop.get("/cart"), named: "cart-after-sign-in")
    }

    @Test func register() throws {
        let shop = try SnapshotShop.make()
        assertResponseSnapshot(of: try shop.get("/account"), named: "account-signed-out")
        assertResponseSnapshot(of: try shop.get("/account/register"), named: "page")
        assertResponseSnapshot(of: try shop.post("/account/register", [("name", ""), ("email", "not-an-email"),
                                                                       ("password", "short"),
                                                                       ("password_confirmation", "different")]),
                               named: "invalid")
        assertResponseSnapshot(of: try SnapshotShop.register(shop), named: "registered")
        assertResponseSnapshot(of: try shop.get("/account"), named: "account-unconfirmed")
    }

    @Test func emailConfirmation() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        assertResponseSnapshot(of: try shop.post("/account/verify/resend", []), named: "resent")
        assertResponseSnapshot(of: try shop.post("/account/verify/dismiss", [("return_to", "/account")]), named: "banner-closed")
        let link = try #require(try shop.lastEmailedPath())
        assertResponseSnapshot(of: try shop.get(link), named: "confirmed")
        assertResponseSnapshot(of: try shop.get(link), named: "used-link")
        assertResponseSnapshot(of: try shop.get("/account"), named: "account-confirmed")
    }

    @Test func changingThePassword() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        assertResponseSnapshot(of: try shop.post("/account/password", [("current_password", "wrong"), ("password", "abc"),
                                                                       ("password_confirmation", "abd")]), named: "invalid")
        assertResponseSnapshot(of: try shop.post("/account/password", [("current_password", SnapshotShop.password),
                                                                       ("password", "Green7leaf?"),
                                                                       ("password_confirmation", "Green7leaf?")]), named: "changed")
    }

    /// The signed-in picker is a form posting with the CSRF token (issue #11): the account
    /// remembers the choice, and the page it was made on comes back in that language.
    @Test func choosingALanguageWhileSignedIn() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        assertResponseSnapshot(of: try shop.post("/account/language", [("lang", "es"), ("return_to", "/campaigns")]),
                               named: "chosen")
        assertResponseSnapshot(of: try shop.get("/campaigns"), named: "page-in-spanish")
    }

    @Test func signingOut() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        assertResponseSnapshot(of: try shop.post("/account/sign-out", []), named: "here")
        try shop.post("/account/sign-in", [("email", "ana@example.com"), ("password", SnapshotShop.password)])
        assertResponseSnapshot(of: try shop.post("/account/sign-out-everywhere", []), named: "everywhere")
    }

    @Test func passwordReset() throws {
        let shop = try SnapshotShop.make()
        try SnapshotShop.register(shop)
        try shop.post("/account/sign-out", [])
        assertResponseSnapshot(of: try shop.get("/account/password/forgot"), named: "forgot")
        assertResponseSnapshot(of: try shop.post("/account/password/forgot", [("email", "nope")]), named: "forgot-invalid")
        assertResponseSnapshot(of: try shop.post("/account/password/forgot", [("email", "ana@example.com")]), named: "sent")
        let link = try #require(try shop.lastEmailedPath())
        let token = String(try #require(link.split(separator: "=", maxSplits: 1).last))
        assertResponseSnapshot(of: try shop.get(link), named: "reset-page")
        assertResponseSnapshot(of: try shop.post("/account/password/reset", [("token", token), ("password", "Green7leaf?"),
                                                                             ("password_confirmation", "Green8leaf?")]),
                               named: "reset-mismatch")
        assertResponseSnapshot(of: try shop.post("/account/password/reset", [("token", token), ("password", "Green7leaf?"),
                                                                             ("password_confirmation", "Green7leaf?")]),
                               named: "reset-done")
        assertResponseSnapshot(of: try shop.get(link), named: "used-link")
    }

    @Test func favorites() throws {
        let shop = try SnapshotShop.make()
        let chair = try SnapshotShop.productID(shop, "oak-chair")
        let vase = try SnapshotShop.productID(shop, "glass-vase")
        assertResponseSnapshot(of: try shop.get("/favorites"), named: "empty")
        assertResponseSnapshot(of: try shop.post("/favorites/\(chair)", [("favorite", "1"), ("return_to", "/categories/chairs")]),
                               named: "added")
        assertResponseSnapshot(of: try shop.send(.post, "/favorites/\(vase)", form: [("favorite", "1")],
                                                 headers: ["Accept": "application/json"]), named: "added-json")
        assertResponseSnapshot(of: try shop.get("/favorites"), named: "with-items")
        assertResponseSnapshot(of: try shop.get("/products/oak-chair"), named: "product-with-heart")
        assertResponseSnapshot(of: try shop.post("/favorites/\(chair)", [("favorite", "0")]), named: "removed")
    }
}
