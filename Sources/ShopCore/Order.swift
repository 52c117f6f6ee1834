public import Foundation

/// A way to ship an order, as the merchant configures it (shipping file, issue #5).
public struct ShippingMethod: Identifiable, Hashable, Sendable {
    public typealias ID = Tagged<ShippingMethod, String>
    public var id: ID
    public var name: String
    /// What it costs.
    public var price: Money
    /// Free when the (selected, discounted) cart total is at least this.
    public var freeAbove: Money?
    /// ISO 3166-1 alpha-2 codes it ships to; nil for everywhere.
    public var countries: Set<String>?

    public init(id: ID, name: String, price: Money, freeAbove: Money? = nil, countries: Set<String>? = nil) {
        self.id = id
        self.name = name
        self.price = price
        self.freeAbove = freeAbove
        self.countries = countries
    }

    /// `true` when it ships to `countryCode`.
    public func ships(to countryCode: String) -> Bool { countries?.contains(countryCode) ?? true }

    /// The cost for an order whose goods total `amount`.
    public func cost(forGoodsTotal amount: Money) -> Money {
        if let freeAbove, amount.currency == freeAbove.currency, amount.minorUnits >= freeAbove.minorUnits {
            return .zero(price.currency)
        }
        return price
    }
}

/// Where an order is in its life (issue #5; payment comes later through a `PaymentProvider`).
public enum OrderStatus: String, Hashable, Sendable, CaseIterable {
    /// Placed; stock taken; waiting for the shopper's bank transfer.
    case awaitingPayment = "awaiting_payment"
    /// Payment received.
    case paid
    /// Handed to the carrier.
    case shipped
    /// Cancelled; its stock went back.
    case cancelled
}

/// What was bought on one line, copied when the order was placed so later catalog edits (or
/// deletions) never change a past order.
public struct OrderLine: Hashable, Sendable {
    public var productID: Product.ID?
    public var variantID: Variant.ID?
    public var title: String
    /// Option values joined ("M / Red"); empty without options.
    public var variantTitle: String
    public var sku: String?
    public var unitPrice: Money
    public var quantity: Int
    /// This line's share of the voucher discount.
    public var discount: Money
    /// `unitPrice × quantity − discount`.
    public var total: Money

    public init(productID: Product.ID?, variantID: Variant.ID?, title: String, variantTitle: String, sku: String?,
                unitPrice: Money, quantity: Int, discount: Money, total: Money) {
        self.productID = productID
        self.variantID = variantID
        self.title = title
        self.variantTitle = variantTitle
        self.sku = sku
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.discount = discount
        self.total = total
    }
}

/// A placed order.
public struct Order: Identifiable, Hashable, Sendable {
    public typealias ID = Tagged<Order, Int64>
    public var id: ID
    /// Human-friendly and unique, e.g. `"1042-KX7M"`: shown to shoppers and operators.
    public var number: String
    public var status: OrderStatus
    public var placedAt: Date
    /// The account, or nil for a guest order.
    public var userID: User.ID?
    /// Where confirmations go.
    public var email: String
    public var shippingAddress: Address
    public var shippingMethodName: String
    public var shippingCost: Money
    public var lines: [OrderLine]
    /// Sum of line amounts before discount.
    public var subtotal: Money
    public var discount: Money
    /// The voucher code used, if any.
    public var voucherCode: String?
    /// `subtotal − discount + shippingCost`.
    public var total: Money

    public init(id: ID, number: String, status: OrderStatus, placedAt: Date, userID: User.ID?, email: String,
                shippingAddress: Address, shippingMethodName: String, shippingCost: Money, lines: [OrderLine],
                subtotal: Money, discount: Money, voucherCode: String?, total: Money) {
        self.id = id
        self.number = number
        self.status = status
        self.placedAt = placedAt
        self.userID = userID
        self.email = email
        self.shippingAddress = shippingAddress
        self.shippingMethodName = shippingMethodName
        self.shippingCost = shippingCost
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.voucherCode = voucherCode
        self.total = total
    }
}
