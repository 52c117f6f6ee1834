import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The catalog contract every store must meet, run against each implementation.
@Suite("Catalog store contract")
struct CatalogStoreContractTests {
    @Test(arguments: StoreKind.engines(for: .catalog))
    func upsertCreatesThenReupsertUpdatesInPlace(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let drafts = (1...3).map { ProductDraft.mock(handle: "p\($0)", category: "Tools",
                                                     variants: [.mock(sku: "S\($0)"), .mock(sku: "T\($0)", options: ["x"])]) }
        let created = try stores.catalog.upsert(drafts)
        var expected = CatalogUpsertResult()
        expected.productsCreated = 3
        expected.variantsCreated = 6
        expected.categoriesCreated = 1
        expected.products = drafts.map { .init(handle: $0.handle, change: .created) }
        #expect(created == expected)
        let before = try drafts.map { try stores.product($0.handle) }

        let renamed = drafts.map { draft in
            var draft = draft
            draft.title += " (new)"
            draft.variants[0].price = .usd(12_34)
            return draft
        }
        let updated = try stores.catalog.upsert(renamed)
        expected = CatalogUpsertResult()
        expected.productsUpdated = 3
        expected.variantsUpdated = 3  // the first variant's price; the second ones are as they were
        expected.products = drafts.map { .init(handle: $0.handle, change: .updated) }
        #expect(updated == expected)

        let after = try drafts.map { try stores.product($0.handle) }
        #expect(after.map(\.id) == before.map(\.id))
        #expect(after.map { $0.variants.map(\.id) } == before.map { $0.variants.map(\.id) })
        #expect(after.allSatisfy { $0.title.hasSuffix(" (new)") && $0.variants[0].price == .usd(12_34) })
        #expect(try stores.catalog.productCount() == 3)
        #expect(try stores.catalog.categories().map(\.productCount) == [3])
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func everyFieldRoundTrips(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let draft = ProductDraft.mockFull
        var withFraction = draft
        withFraction.publishedAt = Date(timeIntervalSince1970: 1_700_000_000.75)
        _ = try stores.catalog.upsert([withFraction])

        let product = try stores.product(draft.handle)
        let category = try #require(try stores.catalog.categoryByHandle("chairs"))
        #expect(category.name == "Chairs")
        let expected = Product(
            id: product.id, handle: draft.handle, title: draft.title, descriptionHTML: draft.descriptionHTML,
            descriptionText: draft.descriptionText, vendor: draft.vendor, productType: draft.productType,
            categoryID: category.id, tags: draft.tags, publishedAt: Date(timeIntervalSince1970: 1_700_000_000),
            isPublished: true, images: draft.images, rating: draft.rating, optionNames: draft.optionNames,
            variants: zip(product.variants, draft.variants).map { stored, variant in
                Variant(id: stored.id, sku: variant.sku, optionValues: variant.optionValues, price: variant.price,
                        compareAtPrice: variant.compareAtPrice, inventory: variant.inventory)
            })
        #expect(product == expected)
        #expect(product.variants.count == 2)
        #expect(product.variants[0].compareAtPrice == .usd(159_00))
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func variantIsMatchedBySKUWhenItsOptionsChange(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var draft = ProductDraft.mock(handle: "tee", optionNames: ["Size"],
                                      variants: [.mock(sku: "TEE-A", options: ["M"]), .mock(sku: "TEE-B", options: ["L"])])
        _ = try stores.catalog.upsert([draft])
        let before = try stores.product("tee").variants

        // Swap the option values of the two SKUs: ids follow the SKU, not the options.
        draft.variants = [.mock(sku: "TEE-A", options: ["L"]), .mock(sku: "TEE-B", options: ["M"])]
        let result = try stores.catalog.upsert([draft])
        let after = try stores.product("tee").variants
        #expect(result.variantsUpdated == 2 && result.variantsCreated == 0)
        #expect(after.map(\.id) == before.map(\.id))
        #expect(after.map(\.optionValues) == [["L"], ["M"]])
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func variantWithoutSKUIsMatchedByOptionValues(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var draft = ProductDraft.mock(handle: "mug", optionNames: ["Size"],
                                      variants: [.mock(options: ["Small"]), .mock(options: ["Large"])])
        _ = try stores.catalog.upsert([draft])
        let before = try stores.product("mug").variants
        let idByOption = Dictionary(uniqueKeysWithValues: before.map { ($0.optionValues[0], $0.id) })

        // Reordered, re-priced, different case and spacing: still the same variants.
        draft.variants = [.mock(options: [" large "], price: .usd(20_00)), .mock(options: ["SMALL"], price: .usd(15_00))]
        let result = try stores.catalog.upsert([draft])
        let after = try stores.product("mug").variants
        #expect(result.variantsUpdated == 2 && result.variantsCreated == 0)
        #expect(after.map(\.id) == [idByOption["Large"], idByOption["Small"]])
        #expect(after.map(\.price) == [.usd(20_00), .usd(15_00)])
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func newSKUWithKnownOptionsUpdatesThatVariant(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var draft = ProductDraft.mock(handle: "cap", optionNames: ["Color"], variants: [.mock(sku: "OLD", options: ["Red"])])
        _ = try stores.catalog.upsert([draft])
        let before = try stores.product("cap").variants[0]
        draft.variants = [.mock(sku: "NEW", options: ["Red"])]
        _ = try stores.catalog.upsert([draft])
        let after = try stores.product("cap").variants
        #expect(after.map(\.id) == [before.id])
        #expect(after.map(\.sku) == ["NEW"])
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func variantsMissingFromTheDraftAreRemoved(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var draft = ProductDraft.mock(handle: "sock", optionNames: ["Size"],
                                      variants: [.mock(options: ["S"]), .mock(options: ["M"]), .mock(options: ["L"])])
        _ = try stores.catalog.upsert([draft])
        let before = try stores.product("sock").variants
        draft.variants = [.mock(options: ["S"]), .mock(options: ["L"]), .mock(options: ["XL"])]
        let result = try stores.catalog.upsert([draft])
        let after = try stores.product("sock").variants
        #expect(result.variantsUpdated == 1 && result.variantsCreated == 1)  // L moved up; S is as it was
        #expect(after.map(\.optionValues) == [["S"], ["L"], ["XL"]])
        #expect(Array(after.map(\.id).prefix(2)) == [before[0].id, before[2].id])
        #expect(!after.map(\.id).contains(before[1].id))
        #expect(after[2].id > before[2].id)  // ids are never reused
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func imagesAreReplacedOnReupsert(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        var draft = ProductDraft.mock(handle: "lamp", images: [ProductImage(url: "/a.svg"), ProductImage(url: "/b.svg")])
        _ = try stores.catalog.upsert([draft])
        draft.images = [ProductImage(url: "/c.svg", altText: "C")]
        let result = try stores.catalog.upsert([draft])
        #expect(result.imagesStored == 1)
        #expect(try stores.product("lamp").images == [ProductImage(url: "/c.svg", altText: "C")])
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func unpublishedProductsAreHiddenFromReadsButCounted(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "shown", category: "Lamps"),
            .mock(handle: "draft", category: "Lamps", isPublished: false),
            .mock(handle: "archived", category: "Hidden", isPublished: false),
        ])
        let page = try stores.catalog.products(ProductQuery())
        #expect(page.products.map(\.handle) == ["shown"])
        #expect(page.totalCount == 1)
        #expect(try stores.catalog.productByHandle("draft") == nil)
        #expect(try stores.catalog.productCount() == 3)

        let shown = try stores.product("shown")
        let lookup = try stores.catalog.productsByID([shown.id, Product.ID(shown.id.rawValue + 1), 999])
        #expect(Array(lookup.keys) == [shown.id])
        #expect(try stores.catalog.categories().map(\.category.name) == ["Lamps"])
        #expect(try stores.catalog.categoryByHandle("hidden")?.name == "Hidden")
    }

    /// The summaries are kept per catalog version (issue #13, point 5): a write shows at once.
    @Test(arguments: StoreKind.engines(for: .catalog))
    func categorySummariesFollowEveryCatalogWrite(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a", category: "Lamps")])
        #expect(try stores.catalog.categories().map(\.productCount) == [1])
        _ = try stores.catalog.upsert([.mock(handle: "b", category: "Lamps"), .mock(handle: "c", category: "Rugs")])
        #expect(try stores.catalog.categories().map { "\($0.category.name) \($0.productCount)" } == ["Lamps 2", "Rugs 1"])
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func categoriesListPublishedCountsByName(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let result = try stores.catalog.upsert([
            .mock(handle: "z1", category: "Zebras"),
            .mock(handle: "a1", category: "Apples"),
            .mock(handle: "a2", category: " apples "),
            .mock(handle: "a3", category: "Apples", isPublished: false),
            .mock(handle: "none"),
        ])
        #expect(result.categoriesCreated == 2)
        let summaries = try stores.catalog.categories()
        #expect(summaries.map(\.category.name) == ["Apples", "Zebras"])
        #expect(summaries.map(\.category.handle) == ["apples", "zebras"])
        #expect(summaries.map(\.productCount) == [2, 1])
        #expect(try stores.catalog.categoryByHandle("nope") == nil)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func productsFilterByCategory(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "c1", category: "Chairs"), .mock(handle: "t1", category: "Tables"),
            .mock(handle: "c2", category: "Chairs"),
        ])
        let chairs = try #require(try stores.catalog.categoryByHandle("chairs"))
        let page = try stores.catalog.products(ProductQuery(categoryID: chairs.id))
        #expect(page.products.map(\.handle) == ["c1", "c2"])
        #expect(page.totalCount == 2)
        #expect(page.products.allSatisfy { $0.categoryID == chairs.id && !$0.variants.isEmpty })
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func ratingSortPutsBestRatedFirstThenMostRatedThenUnrated(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "unrated"),
            .mock(handle: "good-few", rating: Rating(rateHundredths: 400, count: 3)),
            .mock(handle: "best", rating: Rating(rateHundredths: 480, count: 1)),
            .mock(handle: "good-many", rating: Rating(rateHundredths: 400, count: 90)),
            .mock(handle: "zero", rating: Rating(rateHundredths: 0, count: 0)),
        ])
        let page = try stores.catalog.products(ProductQuery(sort: .rating))
        #expect(page.products.map(\.handle) == ["best", "good-many", "good-few", "zero", "unrated"])
    }

    @Test(arguments: StoreKind.engines(for: .catalog), ProductQuery.Sort.allCases)
    func paginationIsStableWhenSortKeysTie(kind: StoreKind, sort: ProductQuery.Sort) throws {
        let stores = try StoreHarness(kind)
        let drafts = (1...30).map {
            ProductDraft.mock(handle: "same-\($0)", title: "Same title", rating: Rating(rateHundredths: 420, count: 7))
        }
        _ = try stores.catalog.upsert(drafts)
        let pages = try (0..<3).map { try stores.catalog.products(ProductQuery(sort: sort, offset: $0 * 12, limit: 12)) }
        #expect(pages.map(\.products.count) == [12, 12, 6])
        #expect(pages.allSatisfy { $0.totalCount == 30 })
        let ids = pages.flatMap { $0.products.map(\.id) }
        #expect(Set(ids).count == 30)
        #expect(ids == ids.sorted())  // ties broken by id
        let pastTheEnd = try stores.catalog.products(ProductQuery(sort: sort, offset: 30, limit: 12))
        #expect(pastTheEnd.products.isEmpty && pastTheEnd.totalCount == 30)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func failedUpsertWritesNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "existing", title: "Original", category: "Old")])
        let before = try stores.product("existing")

        let error = #expect(throws: CatalogStoreError.self) {
            try stores.catalog.upsert([
                .mock(handle: "existing", title: "Changed", category: "New", sourceLine: 2),
                .mock(handle: "fresh", category: "New", sourceLine: 3),
                .mock(handle: "fresh", sourceLine: 7),
            ])
        }
        #expect(error == .duplicateHandle("fresh", firstLine: 3, line: 7))
        #expect(error?.errorDescription?.contains("line 3") == true)
        #expect(try stores.product("existing") == before)
        #expect(try stores.catalog.productByHandle("fresh") == nil)
        #expect(try stores.catalog.productCount() == 1)
        #expect(try stores.catalog.categoryByHandle("new") == nil)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func invalidDraftsAreRefusedWithAClearError(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let cases: [(ProductDraft, CatalogStoreError)] = [
            (.mock(handle: "  ", sourceLine: 4), .emptyHandle(line: 4)),
            (.mock(handle: "empty", variants: [], sourceLine: 5), .noVariants(handle: "empty", line: 5)),
            (.mock(handle: "twins", variants: [.mock(options: ["M"]), .mock(options: ["m "])], sourceLine: 6),
             .duplicateVariantOptions(handle: "twins", optionValues: ["m "], line: 6)),
            (.mock(handle: "skus", variants: [.mock(sku: "X", options: ["A"]), .mock(sku: "X", options: ["B"])], sourceLine: 7),
             .duplicateSKU(handle: "skus", sku: "X", line: 7)),
            (.mock(handle: "euro", variants: [.mock(price: Money(minorUnits: 100, currency: .eur))], sourceLine: 8),
             .currencyMismatch(handle: "euro", expected: .usd, found: .eur, line: 8)),
            (.mock(handle: "neg", variants: [.mock(price: .usd(-1))], sourceLine: 9), .negativePrice(handle: "neg", line: 9)),
            (.mock(handle: "huge", variants: [.mock(price: .usd(VariantDraft.maximumPriceMinorUnits + 1))], sourceLine: 4),
             .priceTooLarge(handle: "huge", maximum: .usd(VariantDraft.maximumPriceMinorUnits), line: 4)),
            // A fresh tester's import of 9 223 372 036 854 775 807 units overflowed the back
            // office's sum of a product's stock (its list answered 500).
            (.mock(handle: "heap", variants: [.mock(inventory: .tracked(quantity: VariantDraft.maximumStock + 1, allowsBackorder: false))],
                   sourceLine: 3), .stockTooLarge(handle: "heap", line: 3)),
            (.mock(handle: "hole", variants: [.mock(inventory: .tracked(quantity: Int.min, allowsBackorder: true))], sourceLine: 2),
             .stockTooLarge(handle: "hole", line: 2)),
        ]
        for (draft, expected) in cases {
            let error = #expect(throws: CatalogStoreError.self) { try stores.catalog.upsert([draft]) }
            #expect(error == expected)
        }
        #expect(try stores.catalog.productCount() == 0)
    }

    @Test(arguments: StoreKind.engines(for: .catalog))
    func emptyQueriesReturnNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        #expect(try stores.catalog.products(ProductQuery()).products.isEmpty)
        #expect(try stores.catalog.productsByID([]).isEmpty)
        #expect(try stores.catalog.categories().isEmpty)
        #expect(try stores.catalog.upsert([]) == CatalogUpsertResult())
    }
}

@Suite("Category tiles")
struct CategoryImageContractTests {
    @Test(arguments: StoreKind.engines(for: .catalog))
    func categoryImageIsTheFirstPublishedProductsMainImage(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "no-image", category: "Lamps"),
            .mock(handle: "hidden", category: "Lamps", isPublished: false,
                  images: [ProductImage(url: "/hidden.svg")]),
            .mock(handle: "first", category: "Lamps",
                  images: [ProductImage(url: "/first-a.svg"), ProductImage(url: "/first-b.svg")]),
            .mock(handle: "second", category: "Lamps", images: [ProductImage(url: "/second.svg")]),
            .mock(handle: "bare", category: "Rugs"),
        ])
        let summaries = try stores.catalog.categories()
        #expect(summaries.map(\.imageURL) == ["/first-a.svg", nil])
    }
}
