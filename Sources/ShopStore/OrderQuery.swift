public import Foundation
public import ShopCore

/// Which orders the back office lists (issue #16): filters, each optional, and one page of them,
/// newest first.
public struct OrderQuery: Hashable, Sendable {
    public var status: OrderStatus?
    /// Placed at or after.
    public var placedFrom: Date?
    /// Placed before.
    public var placedBefore: Date?
    /// Part of the customer's email, without case.
    public var customer: String?
    /// The start of the order number, without case (`1042` finds `1042-KX7M`).
    public var number: String?
    /// Orders per page (1–500).
    public var limit: Int
    /// Orders skipped (a later page).
    public var offset: Int

    public init(status: OrderStatus? = nil, placedFrom: Date? = nil, placedBefore: Date? = nil, customer: String? = nil,
                number: String? = nil, limit: Int = 50, offset: Int = 0) {
        self.status = status
        self.placedFrom = placedFrom
        self.placedBefore = placedBefore
        self.customer = customer
        self.number = number
        self.limit = min(max(limit, 1), 500)
        self.offset = max(offset, 0)
    }

    /// Every order, one page (`orders list`).
    public static let everything = OrderQuery(limit: 500)

    /// The filters as one SQL condition on `orders`, with `?` placeholders and their values, the
    /// same on every engine (emails are stored lower-cased, numbers upper-cased; `LIKE` patterns
    /// escape `%`, `_` and `\` so what is typed is matched as typed).
    public var condition: (sql: String, values: [StoredValue]) {
        var parts: [String] = [], values: [StoredValue] = []
        if let status {
            parts.append("status = ?")
            values.append(.text(status.rawValue))
        }
        if let placedFrom {
            parts.append("placed_at >= ?")
            values.append(.integer(StoredTime.unixSeconds(placedFrom)))
        }
        if let placedBefore {
            parts.append("placed_at < ?")
            values.append(.integer(StoredTime.unixSeconds(placedBefore)))
        }
        if let customer = customer?.trimmingCharacters(in: .whitespaces), !customer.isEmpty {
            parts.append("email LIKE ? ESCAPE '\\'")
            values.append(.text("%" + Self.likeEscaped(customer.lowercased()) + "%"))
        }
        if let number = number?.trimmingCharacters(in: .whitespaces), !number.isEmpty {
            parts.append("number LIKE ? ESCAPE '\\'")
            values.append(.text(Self.likeEscaped(number.uppercased()) + "%"))
        }
        return (parts.isEmpty ? "1 = 1" : parts.joined(separator: " AND "), values)
    }

    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// One page of orders and how many match in all.
public struct OrderPage: Hashable, Sendable {
    public var orders: [Order]
    public var total: Int

    public init(orders: [Order], total: Int) {
        self.orders = orders
        self.total = total
    }
}
