public import Foundation
public import ShopCore

/// One line to reserve or order: a variant and how many.
public struct StockRequest: Hashable, Sendable {
    public var variantID: Variant.ID
    public var quantity: Int
    public init(variantID: Variant.ID, quantity: Int) {
        self.variantID = variantID
        self.quantity = quantity
    }
}

/// An order to place: who orders, where it goes, and the quote the shopper confirmed at review.
/// The store re-decides every price and the voucher inside its transaction
/// (`OrderPlacement.place`), and places the order only when the charges are still these.
public struct OrderRequest: Hashable, Sendable {
    /// Whose cart it comes from (its ordered lines are removed from that cart; its reservation is
    /// turned into the order's stock).
    public var shopper: Shopper
    public var userID: User.ID?
    public var email: String
    public var shippingAddress: Address
    /// The chosen method: its cost is decided again on the re-decided goods total.
    public var shippingMethod: ShippingMethod
    /// The shopper's language at checkout: the order keeps the method's name in it.
    public var language: Language
    /// The voucher code in the cart (whether it applied at review or not): decided again.
    public var voucherCode: VoucherCode?
    /// The order as the review showed it and the shopper confirmed it.
    public var confirmed: OrderQuote
    /// The form's idempotency key: placing the same key twice gives back the first order.
    public var idempotencyKey: String
    /// SHA-256 (hex) of the token in a guest's order link; nil for account orders.
    public var guestTokenHash: String?
    /// The confirmation email, queued in the same transaction. Its subject and bodies may hold
    /// `OutboxDraft.orderNumberPlaceholder`, replaced by the number the store gives the order.
    public var confirmation: OutboxDraft?
    /// The confirmed lines are the shopper's cart's (a checkout): placing takes them out of the
    /// cart, and only while every one of them is still there — of two "Place order"s of one
    /// cart under different keys (two devices, a double tap of an app making a key per tap),
    /// the second finds them gone and places nothing (`PlaceOrderResult.cartChanged`). False for
    /// an order that is not a cart's (the store's contract tests).
    public var fromCart: Bool

    public init(shopper: Shopper, userID: User.ID?, email: String, shippingAddress: Address,
                shippingMethod: ShippingMethod, language: Language, voucherCode: VoucherCode?, confirmed: OrderQuote,
                idempotencyKey: String, guestTokenHash: String?, confirmation: OutboxDraft?, fromCart: Bool = false) {
        self.shopper = shopper
        self.userID = userID
        self.email = email
        self.shippingAddress = shippingAddress
        self.shippingMethod = shippingMethod
        self.language = language
        self.voucherCode = voucherCode
        self.confirmed = confirmed
        self.idempotencyKey = idempotencyKey
        self.guestTokenHash = guestTokenHash
        self.confirmation = confirmation
        self.fromCart = fromCart
    }
}

/// What became of an attempt to place an order.
public enum PlaceOrderResult: Hashable, Sendable {
    /// Placed now.
    case placed(Order)
    /// This idempotency key already placed this order (a double click or a replayed POST).
    case alreadyPlaced(Order)
    /// Not enough stock for these variants: how many can still be had (0 = sold out). Nothing was written.
    case insufficientStock([Variant.ID: Int])
    /// What the order would charge now differs from what the shopper confirmed — a price, the
    /// voucher (removed, expired, used up, or newly applying) or the shipping cost: here is the
    /// order as it would be placed now, to confirm again. Nothing was written.
    case changed(OrderQuote)
    /// A variant no longer exists or is not for sale. Nothing was written.
    case unavailable([Variant.ID])
    /// The order is a cart's (`OrderRequest.fromCart`) and some confirmed line is no longer in
    /// it: another request placed it, or the shopper removed it. Nothing was written.
    case cartChanged
}

/// What a reservation attempt found.
public enum ReservationResult: Hashable, Sendable {
    /// Held until the given time.
    case reserved(until: Date)
    /// These variants cannot be held in full: how many are available to this shopper.
    case insufficientStock([Variant.ID: Int])
}

/// A shopper's hold that lowering the stock trimmed (issue #8): holds are trimmed latest first
/// until the live ones fit the new stock, and the shopper is told at their next checkout step.
public struct ReservationTrim: Hashable, Sendable {
    public var variantID: Variant.ID
    /// How many the shopper held.
    public var held: Int
    /// How many are still held for them (0 = none), fewer than `held`.
    public var kept: Int

    public init(variantID: Variant.ID, held: Int, kept: Int) {
        self.variantID = variantID
        self.held = held
        self.kept = kept
    }
}

/// What `OrderStore.setStock` changed.
public struct StockUpdate: Hashable, Sendable {
    /// Variants with the SKU (0 = unknown SKU: nothing changed).
    public var variants: Int
    /// Holds made smaller or dropped so that the live holds fit the new stock.
    public var trimmedHolds: Int

    public init(variants: Int, trimmedHolds: Int) {
        self.variants = variants
        self.trimmedHolds = trimmedHolds
    }
}

/// Orders, stock reservations and stock changes (issue #5). Stock never goes below zero: every
/// decrement is a conditional `UPDATE … WHERE stock - reserved_by_others >= ?` inside the order's
/// transaction, never read-then-write.
public struct OrderStore: Sendable {
    /// Holds `lines` for the shopper until `until` (replacing their previous reservation), if
    /// stock minus other shoppers' live reservations covers them. Untracked and backorderable
    /// variants need no reservation. A variant the shopper already holds keeps its place in the
    /// order holds were taken (renewing does not make a hold "latest" for `setStock`).
    public var reserve: @Sendable (_ shopper: Shopper, _ lines: [StockRequest], _ until: Date, _ now: Date) throws -> ReservationResult
    /// Drops the shopper's reservation (cart changed, checkout left) and what trimming it left
    /// to tell them.
    public var releaseReservation: @Sendable (Shopper) throws -> Void
    /// Deletes reservations that expired before `now`, and trims whose hold would have expired
    /// by then; returns how many reservations.
    public var sweepExpiredReservations: @Sendable (_ now: Date) throws -> Int
    /// What each variant can still be bought in, for everyone but `shopper`: stock minus live
    /// reservations of others; nil for variants without a stock limit.
    public var available: @Sendable (_ variants: [Variant.ID], _ shopper: Shopper?, _ now: Date) throws -> [Variant.ID: Int?]
    /// The products with a live reservation on some variant, by id (empty when nothing is held):
    /// the only ones checkouts can have sold out (`CartService.heldOutProducts`).
    public var heldProducts: @Sendable (_ now: Date) throws -> [Product.ID]
    /// When the live reservations end, each instant once, soonest first (empty when nothing is
    /// held). Nothing is written when a hold ends — the sweeper deletes it up to a minute later —
    /// so what every visitor sees alike (`SharedVersion`) moves on at these instants.
    public var holdEnds: @Sendable (_ now: Date) throws -> [Date]
    /// Places the order in ONE transaction, by the one placement decision
    /// (`OrderPlacement.place`: idempotency → availability → prices and voucher → stock →
    /// snapshots → number), the backend supplying only reads and conditional writes.
    public var placeOrder: @Sendable (OrderRequest, _ now: Date) throws -> PlaceOrderResult
    /// How many orders of the account used this voucher code (normalized) and were not cancelled:
    /// what a per-account usage limit counts.
    public var voucherUses: @Sendable (User.ID, _ code: String) throws -> Int
    /// The order with this number.
    public var order: @Sendable (_ number: String) throws -> Order?
    /// An account's orders, newest first.
    public var orders: @Sendable (User.ID) throws -> [Order]
    /// The guest order whose link token hashes to this.
    public var guestOrder: @Sendable (_ tokenHash: String) throws -> Order?
    /// One page of the orders `OrderQuery` filters, newest first, and how many match (the back
    /// office's list, `orders list`).
    public var findOrders: @Sendable (OrderQuery) throws -> OrderPage
    /// Applies a staff action to an order in ONE transaction, by the one decision
    /// (`OrderActions.apply`: lock → `OrderStatus.transition` → status → stock back → history).
    /// - Throws: `OrderActionError`, `OrderTransitionRefused` (nothing written).
    public var apply: @Sendable (OrderActionRequest, _ now: Date) throws -> OrderActionResult
    /// The order's status changes, oldest first.
    public var history: @Sendable (Order.ID) throws -> [OrderEvent]
    /// The numbers of at most `limit` orders awaiting payment placed before the date, oldest
    /// first — leaving out orders placed before migration 27, which the shop never cancels as
    /// unpaid (their payment may have been received outside the shop).
    public var unpaidOrders: @Sendable (_ placedBefore: Date, _ limit: Int) throws -> [String]
    /// Sets the stock of the variants with this SKU (trimmed, case-sensitive) and, in the same
    /// transaction, trims the live holds on them — the latest taken first, partly or wholly —
    /// until they fit the new stock, so that what is left stays sellable; each trimmed shopper
    /// gets a `ReservationTrim` to be told at their next step (`takeReservationTrims`).
    /// The change is recorded in the audit log, as `actor`'s, in the same transaction
    /// (`StockAudit`); callers use ``setStock(_:_:_:by:)``.
    public var setStockBy: @Sendable (_ sku: String, _ quantity: Int, _ now: Date, _ actor: AuditActor) throws -> StockUpdate
    /// The shopper's trims that have not lapsed with their hold, by variant id, forgetting them:
    /// each is told once.
    public var takeReservationTrims: @Sendable (Shopper, _ now: Date) throws -> [ReservationTrim]
    /// The order `shopper` placed with `idempotencyKey`, or nil: what a retried "place order"
    /// answers, read from the keys `placeOrder` records in the order's own transaction — so it
    /// is found from the moment the order commits, also when the process died before anything
    /// after the commit (a fresh tester's killed server; racing retries).
    public var placedOrder: @Sendable (Shopper, _ idempotencyKey: String) throws -> Order?
    /// The shopper's checkout in progress (survives reloads and the back button), or nil.
    public var checkout: @Sendable (Shopper) throws -> CheckoutState?
    /// Stores (or, with nil, forgets) the shopper's checkout.
    public var saveCheckout: @Sendable (Shopper, CheckoutState?) throws -> Void

    public init(
        reserve: @escaping @Sendable (Shopper, [StockRequest], Date, Date) throws -> ReservationResult,
        releaseReservation: @escaping @Sendable (Shopper) throws -> Void,
        sweepExpiredReservations: @escaping @Sendable (Date) throws -> Int,
        available: @escaping @Sendable ([Variant.ID], Shopper?, Date) throws -> [Variant.ID: Int?],
        heldProducts: @escaping @Sendable (Date) throws -> [Product.ID],
        holdEnds: @escaping @Sendable (Date) throws -> [Date],
        placeOrder: @escaping @Sendable (OrderRequest, Date) throws -> PlaceOrderResult,
        voucherUses: @escaping @Sendable (User.ID, String) throws -> Int,
        order: @escaping @Sendable (String) throws -> Order?,
        orders: @escaping @Sendable (User.ID) throws -> [Order],
        guestOrder: @escaping @Sendable (String) throws -> Order?,
        findOrders: @escaping @Sendable (OrderQuery) throws -> OrderPage,
        apply: @escaping @Sendable (OrderActionRequest, Date) throws -> OrderActionResult,
        history: @escaping @Sendable (Order.ID) throws -> [OrderEvent],
        unpaidOrders: @escaping @Sendable (Date, Int) throws -> [String],
        setStockBy: @escaping @Sendable (String, Int, Date, AuditActor) throws -> StockUpdate,
        takeReservationTrims: @escaping @Sendable (Shopper, Date) throws -> [ReservationTrim],
        placedOrder: @escaping @Sendable (Shopper, String) throws -> Order?,
        checkout: @escaping @Sendable (Shopper) throws -> CheckoutState?,
        saveCheckout: @escaping @Sendable (Shopper, CheckoutState?) throws -> Void
    ) {
        self.reserve = reserve
        self.releaseReservation = releaseReservation
        self.sweepExpiredReservations = sweepExpiredReservations
        self.available = available
        self.heldProducts = heldProducts
        self.holdEnds = holdEnds
        self.placeOrder = placeOrder
        self.voucherUses = voucherUses
        self.order = order
        self.orders = orders
        self.guestOrder = guestOrder
        self.findOrders = findOrders
        self.apply = apply
        self.history = history
        self.unpaidOrders = unpaidOrders
        self.setStockBy = setStockBy
        self.takeReservationTrims = takeReservationTrims
        self.placedOrder = placedOrder
        self.checkout = checkout
        self.saveCheckout = saveCheckout
    }
}

extension OrderStore {
    /// Sets the stock of the variants with this SKU (``setStockBy``), recorded in the audit log
    /// as `actor`'s (an operator at the command line unless told).
    public func setStock(_ sku: String, _ quantity: Int, _ now: Date, by actor: AuditActor = .cli) throws -> StockUpdate {
        try setStockBy(sku, quantity, now, actor)
    }
}

/// The audit entries of a stock change (`OrderStore.setStockBy`), the same on every engine: one
/// per variant whose count or tracking changed.
public enum StockAudit {
    /// - Parameter before: each variant's id, stock and whether it was tracked, read in the
    ///   change's transaction before it.
    public static func entries(sku: String, quantity: Int, before: [(id: Int64, stock: Int64, tracked: Bool)],
                               actor: AuditActor, now: Date) -> [AuditEntry] {
        before.compactMap { variant in
            var changes: [AuditChange] = []
            if variant.stock != Int64(quantity) {
                changes.append(AuditChange(field: "stock", before: String(variant.stock), after: String(quantity)))
            }
            if !variant.tracked { changes.append(AuditChange(field: "tracked", before: "false", after: "true")) }
            guard !changes.isEmpty else { return nil }
            return AuditEntry(at: now, actor: actor, subject: "stock", subjectID: "\(sku) (variant \(variant.id))", action: "set",
                              changes: changes)
        }
    }
}

/// A shopper's saved addresses (signed-in shoppers only).
/// Rows of the `addresses` table ↔ `Address` values, the same on every engine.
public enum StoredAddress {
    /// The columns ``address(_:)`` reads, in order.
    public static let columns = """
        id, first_name, last_name, phone, email, line1, line2, city, postal_code, region, country_code, is_default
        """

    /// An address from a row whose first columns are ``columns``.
    public static func address(_ row: some StoredRow) throws -> Address {
        Address(id: Address.ID(try row.int64(0)), firstName: try row.string(1), lastName: try row.string(2),
                phone: try row.string(3), email: try row.optionalString(4), line1: try row.string(5),
                line2: try row.string(6), city: try row.string(7), postalCode: try row.string(8),
                region: try row.optionalString(9), countryCode: try row.string(10), isDefault: try row.bool(11))
    }
}

public struct AddressStore: Sendable {
    /// The account's addresses (any order; the web sorts with `Address.bookOrder`).
    public var list: @Sendable (User.ID) throws -> [Address]
    /// One address of the account, or nil.
    public var address: @Sendable (User.ID, Address.ID) throws -> Address?
    /// Inserts (id nil) or updates an address of the account; when it is the default, the
    /// account's other addresses stop being the default — in one transaction. Returns it with its id.
    public var save: @Sendable (User.ID, Address) throws -> Address
    /// Deletes an address of the account (nothing when it is not theirs).
    public var delete: @Sendable (User.ID, Address.ID) throws -> Void

    public init(list: @escaping @Sendable (User.ID) throws -> [Address],
                address: @escaping @Sendable (User.ID, Address.ID) throws -> Address?,
                save: @escaping @Sendable (User.ID, Address) throws -> Address,
                delete: @escaping @Sendable (User.ID, Address.ID) throws -> Void) {
        self.list = list
        self.address = address
        self.save = save
        self.delete = delete
    }
}

/// A checkout in progress, step by step (address → shipping → review → place). Stored as JSON.
public struct CheckoutState: Codable, Hashable, Sendable {
    /// Guest checkout: where the confirmation goes. Signed-in shoppers use their account email.
    public var email: String?
    /// The chosen saved address, if one was chosen.
    public var savedAddressID: Int64?
    /// The address typed in (by `AddressField` raw value), when not a saved one.
    public var addressFields: [String: String]?
    /// Save the typed address to the address book when the order is placed.
    public var saveAddress: Bool
    /// The chosen shipping method's id.
    public var shippingMethodID: String?
    /// What the review step showed the shopper would be charged; "place order" goes ahead only
    /// while the order would still charge exactly this.
    public var reviewedCharges: OrderCharges?
    /// The key in the place-order form (one order per key).
    public var idempotencyKey: String
    /// After the order is placed: where its page is (with the guest token for guests), so a
    /// replayed or double-clicked "place order" lands on the same order.
    public var placedOrderPath: String?

    public init(email: String? = nil, savedAddressID: Int64? = nil, addressFields: [String: String]? = nil,
                saveAddress: Bool = false, shippingMethodID: String? = nil, reviewedCharges: OrderCharges? = nil,
                idempotencyKey: String) {
        self.email = email
        self.savedAddressID = savedAddressID
        self.addressFields = addressFields
        self.saveAddress = saveAddress
        self.shippingMethodID = shippingMethodID
        self.reviewedCharges = reviewedCharges
        self.idempotencyKey = idempotencyKey
    }
}

extension OutboxDraft {
    /// Stands for the order number in an order confirmation written before the order exists.
    public static let orderNumberPlaceholder = "{order-number}"

    /// The message with `orderNumberPlaceholder` replaced by `number`.
    public func fillingOrderNumber(_ number: String) -> OutboxDraft {
        var filled = self
        filled.subject = subject.replacingOccurrences(of: Self.orderNumberPlaceholder, with: number)
        filled.textBody = textBody.replacingOccurrences(of: Self.orderNumberPlaceholder, with: number)
        filled.htmlBody = htmlBody?.replacingOccurrences(of: Self.orderNumberPlaceholder, with: number)
        return filled
    }
}
