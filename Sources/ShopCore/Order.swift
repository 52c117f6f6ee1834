public import Foundation

/// A way to ship an order, as the merchant configures it (shipping file, issue #5).
public struct ShippingMethod: Identifiable, Hashable, Sendable {
    public typealias ID = Tagged<ShippingMethod, String>
    public var id: ID
    /// What shoppers see, e.g. "Standard delivery (3–5 days)", in the merchant's languages.
    public var name: LocalizedText
    /// What it costs.
    public var price: Money
    /// Free when the (selected, discounted) cart total is at least this.
    public var freeAbove: Money?
    /// ISO 3166-1 alpha-2 codes it ships to; nil for everywhere.
    public var countries: Set<String>?

    public init(id: ID, name: LocalizedText, price: Money, freeAbove: Money? = nil, countries: Set<String>? = nil) {
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

/// Where an order is in its life (issues #5 and #16): awaiting payment → paid → fulfilled →
/// delivered, or cancelled before it leaves. `OrderStatus.transition(_:)` (OrderLifecycle.swift)
/// is the machine; `docs/ORDERS.md` draws it.
public enum OrderStatus: String, Hashable, Sendable, CaseIterable {
    /// Placed; stock taken; waiting for the shopper's bank transfer.
    case awaitingPayment = "awaiting_payment"
    /// Payment received.
    case paid
    /// Handed to the carrier, with a tracking number (shoppers read "shipped").
    case fulfilled
    /// The carrier delivered it.
    case delivered
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
    /// The values the shopper picked for the variant's open options (WooCommerce "any"); their
    /// values are also in `variantTitle`.
    public var chosen: ChosenValues
    /// Units refunded so far (issue #16: partial refunds); what they came to is
    /// `refunded` (OrderRefund.swift).
    public var refundedQuantity: Int

    public init(productID: Product.ID?, variantID: Variant.ID?, title: String, variantTitle: String, sku: String?,
                unitPrice: Money, quantity: Int, discount: Money, total: Money, chosen: ChosenValues = .none,
                refundedQuantity: Int = 0) {
        self.chosen = chosen
        self.refundedQuantity = refundedQuantity
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

/// An order priced but not placed: what would be bought and what it would cost. Each checkout
/// step shows one; placing the order re-decides it inside the order's transaction and, when it is
/// still what the shopper confirmed, stores it as the `Order`'s content.
public struct OrderQuote: Hashable, Sendable {
    /// The selected cart lines with their voucher shares (the titles and SKU are the catalog's at
    /// quoting; the placed order snapshots them again from the rows it reads).
    public var lines: [OrderLine]
    /// Sum of line amounts before discount.
    public var subtotal: Money
    /// Sum of the lines' voucher shares.
    public var discount: Money
    /// The applied voucher code (normalized), if any.
    public var voucherCode: String?
    /// The shipping method's name in the shopper's language at checkout (kept as placed).
    public var shippingMethodName: String
    public var shippingCost: Money
    /// `subtotal − discount + shippingCost`.
    public var total: Money

    /// Creates a quote from its parts (as stored with a placed order).
    public init(lines: [OrderLine], subtotal: Money, discount: Money, voucherCode: String?,
                shippingMethodName: String, shippingCost: Money, total: Money) {
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.voucherCode = voucherCode
        self.shippingMethodName = shippingMethodName
        self.shippingCost = shippingCost
        self.total = total
    }

    /// The order the selected lines of `cart` make with `shipping`: its cost is decided on the
    /// discounted goods total (`ShippingMethod.cost(forGoodsTotal:)`).
    ///
    /// The method's name is written in `language`, the shopper's at checkout, and kept so: an
    /// order shows the delivery the shopper chose, in the words they read when choosing it, even
    /// if the merchant later renames or removes the method (the order page, its email and the
    /// operator's `orders` command all read this one stored text).
    /// - Throws: `MoneyError` when the shipping price is in another currency or the sum overflows.
    public init(cart: CartQuote, shipping: ShippingMethod, language: Language) throws(MoneyError) {
        let cost = shipping.cost(forGoodsTotal: cart.total)
        self.init(lines: cart.selectedLines.map { line in
                      OrderLine(productID: line.product.id, variantID: line.variant.id, title: line.product.title,
                                variantTitle: line.variant.title, sku: line.variant.sku, unitPrice: line.unitPrice,
                                quantity: line.quantity, discount: line.discount, total: line.total,
                                chosen: line.item.chosen)
                  },
                  subtotal: cart.subtotal, discount: cart.discount,
                  voucherCode: cart.appliedCampaign?.voucherCode?.normalized,
                  shippingMethodName: shipping.name.text(in: language), shippingCost: cost, total: try cart.total.adding(cost))
    }

    /// What this order charges, line by line: compared between the review and "place order".
    public var charges: OrderCharges {
        OrderCharges(lines: lines.map {
                         OrderCharges.Line(variantID: $0.variantID?.rawValue, unitPrice: $0.unitPrice.minorUnits,
                                           quantity: $0.quantity, discount: $0.discount.minorUnits)
                     },
                     voucherCode: voucherCode, shippingCost: shippingCost.minorUnits, total: total.minorUnits,
                     currency: total.currency.code)
    }
}

/// The money side of an `OrderQuote` — lines, voucher, shipping and total, without titles — as
/// the review step showed it. Kept with the checkout in progress (JSON), so that "place order"
/// can tell whether anything the shopper is charged changed since.
public struct OrderCharges: Codable, Hashable, Sendable {
    public struct Line: Codable, Hashable, Sendable {
        public var variantID: Int64?
        /// Minor units.
        public var unitPrice: Int64
        public var quantity: Int
        /// Minor units.
        public var discount: Int64
    }

    public var lines: [Line]
    public var voucherCode: String?
    /// Minor units.
    public var shippingCost: Int64
    /// Minor units.
    public var total: Int64
    /// ISO 4217.
    public var currency: String
}

/// A placed order: who, where, when, and the quote the shopper confirmed.
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
    /// What was bought and what it cost, as placed.
    public var quote: OrderQuote
    /// The carrier and tracking number, once fulfilled.
    public var fulfilment: Fulfilment?
    /// The language the shopper placed it in: the emails about it are written in it (issue #16;
    /// orders placed before migration 28 are English).
    public var language: Language

    public init(id: ID, number: String, status: OrderStatus, placedAt: Date, userID: User.ID?, email: String,
                shippingAddress: Address, quote: OrderQuote, language: Language = .english) {
        self.language = language
        self.id = id
        self.number = number
        self.status = status
        self.placedAt = placedAt
        self.userID = userID
        self.email = email
        self.shippingAddress = shippingAddress
        self.quote = quote
    }

    public var lines: [OrderLine] { quote.lines }
    public var subtotal: Money { quote.subtotal }
    public var discount: Money { quote.discount }
    public var voucherCode: String? { quote.voucherCode }
    public var shippingMethodName: String { quote.shippingMethodName }
    public var shippingCost: Money { quote.shippingCost }
    public var total: Money { quote.total }
}
