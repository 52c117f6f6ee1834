public import Foundation
public import ShopCore

extension Money {
    /// `minorUnits` cents in US dollars: `.usd(49_90)` is $49.90.
    public static func usd(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .usd) }
}

extension VariantDraft {
    /// A variant draft with defaults: no SKU, no options, $10.00, untracked stock.
    public static func mock(sku: String? = nil, options: [String] = [], price: Money = .usd(10_00),
                            compareAt: Money? = nil, inventory: Inventory = .untracked,
                            barcode: String? = nil, choices: [[String]] = []) -> VariantDraft {
        VariantDraft(sku: sku, optionValues: options, price: price, compareAtPrice: compareAt, inventory: inventory,
                     barcode: barcode, optionChoices: choices)
    }
}

extension ProductDraft {
    /// A tee sold as ONE variant in any size (WooCommerce "any", issue #13 point 2): SKU
    /// `TEE-ANY`, $20.00, 5 in stock, the shopper picks S, M or L.
    public static func openTee(handle: String = "tee", stock: Int = 5) -> ProductDraft {
        .mock(handle: handle, title: "Plain Tee", optionNames: ["Size"], variants: [
            .mock(sku: "TEE-ANY", options: [""], price: .usd(20_00), inventory: .tracked(quantity: stock, allowsBackorder: false),
                  choices: [["S", "M", "L"]]),
        ])
    }

    /// A published product draft with defaults: title from the handle, one $10.00 variant.
    public static func mock(handle: String, title: String? = nil, category: String? = nil,
                            rating: Rating? = nil, isPublished: Bool = true, optionNames: [String] = [],
                            variants: [VariantDraft] = [.mock()], images: [ProductImage] = [],
                            tags: [String] = [], publishedAt: Date? = nil, visibility: CatalogVisibility = .visible,
                            sourceLine: Int = 0) -> ProductDraft {
        ProductDraft(handle: handle, title: title ?? "Product \(handle)", descriptionHTML: "<p>\(handle)</p>",
                     descriptionText: handle, vendor: "Acme", productType: "Thing", categoryName: category,
                     tags: tags, publishedAt: publishedAt, isPublished: isPublished, visibility: visibility, images: images,
                     rating: rating, optionNames: optionNames, variants: variants, sourceLine: sourceLine)
    }

    /// A draft using every field: options, tags with quotes and non-ASCII, images, a rating,
    /// a compare-at price, tracked stock with backorder, and a publication date.
    public static let mockFull = ProductDraft(
        handle: "oak-dining-chair", title: "Oak Dining Chair \"Classic\"",
        descriptionHTML: "<p>Solid <strong>oak</strong> &amp; linen.</p>", descriptionText: "Solid oak & linen.",
        vendor: "Ağaç Atölyesi", productType: "Chair", categoryName: "Chairs",
        tags: ["oak", "dining \"room\"", "back\\slash", "çok güzel 🪑", "line\nbreak"],
        publishedAt: Date(timeIntervalSince1970: 1_700_000_000), isPublished: true,
        images: [ProductImage(url: "/images/demo/chair.svg", altText: "Front"),
                 ProductImage(url: "https://cdn.example.com/chair-side.jpg")],
        rating: Rating(rateHundredths: 470, count: 120), optionNames: ["Size", "Color"],
        variants: [
            .mock(sku: "CHAIR-M-OAK", options: ["M", "Oak"], price: .usd(129_00), compareAt: .usd(159_00),
                  inventory: .tracked(quantity: 5, allowsBackorder: false)),
            .mock(sku: nil, options: ["L", "Oak"], price: .usd(149_00),
                  inventory: .tracked(quantity: 0, allowsBackorder: true)),
        ],
        sourceLine: 2)
}

extension Product {
    /// A published one-variant product ($49.90, 3 in stock) for view and cart tests.
    public static let mock = Product(
        id: 1, handle: "oak-dining-chair", title: "Oak Dining Chair",
        descriptionHTML: "<p>Solid oak.</p>", descriptionText: "Solid oak.", vendor: "Acme",
        productType: "Chair", categoryID: 1, tags: ["oak"], publishedAt: Date(timeIntervalSince1970: 1_700_000_000),
        images: [ProductImage(url: "/images/demo/chair.svg", altText: "Oak chair")],
        rating: Rating(rateHundredths: 450, count: 12), variants: [.mock])
}

extension Variant {
    /// Variant 1: SKU `CHAIR-1`, $49.90, 3 in stock.
    public static let mock = Variant(id: 1, sku: "CHAIR-1", optionValues: [], price: .usd(49_90),
                                     compareAtPrice: nil, inventory: .tracked(quantity: 3, allowsBackorder: false))
}

extension ShopCore.Category {
    /// Category 1, "Chairs".
    public static let mock = ShopCore.Category(id: 1, handle: "chairs", name: "Chairs")
}
