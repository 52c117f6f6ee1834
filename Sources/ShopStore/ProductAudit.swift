public import Foundation
public import ShopCore

/// What a change of one product records in the audit log (issue #16, point 2): the product's
/// fields and each variant's (by position, named by SKU when it has one) that differ, decided
/// above the engines from the product read before the change and after it, in its transaction.
public enum ProductAudit {
    /// The entry of a change from `before` to `after`, or nil when nothing shown changed.
    public static func entry(before: ProductDraft, after: ProductDraft, actor: AuditActor, now: Date) -> AuditEntry? {
        let changes = changes(before: before, after: after)
        guard !changes.isEmpty else { return nil }
        return AuditEntry(at: now, actor: actor, subject: "product", subjectID: after.handle, action: "update", changes: changes)
    }

    /// The fields that differ, in the order a product page shows them; every field the product
    /// has when `before` is nil (a creation).
    public static func changes(before: ProductDraft?, after: ProductDraft) -> [AuditChange] {
        var changes: [AuditChange] = []
        func compare(_ field: String, _ old: String?, _ new: String?) {
            if old != new { changes.append(AuditChange(field: field, before: old, after: new)) }
        }
        compare("title", before?.title, after.title)
        compare("description", before?.descriptionHTML, after.descriptionHTML)
        compare("vendor", before?.vendor, after.vendor)
        compare("category", before?.categoryName, after.categoryName)
        compare("tags", before?.tags.joined(separator: ", "), after.tags.joined(separator: ", "))
        compare("published", before.map { String($0.isPublished) }, String(after.isPublished))
        let beforeImages = before?.images ?? [], beforeVariants = before?.variants ?? []
        let images = max(beforeImages.count, after.images.count)
        for index in 0..<images {
            let old = beforeImages.indices.contains(index) ? beforeImages[index] : nil
            let new = after.images.indices.contains(index) ? after.images[index] : nil
            compare("image \(index + 1)", old?.url, new?.url)
            compare("image \(index + 1) alt", old?.altText, new?.altText)
        }
        let variants = max(beforeVariants.count, after.variants.count)
        for index in 0..<variants {
            let old = beforeVariants.indices.contains(index) ? beforeVariants[index] : nil
            let new = after.variants.indices.contains(index) ? after.variants[index] : nil
            let name = "variant \((new?.sku ?? old?.sku).map { $0 } ?? String(index + 1))"
            compare("\(name) sku", old?.sku, new?.sku)
            compare("\(name) price", old.map { AuditChange.text($0.price) }, new.map { AuditChange.text($0.price) })
            compare("\(name) compareAtPrice", old?.compareAtPrice.map { AuditChange.text($0) }, new?.compareAtPrice.map { AuditChange.text($0) })
            compare("\(name) stock", old.map { stockText($0.inventory) }, new.map { stockText($0.inventory) })
        }
        return changes
    }

    /// Who a catalog write (`CatalogStore.upsertBy`, `insertProduct`) is recorded as, and how.
    public struct Context: Sendable {
        public var actor: AuditActor
        /// `import` for an upsert, `create` for an insert.
        public var action: String
        public var now: Date

        public init(actor: AuditActor, action: String, now: Date) {
            self.actor = actor
            self.action = action
            self.now = now
        }
    }

    /// Records a catalog write as an engine's upsert goes: each product written, from the
    /// product it replaces (nil for a new one) to its draft as stored, handed to `write` (the
    /// engine's insert, in the same transaction) 256 at a time, so an import of 30 000 products
    /// never holds their entries all at once.
    public final class Recorder {
        private let context: Context
        private let write: ([AuditEntry]) throws -> Void
        private var pending: [AuditEntry] = []

        public init(_ context: Context, write: @escaping ([AuditEntry]) throws -> Void) {
            self.context = context
            self.write = write
        }

        /// Records the write of `draft` over `replaced` (nil: a new product).
        public func record(replacing replaced: StoredProduct?, with draft: ProductDraft) throws {
            var after = draft
            after.variants = after.variants.map(CatalogUpsertRules.normalized)  // as a store keeps it
            let before = replaced.map { ProductDraft($0.product, categoryName: $0.categoryName) }
            let changes = ProductAudit.changes(before: before, after: after)
            guard !changes.isEmpty else { return }
            pending.append(AuditEntry(at: context.now, actor: context.actor, subject: "product", subjectID: draft.handle,
                                      action: context.action, changes: changes))
            if pending.count >= 256 { try finish() }
        }

        /// Writes what is still pending; the engine calls it before its transaction commits.
        public func finish() throws {
            guard !pending.isEmpty else { return }
            try write(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    private static func stockText(_ inventory: Inventory) -> String {
        switch inventory {
        case .untracked: "untracked"
        case let .tracked(quantity, allowsBackorder): allowsBackorder ? "\(quantity) (backorder)" : String(quantity)
        }
    }
}

/// What `CatalogStore.changeProductsBy` does inside an engine's write transaction, decided once
/// above the engines: read each product, let `change` make its next draft (under its own
/// handle), write them all together, and audit each product that changed.
public enum ProductChangeBatch {
    /// - Parameters:
    ///   - read: the product with this id as stored now, or nil.
    ///   - write: writes the drafts (with `upsert`'s checks and rules).
    ///   - audit: inserts the audit entries.
    /// - Returns: the products after the change, in the order of `ids`; unknown ids left out.
    public static func run(_ ids: [Product.ID], actor: AuditActor, now: Date,
                           read: (Product.ID) throws -> StoredProduct?,
                           write: ([ProductDraft]) throws -> Void,
                           audit: ([AuditEntry]) throws -> Void,
                           change: (ProductDraft) throws -> ProductDraft) throws -> [StoredProduct] {
        var befores: [(id: Product.ID, draft: ProductDraft)] = [], changed: [ProductDraft] = []
        for id in ids {
            guard let stored = try read(id) else { continue }
            let before = ProductDraft(stored.product, categoryName: stored.categoryName)
            var next = try change(before)
            next.handle = stored.product.handle
            befores.append((id, before))
            changed.append(next)
        }
        guard !changed.isEmpty else { return [] }
        try write(changed)
        var result: [StoredProduct] = [], entries: [AuditEntry] = []
        for (id, before) in befores {
            guard let after = try read(id) else { continue }
            if let entry = ProductAudit.entry(before: before, after: ProductDraft(after.product, categoryName: after.categoryName),
                                              actor: actor, now: now) {
                entries.append(entry)
            }
            result.append(after)
        }
        try audit(entries)
        return result
    }
}
