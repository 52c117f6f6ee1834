public import Foundation

/// A postal address on the wire (`ShopCore.Address`), in both directions: the body of
/// `PUT /api/v1/checkout/address` sends one, checkouts and orders answer with one.
public struct V1Address: Codable, Hashable, Sendable {
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    /// An email for the carrier (optional; not where the order confirmation goes).
    public var email: String?
    public var line1: String?
    public var line2: String?
    public var city: String?
    public var postalCode: String?
    public var region: String?
    /// ISO 3166-1 alpha-2 (`US`, `TR`).
    public var country: String?

    public init(firstName: String? = nil, lastName: String? = nil, phone: String? = nil, email: String? = nil,
                line1: String? = nil, line2: String? = nil, city: String? = nil, postalCode: String? = nil,
                region: String? = nil, country: String? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.email = email
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.postalCode = postalCode
        self.region = region
        self.country = country
    }
}

/// The body of `PUT /api/v1/checkout/address`: a saved address of the account
/// (`savedAddressId`) or one typed in (`address`); `email` is where a guest's confirmation goes.
public struct V1CheckoutAddress: Codable, Hashable, Sendable {
    public var address: V1Address?
    public var savedAddressId: Int64?
    /// Required for guests; ignored for accounts (their account email is used).
    public var email: String?
    /// Accounts only: save the typed address to the address book when the order is placed.
    public var saveAddress: Bool?

    public init(address: V1Address? = nil, savedAddressId: Int64? = nil, email: String? = nil, saveAddress: Bool? = nil) {
        self.address = address
        self.savedAddressId = savedAddressId
        self.email = email
        self.saveAddress = saveAddress
    }
}

/// The body of `PUT /api/v1/checkout/shipping`.
public struct V1ShippingChoice: Codable, Hashable, Sendable {
    /// A shipping method id from `shippingOptions`.
    public var method: String

    public init(method: String) { self.method = method }
}

/// A shipping method that ships to the checkout's address, with its cost for this cart.
public struct V1ShippingOption: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var cost: V1Money

    public init(id: String, name: String, cost: V1Money) {
        self.id = id
        self.name = name
        self.cost = cost
    }
}

/// One line of an order or of a checkout quote.
public struct V1OrderLine: Codable, Hashable, Sendable {
    /// nil when the product was deleted after the order.
    public var productId: Int64?
    public var variantId: Int64?
    public var title: String
    public var variantTitle: String
    public var sku: String?
    public var unitPrice: V1Money
    public var quantity: Int
    /// This line's share of the voucher discount.
    public var discount: V1Money
    /// `unitPrice × quantity − discount`.
    public var total: V1Money
    /// The values the shopper picked for the variant's open options (WooCommerce "any"), as
    /// placed; left out for other lines.
    public var chosenValues: [V1ChosenValue]?
    /// On an order's lines: how many of the units have been refunded (0 to `quantity`); left out
    /// of a checkout quote's.
    public var refundedQuantity: Int?

    public init(productId: Int64?, variantId: Int64?, title: String, variantTitle: String, sku: String?,
                unitPrice: V1Money, quantity: Int, discount: V1Money, total: V1Money, chosenValues: [V1ChosenValue]? = nil,
                refundedQuantity: Int? = nil) {
        self.chosenValues = chosenValues
        self.refundedQuantity = refundedQuantity
        self.productId = productId
        self.variantId = variantId
        self.title = title
        self.variantTitle = variantTitle
        self.sku = sku
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.discount = discount
        self.total = total
    }
}

/// The order the checkout would place now (`CheckoutQuote`): the review page's numbers.
public struct V1CheckoutQuote: Codable, Hashable, Sendable {
    public var lines: [V1OrderLine]
    public var subtotal: V1Money
    public var discount: V1Money
    /// The applied voucher code, if any.
    public var voucherCode: String?
    public var shippingMethod: V1ShippingOption
    /// `subtotal − discount + shippingMethod.cost`.
    public var total: V1Money
    public var address: V1Address

    public init(lines: [V1OrderLine], subtotal: V1Money, discount: V1Money, voucherCode: String?,
                shippingMethod: V1ShippingOption, total: V1Money, address: V1Address) {
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.voucherCode = voucherCode
        self.shippingMethod = shippingMethod
        self.total = total
        self.address = address
    }
}

/// `GET /api/v1/checkout` (and the answer of every checkout step): what is chosen, what can be
/// chosen, and the order it makes once complete.
public struct V1Checkout: Codable, Hashable, Sendable {
    /// Guests: where the confirmation goes, once given.
    public var email: String?
    /// The address shipped to, once chosen and valid.
    public var address: V1Address?
    public var savedAddressId: Int64?
    /// The chosen shipping method's id.
    public var shippingMethod: String?
    /// The methods that ship to `address`, with their costs for this cart (empty without an address).
    public var shippingOptions: [V1ShippingOption]
    /// The order as it would be placed now; nil until the address, the shipping method and at
    /// least one selected cart line are there.
    public var quote: V1CheckoutQuote?
    /// The step the client shows next: `cart`, `address`, `shipping`, `review`.
    public var nextStep: String
    /// After `POST /api/v1/checkout/review`: how long the stock is held.
    public var heldUntil: Date?

    public init(email: String?, address: V1Address?, savedAddressId: Int64?, shippingMethod: String?,
                shippingOptions: [V1ShippingOption], quote: V1CheckoutQuote?, nextStep: String, heldUntil: Date? = nil) {
        self.email = email
        self.address = address
        self.savedAddressId = savedAddressId
        self.shippingMethod = shippingMethod
        self.shippingOptions = shippingOptions
        self.quote = quote
        self.nextStep = nextStep
        self.heldUntil = heldUntil
    }
}

/// A placed order.
public struct V1Order: Codable, Hashable, Sendable {
    /// Human-friendly and unique (`1042-KX7M`): `GET /api/v1/orders/{number}`.
    public var number: String
    /// `awaiting_payment`, `paid`, `fulfilled`, `delivered` or `cancelled` (docs/ORDERS.md).
    public var status: String
    public var placedAt: Date
    /// Where confirmations go.
    public var email: String
    public var shippingAddress: V1Address
    public var lines: [V1OrderLine]
    public var subtotal: V1Money
    public var discount: V1Money
    public var voucherCode: String?
    public var shippingMethod: String
    public var shippingCost: V1Money
    public var total: V1Money
    /// Only in the answer to a guest's `POST /api/v1/orders`: the secret that reads this order
    /// later (`GET /api/v1/orders/{number}?token=`), also in the confirmation email's link.
    public var guestToken: String?
    /// Once fulfilled: who carries it and its tracking number.
    public var fulfilment: V1Fulfilment?
    /// What the shop has refunded of the lines so far (zero when nothing): the sum of each line's
    /// share for its `refundedQuantity`. Shipping is not refunded with lines; a cancelled paid
    /// order's refund of its whole total is owed, not counted here (docs/ORDERS.md).
    public var refunded: V1Money?

    public init(number: String, status: String, placedAt: Date, email: String, shippingAddress: V1Address,
                lines: [V1OrderLine], subtotal: V1Money, discount: V1Money, voucherCode: String?, shippingMethod: String,
                shippingCost: V1Money, total: V1Money, guestToken: String? = nil, fulfilment: V1Fulfilment? = nil,
                refunded: V1Money? = nil) {
        self.fulfilment = fulfilment
        self.refunded = refunded
        self.number = number
        self.status = status
        self.placedAt = placedAt
        self.email = email
        self.shippingAddress = shippingAddress
        self.lines = lines
        self.subtotal = subtotal
        self.discount = discount
        self.voucherCode = voucherCode
        self.shippingMethod = shippingMethod
        self.shippingCost = shippingCost
        self.total = total
        self.guestToken = guestToken
    }
}

/// How a fulfilled order travels.
public struct V1Fulfilment: Codable, Hashable, Sendable {
    public var carrier: String
    public var trackingNumber: String

    public init(carrier: String, trackingNumber: String) {
        self.carrier = carrier
        self.trackingNumber = trackingNumber
    }
}

/// `GET /api/v1/orders`.
public struct V1Orders: Codable, Hashable, Sendable {
    /// Newest first.
    public var orders: [V1Order]

    public init(orders: [V1Order]) { self.orders = orders }
}

/// How many of a variant the shopper can still have (after `insufficient_stock`) or keeps
/// holding (after `hold_trimmed`).
public struct V1StockLeft: Codable, Hashable, Sendable {
    public var variantId: Int64
    public var title: String
    public var requested: Int
    public var available: Int

    public init(variantId: Int64, title: String, requested: Int, available: Int) {
        self.variantId = variantId
        self.title = title
        self.requested = requested
        self.available = available
    }
}

/// One field's problem in a request body.
public struct V1FieldProblem: Codable, Hashable, Sendable {
    /// The body member, as a path: `address.postalCode`, `email`.
    public var field: String
    /// `missing`, `too_long`, `invalid_email`, `invalid_phone`, `unknown_country`, `invalid_postal_code`.
    public var code: String
    public var message: String

    public init(field: String, code: String, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }
}

/// The error envelope with what a checkout failure adds: every field problem (`invalid_address`),
/// what is left (`insufficient_stock`, `hold_trimmed`) or the order as it now is
/// (`confirmation_needed`). A client that reads only `error` reads it as the plain envelope.
public struct V1CheckoutError: Codable, Hashable, Sendable {
    public var error: APIErrorEnvelope.Body
    public var problems: [V1FieldProblem]?
    public var available: [V1StockLeft]?
    public var checkout: V1Checkout?

    public init(error: APIErrorEnvelope.Body, problems: [V1FieldProblem]? = nil, available: [V1StockLeft]? = nil,
                checkout: V1Checkout? = nil) {
        self.error = error
        self.problems = problems
        self.available = available
        self.checkout = checkout
    }
}
