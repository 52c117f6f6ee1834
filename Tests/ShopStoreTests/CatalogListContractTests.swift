import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The back office's product reads and audited product changes on every engine (issue #16,
/// point 4).
@Suite("Catalog list contract")
struct CatalogListContractTests {
    @Test(arguments: StoreKind.engines(for: [.catalog, .orders]))
    func theListFindsPublishedAndUnpublishedProductsByTextVisibilityAndCategory(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()  // chair (CHAIR-1, 10 tracked), lamp (untracked), mug (3 tracked), poster (0 tracked)
        _ = try stores.catalog.upsert([.mock(handle: "old-100%-mug", title: "Old Mug", category: "Kitchen", isPublished: false,
                                             variants: [.mock(sku: "OLD_1", price: .usd(3_00))])])
        let all = try stores.catalog.findProducts(CatalogListQuery())
        #expect(all.total == 5 && all.rows.first?.handle == "old-100%-mug", "newest first")
        let chair = try #require(all.rows.first { $0.handle == "chair" })
        #expect(chair.title == "Oak Chair" && chair.isPublished && chair.lowestPriceMinor == 49_90 && chair.variantCount == 1)
        #expect(chair.trackedStock == 10 && all.rows.first { $0.handle == "lamp" }?.trackedStock == nil)
        #expect(try stores.catalog.findProducts(CatalogListQuery(visibility: .unpublished)).rows.map(\.handle) == ["old-100%-mug"])
        #expect(try stores.catalog.findProducts(CatalogListQuery(visibility: .published)).total == 4)
        #expect(try stores.catalog.findProducts(CatalogListQuery(text: "mug-1")).rows.map(\.handle) == ["mug"], "by SKU, any case")
        #expect(try stores.catalog.findProducts(CatalogListQuery(text: "OAK")).rows.map(\.handle) == ["chair"])
        #expect(try stores.catalog.findProducts(CatalogListQuery(text: "100%")).rows.map(\.handle) == ["old-100%-mug"])
        #expect(try stores.catalog.findProducts(CatalogListQuery(text: "d_1")).rows.map(\.handle) == ["old-100%-mug"], "_ as typed")
        #expect(try stores.catalog.findProducts(CatalogListQuery(text: "o_d")).total == 0)
        let kitchen = try stores.catalog.findProducts(CatalogListQuery(categoryHandle: "kitchen"))
        #expect(kitchen.rows.map(\.handle) == ["old-100%-mug"] && kitchen.rows[0].categoryName == "Kitchen")
        let page = try stores.catalog.findProducts(CatalogListQuery(limit: 2, offset: 4))
        #expect(page.total == 5 && page.rows.count == 1)
        let unpublished = try #require(try stores.catalog.findProducts(CatalogListQuery(visibility: .unpublished)).rows.first)
        #expect(try stores.catalog.storedProduct(unpublished.id)?.product.title == "Old Mug", "unpublished products are read too")
        #expect(try stores.catalog.storedProduct(Product.ID(999_999)) == nil)
    }

    /// A product change is audited in its transaction as its actor's, field by field; a change
    /// that changes nothing and a refused change leave no entry.
    @Test(arguments: StoreKind.engines(for: [.catalog, .orders]))
    func aProductChangeIsAuditedFieldByField(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        let (chair, _) = try stores.variant("chair")
        let actor = AuditActor.staff("ada@shop.test")
        _ = try stores.catalog.changeProduct(chair.id, by: actor, now: Fixtures.start) { draft in
            var next = draft
            next.title = "Oak Chair II"
            next.variants[0].price = .usd(55_00)
            next.variants[0].inventory = .tracked(quantity: 7, allowsBackorder: false)
            return next
        }
        _ = try stores.catalog.changeProduct(chair.id, by: actor, now: Fixtures.start) { $0 }
        #expect(throws: CatalogStoreError.self) {
            try stores.catalog.changeProduct(chair.id, by: actor, now: Fixtures.start) { draft in
                var next = draft
                next.variants[0].sku = "MUG-1"  // the mug's
                return next
            }
        }
        let entries = try stores.audit.entries(AuditQuery(source: .backOffice, subject: "product")).entries
        #expect(entries.count == 1)
        #expect(entries.first?.actor == "ada@shop.test" && entries.first?.source == .backOffice && entries.first?.subjectID == "chair")
        #expect(entries.first?.changes == [
            AuditChange(field: "title", before: "Oak Chair", after: "Oak Chair II"),
            AuditChange(field: "variant CHAIR-1 price", before: "4990 USD minor units", after: "5500 USD minor units"),
            AuditChange(field: "variant CHAIR-1 stock", before: "10", after: "7"),
        ])
    }

    /// A bulk change writes every product or none: one product whose change breaks a catalog
    /// rule (a SKU another has) leaves all of them as they were.
    @Test(arguments: StoreKind.engines(for: [.catalog, .orders]))
    func aBulkChangeIsAllOrNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        let (chair, _) = try stores.variant("chair"), (mug, _) = try stores.variant("mug")
        let actor = AuditActor.staff("ada@shop.test")
        #expect(throws: CatalogStoreError.self) {
            try stores.catalog.changeProductsBy([chair.id, mug.id], actor, Fixtures.start) { draft in
                var next = draft
                next.variants[0].price = .usd(1_00)
                if draft.handle == "mug" { next.variants[0].sku = "CHAIR-1" }
                return next
            }
        }
        #expect(try stores.variant("chair").variant.price == .usd(49_90) && stores.variant("mug").variant.price == .usd(5_00))
        let changed = try stores.catalog.changeProductsBy([chair.id, mug.id, Product.ID(999_999)], actor, Fixtures.start) { draft in
            var next = draft
            next.variants[0].price = .usd(1_00)
            return next
        }
        #expect(changed.map(\.product.handle) == ["chair", "mug"], "an unknown id is left out")
        #expect(try stores.audit.entries(AuditQuery(source: .backOffice, subject: "product")).total == 2)
    }

    /// An import writes an `import` entry per product it creates or changes, in its transaction,
    /// as its actor's; an unchanged product, a preview and a refused file leave none.
    @Test(arguments: StoreKind.engines(for: [.catalog, .orders]))
    func anImportIsAuditedProductByProduct(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let ada = AuditActor.staff("ada@shop.test")
        let stool = ProductDraft.mock(handle: "stool", title: "Stool", category: "Chairs",
                                      variants: [.mock(sku: "STOOL-1", price: .usd(20_00), compareAt: .usd(10_00))])
        let desk = ProductDraft.mock(handle: "desk", title: "Desk", variants: [.mock(sku: "DESK-1", price: .usd(90_00))])
        try stores.catalog.upsert([stool, desk], by: ada, now: Fixtures.start)
        var entries = try stores.audit.entries(AuditQuery(subject: "product")).entries
        #expect(Set(entries.map(\.subjectID)) == ["stool", "desk"] && entries.allSatisfy { $0.action == "import" && $0.actor == ada.name })
        let created = try #require(entries.first { $0.subjectID == "stool" })
        #expect(created.changes.contains(AuditChange(field: "title", before: nil, after: "Stool")))
        #expect(created.changes.contains(AuditChange(field: "category", before: nil, after: "Chairs")))
        #expect(created.changes.contains(AuditChange(field: "variant STOOL-1 price", before: nil, after: "2000 USD minor units")))
        #expect(!created.changes.contains { $0.field.hasSuffix("compareAtPrice") }, "a compare-at price below the price is not kept")

        var renamed = stool
        renamed.title = "Bar Stool"
        renamed.categoryName = "chairs"  // the same category, spelt as the file spells it
        _ = try stores.catalog.previewUpsert([renamed])
        try stores.catalog.upsert([renamed, desk], by: .cli, now: Fixtures.start.addingTimeInterval(60))
        entries = try stores.audit.entries(AuditQuery(source: .cli)).entries
        #expect(entries.count == 1, "the unchanged desk and the preview leave no entry")
        #expect(entries.first?.subjectID == "stool" && entries.first?.changes == [AuditChange(field: "title", before: "Stool", after: "Bar Stool")])

        var clash = desk
        clash.title = "Standing Desk"
        clash.variants[0].sku = "STOOL-1"
        #expect(throws: CatalogStoreError.self) { try stores.catalog.upsert([clash, .mock(handle: "desk-2", variants: [.mock(sku: "STOOL-1")])], by: .cli) }
        #expect(try stores.audit.entries(AuditQuery(source: .cli)).total == 1, "a refused import records nothing")

        _ = try stores.catalog.insertProduct(.mock(handle: "lamp", title: "Lamp", variants: [.mock(sku: "LAMP-1")]),
                                             AuditActor(name: "op@shop.test", source: .api), Fixtures.start, nil)
        let insert = try #require(try stores.audit.entries(AuditQuery(source: .api)).entries.first)
        #expect(insert.action == "create" && insert.subjectID == "lamp" && insert.actor == "op@shop.test")
    }

    /// A large import (past the bulk-write path and several batches of entries) records each
    /// product once.
    @Test(arguments: StoreKind.engines(for: [.catalog, .orders]))
    func aLargeImportRecordsEveryProductOnce(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let drafts = (0..<600).map { ProductDraft.mock(handle: "p\($0)", variants: [.mock(sku: "P\($0)")]) }
        try stores.catalog.upsert(drafts, by: .cli)
        let entries = try stores.audit.entries(AuditQuery(source: .cli, limit: 500)).entries
        #expect(try stores.audit.entries(AuditQuery(source: .cli)).total == 600)
        #expect(Set(entries.map(\.subjectID)).count == 500)
    }
}
