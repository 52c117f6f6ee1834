public import ShopStore
import Foundation
import ShopCore
import SQLite

extension OrderStore {
    /// Orders, stock reservations, checkouts in progress and stock changes in a SQLite database
    /// (schema: `ShopSchema` version 6, migrated beforehand). Every write is ONE transaction
    /// (`BEGIN IMMEDIATE`, through the process's `WriterGate`); reads use a deferred snapshot.
    ///
    /// - Stock never goes below zero: `placeOrder` takes stock with a conditional
    ///   `UPDATE variants SET stock = stock - q WHERE id = v AND stock - <others' live
    ///   reservations> >= q` and checks that it changed one row — never read-then-write.
    ///   Only tracked variants that do not allow backorder have stock taken or reserved.
    /// - A reservation is live while `expires_at > now` (whole seconds, `StoredTime`). The
    ///   shopper's own reservation never hides stock from them.
    /// - `reserve` replaces the shopper's reservation; when any variant is short (or gone, or its
    ///   product unpublished: available 0) it writes nothing and the old reservation stays.
    ///   It throws `SessionStoreError.sessionNotFound` / `AccountStoreError.userNotFound` for an
    ///   unknown shopper and `OrderStoreError.invalidQuantity` for a quantity below 1.
    /// - `available` gives 0 for an unknown variant or one of an unpublished product, and nil
    ///   for untracked/backorder ones.
    /// - `placeOrder`, in one transaction: the idempotency key (per shopper) → `.alreadyPlaced`;
    ///   each variant re-read (gone or unpublished → `.unavailable`); each line's `unitPrice`
    ///   compared with the current price (`.pricesChanged`, current prices); the conditional
    ///   stock decrements (`.insufficientStock` with what this shopper could still have, all
    ///   decrements rolled back); then the order (`awaitingPayment`, number `1000+id-XXXX`), the
    ///   line snapshots (title, variant title, SKU and product id from the catalog row read in
    ///   the transaction; unit price, quantity, discount and total from the draft), the key, the
    ///   ordered lines (variant and chosen values) removed from the cart (other lines and the voucher
    ///   code stay), the shopper's reservation deleted, the confirmation queued in `outbox`.
    ///   It throws `OrderStoreError` for a malformed draft (see `OrderRules.quantities(of:)`) and
    ///   `AccountStoreError.userNotFound` when `draft.userID` is not stored.
    /// - `setStock` sets `stock` of the variant with the SKU (`SKUIdentity.key`: trimmed, any case) and
    ///   makes it tracked (a count means "sell at most this many"; the backorder policy is kept);
    ///   the variants trigger bumps `catalog_state.version`. In the same transaction it trims the
    ///   live holds of each non-backorder variant, latest first (`OrderRules.keptHolds`; a hold's
    ///   place is its row id, kept when `reserve` renews it), recording one `reservation_trims`
    ///   row per shopper and variant. Throws `OrderStoreError.invalidQuantity` for a negative count.
    /// - `takeReservationTrims` deletes the shopper's trims and returns those whose hold had not
    ///   expired, by variant id; `releaseReservation`, `placeOrder` and the sweep delete them too.
    /// - `sweepExpiredReservations` deletes those with `expires_at <= now` (no longer live).
    /// - `saveCheckout` stamps `updated_at` with the wall clock (informational) and throws `SessionStoreError.sessionNotFound` / `AccountStoreError.userNotFound`
    ///   for an unknown shopper; a stored state that no longer decodes throws
    ///   `SQLiteStoreError.corruptValue`.
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> OrderStore {
        OrderStore(
            reserve: { shopper, lines, until, now in
                let wanted = try OrderRules.quantities(of: lines)
                do {
                    return try database.write { connection in
                        try SQLOrders.requireOwner(shopper, connection)
                        let owner = SQLOrders.Owner(shopper)
                        let untilSeconds = StoredTime.unixSeconds(until)
                        let (short, held) = try OrderRules.holds(
                            for: wanted,
                            stock: { try SQLOrders.stock(of: $0, connection).map { ($0.isPublished, $0.isLimited) } },
                            available: { try SQLOrders.available($0, excluding: owner, now: now, connection) ?? 0 })
                        if !short.isEmpty { throw SQLOrders.Rollback(result: ReservationResult.insufficientStock(short)) }
                        // Rows of variants held again are updated in place: their id keeps the
                        // order holds were taken in, which setStock trims by.
                        try connection.prepare("""
                            DELETE FROM stock_reservations
                            WHERE \(owner.column) = ? AND variant_id NOT IN (SELECT value FROM json_each(?))
                            """).run([owner.value, SQLCatalog.jsonIDs(held.map(\.0.rawValue))])
                        let upsert = try connection.prepare("""
                            INSERT INTO stock_reservations (\(owner.column), variant_id, quantity, expires_at) VALUES (?, ?, ?, ?)
                            ON CONFLICT (\(owner.column), variant_id) WHERE \(owner.column) IS NOT NULL
                            DO UPDATE SET quantity = excluded.quantity, expires_at = excluded.expires_at
                            """)
                        for (variantID, quantity) in held {
                            try upsert.run([owner.value, .integer(variantID.rawValue), SQLValue(quantity), .integer(untilSeconds)])
                        }
                        return .reserved(until: StoredTime.date(unixSeconds: untilSeconds))
                    }
                } catch let rollback as SQLOrders.Rollback<ReservationResult> {
                    return rollback.result
                }
            },
            releaseReservation: { shopper in
                let owner = SQLOrders.Owner(shopper)
                // Most cart changes have nothing held: a read answers that without taking the
                // write lock (every add to cart calls this).
                guard try database.withConnection({ connection in
                    try connection.prepare("""
                        SELECT 1 FROM stock_reservations WHERE \(owner.column) = ?1
                        UNION ALL SELECT 1 FROM reservation_trims WHERE \(owner.column) = ?1 LIMIT 1
                        """).first([owner.value]) != nil
                }) else { return }
                try database.write { connection in
                    try connection.prepare("DELETE FROM stock_reservations WHERE \(owner.column) = ?").run([owner.value])
                    try connection.prepare("DELETE FROM reservation_trims WHERE \(owner.column) = ?").run([owner.value])
                }
            },
            sweepExpiredReservations: { now in
                try database.write { connection in
                    try connection.prepare("DELETE FROM stock_reservations WHERE expires_at <= ?")
                        .run([.integer(StoredTime.unixSeconds(now))])
                    let swept = connection.changes
                    try connection.prepare("DELETE FROM reservation_trims WHERE expires_at <= ?")
                        .run([.integer(StoredTime.unixSeconds(now))])
                    return swept
                }
            },
            available: { variantIDs, shopper, now in
                // One statement for every variant (one snapshot): every page listing products
                // with counted stock asks this (a category page of 24 products ran ~24 pairs of
                // statements, issue #14), as do the cart page and every add to cart.
                guard !variantIDs.isEmpty else { return [:] }
                let owner = shopper.map(SQLOrders.Owner.init)
                let notOwner = owner.map { "AND r.\($0.column) IS NOT ?3" } ?? ""
                var values: [SQLValue] = [SQLCatalog.jsonIDs(variantIDs.map(\.rawValue)), .integer(StoredTime.unixSeconds(now))]
                if let owner { values.append(owner.value) }
                return try database.withConnection { connection in
                    var result: [Variant.ID: Int?] = Dictionary(variantIDs.map { ($0, .some(0)) }, uniquingKeysWith: { first, _ in first })
                    for row in try connection.prepare("""
                        SELECT v.id, v.inventory_tracked, v.allow_backorder, p.is_published,
                               max(v.stock - (SELECT COALESCE(SUM(r.quantity), 0) FROM stock_reservations r
                                              WHERE r.variant_id = v.id AND r.expires_at > ?2 \(notOwner)), 0)
                        FROM variants v JOIN products p ON p.id = v.product_id
                        WHERE v.id IN (SELECT value FROM json_each(?1))
                        """).query(values) {
                        let stock = SQLOrders.VariantStock(isTracked: try row.bool(1), allowsBackorder: try row.bool(2),
                                                           isPublished: try row.bool(3))
                        guard stock.isPublished else { continue }
                        result[Variant.ID(try row.int64(0))] = stock.isLimited ? .some(try row.int(4)) : .some(nil)
                    }
                    return result
                }
            },
            heldProducts: { now in
                try database.withConnection { connection in
                    try connection.prepare(SQLOrders.heldProducts).query([.integer(StoredTime.unixSeconds(now))]).map { Product.ID(try $0.int64(0)) }
                }
            },
            holdEnds: { now in
                try database.withConnection { connection in
                    try connection.prepare(SQLOrders.holdEnds).query([.integer(StoredTime.unixSeconds(now))]).map { StoredTime.date(unixSeconds: try $0.int64(0)) }
                }
            },
            placeOrder: { request, now in
                do {
                    return try database.write { connection in
                        try OrderPlacement.place(request, now: now, in: SQLPlacement(connection: connection))
                    }
                } catch let rollback as OrderPlacement.Rollback {
                    return rollback.result
                }
            },
            voucherUses: { userID, code in
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT count(*) FROM orders WHERE user_id = ? AND voucher_code = ? AND status <> 'cancelled'
                        """).first([.integer(userID.rawValue), .text(code)])?.int(0) ?? 0
                }
            },
            order: { number in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        try SQLOrders.orders(where: "number = ?", [.text(number)], connection).first
                    }
                }
            },
            orders: { userID in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        try SQLOrders.orders(where: "user_id = ?", [.integer(userID.rawValue)], connection)
                    }
                }
            },
            guestOrder: { tokenHash in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        try SQLOrders.orders(where: "guest_token_hash = ?", [.text(tokenHash)], connection).first
                    }
                }
            },
            findOrders: { query in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        let condition = query.condition
                        let values = condition.values.map(SQLValue.init)
                        let total = try connection.prepare("SELECT count(*) FROM orders WHERE \(condition.sql)").first(values)?.int(0) ?? 0
                        let orders = try SQLOrders.orders(where: condition.sql, values, connection,
                                                          limit: query.limit, offset: query.offset)
                        return OrderPage(orders: orders, total: total)
                    }
                }
            },
            apply: { request, now in
                // The write transaction is the lock: SQLite has one writer at a time.
                do {
                    return try database.write { connection in
                        try OrderActions.apply(request, now: now, in: SQLOrderAction(connection: connection))
                    }
                } catch let corrupt as StoredCatalog.CorruptValue {
                    throw SQLiteStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
                }
            },
            history: { orderID in
                try database.withConnection { connection in
                    do {
                        return try connection.prepare("""
                            SELECT \(OrderActions.eventColumns), id FROM order_events WHERE order_id = ? ORDER BY id
                            """).query([.integer(orderID.rawValue)]).map { row in try OrderActions.event(row, id: try row.int64(9)) }
                    } catch let corrupt as StoredCatalog.CorruptValue {
                        throw SQLiteStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
                    }
                }
            },
            unpaidOrders: { placedBefore, limit in
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT number FROM orders WHERE status = 'awaiting_payment' AND placed_at < ? AND before_lifecycle = 0
                        ORDER BY placed_at, id LIMIT ?
                        """).query([.integer(StoredTime.unixSeconds(placedBefore)), SQLValue(limit)]).map { try $0.string(0) }
                }
            },
            setStockBy: { typedSKU, quantity, now, actor in
                guard quantity >= 0 else { throw OrderStoreError.invalidQuantity }
                guard let sku = SKUIdentity.key(typedSKU) else { return StockUpdate(variants: 0, trimmedHolds: 0) }
                return try database.write { connection in
                    // One transaction: no hold or order comes between the new count and the trim,
                    // and the audit entry is written with the change.
                    let before = try connection.prepare("SELECT id, stock, inventory_tracked FROM variants WHERE sku_key = ?")
                        .query([.text(sku)]).map { (id: try $0.int64(0), stock: try $0.int64(1), tracked: try $0.bool(2)) }
                    try SQLAudit.insert(StockAudit.entries(sku: typedSKU.trimmingCharacters(in: .whitespacesAndNewlines),
                                                           quantity: quantity, before: before, actor: actor, now: now), connection)
                    let changed = try connection.prepare("""
                        UPDATE variants SET stock = ?, inventory_tracked = 1 WHERE sku_key = ? RETURNING id, allow_backorder
                        """).query([SQLValue(quantity), .text(sku)])
                    var trimmed = 0
                    for row in changed {
                        guard !(try row.bool(1)) else { continue }  // backorderable: nothing is held
                        trimmed += try SQLOrders.trimReservations(of: Variant.ID(try row.int64(0)), toFit: quantity,
                                                                  now: now, connection)
                    }
                    return StockUpdate(variants: changed.count, trimmedHolds: trimmed)
                }
            },
            takeReservationTrims: { shopper, now in
                let owner = SQLOrders.Owner(shopper)
                // Nearly every checkout step finds none: a read answers without the write lock.
                guard try database.withConnection({ connection in
                    try connection.prepare("SELECT 1 FROM reservation_trims WHERE \(owner.column) = ? LIMIT 1")
                        .first([owner.value]) != nil
                }) else { return [] }
                return try database.write { connection in
                    try connection.prepare("""
                        DELETE FROM reservation_trims WHERE \(owner.column) = ? RETURNING variant_id, held, kept, expires_at
                        """).query([owner.value])
                        .filter { try $0.int64(3) > StoredTime.unixSeconds(now) }
                        .map { ReservationTrim(variantID: Variant.ID(try $0.int64(0)), held: try $0.int(1), kept: try $0.int(2)) }
                        .sorted { $0.variantID.rawValue < $1.variantID.rawValue }
                }
            },
            placedOrder: { shopper, key in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        try SQLPlacement(connection: connection).order(idempotencyKey: key, ownerKey: OrderRules.ownerKey(shopper))
                    }
                }
            },
            checkout: { shopper in
                try database.withConnection { connection in
                    let owner = SQLOrders.Owner(shopper)
                    guard let row = try connection.prepare("SELECT id, state FROM checkouts WHERE \(owner.column) = ?")
                        .first([owner.value]) else { return nil }
                    guard let state = try? JSONDecoder().decode(CheckoutState.self, from: Data(try row.string(1).utf8)) else {
                        throw SQLiteStoreError.corruptValue(table: "checkouts", column: "state", rowID: try row.int64(0))
                    }
                    return state
                }
            },
            saveCheckout: { shopper, state in
                let json = try state.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                let owner = SQLOrders.Owner(shopper)
                try database.write { connection in
                    try connection.prepare("DELETE FROM checkouts WHERE \(owner.column) = ?").run([owner.value])
                    guard let json else { return }
                    try SQLOrders.requireOwner(shopper, connection)
                    try connection.prepare("INSERT INTO checkouts (\(owner.column), state, updated_at) VALUES (?, ?, ?)")
                        .run([owner.value, .text(json), .integer(StoredTime.unixSeconds(Date()))])
                }
            }
        )
    }
}

/// The SQL behind `OrderStore.sqlite`.
enum SQLOrders {
    /// The products with a live hold. From the holds (the `expires_at` index) to the variants by
    /// id: written as a join ordered by product, SQLite walked every variant in product order and
    /// probed the holds for each — ~10 ms of every uncached listing on 100 000 products, with
    /// no hold at all (`heldProductsAndHoldEndsStartFromTheHolds`).
    static let heldProducts = """
        SELECT DISTINCT product_id FROM variants
        WHERE id IN (SELECT variant_id FROM stock_reservations WHERE expires_at > ?) ORDER BY product_id
        """
    /// When the live holds end (`OrderStore.holdEnds`), from the `expires_at` index alone.
    static let holdEnds = "SELECT DISTINCT expires_at FROM stock_reservations WHERE expires_at > ? ORDER BY expires_at"

    /// Thrown out of a transaction to roll it back and answer `result`.
    struct Rollback<Result: Sendable>: Error {
        var result: Result
    }

    /// The columns that say whose a reservation, cart line or checkout is.
    struct Owner {
        /// `session_id` for a guest, `user_id` for an account (a fixed name: safe to splice into SQL).
        var column: String
        var value: SQLValue

        init(_ shopper: Shopper) {
            switch shopper {
            case let .guest(id): (column, value) = ("session_id", .text(id.rawValue))
            case let .account(id): (column, value) = ("user_id", .integer(id.rawValue))
            }
        }
    }

    /// What the stock rules need of a variant.
    struct VariantStock {
        var isTracked: Bool
        var allowsBackorder: Bool
        var isPublished: Bool
        /// Tracked and not backorderable: stock is counted, reserved and taken.
        var isLimited: Bool { isTracked && !allowsBackorder }
    }

    /// The variant's stock flags, or nil when it does not exist.
    static func stock(of variantID: Variant.ID, _ connection: Connection) throws -> VariantStock? {
        try connection.prepare("""
            SELECT v.inventory_tracked, v.allow_backorder, p.is_published
            FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?
            """).first([.integer(variantID.rawValue)]).map { row in
            VariantStock(isTracked: try row.bool(0), allowsBackorder: try row.bool(1), isPublished: try row.bool(2))
        }
    }

    /// `stock − live reservations of everyone but owner` (all of them when `owner` is nil),
    /// at least 0; nil when the variant does not exist.
    static func available(_ variantID: Variant.ID, excluding owner: Owner?, now: Date, _ connection: Connection) throws -> Int? {
        let notOwner = owner.map { "AND r.\($0.column) IS NOT ?3" } ?? ""
        var values: [SQLValue] = [.integer(variantID.rawValue), .integer(StoredTime.unixSeconds(now))]
        if let owner { values.append(owner.value) }
        return try connection.prepare("""
            SELECT max(v.stock - (SELECT COALESCE(SUM(r.quantity), 0) FROM stock_reservations r
                                  WHERE r.variant_id = ?1 AND r.expires_at > ?2 \(notOwner)), 0)
            FROM variants v WHERE v.id = ?1
            """).first(values)?.int(0)
    }

    /// Trims the live holds of every counted variant whose stock no longer covers them, as
    /// `setStock` does — after a catalog write that may have lowered stock (the back office's
    /// product form and bulk change, an import): before, those left every holder counting the
    /// others' holds, and the last units could not be sold until the holds ran out (found by a
    /// fresh tester). Starts from the live holds: none on most writes. Runs inside the caller's
    /// write transaction; returns how many holds were trimmed.
    static func trimHoldsToStock(now: Date, _ connection: Connection) throws -> Int {
        let over = try connection.prepare("""
            SELECT v.id, v.stock FROM variants v
            WHERE v.id IN (SELECT variant_id FROM stock_reservations WHERE expires_at > ?1)
              AND v.inventory_tracked = 1 AND v.allow_backorder = 0
              AND v.stock < (SELECT sum(r.quantity) FROM stock_reservations r WHERE r.variant_id = v.id AND r.expires_at > ?1)
            ORDER BY v.id
            """).query([.integer(StoredTime.unixSeconds(now))])
        var trimmed = 0
        for row in over {
            trimmed += try trimReservations(of: Variant.ID(try row.int64(0)), toFit: try row.int(1), now: now, connection)
        }
        return trimmed
    }

    /// Trims the live holds on a variant, latest taken first (`OrderRules.keptHolds`), until they
    /// fit `stock`, recording a `reservation_trims` row for each shopper; returns how many holds
    /// were trimmed. Runs inside the caller's write transaction.
    static func trimReservations(of variantID: Variant.ID, toFit stock: Int, now: Date, _ connection: Connection) throws -> Int {
        let holds = try connection.prepare("""
            SELECT id, session_id, user_id, quantity, expires_at FROM stock_reservations
            WHERE variant_id = ? AND expires_at > ? ORDER BY id
            """).query([.integer(variantID.rawValue), .integer(StoredTime.unixSeconds(now))])
        let kept = OrderRules.keptHolds(try holds.map { try $0.int(3) }, stock: stock)
        var trimmed = 0
        for (hold, kept) in zip(holds, kept) {
            let quantity = try hold.int(3)
            guard kept < quantity else { continue }
            trimmed += 1
            let id = SQLValue.integer(try hold.int64(0))
            if kept == 0 {
                try connection.prepare("DELETE FROM stock_reservations WHERE id = ?").run([id])
            } else {
                try connection.prepare("UPDATE stock_reservations SET quantity = ? WHERE id = ?").run([SQLValue(kept), id])
            }
            let owner = try hold.optionalString(1).map { Owner(.guest(Session.ID(rawValue: $0))) }
                ?? Owner(.account(User.ID(try hold.int64(2))))
            // Trimmed again before being told: the first `held` stays, the latest `kept` counts.
            try connection.prepare("""
                INSERT INTO reservation_trims (\(owner.column), variant_id, held, kept, expires_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (\(owner.column), variant_id) WHERE \(owner.column) IS NOT NULL
                DO UPDATE SET kept = min(kept, excluded.kept), expires_at = excluded.expires_at
                """).run([owner.value, .integer(variantID.rawValue), SQLValue(quantity), SQLValue(kept),
                          .integer(try hold.int64(4))])
        }
        return trimmed
    }

    /// Throws unless the shopper's guest session or account is stored.
    static func requireOwner(_ shopper: Shopper, _ connection: Connection) throws {
        switch shopper {
        case let .guest(id):
            guard try connection.prepare("SELECT 1 FROM sessions WHERE id = ?").first([.text(id.rawValue)]) != nil else {
                throw SessionStoreError.sessionNotFound(id)
            }
        case let .account(id):
            guard try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(id.rawValue)]) != nil else {
                throw AccountStoreError.userNotFound
            }
        }
    }

    static func insert(_ order: Order, guestTokenHash: String?, _ connection: Connection) throws {
        try connection.prepare("""
            INSERT INTO orders (\(StoredOrder.insertColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run(StoredOrder.values(order, guestTokenHash: guestTokenHash).map(SQLValue.init))
        let insertLine = try connection.prepare("""
            INSERT INTO order_lines (\(StoredOrder.lineInsertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for values in StoredOrder.lineValues(order) { try insertLine.run(values.map(SQLValue.init)) }
    }

    /// Orders matching `condition` (SQL over `orders`, with `values`), newest first, with their lines.
    static func orders(where condition: String, _ values: [SQLValue], _ connection: Connection,
                       limit: Int? = nil, offset: Int = 0) throws -> [Order] {
        let page = limit.map { " LIMIT \($0) OFFSET \(offset)" } ?? ""
        let rows = try connection.prepare("""
            SELECT \(StoredOrder.columns) FROM orders WHERE \(condition) ORDER BY placed_at DESC, id DESC\(page)
            """).query(values)
        guard !rows.isEmpty else { return [] }
        do {
            var linesByOrder: [Int64: [StoredOrder.StoredLine]] = [:]
            for row in try connection.prepare("""
                SELECT \(StoredOrder.lineColumns) FROM order_lines
                WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, position
                """).query([SQLCatalog.jsonIDs(try rows.map { try $0.int64(0) })]) {
                let line = try StoredOrder.line(row)
                linesByOrder[line.orderID, default: []].append(line)
            }
            return try rows.map { row in try StoredOrder.order(row, lines: linesByOrder[try row.int64(0)] ?? []) }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw SQLiteStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }
}

/// The reads and conditional writes of one order placement, on the connection of the
/// `placeOrder` transaction (the rules are `OrderPlacement.place`).
struct SQLPlacement: OrderPlacementTransaction {
    let connection: Connection

    func order(idempotencyKey: String, ownerKey: String) throws -> Order? {
        guard let orderID = try connection.prepare("SELECT order_id FROM order_idempotency_keys WHERE owner = ? AND key = ?")
            .first([.text(ownerKey), .text(idempotencyKey)])?.int64(0) else { return nil }
        return try SQLOrders.orders(where: "id = ?", [.integer(orderID)], connection).first
    }

    func userExists(_ id: User.ID) throws -> Bool {
        try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(id.rawValue)]) != nil
    }

    func variants(_ ids: [Variant.ID]) throws -> [Variant.ID: PlacementVariant] {
        let read = try connection.prepare("""
            SELECT \(StoredOrder.placementColumns)
            FROM variants v JOIN products p ON p.id = v.product_id LEFT JOIN categories c ON c.id = p.category_id
            WHERE v.id = ? AND p.is_published
            """)
        var found: [Variant.ID: PlacementVariant] = [:]
        do {
            for id in ids {
                guard let row = try read.first([.integer(id.rawValue)]) else { continue }
                found[id] = try StoredOrder.placementVariant(row, id: id)
            }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw SQLiteStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
        return found
    }

    func campaign(voucherCode: VoucherCode) throws -> Campaign? {
        try connection.prepare(SQLCampaigns.select + " WHERE voucher_code = ?").first([.text(voucherCode.normalized)])
            .map(SQLCampaigns.campaign)
    }

    func voucherUses(_ userID: User.ID, code: String) throws -> Int {
        try connection.prepare("""
            SELECT count(*) FROM orders WHERE user_id = ? AND voucher_code = ? AND status <> 'cancelled'
            """).first([.integer(userID.rawValue), .text(code)])?.int(0) ?? 0
    }

    func takeStock(_ variantID: Variant.ID, _ quantity: Int, for shopper: Shopper, now: Date) throws -> Bool {
        let owner = SQLOrders.Owner(shopper)
        try connection.prepare("""
            UPDATE variants SET stock = stock - ?1
            WHERE id = ?2 AND stock - (SELECT COALESCE(SUM(r.quantity), 0) FROM stock_reservations r
                                       WHERE r.variant_id = ?2 AND r.expires_at > ?3 AND r.\(owner.column) IS NOT ?4) >= ?1
            """).run([SQLValue(quantity), .integer(variantID.rawValue), .integer(StoredTime.unixSeconds(now)), owner.value])
        return connection.changes == 1
    }

    func available(_ variantID: Variant.ID, excluding shopper: Shopper, now: Date) throws -> Int {
        try SQLOrders.available(variantID, excluding: SQLOrders.Owner(shopper), now: now, connection) ?? 0
    }

    func nextOrderID() throws -> Int64 {
        try connection.prepare("SELECT COALESCE(max(id), 0) + 1 FROM orders").first()?.int64(0) ?? 1
    }

    func insert(_ order: Order, for request: OrderRequest, orderedVariants: [Variant.ID],
                stockTaken: [(Variant.ID, Int)], confirmation: OutboxDraft?) throws -> Int {
        try SQLOrders.insert(order, guestTokenHash: request.guestTokenHash, connection)
        let recordStock = try connection.prepare("INSERT INTO order_stock (order_id, variant_id, quantity) VALUES (?, ?, ?)")
        for (variantID, quantity) in stockTaken {
            try recordStock.run([.integer(order.id.rawValue), .integer(variantID.rawValue), SQLValue(quantity)])
        }
        try connection.prepare("INSERT INTO order_idempotency_keys (owner, key, order_id) VALUES (?, ?, ?)")
            .run([.text(OrderRules.ownerKey(request.shopper)), .text(request.idempotencyKey), .integer(order.id.rawValue)])

        // The cart loses the ordered lines — each its variant and chosen values, so a line of the
        // same variant with another pick that was not ticked stays; the reservation became the
        // order's stock.
        let owner = SQLOrders.Owner(request.shopper)
        let ordered = order.lines.compactMap { line in
            line.variantID.map { OrderedLine(variant: $0.rawValue, chosen: line.chosen.text) }
        }
        try connection.prepare("""
            DELETE FROM cart_lines WHERE \(owner.column) = ? AND EXISTS (
                SELECT 1 FROM json_each(?) o WHERE json_extract(o.value, '$.variant') = cart_lines.variant_id
                    AND json_extract(o.value, '$.chosen') = cart_lines.chosen_values)
            """).run([owner.value, .text(String(decoding: try JSONEncoder().encode(ordered), as: UTF8.self))])
        let removed = connection.changes
        try connection.prepare("DELETE FROM stock_reservations WHERE \(owner.column) = ?").run([owner.value])
        try connection.prepare("DELETE FROM reservation_trims WHERE \(owner.column) = ?").run([owner.value])

        if let message = confirmation { try AccountStore.enqueue(message, connection) }
        return removed
    }
}

/// An ordered cart line as the placement's cart clean-up matches it (JSON for `json_each`).
private struct OrderedLine: Encodable {
    var variant: Int64
    var chosen: String
}


/// The reads and writes of one order action, inside `apply`'s write transaction (the rules are
/// `OrderActions.apply`).
struct SQLOrderAction: OrderActionTransaction {
    let connection: Connection

    func queue(_ message: OutboxDraft) throws { try AccountStore.enqueue(message, connection) }

    func audit(_ entries: [AuditEntry]) throws { try SQLAudit.insert(entries, connection) }

    func lockOrder(number: String) throws -> (any StoredRow)? {
        try connection.prepare("SELECT \(OrderActions.lockColumns) FROM orders WHERE number = ?").first([.text(number)])
    }

    func setStatus(_ order: Order.ID, _ status: OrderStatus, fulfilment: Fulfilment?) throws {
        try connection.prepare("""
            UPDATE orders SET status = ?, carrier = coalesce(?, carrier), tracking_number = coalesce(?, tracking_number)
            WHERE id = ?
            """).run([.text(status.rawValue), SQLValue(fulfilment?.carrier), SQLValue(fulfilment?.trackingNumber),
                      .integer(order.rawValue)])
    }

    func returnStock(of order: Order.ID, only: [Variant.ID: Int]?) throws -> Int {
        let id = SQLValue.integer(order.rawValue)
        if let only {
            var items = 0
            for (variant, wanted) in only.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let key: [SQLValue] = [id, .integer(variant.rawValue)]
                guard let taken = try connection.prepare("SELECT quantity FROM order_stock WHERE order_id = ? AND variant_id = ?")
                    .first(key)?.int(0) else { continue }
                let back = min(wanted, taken)
                try connection.prepare("UPDATE variants SET stock = stock + ? WHERE id = ?").run([.integer(Int64(back)), .integer(variant.rawValue)])
                if connection.changes == 1 { items += back }
                if back < taken {
                    try connection.prepare("UPDATE order_stock SET quantity = quantity - ? WHERE order_id = ? AND variant_id = ?")
                        .run([.integer(Int64(back))] + key)
                } else {
                    try connection.prepare("DELETE FROM order_stock WHERE order_id = ? AND variant_id = ?").run(key)
                }
            }
            return items
        }
        let items = try connection.prepare("""
            SELECT coalesce(sum(s.quantity), 0) FROM order_stock s JOIN variants v ON v.id = s.variant_id WHERE s.order_id = ?
            """).first([id])?.int(0) ?? 0
        try connection.prepare("""
            UPDATE variants SET stock = stock + (SELECT s.quantity FROM order_stock s WHERE s.order_id = ?1 AND s.variant_id = variants.id)
            WHERE id IN (SELECT variant_id FROM order_stock WHERE order_id = ?1)
            """).run([id])
        try connection.prepare("DELETE FROM order_stock WHERE order_id = ?").run([id])
        return items
    }

    func addRefunded(_ quantity: Int, toLine position: Int, of order: Order.ID) throws {
        try connection.prepare("UPDATE order_lines SET refunded_quantity = refunded_quantity + ? WHERE order_id = ? AND position = ?")
            .run([.integer(Int64(quantity)), .integer(order.rawValue), .integer(Int64(position))])
    }

    func record(_ event: OrderEvent, of order: Order.ID) throws {
        try connection.prepare("""
            INSERT INTO order_events (order_id, \(OrderActions.eventColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run(OrderActions.values(event, of: order).map(SQLValue.init))
    }

    func order(_ id: Order.ID) throws -> Order {
        guard let order = try SQLOrders.orders(where: "id = ?", [.integer(id.rawValue)], connection).first else {
            throw SQLiteStoreError.corruptValue(table: "orders", column: "id", rowID: id.rawValue)
        }
        return order
    }
}
