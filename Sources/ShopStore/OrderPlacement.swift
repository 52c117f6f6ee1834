public import Foundation
public import ShopCore

/// What the placement decision reads of an ordered variant, inside the order's transaction.
public struct PlacementVariant: Hashable, Sendable {
    /// The product as far as pricing and the line snapshot need it: id, handle, title and
    /// category (images, description and other variants are not read).
    public var product: Product
    /// The variant now: price, SKU, option values, and whether its stock is counted
    /// (`inventory`'s quantity is not used: stock is taken by a conditional write).
    public var variant: Variant
    /// The handle of the product's category, for campaigns that target one.
    public var categoryHandle: String?

    public init(product: Product, variant: Variant, categoryHandle: String?) {
        self.product = product
        self.variant = variant
        self.categoryHandle = categoryHandle
    }
}

/// The reads and conditional writes one order placement needs, all inside ONE transaction of
/// the backend (SQLite today, PostgreSQL next). The rules themselves are `OrderPlacement.place`;
/// a backend decides nothing.
public protocol OrderPlacementTransaction {
    /// The order an earlier request of this owner with this idempotency key placed, if any.
    func order(idempotencyKey: String, ownerKey: String) throws -> Order?
    /// `true` when the account exists.
    func userExists(_ id: User.ID) throws -> Bool
    /// The variants that exist and whose product is published, by id (others are left out).
    func variants(_ ids: [Variant.ID]) throws -> [Variant.ID: PlacementVariant]
    /// The campaign with this voucher code, if any.
    func campaign(voucherCode: VoucherCode) throws -> Campaign?
    /// Orders of the account that used the code (normalized) and were not cancelled.
    func voucherUses(_ userID: User.ID, code: String) throws -> Int
    /// Takes `quantity` off the variant's stock if stock minus other shoppers' live holds covers
    /// it — one conditional write — and says whether it did.
    func takeStock(_ variantID: Variant.ID, _ quantity: Int, for shopper: Shopper, now: Date) throws -> Bool
    /// Stock minus other shoppers' live holds, at least 0.
    func available(_ variantID: Variant.ID, excluding shopper: Shopper, now: Date) throws -> Int
    /// The id the next order gets.
    func nextOrderID() throws -> Int64
    /// Stores the order with its lines and the request's key and guest token, removes the
    /// ordered lines (variant and chosen values, `OrderLine.chosen`) from the shopper's cart, drops
    /// the shopper's holds and trims, and queues the confirmation (already carrying the order number).
    /// `stockTaken`: what step 4 took off each limited variant's stock (`order_stock`: a
    /// cancel gives back exactly that).
    /// - Returns: how many cart lines it removed (one conditional `DELETE`: a placement racing
    ///   this one on another connection waits for it and then removes none).
    func insert(_ order: Order, for request: OrderRequest, orderedVariants: [Variant.ID],
                stockTaken: [(Variant.ID, Int)], confirmation: OutboxDraft?) throws -> Int
}

/// The order-placement rules, in one place for every backend (issue #9): a backend runs
/// `place` inside its transaction and rolls back when it throws.
///
/// In order:
/// 1. **Idempotency** — a key this shopper already used gives back that order.
/// 2. **Availability** — every ordered variant must still exist and be published, and still
///    offer the values chosen for its open options.
/// 3. **Prices and voucher** — the order is priced again from what is stored now: current unit
///    prices, the campaign of the cart's voucher code (removed, not started, expired, used up by
///    this account, or newly applying), the shipping cost on the new goods total. Anything that
///    differs from what the shopper confirmed answers `.changed` with the new quote.
/// 4. **Shortfall** — stock is taken line by line with conditional writes (the shopper's own
///    hold counts as theirs); any line short rolls everything back with what is left.
/// 5. **Snapshots** — titles, option values, SKU and product from the rows read in step 2;
///    amounts from the re-decided quote.
/// 6. **Number** — `OrderRules.number(sequence:)` on the new order's id.
/// 7. **The cart** — a cart's order (`OrderRequest.fromCart`) takes every confirmed line out of
///    the cart, or rolls back with `.cartChanged`: one cart placed twice under two keys.
public enum OrderPlacement {
    /// Thrown out of `place` to roll the transaction back and answer `result`.
    public struct Rollback: Error {
        public var result: PlaceOrderResult
    }

    /// Places `request` at `now` through `transaction`.
    /// - Returns: `.placed`, `.alreadyPlaced`, `.unavailable` or `.changed` (nothing written for
    ///   the last two).
    /// - Throws: `Rollback` with `.insufficientStock` after taking some stock, or `.cartChanged`
    ///   after writing the order (the caller rolls back and answers its result);
    ///   `OrderStoreError` for a malformed request;
    ///   `AccountStoreError.userNotFound` for an unknown `userID`; `MoneyError` when amounts
    ///   overflow or currencies differ; the backend's errors.
    public static func place(_ request: OrderRequest, now: Date,
                             in transaction: some OrderPlacementTransaction) throws -> PlaceOrderResult {
        let wanted = try OrderRules.quantities(of: request)
        let currency = request.confirmed.total.currency

        // 1. Idempotency.
        if let order = try transaction.order(idempotencyKey: request.idempotencyKey,
                                             ownerKey: OrderRules.ownerKey(request.shopper)) {
            return .alreadyPlaced(order)
        }
        if let userID = request.userID, try !transaction.userExists(userID) { throw AccountStoreError.userNotFound }

        // 2. Availability.
        let current = try transaction.variants(wanted.map(\.0))
        var unavailable = wanted.map(\.0).filter { current[$0] == nil }
        // A line whose chosen values the variant no longer offers (`Product.stillOffers`).
        for line in request.confirmed.lines {
            guard let id = line.variantID, let found = current[id], !unavailable.contains(id),
                  !found.product.stillOffers(line.chosen, for: found.variant) else { continue }
            unavailable.append(id)
        }
        if !unavailable.isEmpty { return .unavailable(unavailable) }

        // 3. Prices and voucher, decided again from what is stored now.
        // Line by line as confirmed: lines of one variant that differ by the values chosen for its
        // open options (WooCommerce "any") stay apart, each keeping its chosen values.
        let items = request.confirmed.lines.map { line in
            let found = current[line.variantID!]!
            return CartQuote.Item(product: found.product, variant: found.variant, categoryHandle: found.categoryHandle,
                                  quantity: line.quantity, chosen: line.chosen)
        }
        let campaign = try request.voucherCode.flatMap { try transaction.campaign(voucherCode: $0) }
        var uses: Int? = 0
        if let campaign, campaign.usageLimitPerAccount != nil, let code = campaign.voucherCode {
            uses = try request.userID.map { try transaction.voucherUses($0, code: code.normalized) }
        }
        let cart = try CartPricing.price(items, voucherCode: request.voucherCode, campaign: campaign, now: now,
                                         currency: currency, accountUses: uses)
        let quote = try OrderQuote(cart: cart, shipping: request.shippingMethod, language: request.language)
        guard quote.charges == request.confirmed.charges else { return .changed(quote) }

        // 4. Shortfall: conditional decrements, never read-then-write.
        var short: [Variant.ID: Int] = [:]
        var taken: [(Variant.ID, Int)] = []
        for (variantID, quantity) in wanted where current[variantID]!.variant.inventory.isLimited {
            if try transaction.takeStock(variantID, quantity, for: request.shopper, now: now) {
                taken.append((variantID, quantity))
            } else {
                short[variantID] = try transaction.available(variantID, excluding: request.shopper, now: now)
            }
        }
        if !short.isEmpty { throw Rollback(result: .insufficientStock(short)) }

        // 5. Snapshots and 6. the number.
        let id = try transaction.nextOrderID()
        var address = request.shippingAddress
        address.id = nil
        address.isDefault = false
        let order = Order(id: Order.ID(id), number: OrderRules.number(sequence: id), status: .awaitingPayment,
                          placedAt: StoredTime.date(unixSeconds: StoredTime.unixSeconds(now)), userID: request.userID,
                          email: request.email, shippingAddress: address, quote: quote, language: request.language)
        let removed = try transaction.insert(order, for: request, orderedVariants: wanted.map(\.0), stockTaken: taken,
                                             confirmation: request.confirmation?.fillingOrderNumber(order.number))

        // 7. A cart's order takes every confirmed line out of the cart, or is not placed: two
        // "Place order"s of one cart under different keys made two orders and took the stock
        // twice (a fresh tester).
        if request.fromCart, removed < order.lines.count(where: { $0.variantID != nil }) {
            throw Rollback(result: .cartChanged)
        }
        return .placed(order)
    }
}

extension Inventory {
    /// Tracked and not backorderable: stock is counted, held and taken.
    public var isLimited: Bool {
        if case .tracked(_, false) = self { true } else { false }
    }
}
