public import Foundation
public import ShopCore

/// The back office's product list (issue #16, point 4): every product, published or not,
/// filtered and a page at a time, summed in the database — not the storefront's search, which
/// shows only what shoppers may see.
public struct CatalogListQuery: Hashable, Sendable {
    /// Published, unpublished, or both.
    public enum Visibility: String, CaseIterable, Hashable, Sendable {
        case all, published, unpublished
    }

    /// Part of the title, the handle or a variant's SKU (case-insensitive for ASCII letters).
    public var text: String
    public var visibility: Visibility
    /// A category's handle; empty for every category.
    public var categoryHandle: String
    public var limit: Int
    public var offset: Int

    public init(text: String = "", visibility: Visibility = .all, categoryHandle: String = "", limit: Int = 50, offset: Int = 0) {
        self.text = text
        self.visibility = visibility
        self.categoryHandle = categoryHandle
        self.limit = min(max(limit, 1), 500)
        self.offset = max(offset, 0)
    }

    /// The `WHERE` condition with `?` placeholders, the same on every engine but for how a
    /// boolean column is true (`isTrue`); LIKE patterns escaped so `%` and `_` match as typed.
    public func condition(isTrue: (String) -> String) -> (sql: String, values: [StoredValue]) {
        var parts: [String] = [], values: [StoredValue] = []
        let text = text.trimmedOfWhiteSpace
        if !text.isEmpty {
            let pattern = StoredValue.text("%" + OrderQuery.likeEscaped(text.lowercased()) + "%")
            parts.append("""
                (lower(p.title) LIKE ? ESCAPE '\\' OR p.handle LIKE ? ESCAPE '\\'
                 OR EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id AND lower(v.sku) LIKE ? ESCAPE '\\'))
                """)
            values += [pattern, pattern, pattern]
        }
        switch visibility {
        case .all: break
        case .published: parts.append(isTrue("p.is_published"))
        case .unpublished: parts.append("NOT " + isTrue("p.is_published"))
        }
        if !categoryHandle.isEmpty {
            parts.append("c.handle = ?")
            values.append(.text(categoryHandle))
        }
        return (parts.isEmpty ? "1 = 1" : parts.joined(separator: " AND "), values)
    }

    /// The page's SQL (condition values, then limit and offset), newest product first.
    public func pageSQL(isTrue: (String) -> String) -> (sql: String, count: String, values: [StoredValue]) {
        let condition = condition(isTrue: isTrue)
        let from = "FROM products p LEFT JOIN categories c ON c.id = p.category_id WHERE \(condition.sql)"
        let sql = """
            SELECT p.id, p.handle, p.title, p.is_published, c.name, p.min_price_minor,
                   (SELECT count(*) FROM variants v WHERE v.product_id = p.id),
                   (SELECT CAST(sum(v.stock) AS bigint) FROM variants v WHERE v.product_id = p.id AND \(isTrue("v.inventory_tracked")))
            \(from) ORDER BY p.id DESC LIMIT ? OFFSET ?
            """
        return (sql, "SELECT count(*) \(from)", condition.values + [.integer(Int64(limit)), .integer(Int64(offset))])
    }

    /// A row of ``pageSQL(isTrue:)``.
    public static func row(_ row: some StoredRow) throws -> CatalogListRow {
        CatalogListRow(id: Product.ID(try row.int64(0)), handle: try row.string(1), title: try row.string(2),
                       isPublished: try row.bool(3), categoryName: try row.optionalString(4),
                       lowestPriceMinor: try row.optionalInt64(5), variantCount: Int(try row.int64(6)),
                       trackedStock: try row.optionalInt64(7).map { Int($0) })
    }
}

/// One product of the back office's list.
public struct CatalogListRow: Hashable, Sendable {
    public var id: Product.ID
    public var handle: String
    public var title: String
    public var isPublished: Bool
    public var categoryName: String?
    /// Minor units of the shop currency; nil without variants.
    public var lowestPriceMinor: Int64?
    public var variantCount: Int
    /// The stock of its tracked variants together; nil when none is tracked.
    public var trackedStock: Int?

    public init(id: Product.ID, handle: String, title: String, isPublished: Bool, categoryName: String?, lowestPriceMinor: Int64?,
                variantCount: Int, trackedStock: Int?) {
        self.id = id
        self.handle = handle
        self.title = title
        self.isPublished = isPublished
        self.categoryName = categoryName
        self.lowestPriceMinor = lowestPriceMinor
        self.variantCount = variantCount
        self.trackedStock = trackedStock
    }
}

/// A page of the list and how many products match.
public struct CatalogListPage: Hashable, Sendable {
    public var rows: [CatalogListRow]
    public var total: Int

    public init(rows: [CatalogListRow], total: Int) {
        self.rows = rows
        self.total = total
    }
}

extension CatalogStore {
    /// The currency of the catalog's stored prices, read from one product (one catalog holds one
    /// currency: imports and the server refuse another, `CatalogImportService` and `serve`), or
    /// nil for a catalog without products.
    public func storedCurrency() throws -> Currency? {
        guard let row = try findProducts(CatalogListQuery(limit: 1)).rows.first else { return nil }
        return try storedProduct(row.id)?.product.variants.first?.price.currency
    }
}
