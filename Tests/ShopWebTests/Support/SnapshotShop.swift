import Foundation
import HTTPServer
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
@testable import ShopWeb

/// The shop every snapshot test starts from: a small fixed catalog (a simple product, one with
/// variants — one sold out, one on sale —, a sold-out one, one on sale, untracked stock), two running
/// campaigns and a future one, two shipping methods and the bank-transfer text.
///
/// Everything that could differ between runs is pinned: `TestShop` already fixes the clock and
/// counts session tokens; here the other random tokens (CSRF, idempotency keys, emailed and guest
/// links) are counted too, and the stylesheet and script are fixed stand-ins, so that editing
/// `app.css` changes one snapshot (the asset's) rather than every page's `?v=` link. What cannot
/// be pinned from a test — the order number's random letters — is masked (`orderNumberMasks`).
enum SnapshotShop {
    /// A fresh shop with the fixture catalog plus `extra` products.
    static func make(_ extra: [ProductDraft] = []) throws -> TestShop {
        let shop = try TestShop(catalog + extra)
        _ = try shop.campaigns.replaceAll(campaigns(now: shop.clock.now))
        let counter = TokenCounter()
        shop.environment.crypto.randomToken = { counter.next() }
        shop.environment.assets = assets
        shop.environment.shippingMethods = [
            ShippingMethod(id: "standard", name: LocalizedText("Standard", translations: [.turkish: "Standart", .spanish: "Estándar"]),
                           price: .usd(4_90), freeAbove: .usd(100_00)),
            ShippingMethod(id: "express", name: "Express", price: .usd(12_00), countries: ["US"]),
        ]
        shop.environment.paymentInstructions = "Bank transfer to Example Bank, IBAN XX00 0000 0000.\nReference: your order number."
        return shop
    }

    /// Stand-ins for `app.css` and `app.js` (the real files are checked by the asset snapshot).
    static let assets: Assets = {
        func file(_ text: String, _ type: String) -> Assets.File {
            let bytes = Array(text.utf8)
            return Assets.File(bytes: bytes, contentType: type, etag: Assets.etag(for: bytes))
        }
        return Assets(files: ["app.css": file("body { margin: 0 }\n", "text/css; charset=utf-8"),
                              "app.js": file("// snapshot stand-in\n", "text/javascript; charset=utf-8")])
    }()

    // MARK: Catalog

    static let oakChair = product("oak-chair", "Oak Chair", category: "Chairs", price: 149_00, stock: 5,
                                  rating: (460, 12), tags: ["oak", "dining"], image: "oak-dining-chair-natural-oak",
                                  published: 1_773_500_000)
    static let pineChair = product("pine-chair", "Pine Chair", category: "Chairs", vendor: "Nordwood", price: 99_00,
                                   stock: 8, rating: (400, 3), tags: ["pine", "dining"], image: "spindle-back-chair",
                                   published: 1_769_900_000)
    static let cushion: ProductDraft = {
        var draft = product("linen-cushion", "Linen Cushion", category: "Textiles", price: 29_00, stock: 0,
                            rating: (420, 8), tags: ["linen"], image: "wool-cushion-cover-sage", published: 1_772_000_000)
        draft.optionNames = ["Color"]
        draft.variants = [
            .mock(sku: "CUSHION-SAND", options: ["Sand"], price: .usd(29_00), inventory: .tracked(quantity: 0, allowsBackorder: false)),
            .mock(sku: "CUSHION-SAGE", options: ["Sage"], price: .usd(29_00), compareAt: .usd(39_00),
                  inventory: .tracked(quantity: 2, allowsBackorder: false)),
            .mock(sku: "CUSHION-RUST", options: ["Rust"], price: .usd(32_00), inventory: .untracked),
        ]
        return draft
    }()
    static let vase = product("glass-vase", "Glass Vase", category: "Decor", price: 20_00, stock: 0, rating: (390, 4),
                              image: "glass-bud-vase-clear", published: 1_771_000_000)
    static let deskLamp = product("brass-desk-lamp", "Brass Desk Lamp", category: "Lamps", vendor: "Lumen", price: 89_00,
                                  compareAt: 119_00, stock: 3, rating: (450, 20), tags: ["brass", "desk"],
                                  image: "task-desk-lamp", published: 1_774_000_000)
    static let floorLamp = product("arc-floor-lamp", "Arc Floor Lamp", category: "Lamps", vendor: "Lumen", price: 249_00,
                                   stock: 2, rating: (470, 5), tags: ["floor"], image: "arc-floor-lamp",
                                   published: 1_775_000_000)
    static let tableLamp = product("mushroom-lamp", "Mushroom Table Lamp", category: "Lamps", price: 59_00, stock: 6,
                                   rating: (410, 9), tags: ["desk"], image: "mushroom-table-lamp", published: 1_770_500_000)
    static let mug = product("stoneware-mug", "Stoneware Mug", category: "Kitchen", price: 12_00, stock: nil,
                             rating: (480, 40), tags: ["ceramic"], image: "stoneware-mug-cream", published: 1_768_000_000)
    static let board = product("walnut-board", "Walnut Cutting Board", category: "Kitchen", price: 45_00, stock: 10,
                               image: "walnut-cutting-board", published: 1_767_000_000)

    static let catalog = [oakChair, pineChair, cushion, vase, deskLamp, floorLamp, tableLamp, mug, board]

    /// `count` plain products in "Kitchen", for a listing with a second page (24 a page).
    static func manyKitchenItems(_ count: Int) -> [ProductDraft] {
        (1...count).map { index in
            product("spoon-\(index)", "Wooden Spoon \(index)", category: "Kitchen", price: 5_00 + Int64(index) * 10,
                    stock: 20, image: "utensil-crock-with-spoons", published: 1_760_000_000 + TimeInterval(index))
        }
    }

    static func product(_ handle: String, _ title: String, category: String, vendor: String = "Acme", price: Int64,
                        compareAt: Int64? = nil, stock: Int?, rating: (Int, Int)? = nil, tags: [String] = [],
                        image: String, published: TimeInterval) -> ProductDraft {
        var draft = ProductDraft.mock(
            handle: handle, title: title, category: category,
            rating: rating.map { Rating(rateHundredths: $0.0, count: $0.1) },
            variants: [.mock(sku: handle.uppercased(), price: .usd(price), compareAt: compareAt.map(Money.usd),
                             inventory: stock.map { .tracked(quantity: $0, allowsBackorder: false) } ?? .untracked)],
            images: [ProductImage(url: "/static/images/demo/\(image).svg", altText: "")],
            tags: tags, publishedAt: Date(timeIntervalSince1970: published))
        draft.vendor = vendor
        draft.descriptionHTML = "<p>The \(title.lowercased()), made to last.</p>"
        return draft
    }

    // MARK: Campaigns

    /// 15 % off lamps with a code, $10 off a cart of $50 with another, and one that starts next month.
    static func campaigns(now: Date) -> [Campaign] {
        let day: TimeInterval = 86_400
        return [
            Campaign(id: "spring-lamps",
                     title: LocalizedText("Spring lamps", translations: [.turkish: "Bahar lambaları", .spanish: "Lámparas de primavera"]),
                     description: LocalizedText("15% off every lamp with the code LAMPS15.",
                                                translations: [.spanish: "15 % de descuento en todas las lámparas con el código LAMPS15."]),
                     imageURL: "/static/images/campaigns/lamps.svg", startsAt: now - 2 * day, endsAt: now + 12 * day,
                     discount: .percentage(15), target: .category(handle: "lamps"), voucherCode: VoucherCode("LAMPS15")),
            Campaign(id: "welcome", title: "Welcome offer", description: "$10 off your first order of $50 or more.",
                     imageURL: "/static/images/campaigns/welcome.svg", startsAt: now - 30 * day, endsAt: now + 60 * day,
                     discount: .fixedAmount(.usd(10_00)), minimumSubtotal: .usd(50_00), voucherCode: VoucherCode("WELCOME10")),
            Campaign(id: "summer", title: "Summer textiles", description: "Not yet.",
                     imageURL: "/static/images/campaigns/textiles.svg", startsAt: now + 30 * day, endsAt: now + 60 * day,
                     discount: .percentage(20), target: .category(handle: "textiles")),
        ]
    }

    // MARK: Helpers for flows

    static let password = "Blue9sky!"

    /// The id of a product's variant (`index` in catalog order).
    static func variantID(_ shop: TestShop, _ handle: String, _ index: Int = 0) throws -> Int64 {
        guard let product = try shop.catalog.productByHandle(handle) else { throw Missing(what: handle) }
        return product.variants[index].id.rawValue
    }

    /// The id of a product.
    static func productID(_ shop: TestShop, _ handle: String) throws -> Int64 {
        guard let product = try shop.catalog.productByHandle(handle) else { throw Missing(what: handle) }
        return product.id.rawValue
    }

    /// Registers Ana Lima (signed in afterwards, email not confirmed yet).
    @discardableResult
    static func register(_ shop: TestShop) throws -> TestResponse {
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"), ("password", password),
                                            ("password_confirmation", password)])
    }

    /// The ids of Ana's saved addresses.
    static func addressIDs(_ shop: TestShop) throws -> [Int64] {
        guard let user = try shop.accounts.credentials("ana@example.com")?.user,
              let book = shop.environment.addresses else { throw Missing(what: "Ana's address book") }
        return try book.list(user.id).compactMap { $0.id?.rawValue }
    }

    /// A US address as the address and checkout forms take it.
    static let address: [(String, String)] = [
        ("first_name", "Ana"), ("last_name", "Lima"), ("phone", "+1 555 0100"), ("line1", "1 Main St"), ("line2", "Apt 4"),
        ("city", "Springfield"), ("postal_code", "12345"), ("region", "IL"), ("country", "US"), ("address_email", ""),
    ]

    /// Replacements for an order number's random letters (`1001-K7XM` → `1001-****`), as it
    /// appears in paths and in the percent-encoded flash cookie.
    static func orderNumberMasks(_ number: String) -> [(String, String)] {
        let parts = number.split(separator: "-", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return [] }
        let masked = String(repeating: "*", count: parts[1].count)
        return [(number, parts[0] + "-" + masked), (parts[0] + "%2D" + parts[1], parts[0] + "%2D" + masked)]
    }

    /// The order number in a `/orders/{number}` location.
    static func orderNumber(in location: String?) throws -> String {
        guard let location, location.hasPrefix("/orders/") else { throw Missing(what: "order location") }
        return String(location.dropFirst("/orders/".count).prefix { $0 != "?" })
    }

    struct Missing: Error { var what: String }
}

/// Random tokens counted instead: `rnd0000…0001`, `rnd0000…0002`, … (43 characters, like the
/// URL-safe base64 of 32 random bytes).
private final class TokenCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> String {
        lock.lock(); defer { lock.unlock() }
        value += 1
        let digits = String(value)
        return "rnd" + String(repeating: "0", count: 40 - digits.count) + digits
    }
}
