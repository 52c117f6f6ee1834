import ShopCore
import Foundation
import Synchronization

extension OrderStore {
    /// Orders, reservations, checkouts and stock kept in memory, with the semantics of
    /// `OrderStore.sqlite` (see there): same results, same errors, same rounding of times to the
    /// second, same order numbers (`OrderRules`). For tests and demos; nothing survives the process.
    ///
    /// Design: the catalog (`CatalogStore.inMemory`) has its own state, so this store reads
    /// products and variants through `catalog` (published products only) and keeps stock
    /// *changes* in `database` (`InMemoryStock`): an order or `setStock` records the variant's
    /// new inventory next to the catalog inventory it started from; while the catalog still
    /// says the same, the recorded one counts; when an import sets a different one, the
    /// import wins (as an import overwrites `variants.stock` in SQL). So the catalog's
    /// `Product.variants[…].inventory` does NOT show orders: read availability from `available`.
    /// Every check and change of stock, reservations, orders and carts happens under the
    /// database's one lock, so concurrent orders cannot oversell.
    ///
    /// Differences from SQLite: a variant whose product is unpublished is unknown here (catalog
    /// reads see published products only): `available` gives 0, `setStock` skips it; and
    /// stock changes do not bump `catalog.version()`.
    /// - Parameters:
    ///   - database: the state shared with `SessionStore.inMemory(_:)` (whose carts orders
    ///     clear) and `AccountStore.inMemory(_:)` (whose outbox gets confirmations).
    ///   - catalog: the catalog orders are priced and stocked from.
    public static func inMemory(_ database: InMemoryDatabase, catalog: CatalogStore) -> OrderStore {
        let index = CatalogVariantIndex(catalog: catalog)
        return OrderStore(
            reserve: { shopper, lines, until, now in
                let wanted = try OrderRules.quantities(of: lines)
                let found = try index.variants(wanted.map(\.0))
                return try database.withLock { state in
                    try state.requireShopper(shopper)
                    var short: [Variant.ID: Int] = [:]
                    var held: [InMemoryReservation] = []
                    let expiresAt = StoredTime.normalized(until)
                    for (variantID, quantity) in wanted {
                        guard let variant = found[variantID]?.variant else {
                            short[variantID] = 0
                            continue
                        }
                        guard let available = state.available(variant, excluding: shopper, now: now) else { continue }
                        if available < quantity {
                            short[variantID] = available
                        } else {
                            held.append(InMemoryReservation(variantID: variantID, quantity: quantity, expiresAt: expiresAt,
                                                            sequence: 0))
                        }
                    }
                    guard short.isEmpty else { return ReservationResult.insufficientStock(short) }
                    // A variant held again keeps its place in the order holds were taken.
                    let previous = state.reservations[shopper] ?? []
                    for index in held.indices {
                        if let kept = previous.first(where: { $0.variantID == held[index].variantID }) {
                            held[index].sequence = kept.sequence
                        } else {
                            held[index].sequence = state.nextReservationSequence
                            state.nextReservationSequence += 1
                        }
                    }
                    state.reservations[shopper] = held.isEmpty ? nil : held
                    return .reserved(until: expiresAt)
                }
            },
            releaseReservation: { shopper in
                database.withLock { state in
                    state.reservations[shopper] = nil
                    state.reservationTrims[shopper] = nil
                }
            },
            sweepExpiredReservations: { now in
                database.withLock { state in
                    let now = StoredTime.unixSeconds(now)
                    var swept = 0
                    for (shopper, lines) in state.reservations {
                        let live = lines.filter { StoredTime.unixSeconds($0.expiresAt) > now }
                        swept += lines.count - live.count
                        state.reservations[shopper] = live.isEmpty ? nil : live
                    }
                    for (shopper, trims) in state.reservationTrims {
                        let live = trims.filter { StoredTime.unixSeconds($0.value.expiresAt) > now }
                        state.reservationTrims[shopper] = live.isEmpty ? nil : live
                    }
                    return swept
                }
            },
            available: { variantIDs, shopper, now in
                let found = try index.variants(variantIDs)
                return database.withLock { state in
                    var result: [Variant.ID: Int?] = [:]
                    for variantID in variantIDs {
                        guard let variant = found[variantID]?.variant else {
                            result[variantID] = .some(0)
                            continue
                        }
                        result[variantID] = .some(state.available(variant, excluding: shopper, now: now))
                    }
                    return result
                }
            },
            placeOrder: { draft, now in
                let wanted = try OrderRules.quantities(of: draft)
                let found = try index.variants(wanted.map(\.0))
                return try database.withLock { state in
                    if let userID = draft.userID, state.users[userID] == nil { throw AccountStoreError.userNotFound }
                    return place(draft, wanted, found, now: now, &state)
                }
            },
            order: { number in
                database.withLock { state in state.orders.first { $0.order.number == number }?.order }
            },
            orders: { userID in
                database.withLock { state in newestFirst(state.orders.lazy.map(\.order).filter { $0.userID == userID }) }
            },
            guestOrder: { tokenHash in
                database.withLock { state in state.orders.first { $0.guestTokenHash == tokenHash }?.order }
            },
            allOrders: { status in
                database.withLock { state in
                    newestFirst(state.orders.lazy.map(\.order).filter { status == nil || $0.status == status })
                }
            },
            setStock: { sku, quantity, now in
                guard quantity >= 0 else { throw OrderStoreError.invalidQuantity }
                let sku = sku.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !sku.isEmpty else { return StockUpdate(variants: 0, trimmedHolds: 0) }
                let variants = try index.variants(sku: sku)
                return database.withLock { state in
                    var trimmed = 0
                    for variant in variants {
                        let allowsBackorder = if case let .tracked(_, backorder) = state.inventory(of: variant) { backorder } else { false }
                        state.stock[variant.id] = InMemoryStock(
                            catalogInventory: variant.inventory,
                            inventory: .tracked(quantity: quantity, allowsBackorder: allowsBackorder))
                        if !allowsBackorder { trimmed += state.trimReservations(of: variant.id, toFit: quantity, now: now) }
                    }
                    return StockUpdate(variants: variants.count, trimmedHolds: trimmed)
                }
            },
            takeReservationTrims: { shopper, now in
                let now = StoredTime.unixSeconds(now)
                return database.withLock { state in
                    defer { state.reservationTrims[shopper] = nil }
                    return (state.reservationTrims[shopper] ?? [:])
                        .filter { StoredTime.unixSeconds($0.value.expiresAt) > now }
                        .map { ReservationTrim(variantID: $0.key, held: $0.value.held, kept: $0.value.kept) }
                        .sorted { $0.variantID.rawValue < $1.variantID.rawValue }
                }
            },
            checkout: { shopper in
                database.withLock { $0.checkouts[shopper] }
            },
            saveCheckout: { shopper, checkout in
                try database.withLock { state in
                    if checkout != nil { try state.requireShopper(shopper) }
                    state.checkouts[shopper] = checkout
                }
            }
        )
    }

    private static func newestFirst(_ orders: some Sequence<Order>) -> [Order] {
        orders.sorted { ($0.placedAt, $0.id.rawValue) > ($1.placedAt, $1.id.rawValue) }
    }

    /// `placeOrder` under the lock: every check first, then every change.
    private static func place(_ draft: OrderDraft, _ wanted: [(Variant.ID, Int)],
                              _ found: [Variant.ID: (product: Product, variant: Variant)], now: Date,
                              _ state: inout InMemoryState) -> PlaceOrderResult {
        let key = OrderRules.ownerKey(draft.shopper) + "\n" + draft.idempotencyKey
        if let id = state.orderKeys[key] { return .alreadyPlaced(state.orders[Int(id.rawValue) - 1].order) }

        let unavailable = wanted.map(\.0).filter { found[$0] == nil }
        if !unavailable.isEmpty { return .unavailable(unavailable) }

        var changed: [Variant.ID: Money] = [:]
        for line in draft.lines {
            let variant = found[line.variantID!]!.variant  // variant ids checked by OrderRules.quantities(of:)
            if variant.price != line.unitPrice { changed[variant.id] = variant.price }
        }
        if !changed.isEmpty { return .pricesChanged(changed) }

        var short: [Variant.ID: Int] = [:]
        for (variantID, quantity) in wanted {
            let variant = found[variantID]!.variant
            if let available = state.available(variant, excluding: draft.shopper, now: now), available < quantity {
                short[variantID] = available
            }
        }
        if !short.isEmpty { return .insufficientStock(short) }

        // Checked; now change.
        for (variantID, quantity) in wanted {
            let variant = found[variantID]!.variant
            guard case let .tracked(stock, false) = state.inventory(of: variant) else { continue }
            state.stock[variantID] = InMemoryStock(catalogInventory: variant.inventory,
                                                   inventory: .tracked(quantity: stock - quantity, allowsBackorder: false))
        }
        let id = Int64(state.orders.count + 1)
        let lines = draft.lines.map { line in
            let (product, variant) = found[line.variantID!]!
            return OrderLine(productID: product.id, variantID: variant.id, title: product.title,
                             variantTitle: OrderRules.variantTitle(variant.optionValues), sku: variant.sku,
                             unitPrice: line.unitPrice, quantity: line.quantity, discount: line.discount, total: line.total)
        }
        var address = draft.shippingAddress
        address.id = nil
        address.isDefault = false
        let order = Order(id: Order.ID(id), number: OrderRules.number(sequence: id), status: .awaitingPayment,
                          placedAt: StoredTime.normalized(now), userID: draft.userID, email: draft.email,
                          shippingAddress: address, shippingMethodName: draft.shippingMethodName,
                          shippingCost: draft.shippingCost, lines: lines, subtotal: draft.subtotal, discount: draft.discount,
                          voucherCode: draft.voucherCode, total: draft.total)
        state.orders.append(InMemoryOrder(order: order, guestTokenHash: draft.guestTokenHash))
        state.orderKeys[key] = order.id
        if let cart = state.carts[draft.shopper] {
            let ordered = Set(wanted.map(\.0))
            let kept = Cart(lines: cart.lines.filter { !ordered.contains($0.variantID) }, voucherCode: cart.voucherCode)
            state.carts[draft.shopper] = kept == Cart() ? nil : kept
        }
        state.reservations[draft.shopper] = nil
        state.reservationTrims[draft.shopper] = nil
        if let confirmation = draft.confirmation { state.enqueue(confirmation.fillingOrderNumber(order.number)) }
        return .placed(order)
    }
}

/// Finds published variants of an in-memory catalog by id or SKU. The catalog has no lookup by
/// variant, so it lists every published product (pages of 100) and keeps variant id → product
/// id and SKU → variant ids until `catalog.version()` changes; the products themselves are
/// re-read on every call (`productsByID`), so prices and stock are current.
private final class CatalogVariantIndex: Sendable {
    private struct Entries {
        var version: Int64 = -1
        var productByVariant: [Variant.ID: Product.ID] = [:]
        var variantsBySKU: [String: [Variant.ID]] = [:]
    }

    private let catalog: CatalogStore
    private let entries = Mutex(Entries())

    init(catalog: CatalogStore) { self.catalog = catalog }

    /// The variants found (with their products), by id; missing and unpublished ones left out.
    func variants(_ ids: [Variant.ID]) throws -> [Variant.ID: (product: Product, variant: Variant)] {
        let current = try refreshed()
        let productIDs = Set(ids.compactMap { current.productByVariant[$0] })
        let products = try catalog.productsByID(Array(productIDs))
        var found: [Variant.ID: (product: Product, variant: Variant)] = [:]
        for id in ids {
            guard let productID = current.productByVariant[id], let product = products[productID],
                  let variant = product.variants.first(where: { $0.id == id }) else { continue }
            found[id] = (product, variant)
        }
        return found
    }

    /// The published variants with this SKU (case-sensitive).
    func variants(sku: String) throws -> [Variant] {
        let ids = try refreshed().variantsBySKU[sku] ?? []
        return try variants(ids).values.map(\.variant)
    }

    private func refreshed() throws -> Entries {
        let version = try catalog.version()
        if let cached = entries.withLock({ $0.version == version ? $0 : nil }) { return cached }
        var fresh = Entries(version: version)
        var offset = 0
        while true {
            let page = try catalog.products(ProductQuery(sort: .featured, offset: offset, limit: 100))
            for product in page.products {
                for variant in product.variants {
                    fresh.productByVariant[variant.id] = product.id
                    if let sku = variant.sku { fresh.variantsBySKU[sku, default: []].append(variant.id) }
                }
            }
            offset += page.products.count
            if page.products.isEmpty || offset >= page.totalCount { break }
        }
        let built = fresh
        entries.withLock { $0 = built }
        return built
    }
}
