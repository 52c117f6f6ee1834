import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// `CatalogUpsertRules` on its own: which stored product a draft updates, and what of it a file
/// that cannot carry every field leaves as it is. Every engine calls these (one home).
@Suite("Catalog upsert rules")
struct CatalogUpsertRulesTests {
    /// A stored product `mug` (id 1) with SKUs MUG-1 and MUG-2.
    static let mugOwners = [CatalogUpsertRules.SKUOwner(productID: Product.ID(1), handle: "mug", sku: "MUG-1"),
                            CatalogUpsertRules.SKUOwner(productID: Product.ID(1), handle: "mug", sku: "MUG-2")]

    static func plate(_ skus: [String?]) -> ProductDraft {
        .mock(handle: "plate", optionNames: ["Color"],
              variants: skus.enumerated().map { .mock(sku: $1, options: ["c\($0)"]) }, sourceLine: 2)
    }

    @Test("A new handle takes over the product whose SKUs are exactly the draft's",
          arguments: [[" mug-1", "Mug-2 "], ["MUG-2", "MUG-1", nil]])
    func aNewHandleTakesOverTheProductWithExactlyItsSKUs(skus: [String?]) throws {
        #expect(try CatalogUpsertRules.target(for: Self.plate(skus), handleMatch: nil, skuOwners: Self.mugOwners,
                                              importHandles: ["plate"]) == Product.ID(1))
    }

    @Test("Some but not all of a stored product's SKUs under a new handle are refused",
          .bug("tester: importing plate with mug-1 renamed mug and deleted MUG-2"),
          arguments: [(["mug-1"], "mug-1"), (["MUG-1", "MUG-2", "MUG-3"], "MUG-1"), (["PLATE-1", " mug-2"], " mug-2")])
    func aPartialOverlapIsRefusedNamingTheOwnersHandle(skus: [String], named: String) {
        #expect(throws: CatalogStoreError.skuOfAnotherProduct(sku: named, handle: "plate", line: 2, owner: "mug")) {
            try CatalogUpsertRules.target(for: Self.plate(skus), handleMatch: nil, skuOwners: Self.mugOwners,
                                          importHandles: ["plate"])
        }
        let error = CatalogStoreError.skuOfAnotherProduct(sku: "mug-1", handle: "plate", line: 2, owner: "mug")
        #expect(error.errorDescription == "Line 2: SKU “mug-1” belongs to product “mug”; to change that product use "
            + "its handle “mug”, or give this product other SKUs.")
    }

    @Test func aSKUOfAnotherProductUnderAStoredHandleIsStillTaken() {
        // `plate` exists (id 2): its draft may not use mug's SKU, whatever the sets.
        #expect(throws: CatalogStoreError.skuTaken(sku: "mug-1", handle: "plate", line: 2, owner: "mug")) {
            try CatalogUpsertRules.target(for: Self.plate(["mug-1", "mug-2"]), handleMatch: Product.ID(2),
                                          skuOwners: Self.mugOwners, importHandles: ["plate"])
        }
    }

    @Test("A stored variant without a SKU keeps its product from being taken over by SKUs",
          .bug("tester: mixy-2 with MX-1 took mixy over and deleted its variant M without SKU"),
          arguments: [(["mx-1"], "mx-1"), (["MX-1", nil], "MX-1")])
    func aStoredVariantWithoutSKUMakesATakeOverPartial(skus: [String?], named: String) {
        let mixy = [CatalogUpsertRules.SKUOwner(productID: Product.ID(3), handle: "mixy", sku: "MX-1"),
                    CatalogUpsertRules.SKUOwner(productID: Product.ID(3), handle: "mixy", sku: nil)]
        #expect(throws: CatalogStoreError.skuOfAnotherProduct(sku: named, handle: "plate", line: 2, owner: "mixy")) {
            try CatalogUpsertRules.target(for: Self.plate(skus), handleMatch: nil, skuOwners: mixy, importHandles: ["plate"])
        }
    }

    // MARK: One decision for the whole upsert

    /// `stoneware-mug` (id 1) with four SKUs, as the tester's file found it.
    static let stonewareOwners = ["FP-SM-CRE", "FP-SM-SB", "FP-SM-MOS", "FP-SM-CHA"].map {
        CatalogUpsertRules.SKUOwner(productID: Product.ID(1), handle: "stoneware-mug", sku: $0)
    }

    static func draft(_ handle: String, _ skus: [String], line: Int) -> ProductDraft {
        .mock(handle: handle, optionNames: ["Color"],
              variants: skus.enumerated().map { .mock(sku: $1, options: ["c\($0)"]) }, sourceLine: line)
    }

    @Test("Every draft is decided against the catalog before the upsert, in any order",
          .bug("tester: stoneware-mug then mug2 emptied stoneware-mug and created mug2; mug2 first was refused"),
          arguments: [false, true])
    func aSKUOfAProductWhoseHandleIsInTheFileIsRefusedInEitherOrder(reversed: Bool) {
        var drafts = [Self.draft("stoneware-mug", ["NEW-1"], line: 2),
                      Self.draft("mug2", ["FP-SM-CRE", "FP-SM-SB", "FP-SM-MOS", "FP-SM-CHA"], line: 3)]
        if reversed { drafts.reverse() }
        let matches: [Product.ID?] = drafts.map { $0.handle == "stoneware-mug" ? Product.ID(1) : nil }
        #expect(throws: CatalogStoreError.skuTaken(sku: "FP-SM-CRE", handle: "mug2", line: 3, owner: "stoneware-mug")) {
            try CatalogUpsertRules.targets(for: drafts, handleMatches: matches, skuOwners: Self.stonewareOwners)
        }
    }

    @Test("A SKU moves between products in two upserts, never in one", arguments: [false, true])
    func aSKUDoesNotMoveInOneUpsert(reversed: Bool) {
        // mug (1) drops MUG-2 and bowl (2) picks it up, in the same file.
        var drafts = [Self.draft("mug", ["MUG-1"], line: 2), Self.draft("bowl", ["BOWL-1", "mug-2"], line: 5)]
        if reversed { drafts.reverse() }
        let owners = Self.mugOwners + [CatalogUpsertRules.SKUOwner(productID: Product.ID(2), handle: "bowl", sku: "BOWL-1")]
        let matches: [Product.ID?] = drafts.map { $0.handle == "mug" ? Product.ID(1) : Product.ID(2) }
        #expect(throws: CatalogStoreError.skuTaken(sku: "mug-2", handle: "bowl", line: 5, owner: "mug")) {
            try CatalogUpsertRules.targets(for: drafts, handleMatches: matches, skuOwners: owners)
        }
    }

    @Test func aSKUInTwoDraftsIsRefusedAtTheLaterOneNamingItsStoredOwner() throws {
        // Two new handles, both exactly mug's SKUs: each alone would take mug over.
        let twice = [Self.draft("plate", ["MUG-1", "MUG-2"], line: 2), Self.draft("dish", ["mug-1", "mug-2"], line: 4)]
        #expect(throws: CatalogStoreError.skuTaken(sku: "mug-1", handle: "dish", line: 4, owner: "mug")) {
            try CatalogUpsertRules.targets(for: twice, handleMatches: [nil, nil], skuOwners: Self.mugOwners)
        }
        // A new SKU in two drafts names the earlier draft.
        let new = [Self.draft("plate", ["P-1"], line: 2), Self.draft("dish", ["p-1 "], line: 3)]
        #expect(throws: CatalogStoreError.skuTaken(sku: "p-1 ", handle: "dish", line: 3, owner: "plate")) {
            try CatalogUpsertRules.targets(for: new, handleMatches: [nil, nil], skuOwners: [])
        }
        // Alone, the take-over and a new product are decided as `target` decides them.
        #expect(try CatalogUpsertRules.targets(for: [twice[0], new[1]], handleMatches: [nil, nil],
                                               skuOwners: Self.mugOwners) == [Product.ID(1), nil])
    }

    // MARK: Fields a file does not carry

    static let stored = StoredProduct(product: Product(
        id: Product.ID(1), handle: "oak-dining-chair", title: "Oak Dining Chair", vendor: "Nordwood",
        productType: "Dining chair", categoryID: Category.ID(3), publishedAt: Date(timeIntervalSince1970: 1_700_000_000),
        isPublished: true, visibility: .catalog,
        images: [ProductImage(url: "/media/a.jpg", altText: "Oak chair, front")],
        rating: Rating(rateHundredths: 460, count: 12), variants: []), categoryName: "Chairs")

    /// What a Shopify and a WooCommerce row of that product read as (with a new price).
    static func fileDraft(_ uncarried: ProductDraft.Fields) -> ProductDraft {
        var draft = ProductDraft(handle: "oak-dining-chair", title: "Oak Dining Chair", vendor: "", productType: "",
                                 categoryName: "Dining chair",
                                 images: [ProductImage(url: "/media/a.jpg", altText: "Oak Dining Chair"),
                                          ProductImage(url: "/media/new.jpg", altText: "Oak Dining Chair")],
                                 variants: [.mock(sku: "OAK", price: .usd(99_00))])
        draft.uncarried = uncarried
        return draft
    }

    @Test func anUpdateKeepsTheStoredValuesOfEveryFieldTheFileDoesNotCarry() throws {
        let shopify = try CatalogUpsertRules.keepingUncarried(Self.fileDraft([.publishedAt, .rating, .visibility, .category]),
                                                          from: Self.stored)
        #expect(shopify.publishedAt == Self.stored.product.publishedAt && shopify.rating == Self.stored.product.rating)
        #expect(shopify.visibility == .catalog && shopify.categoryName == "Chairs")
        #expect(shopify.vendor == "" && shopify.images.map(\.altText) == ["Oak Dining Chair", "Oak Dining Chair"])
        #expect(shopify.variants[0].price == .usd(99_00) && shopify.uncarried.isEmpty)

        let wooCommerce = try CatalogUpsertRules.keepingUncarried(
            Self.fileDraft([.vendor, .productType, .publishedAt, .rating, .imageAltText]), from: Self.stored)
        #expect(wooCommerce.vendor == "Nordwood" && wooCommerce.productType == "Dining chair")
        #expect(wooCommerce.categoryName == "Dining chair" && wooCommerce.visibility == .visible)  // carried
        // The image the product has keeps its alt text; a new one takes the file's.
        #expect(wooCommerce.images.map(\.altText) == ["Oak chair, front", "Oak Dining Chair"])
    }

    @Test func aNewProductAndAFormatThatCarriesEverythingTakeTheFile() throws {
        var created = Self.fileDraft([.vendor, .rating, .category])
        #expect(try CatalogUpsertRules.keepingUncarried(created, from: nil) == { created.uncarried = []; return created }())
        let json = Self.fileDraft([])
        #expect(try CatalogUpsertRules.keepingUncarried(json, from: Self.stored) == json)
    }
}
