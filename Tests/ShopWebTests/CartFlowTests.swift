import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

private let lamp = ProductDraft.mock(
    handle: "arc-lamp", title: "Arc Lamp", category: "Lamps",
    variants: [.mock(sku: "ARC", price: .usd(89_50), inventory: .tracked(quantity: 3, allowsBackorder: false))])
private let mug = ProductDraft.mock(
    handle: "mug", title: "Stoneware Mug", category: "Kitchen",
    variants: [.mock(sku: "MUG", price: .usd(3_25), inventory: .untracked)])
private let gone = ProductDraft.mock(
    handle: "gone", title: "Gone Vase", category: "Decor",
    variants: [.mock(sku: "GONE", price: .usd(20_00), inventory: .tracked(quantity: 0, allowsBackorder: false))])
private let tee = ProductDraft.mock(
    handle: "tee", title: "Tee", category: "Clothing", optionNames: ["Size"],
    variants: [.mock(sku: "TEE-S", options: ["S"], price: .usd(20_00), inventory: .tracked(quantity: 1, allowsBackorder: false)),
               .mock(sku: "TEE-M", options: ["M"], price: .usd(22_00), inventory: .tracked(quantity: 5, allowsBackorder: false))])

private func variantID(_ shop: TestShop, _ handle: String, _ index: Int = 0) throws -> String {
    String(try #require(try shop.catalog.productByHandle(handle)).variants[index].id.rawValue)
}

@Suite("Cart over HTTP")
struct CartFlowTests {
    @Test func addingCreatesASessionWithASafeCookieAndRedirectsWithAMessage() throws {
        let shop = try TestShop([lamp])
        #expect(shop.cookies.isEmpty)
        let added = try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "2")])
        #expect(added.status == 303)
        #expect(added.header("Location") == "/products/arc-lamp")
        let cookie = try #require(added.response.headers.values(for: "Set-Cookie").first { $0.hasPrefix("shoppable_session=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
        #expect(!cookie.contains("Secure"))
        let token = try #require(shop.cookies["shoppable_session"])
        #expect(token.count == 32)

        let page = try shop.get("/products/arc-lamp")
        #expect(page.text.contains("Added Arc Lamp to your cart."))
        #expect(page.text.contains("data-cart-count=\"2\""))
        #expect(try shop.get("/products/arc-lamp").text.contains("Added Arc Lamp") == false, "the message shows once")
    }

    /// A one-time message shows only when the server set it: a cookie planted by someone else
    /// (a sibling subdomain, a network on plain HTTP), or the server's with its text changed,
    /// shows nothing — on the storefront and in the back office.
    @Test func aPlantedMessageCookieIsNotShown() throws {
        let shop = try TestShop([lamp])
        _ = try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1")])
        let sealed = try #require(shop.cookies["shoppable_flash"])
        let planted = "error.Your%20account%20is%20locked%2E%20Call%20us%2E.."
        let changed = sealed.replacing("Added", with: "Locked")
        #expect(changed != sealed)
        for value in [planted, changed, planted + ".0123456789abcdef0123456789abcdef"] {
            let visitor = try shop.visitor()
            visitor.cookies["shoppable_flash"] = value
            let page = try visitor.get("/products/arc-lamp")
            #expect(!page.text.contains("locked") && !page.text.contains("Locked") && !page.text.contains("class=\"flash"), "\(value)")
            #expect(visitor.cookies["shoppable_flash"] == nil, "cleared all the same")
        }
        #expect(try shop.get("/products/arc-lamp").text.contains("Added Arc Lamp to your cart."), "the server's own shows")
        let staff = try shop.visitor()
        staff.cookies["shoppable_staff_flash"] = "e.Planted"
        #expect(!(try staff.get("/admin/sign-in").text.contains("Planted")))
    }

    @Test func browsingDoesNotCreateSessions() throws {
        let shop = try TestShop([lamp])
        let page = try shop.get("/products/arc-lamp")
        #expect(!page.response.headers.values(for: "Set-Cookie").contains { $0.hasPrefix("shoppable_session=") })
        #expect(try shop.get("/cart").response.headers.values(for: "Set-Cookie").allSatisfy { !$0.hasPrefix("shoppable_session=") })
    }

    @Test func cartShowsLinesTotalsAndBadge() throws {
        let shop = try TestShop([lamp, mug])
        try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "2")])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "20")])
        let cart = try shop.get("/cart")
        #expect(cart.status == 200)
        #expect(cart.count("class=\"cart-line\"") == 2)
        #expect(cart.text.contains("$89.50 each") && cart.text.contains("$179.00"))
        #expect(cart.text.contains("$3.25 each") && cart.text.contains("$65.00"))
        #expect(cart.text.contains("data-subtotal=\"\">$244.00"))
        #expect(cart.text.contains("22 items"))
        #expect(cart.text.contains("data-cart-count=\"22\""))
    }

    @Test func addingTheSameProductAgainIncreasesTheLine() throws {
        let shop = try TestShop([mug])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "2")])
        let cart = try shop.get("/cart")
        #expect(cart.count("class=\"cart-line\"") == 1)
        #expect(cart.text.contains("name=\"quantity\" value=\"3\""))
    }

    @Test(arguments: [
        ("4", "Only 3 available."), ("-1", "Quantity cannot be negative."), ("1.5", "Quantity must be a whole number."),
        ("abc", "Please enter a quantity, like 1 or 2."), ("0", "Choose at least 1."), ("", "Please enter a quantity, like 1 or 2."),
        ("9999999999999999999999", "You can buy at most 99 of one item."),
    ])
    func rejectedAddsExplainWhyAndChangeNothing(quantity: String, message: String) throws {
        let shop = try TestShop([lamp])
        try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1")])
        let rejected = try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", quantity)])
        #expect(rejected.status == 422)
        #expect(rejected.text.contains(message) || (quantity == "4" && rejected.text.contains("Only 3 available, and you already have 1 in your cart.")))
        #expect(try shop.get("/cart").text.contains("name=\"quantity\" value=\"1\""))
        // The product page it shows links its languages and themes to the product, not to the
        // form's URL (a fresh tester's "Türkçe" answered 405).
        #expect(rejected.text.contains("href=\"/products/arc-lamp?lang=tr\"") && !rejected.text.contains("/cart/add?lang="))
        #expect(rejected.text.contains("return_to=/products/arc-lamp\""))
    }

    @Test func soldOutProductsAndVariantsCannotBeAdded() throws {
        let shop = try TestShop([gone, tee])
        let rejected = try shop.post("/cart/add", [("product", "gone"), ("quantity", "1")])
        #expect(rejected.status == 422 && rejected.text.contains("Sorry, this is sold out."))
        let noChoice = try shop.post("/cart/add", [("product", "tee"), ("quantity", "1")])
        #expect(noChoice.status == 422 && noChoice.text.contains("Please choose an option."))
        try shop.post("/cart/add", [("product", "tee"), ("variant", variantID(shop, "tee", 0)), ("quantity", "1")])
        let second = try shop.post("/cart/add", [("product", "tee"), ("variant", variantID(shop, "tee", 0)), ("quantity", "1")])
        #expect(second.status == 422 && second.text.contains("Sorry, this is sold out.") == false)
        #expect(second.text.contains("Only 1 available, and you already have 1 in your cart."))
        #expect(try shop.get("/cart").text.contains("data-cart-count=\"1\""))
    }

    @Test func unknownProductsAre404AndChangeNothing() throws {
        let shop = try TestShop([lamp])
        #expect(try shop.post("/cart/add", [("product", "nope"), ("quantity", "1")]).status == 404)
        #expect(try shop.post("/cart/add", [("quantity", "1")]).status == 404)
        #expect(shop.cookies["shoppable_session"] == nil)
    }

    @Test func quantityChangesAreCheckedAgainstStock() throws {
        let shop = try TestShop([lamp])
        try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1")])
        let id = try variantID(shop, "arc-lamp")
        let updated = try shop.post("/cart/lines/\(id)", [("quantity", "3")])
        #expect(updated.status == 303 && updated.header("Location") == "/cart")
        #expect(try shop.get("/cart").text.contains("name=\"quantity\" value=\"3\""))
        let tooMany = try shop.post("/cart/lines/\(id)", [("quantity", "9")])
        #expect(tooMany.status == 422 && tooMany.text.contains("Only 3 available."))
        // Its language and theme links go to the cart, not to the form's URL (405 for a GET).
        #expect(tooMany.text.contains("href=\"/cart?lang=tr\"") && !tooMany.text.contains("/cart/lines/\(id)?lang="))
        #expect(tooMany.text.contains("return_to=/cart\""))
        #expect(tooMany.text.contains("name=\"quantity\" value=\"3\""), "the cart is unchanged")
        let negative = try shop.post("/cart/lines/\(id)", [("quantity", "-2")])
        #expect(negative.status == 422 && negative.text.contains("Quantity cannot be negative."))
    }

    @Test func quantityZeroAndRemoveDeleteTheLine() throws {
        let shop = try TestShop([lamp, mug])
        try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1")])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "1")])
        try shop.post("/cart/lines/\(variantID(shop, "arc-lamp"))", [("quantity", "0")])
        let removed = try shop.post("/cart/lines/\(variantID(shop, "mug"))/remove", [])
        #expect(removed.status == 303)
        let cart = try shop.get("/cart")
        #expect(cart.text.contains("Removed Stoneware Mug from your cart."))
        #expect(cart.text.contains("Your cart is empty"))
        #expect(cart.text.contains("data-cart-count=\"0\" hidden"))
    }

    @Test func changingALineThatIsNotInTheCartSaysSo() throws {
        let shop = try TestShop([lamp])
        let response = try shop.post("/cart/lines/999", [("quantity", "1")])
        #expect(response.status == 303)
        #expect(try shop.get("/cart").text.contains("That item is no longer in your cart."))
    }

    @Test func theCartBelongsToTheSession() throws {
        let shop = try TestShop([lamp])
        try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "2")])
        let stranger = try TestShop([lamp])
        #expect(try stranger.get("/cart").text.contains("Your cart is empty"))
        shop.cookies["shoppable_session"] = "ffffffffffffffffffffffffffffffff"
        #expect(try shop.get("/cart").text.contains("Your cart is empty"), "an unknown token is a new visitor")
        shop.cookies["shoppable_session"] = "<script>"
        #expect(try shop.get("/cart").status == 200)
    }

    @Test func returnToOnlyFollowsPathsOnThisSite() throws {
        let shop = try TestShop([lamp])
        let local = try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1"), ("return_to", "/categories/lamps")])
        #expect(local.header("Location") == "/categories/lamps")
        for evil in ["//evil.example", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"] {
            let response = try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1"), ("return_to", evil)])
            #expect(response.header("Location") == "/products/arc-lamp", "\(evil)")
            try shop.post("/cart/lines/\(variantID(shop, "arc-lamp"))", [("quantity", "1")])
        }
    }

    @Test func pagesReadTheCartOnlyOnceAndGetsCreateNothing() throws {
        let shop = try TestShop([lamp])
        try shop.post("/cart/add", [("product", "arc-lamp"), ("quantity", "1")])
        let loads = LockedCounter()
        let inner = shop.environment.sessions.loadCart
        shop.environment.sessions.loadCart = { id in loads.increment(); return try inner(id) }
        _ = try shop.get("/cart")
        #expect(loads.value == 1)
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func increment() { lock.lock(); count += 1; lock.unlock() }
}

/// A visitor's simultaneous first adds (issue #9): every request derives the same guest session
/// from the visitor's CSRF cookie, so they share one cart instead of creating one each.
@Suite("First adds of a new visitor")
struct FirstAddTests {
    @Test func requestsWithoutASessionButTheSameCSRFCookieShareOneSession() throws {
        let shop = try TestShop([.mock(handle: "mug", title: "Mug"), .mock(handle: "lamp", title: "Lamp")])
        _ = try shop.get("/")  // the visitor now holds a CSRF cookie, and no session
        let csrfCookie = try #require(shop.cookies["shoppable_csrf"])
        // Two requests sent before either answer arrived: both carry only the CSRF cookie.
        var sessions: [String] = []
        for handle in ["mug", "lamp"] {
            shop.cookies = ["shoppable_csrf": csrfCookie]
            let answer = try shop.post("/cart/add", [("product", handle), ("quantity", "1")], csrf: false)
            #expect(answer.status == 303)
            sessions.append(try #require(shop.cookies["shoppable_session"]))
        }
        #expect(sessions[0] == sessions[1], "both answers set the same session cookie")
        #expect(try shop.get("/cart").text.contains(">Mug<") && shop.get("/cart").text.contains(">Lamp<"))
    }

    @Test func theSameCSRFCookieDoesNotJoinAnOlderSession() throws {
        let shop = try TestShop([.mock(handle: "mug", title: "Mug")])
        _ = try shop.get("/")
        let csrfCookie = try #require(shop.cookies["shoppable_csrf"])
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "1")], csrf: false)
        let first = try #require(shop.cookies["shoppable_session"])
        // Later, someone presenting the same CSRF cookie without the session cookie (a planted
        // cookie, a copied request) does not get into that session.
        shop.clock.advance(by: 60)
        shop.cookies = ["shoppable_csrf": csrfCookie]
        try shop.post("/cart/add", [("product", "mug"), ("quantity", "1")], csrf: false)
        let second = try #require(shop.cookies["shoppable_session"])
        #expect(second != first)
        #expect(!(try shop.get("/cart").text.contains("value=\"2\"")), "a new, separate cart")
    }
}
