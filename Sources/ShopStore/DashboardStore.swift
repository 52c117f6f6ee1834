public import Foundation
public import ShopCore

/// A tracked variant running low, for the dashboard.
public struct LowStockVariant: Hashable, Sendable {
    public var productTitle: String
    public var handle: String
    public var sku: String?
    public var stock: Int

    public init(productTitle: String, handle: String, sku: String?, stock: Int) {
        self.productTitle = productTitle
        self.handle = handle
        self.sku = sku
        self.stock = stock
    }
}

/// The few reads of the back office's dashboard that no other store answers (issue #16, point 7).
public struct DashboardStore: Sendable {
    /// Tracked, not backorderable variants of published products with at most `threshold` in
    /// stock, lowest first, at most `limit`.
    public var lowStock: @Sendable (_ threshold: Int, _ limit: Int) throws -> [LowStockVariant]
    /// Emails of the outbox not delivered yet after at least one failed attempt.
    public var failingEmails: @Sendable () throws -> Int

    public init(lowStock: @escaping @Sendable (Int, Int) throws -> [LowStockVariant],
                failingEmails: @escaping @Sendable () throws -> Int) {
        self.lowStock = lowStock
        self.failingEmails = failingEmails
    }

    /// The SQL of ``lowStock`` with `?` placeholders (threshold, limit), the same on every engine
    /// but for how a boolean column is true (`isTrue`).
    public static func lowStockSQL(isTrue: (String) -> String) -> String {
        """
        SELECT p.title, p.handle, v.sku, v.stock FROM variants v JOIN products p ON p.id = v.product_id
        WHERE \(isTrue("v.inventory_tracked")) AND NOT \(isTrue("v.allow_backorder")) AND \(isTrue("p.is_published"))
          AND v.stock <= ?
        ORDER BY v.stock, p.title, v.id LIMIT ?
        """
    }

    /// The SQL of ``failingEmails``.
    public static let failingEmailsSQL = "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND attempts > 0"

    /// A row of ``lowStockSQL(isTrue:)``.
    public static func lowStockVariant(_ row: some StoredRow) throws -> LowStockVariant {
        LowStockVariant(productTitle: try row.string(0), handle: try row.string(1), sku: try row.optionalString(2),
                        stock: Int(try row.int64(3)))
    }
}
