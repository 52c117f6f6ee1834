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

/// What orders with one voucher code came to (the back office's campaign list, issue #16
/// point 5). Cancelled orders do not count; refunds are not taken off.
public struct VoucherUsage: Hashable, Sendable {
    /// Orders placed with the code and not cancelled.
    public var orders: Int
    /// Their totals, as paid (after the discount), in minor units of `currency`.
    public var revenueMinor: Int64
    /// What the code took off them, in minor units.
    public var discountMinor: Int64
    public var currency: String

    public init(orders: Int, revenueMinor: Int64, discountMinor: Int64, currency: String) {
        self.orders = orders
        self.revenueMinor = revenueMinor
        self.discountMinor = discountMinor
        self.currency = currency
    }
}

/// The few reads of the back office's dashboard that no other store answers (issue #16, point 7).
public struct DashboardStore: Sendable {
    /// Tracked, not backorderable variants of published products with at most `threshold` in
    /// stock, lowest first, at most `limit`.
    public var lowStock: @Sendable (_ threshold: Int, _ limit: Int) throws -> [LowStockVariant]
    /// Emails of the outbox not delivered yet after at least one failed attempt.
    public var failingEmails: @Sendable () throws -> Int
    /// Each voucher code's use so far, by code (upper case), summed in the database.
    public var voucherUsage: @Sendable () throws -> [String: VoucherUsage]

    public init(lowStock: @escaping @Sendable (Int, Int) throws -> [LowStockVariant],
                failingEmails: @escaping @Sendable () throws -> Int,
                voucherUsage: @escaping @Sendable () throws -> [String: VoucherUsage]) {
        self.lowStock = lowStock
        self.failingEmails = failingEmails
        self.voucherUsage = voucherUsage
    }

    /// The SQL of ``voucherUsage``, the same on every engine.
    public static let voucherUsageSQL = """
        SELECT voucher_code, currency, count(*), CAST(sum(total_minor) AS bigint), CAST(sum(discount_minor) AS bigint) FROM orders
        WHERE voucher_code IS NOT NULL AND status <> 'cancelled'
        GROUP BY voucher_code, currency ORDER BY voucher_code, currency
        """

    /// The rows of ``voucherUsageSQL`` by code (a shop sells in one currency; were a code's
    /// orders in two, the first is kept).
    public static func voucherUsage(_ rows: [some StoredRow]) throws -> [String: VoucherUsage] {
        var usage: [String: VoucherUsage] = [:]
        for row in rows {
            let code = try row.string(0)
            if usage[code] == nil {
                usage[code] = VoucherUsage(orders: Int(try row.int64(2)), revenueMinor: try row.int64(3),
                                           discountMinor: try row.int64(4), currency: try row.string(1))
            }
        }
        return usage
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
