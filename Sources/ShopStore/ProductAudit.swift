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

    /// The fields that differ, in the order a product page shows them.
    public static func changes(before: ProductDraft, after: ProductDraft) -> [AuditChange] {
        var changes: [AuditChange] = []
        func compare(_ field: String, _ old: String?, _ new: String?) {
            if old != new { changes.append(AuditChange(field: field, before: old, after: new)) }
        }
        compare("title", before.title, after.title)
        compare("description", before.descriptionHTML, after.descriptionHTML)
        compare("vendor", before.vendor, after.vendor)
        compare("category", before.categoryName, after.categoryName)
        compare("tags", before.tags.joined(separator: ", "), after.tags.joined(separator: ", "))
        compare("published", String(before.isPublished), String(after.isPublished))
        let images = max(before.images.count, after.images.count)
        for index in 0..<images {
            let old = before.images.indices.contains(index) ? before.images[index] : nil
            let new = after.images.indices.contains(index) ? after.images[index] : nil
            compare("image \(index + 1)", old?.url, new?.url)
            compare("image \(index + 1) alt", old?.altText, new?.altText)
        }
        let variants = max(before.variants.count, after.variants.count)
        for index in 0..<variants {
            let old = before.variants.indices.contains(index) ? before.variants[index] : nil
            let new = after.variants.indices.contains(index) ? after.variants[index] : nil
            let name = "variant \((new?.sku ?? old?.sku).map { $0 } ?? String(index + 1))"
            compare("\(name) sku", old?.sku, new?.sku)
            compare("\(name) price", old.map { AuditChange.text($0.price) }, new.map { AuditChange.text($0.price) })
            compare("\(name) compareAtPrice", old?.compareAtPrice.map { AuditChange.text($0) }, new?.compareAtPrice.map { AuditChange.text($0) })
            compare("\(name) stock", old.map { stockText($0.inventory) }, new.map { stockText($0.inventory) })
        }
        return changes
    }

    private static func stockText(_ inventory: Inventory) -> String {
        switch inventory {
        case .untracked: "untracked"
        case let .tracked(quantity, allowsBackorder): allowsBackorder ? "\(quantity) (backorder)" : String(quantity)
        }
    }
}
