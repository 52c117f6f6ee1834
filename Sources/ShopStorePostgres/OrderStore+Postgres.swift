public import ShopStore
import Foundation
import Postgres
import ShopCore

extension OrderStore {
    /// Orders, stock holds, checkouts in progress and stock changes in PostgreSQL (migrations 6
    /// and 9), with the behaviour of `OrderStore.sqlite` (the same contract suite): placement is
    /// `OrderPlacement.place` over `PGPlacement`; rows are read and written through `StoredOrder`.
    ///
    /// Where SQLite's single writer orders everything, here:
    /// - `reserve` and `placeOrder` lock the shopper's row first (`SessionStore.lockOwner`: one
    ///   shopper's holds, cart and orders take turns, so a double-clicked order finds the first
    ///   one's idempotency key), then the variants they count, in id order (`FOR NO KEY UPDATE`),
    ///   so the availability each computes — stock minus other shoppers' live holds — stays true
    ///   until it commits: two shoppers never both hold, nor both buy, the last unit.
    ///   `setStock` updates the variant rows (locking them) before it trims their holds.
    /// - Stock is still taken by the conditional `UPDATE … WHERE stock − holds ≥ q` of SQLite.
    /// - An order's id comes from its identity sequence, so servers never pick the same number.
    /// - Holds bump the catalog version at commit (migration 6's trigger), as on SQLite.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> OrderStore {
        OrderStore(
            reserve: { shopper, lines, until, now in
                let wanted = try OrderRules.quantities(of: lines)
                do {
                    return try database.transaction { connection in
                        try SessionStore.lockOwner(shopper, connection)
                        let owner = SessionStore.Owner(shopper)
                        let stocks = try PGOrders.lockStock(of: wanted.map(\.0), connection)
                        let untilSeconds = StoredTime.unixSeconds(until)
                        let (short, held) = try OrderRules.holds(
                            for: wanted, stock: { stocks[$0].map { ($0.isPublished, $0.isLimited) } },
                            available: { try PGOrders.available($0, excluding: owner, now: now, connection) ?? 0 })
                        if !short.isEmpty { throw PGOrders.Rollback(result: ReservationResult.insufficientStock(short)) }
                        // Rows of variants held again are updated in place: their id keeps the
                        // order holds were taken in, which setStock trims by.
                        try connection.run("""
                            DELETE FROM stock_reservations WHERE \(owner.column) = $1 AND NOT (variant_id = ANY($2::bigint[]))
                            """, [owner.value, PostgresArray.integers(held.map(\.0.rawValue))])
                        for (variantID, quantity) in held {
                            try connection.run("""
                                INSERT INTO stock_reservations (\(owner.column), variant_id, quantity, expires_at)
                                VALUES ($1, $2, $3, $4)
                                ON CONFLICT (\(owner.column), variant_id) WHERE \(owner.column) IS NOT NULL
                                DO UPDATE SET quantity = excluded.quantity, expires_at = excluded.expires_at
                                """, [owner.value, .integer(variantID.rawValue), PostgresValue(quantity), .integer(untilSeconds)])
                        }
                        return .reserved(until: StoredTime.date(unixSeconds: untilSeconds))
                    }
                } catch let rollback as PGOrders.Rollback<ReservationResult> {
                    return rollback.result
                }
            },
            releaseReservation: { shopper in
                let owner = SessionStore.Owner(shopper)
                // Most cart changes have nothing held: one read answers that (every add to cart calls this).
                guard try database.withConnection({ connection in
                    try connection.first("""
                        SELECT 1 FROM stock_reservations WHERE \(owner.column) = $1
                        UNION ALL SELECT 1 FROM reservation_trims WHERE \(owner.column) = $1 LIMIT 1
                        """, [owner.value]) != nil
                }) else { return }
                try database.transaction { connection in
                    try connection.run("DELETE FROM stock_reservations WHERE \(owner.column) = $1", [owner.value])
                    try connection.run("DELETE FROM reservation_trims WHERE \(owner.column) = $1", [owner.value])
                }
            },
            sweepExpiredReservations: { now in
                // Several servers may sweep at once: each row is deleted by one of them, and each
                // counts only what it deleted.
                try database.transaction { connection in
                    let swept = try connection.run("DELETE FROM stock_reservations WHERE expires_at <= $1",
                                                   [.integer(StoredTime.unixSeconds(now))])
                    try connection.run("DELETE FROM reservation_trims WHERE expires_at <= $1", [.integer(StoredTime.unixSeconds(now))])
                    return swept
                }
            },
            available: { variantIDs, shopper, now in
                // One statement for every variant (one snapshot, one round trip): a cart page and
                // every add to cart ask this.
                guard !variantIDs.isEmpty else { return [:] }
                let owner = shopper.map(SessionStore.Owner.init)
                let notOwner = owner.map { "AND r.\($0.column) IS DISTINCT FROM $3" } ?? ""
                var values: [PostgresValue] = [PostgresArray.integers(variantIDs.map(\.rawValue)),
                                               .integer(StoredTime.unixSeconds(now))]
                if let owner { values.append(owner.value) }
                let rows = try database.withConnection { connection in
                    try connection.query("""
                        SELECT v.id, v.inventory_tracked, v.allow_backorder, p.is_published,
                               GREATEST(v.stock - (SELECT COALESCE(SUM(r.quantity), 0) FROM stock_reservations r
                                                   WHERE r.variant_id = v.id AND r.expires_at > $2 \(notOwner)), 0)::bigint
                        FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ANY($1::bigint[])
                        """, values)
                }
                // A variant may be asked twice (two cart lines of one variant with other picked options).
                var result: [Variant.ID: Int?] = Dictionary(variantIDs.map { ($0, .some(0)) }, uniquingKeysWith: { first, _ in first })
                for row in rows {
                    let stock = try PGOrders.VariantStock(row, from: 1)
                    guard stock.isPublished else { continue }
                    result[Variant.ID(try row.int64(0))] = stock.isLimited ? .some(try row.int(4)) : .some(nil)
                }
                return result
            },
            heldProducts: { now in
                try database.withConnection { connection in
                    try connection.query("""
                        SELECT DISTINCT product_id FROM variants
                        WHERE id IN (SELECT variant_id FROM stock_reservations WHERE expires_at > $1) ORDER BY product_id
                        """, [.integer(StoredTime.unixSeconds(now))]).map { Product.ID(try $0.int64(0)) }
                }
            },
            holdEnds: { now in
                try database.withConnection { connection in
                    try connection.query("""
                        SELECT DISTINCT expires_at FROM stock_reservations WHERE expires_at > $1 ORDER BY expires_at
                        """, [.integer(StoredTime.unixSeconds(now))]).map { StoredTime.date(unixSeconds: try $0.int64(0)) }
                }
            },
            placeOrder: { request, now in
                do {
                    return try database.transaction { connection in
                        // Not a check: an unknown guest session places its order as on SQLite.
                        try SessionStore.lockOwner(request.shopper, ifStored: true, connection)
                        return try OrderPlacement.place(request, now: now, in: PGPlacement(connection: connection))
                    }
                } catch let rollback as OrderPlacement.Rollback {
                    return rollback.result
                }
            },
            voucherUses: { userID, code in
                try database.withConnection { connection in try PGOrders.voucherUses(userID, code: code, connection) }
            },
            order: { number in
                try PGOrders.read(database) { try PGOrders.orders(where: "number = $1", [.text(number)], $0).first }
            },
            orders: { userID in
                try PGOrders.read(database) { try PGOrders.orders(where: "user_id = $1", [.integer(userID.rawValue)], $0) }
            },
            guestOrder: { tokenHash in
                try PGOrders.read(database) { try PGOrders.orders(where: "guest_token_hash = $1", [.text(tokenHash)], $0).first }
            },
            findOrders: { query in
                try PGOrders.read(database) { connection in
                    let condition = query.condition
                    let sql = PGCatalog.numbered(condition.sql)
                    let values = condition.values.map(PostgresValue.init)
                    let total = try connection.first("SELECT count(*) FROM orders WHERE \(sql)", values)?.int64(0) ?? 0
                    let orders = try PGOrders.orders(where: sql, values, connection, limit: query.limit, offset: query.offset)
                    return OrderPage(orders: orders, total: Int(total))
                }
            },
            apply: { request, now in
                do {
                    return try database.transaction { connection in
                        try OrderActions.apply(request, now: now, in: PGOrderAction(connection: connection))
                    }
                } catch let corrupt as StoredCatalog.CorruptValue {
                    throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
                }
            },
            history: { orderID in
                try database.withConnection { connection in
                    do {
                        return try connection.query("""
                            SELECT \(OrderActions.eventColumns), id FROM order_events WHERE order_id = $1 ORDER BY id
                            """, [.integer(orderID.rawValue)]).map { row in try OrderActions.event(row, id: try row.int64(9)) }
                    } catch let corrupt as StoredCatalog.CorruptValue {
                        throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
                    }
                }
            },
            unpaidOrders: { placedBefore, limit in
                try database.withConnection { connection in
                    try connection.query("""
                        SELECT number FROM orders WHERE status = 'awaiting_payment' AND placed_at < $1 AND NOT before_lifecycle
                        ORDER BY placed_at, id LIMIT $2
                        """, [.integer(StoredTime.unixSeconds(placedBefore)), PostgresValue(limit)]).map { try $0.string(0) }
                }
            },
            setStockBy: { typedSKU, quantity, now, actor in
                guard quantity >= 0 else { throw OrderStoreError.invalidQuantity }
                guard let sku = SKUIdentity.key(typedSKU) else { return StockUpdate(variants: 0, trimmedHolds: 0) }
                return try database.transaction { connection in
                    // The update locks the variants: no hold or order comes between the new count and the trim.
                    // The audit entry is written with the change, from the rows as locked before it.
                    let before = try connection.query(
                        "SELECT id, stock, inventory_tracked FROM variants WHERE sku_key = $1 ORDER BY id FOR UPDATE", [.text(sku)])
                        .map { (id: try $0.int64(0), stock: try $0.int64(1), tracked: try $0.bool(2)) }
                    try PGAudit.insert(StockAudit.entries(sku: typedSKU.trimmingCharacters(in: .whitespacesAndNewlines),
                                                          quantity: quantity, before: before, actor: actor, now: now), connection)
                    let changed = try connection.query("""
                        UPDATE variants SET stock = $1, inventory_tracked = true WHERE sku_key = $2 RETURNING id, allow_backorder
                        """, [PostgresValue(quantity), .text(sku)])
                    var trimmed = 0
                    for row in changed {
                        guard !(try row.bool(1)) else { continue }  // backorderable: nothing is held
                        trimmed += try PGOrders.trimReservations(of: Variant.ID(try row.int64(0)), toFit: quantity, now: now,
                                                                 connection)
                    }
                    return StockUpdate(variants: changed.count, trimmedHolds: trimmed)
                }
            },
            takeReservationTrims: { shopper, now in
                let owner = SessionStore.Owner(shopper)
                // Nearly every checkout step finds none: one read answers that.
                guard try database.withConnection({ connection in
                    try connection.first("SELECT 1 FROM reservation_trims WHERE \(owner.column) = $1 LIMIT 1", [owner.value]) != nil
                }) else { return [] }
                return try database.transaction { connection in
                    try connection.query("""
                        DELETE FROM reservation_trims WHERE \(owner.column) = $1 RETURNING variant_id, held, kept, expires_at
                        """, [owner.value])
                        .filter { try $0.int64(3) > StoredTime.unixSeconds(now) }
                        .map { ReservationTrim(variantID: Variant.ID(try $0.int64(0)), held: try $0.int(1), kept: try $0.int(2)) }
                        .sorted { $0.variantID.rawValue < $1.variantID.rawValue }
                }
            },
            placedOrder: { shopper, key in
                try PGOrders.read(database) {
                    try PGPlacement(connection: $0).order(idempotencyKey: key, ownerKey: OrderRules.ownerKey(shopper))
                }
            },
            checkout: { shopper in
                let owner = SessionStore.Owner(shopper)
                return try database.withConnection { connection in
                    guard let row = try connection.first("SELECT id, state FROM checkouts WHERE \(owner.column) = $1",
                                                         [owner.value]) else { return nil }
                    guard let state = try? JSONDecoder().decode(CheckoutState.self, from: Data(try row.string(1).utf8)) else {
                        throw PostgresStoreError.corruptValue(table: "checkouts", column: "state", rowID: try row.int64(0))
                    }
                    return state
                }
            },
            saveCheckout: { shopper, state in
                let json = try state.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                let owner = SessionStore.Owner(shopper)
                try database.transaction { connection in
                    guard let json else {
                        try connection.run("DELETE FROM checkouts WHERE \(owner.column) = $1", [owner.value])
                        return
                    }
                    try SessionStore.lockOwner(shopper, connection)
                    try connection.run("""
                        INSERT INTO checkouts (\(owner.column), state, updated_at) VALUES ($1, $2, $3)
                        ON CONFLICT (\(owner.column)) WHERE \(owner.column) IS NOT NULL
                        DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at
                        """, [owner.value, .text(json), .integer(StoredTime.unixSeconds(Date()))])
                }
            }
        )
    }
}

/// The SQL behind `OrderStore.postgres`.
enum PGOrders {
    /// Thrown out of a transaction to roll it back and answer `result`.
    struct Rollback<Result: Sendable>: Error {
        var result: Result
    }

    /// What the stock rules need of a variant.
    struct VariantStock {
        var isTracked: Bool
        var allowsBackorder: Bool
        var isPublished: Bool
        /// Tracked and not backorderable: stock is counted, reserved and taken.
        var isLimited: Bool { isTracked && !allowsBackorder }

        init(_ row: PostgresRow, from first: Int) throws {
            isTracked = try row.bool(first)
            allowsBackorder = try row.bool(first + 1)
            isPublished = try row.bool(first + 2)
        }
    }

    /// Runs a read in one `REPEATABLE READ` snapshot (an order and its lines agree).
    static func read<T>(_ database: PostgresDatabase, _ body: (PostgresConnection) throws -> T) throws -> T {
        try database.pool.transaction(.repeatableRead, attempts: 3, body)
    }

    /// Locks the variants (in id order, so two transactions never wait for each other in a
    /// circle) until the transaction ends, and gives their stock flags; unknown ids are left out.
    static func lockStock(of variantIDs: [Variant.ID], _ connection: PostgresConnection) throws -> [Variant.ID: VariantStock] {
        try lockProducts(of: variantIDs, connection)
        var result: [Variant.ID: VariantStock] = [:]
        for row in try connection.query("""
            SELECT v.id, v.inventory_tracked, v.allow_backorder, p.is_published
            FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ANY($1::bigint[])
            ORDER BY v.id FOR NO KEY UPDATE OF v
            """, [PostgresArray.integers(variantIDs.map(\.rawValue))]) {
            result[Variant.ID(try row.int64(0))] = try VariantStock(row, from: 1)
        }
        return result
    }

    /// Locks the products of the variants, in id order: a stock change updates its product's
    /// price and availability (migration 1's trigger), so without this two orders for variants of
    /// two products, in opposite orders, would wait for each other on the product rows.
    static func lockProducts(of variantIDs: [Variant.ID], _ connection: PostgresConnection) throws {
        try connection.query("""
            SELECT 1 FROM products WHERE id IN (SELECT product_id FROM variants WHERE id = ANY($1::bigint[]))
            ORDER BY id FOR NO KEY UPDATE
            """, [PostgresArray.integers(variantIDs.map(\.rawValue))])
    }

    /// `stock − live holds of everyone but owner` (all of them when `owner` is nil), at least 0;
    /// nil when the variant does not exist.
    static func available(_ variantID: Variant.ID, excluding owner: SessionStore.Owner?, now: Date,
                          _ connection: PostgresConnection) throws -> Int? {
        let notOwner = owner.map { "AND r.\($0.column) IS DISTINCT FROM $3" } ?? ""
        var values: [PostgresValue] = [.integer(variantID.rawValue), .integer(StoredTime.unixSeconds(now))]
        if let owner { values.append(owner.value) }
        return try connection.first("""
            SELECT GREATEST(v.stock - (SELECT COALESCE(SUM(r.quantity), 0) FROM stock_reservations r
                                       WHERE r.variant_id = $1 AND r.expires_at > $2 \(notOwner)), 0)::bigint
            FROM variants v WHERE v.id = $1
            """, values)?.int(0)
    }

    static func voucherUses(_ userID: User.ID, code: String, _ connection: PostgresConnection) throws -> Int {
        try connection.first("""
            SELECT count(*) FROM orders WHERE user_id = $1 AND voucher_code = $2 AND status <> 'cancelled'
            """, [.integer(userID.rawValue), .text(code)])?.int(0) ?? 0
    }

    /// Trims the live holds of every counted variant whose stock no longer covers them, as
    /// `setStock` does, after a catalog write that may have lowered stock (SQLite's
    /// `SQLOrders.trimHoldsToStock`). The variants are locked first, as `reserve` locks them.
    /// Runs inside the caller's transaction; returns how many holds were trimmed.
    static func trimHoldsToStock(now: Date, _ connection: PostgresConnection) throws -> Int {
        let over = try connection.query("""
            SELECT v.id, v.stock FROM variants v
            WHERE v.id IN (SELECT variant_id FROM stock_reservations WHERE expires_at > $1)
              AND v.inventory_tracked AND NOT v.allow_backorder
              AND v.stock < (SELECT sum(r.quantity) FROM stock_reservations r WHERE r.variant_id = v.id AND r.expires_at > $1)
            ORDER BY v.id FOR UPDATE OF v
            """, [.integer(StoredTime.unixSeconds(now))])
        var trimmed = 0
        for row in over {
            trimmed += try trimReservations(of: Variant.ID(try row.int64(0)), toFit: try row.int(1), now: now, connection)
        }
        return trimmed
    }

    /// Trims the live holds on a variant, latest taken first (`OrderRules.keptHolds`), until they
    /// fit `stock`, recording a `reservation_trims` row for each shopper; returns how many holds
    /// were trimmed. Runs inside the caller's transaction, which holds the variant's row lock.
    static func trimReservations(of variantID: Variant.ID, toFit stock: Int, now: Date,
                                 _ connection: PostgresConnection) throws -> Int {
        let holds = try connection.query("""
            SELECT id, session_id, user_id, quantity, expires_at FROM stock_reservations
            WHERE variant_id = $1 AND expires_at > $2 ORDER BY id
            """, [.integer(variantID.rawValue), .integer(StoredTime.unixSeconds(now))])
        let kept = OrderRules.keptHolds(try holds.map { try $0.int(3) }, stock: stock)
        var trimmed = 0
        for (hold, kept) in zip(holds, kept) {
            let quantity = try hold.int(3)
            guard kept < quantity else { continue }
            trimmed += 1
            let id = PostgresValue.integer(try hold.int64(0))
            if kept == 0 {
                try connection.run("DELETE FROM stock_reservations WHERE id = $1", [id])
            } else {
                try connection.run("UPDATE stock_reservations SET quantity = $1 WHERE id = $2", [PostgresValue(kept), id])
            }
            let owner = try hold.optionalString(1).map { SessionStore.Owner(.guest(Session.ID(rawValue: $0))) }
                ?? SessionStore.Owner(.account(User.ID(try hold.int64(2))))
            // Trimmed again before being told: the first `held` stays, the latest `kept` counts.
            try connection.run("""
                INSERT INTO reservation_trims (\(owner.column), variant_id, held, kept, expires_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (\(owner.column), variant_id) WHERE \(owner.column) IS NOT NULL
                DO UPDATE SET kept = LEAST(reservation_trims.kept, excluded.kept), expires_at = excluded.expires_at
                """, [owner.value, .integer(variantID.rawValue), PostgresValue(quantity), PostgresValue(kept),
                      .integer(try hold.int64(4))])
        }
        return trimmed
    }

    /// Orders matching `condition` (SQL over `orders`, with `values`), newest first, with their lines.
    static func orders(where condition: String, _ values: [PostgresValue], _ connection: PostgresConnection,
                       limit: Int? = nil, offset: Int = 0) throws -> [Order] {
        let page = limit.map { " LIMIT \($0) OFFSET \(offset)" } ?? ""
        let rows = try connection.query("""
            SELECT \(StoredOrder.columns) FROM orders WHERE \(condition) ORDER BY placed_at DESC, id DESC\(page)
            """, values)
        guard !rows.isEmpty else { return [] }
        do {
            var linesByOrder: [Int64: [StoredOrder.StoredLine]] = [:]
            for row in try connection.query("""
                SELECT \(StoredOrder.lineColumns) FROM order_lines WHERE order_id = ANY($1::bigint[]) ORDER BY order_id, position
                """, [PostgresArray.integers(try rows.map { try $0.int64(0) })]) {
                let line = try StoredOrder.line(row)
                linesByOrder[line.orderID, default: []].append(line)
            }
            return try rows.map { row in try StoredOrder.order(row, lines: linesByOrder[try row.int64(0)] ?? []) }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }
}

/// The reads and conditional writes of one order placement, on the connection of the
/// `placeOrder` transaction (the rules are `OrderPlacement.place`).
struct PGPlacement: OrderPlacementTransaction {
    let connection: PostgresConnection

    func order(idempotencyKey: String, ownerKey: String) throws -> Order? {
        guard let orderID = try connection.first("SELECT order_id FROM order_idempotency_keys WHERE owner = $1 AND key = $2",
                                                 [.text(ownerKey), .text(idempotencyKey)])?.int64(0) else { return nil }
        return try PGOrders.orders(where: "id = $1", [.integer(orderID)], connection).first
    }

    func userExists(_ id: User.ID) throws -> Bool {
        try connection.first("SELECT 1 FROM users WHERE id = $1", [.integer(id.rawValue)]) != nil
    }

    /// Also locks their products, then the variants, each in id order, until the order commits
    /// or rolls back: the stock
    /// each line takes and what others hold are then read with nobody else taking or holding.
    func variants(_ ids: [Variant.ID]) throws -> [Variant.ID: PlacementVariant] {
        try PGOrders.lockProducts(of: ids, connection)
        var found: [Variant.ID: PlacementVariant] = [:]
        do {
            for row in try connection.query("""
                SELECT v.id, \(StoredOrder.placementColumns.replacingOccurrences(of: "\n", with: " "))
                FROM variants v JOIN products p ON p.id = v.product_id LEFT JOIN categories c ON c.id = p.category_id
                WHERE v.id = ANY($1::bigint[]) AND p.is_published ORDER BY v.id FOR NO KEY UPDATE OF v
                """, [PostgresArray.integers(ids.map(\.rawValue))]) {
                let id = Variant.ID(try row.int64(0))
                found[id] = try StoredOrder.placementVariant(ShiftedRow(row: row, by: 1), id: id)
            }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
        return found
    }

    func campaign(voucherCode: VoucherCode) throws -> Campaign? {
        try connection.first(PostgresCampaigns.select + " WHERE voucher_code = $1", [.text(voucherCode.normalized)])
            .map(PostgresCampaigns.campaign)
    }

    func voucherUses(_ userID: User.ID, code: String) throws -> Int {
        try PGOrders.voucherUses(userID, code: code, connection)
    }

    func takeStock(_ variantID: Variant.ID, _ quantity: Int, for shopper: Shopper, now: Date) throws -> Bool {
        let owner = SessionStore.Owner(shopper)
        return try connection.run("""
            UPDATE variants SET stock = stock - $1
            WHERE id = $2 AND stock - (SELECT COALESCE(SUM(r.quantity), 0) FROM stock_reservations r
                                       WHERE r.variant_id = $2 AND r.expires_at > $3
                                         AND r.\(owner.column) IS DISTINCT FROM $4) >= $1
            """, [PostgresValue(quantity), .integer(variantID.rawValue), .integer(StoredTime.unixSeconds(now)), owner.value]) == 1
    }

    func available(_ variantID: Variant.ID, excluding shopper: Shopper, now: Date) throws -> Int {
        try PGOrders.available(variantID, excluding: SessionStore.Owner(shopper), now: now, connection) ?? 0
    }

    func nextOrderID() throws -> Int64 {
        try connection.first("SELECT nextval(pg_get_serial_sequence('orders', 'id'))")?.int64(0) ?? 1
    }

    func insert(_ order: Order, for request: OrderRequest, orderedVariants: [Variant.ID],
                stockTaken: [(Variant.ID, Int)], confirmation: OutboxDraft?) throws -> Int {
        try connection.run("""
            INSERT INTO orders (\(StoredOrder.insertColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
            """, StoredOrder.values(order, guestTokenHash: request.guestTokenHash).map(PostgresValue.init))
        for values in StoredOrder.lineValues(order) {
            try connection.run("""
                INSERT INTO order_lines (\(StoredOrder.lineInsertColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                """, values.map(PostgresValue.init))
        }
        try connection.run("INSERT INTO order_idempotency_keys (owner, key, order_id) VALUES ($1, $2, $3)",
                           [.text(OrderRules.ownerKey(request.shopper)), .text(request.idempotencyKey), .integer(order.id.rawValue)])
        // The cart loses the ordered lines — each its variant and chosen values — and the
        // shopper's holds became the order's stock.
        let owner = SessionStore.Owner(request.shopper)
        let ordered = order.lines.compactMap { line in line.variantID.map { ($0.rawValue, line.chosen.text) } }
        let removed = try connection.run("""
            DELETE FROM cart_lines WHERE \(owner.column) = $1
              AND (variant_id, chosen_values) IN (SELECT * FROM unnest($2::bigint[], $3::text[]))
            """, [owner.value, PostgresArray.integers(ordered.map(\.0)), PostgresArray.texts(ordered.map(\.1))])
        try connection.run("DELETE FROM stock_reservations WHERE \(owner.column) = $1", [owner.value])
        try connection.run("DELETE FROM reservation_trims WHERE \(owner.column) = $1", [owner.value])
        if let confirmation { try AccountStore.enqueue(confirmation, connection) }
        if !stockTaken.isEmpty {
            try connection.run("""
                INSERT INTO order_stock (order_id, variant_id, quantity) SELECT $1, * FROM unnest($2::bigint[], $3::bigint[])
                """, [.integer(order.id.rawValue), PostgresArray.integers(stockTaken.map(\.0.rawValue)),
                      PostgresArray.integers(stockTaken.map { Int64($0.1) })])
        }
        return removed
    }
}

/// The reads and writes of one order action, inside `apply`'s transaction (the rules are
/// `OrderActions.apply`). The order's row is locked first (`FOR UPDATE`): of two staff members
/// acting at once, the second reads the first's status once it commits.
struct PGOrderAction: OrderActionTransaction {
    let connection: PostgresConnection

    func queue(_ message: OutboxDraft) throws { try AccountStore.enqueue(message, connection) }

    func audit(_ entries: [AuditEntry]) throws { try PGAudit.insert(entries, connection) }

    func lockOrder(number: String) throws -> (any StoredRow)? {
        try connection.first("SELECT \(OrderActions.lockColumns) FROM orders WHERE number = $1 FOR UPDATE", [.text(number)])
    }

    func setStatus(_ order: Order.ID, _ status: OrderStatus, fulfilment: Fulfilment?) throws {
        try connection.run("""
            UPDATE orders SET status = $1, carrier = coalesce($2, carrier), tracking_number = coalesce($3, tracking_number)
            WHERE id = $4
            """, [.text(status.rawValue), PostgresValue(fulfilment?.carrier), PostgresValue(fulfilment?.trackingNumber),
                  .integer(order.rawValue)])
    }

    func returnStock(of order: Order.ID, only: [Variant.ID: Int]?) throws -> Int {
        let variants = try connection.query("SELECT variant_id FROM order_stock WHERE order_id = $1", [.integer(order.rawValue)])
            .map { Variant.ID(try $0.int64(0)) }.filter { only?[$0] != nil || only == nil }
        guard !variants.isEmpty else { return 0 }
        // Products, then variants, in id order, as a placement locks them: no deadlock between the two.
        try PGOrders.lockProducts(of: variants, connection)
        if let only {
            var items = 0
            for variant in variants.sorted(by: { $0.rawValue < $1.rawValue }) {
                let key: [PostgresValue] = [.integer(order.rawValue), .integer(variant.rawValue)]
                guard let taken = try connection.first("SELECT quantity FROM order_stock WHERE order_id = $1 AND variant_id = $2", key)?
                    .int(0) else { continue }
                let back = min(only[variant] ?? 0, taken)
                items += try connection.run("UPDATE variants SET stock = stock + $1 WHERE id = $2",
                                            [.integer(Int64(back)), .integer(variant.rawValue)]) == 1 ? back : 0
                if back < taken {
                    try connection.run("UPDATE order_stock SET quantity = quantity - $3 WHERE order_id = $1 AND variant_id = $2",
                                       key + [.integer(Int64(back))])
                } else {
                    try connection.run("DELETE FROM order_stock WHERE order_id = $1 AND variant_id = $2", key)
                }
            }
            return items
        }
        let returned = try connection.query("""
            UPDATE variants v SET stock = v.stock + s.quantity FROM order_stock s
            WHERE s.order_id = $1 AND s.variant_id = v.id RETURNING s.quantity
            """, [.integer(order.rawValue)])
        try connection.run("DELETE FROM order_stock WHERE order_id = $1", [.integer(order.rawValue)])
        return try returned.reduce(0) { total, row in total + (try row.int(0)) }
    }

    func addRefunded(_ quantity: Int, toLine position: Int, of order: Order.ID) throws {
        try connection.run("UPDATE order_lines SET refunded_quantity = refunded_quantity + $1 WHERE order_id = $2 AND position = $3",
                           [.integer(Int64(quantity)), .integer(order.rawValue), .integer(Int64(position))])
    }

    func record(_ event: OrderEvent, of order: Order.ID) throws {
        try connection.run("""
            INSERT INTO order_events (order_id, \(OrderActions.eventColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            """, OrderActions.values(event, of: order).map(PostgresValue.init))
    }

    func order(_ id: Order.ID) throws -> Order {
        guard let order = try PGOrders.orders(where: "id = $1", [.integer(id.rawValue)], connection).first else {
            throw PostgresStoreError.corruptValue(table: "orders", column: "id", rowID: id.rawValue)
        }
        return order
    }
}

/// A row read from column `by` on: a record's decoder that expects its columns first.
private struct ShiftedRow: StoredRow {
    let row: PostgresRow
    let by: Int
    func string(_ index: Int) throws -> String { try row.string(index + by) }
    func optionalString(_ index: Int) throws -> String? { try row.optionalString(index + by) }
    func int64(_ index: Int) throws -> Int64 { try row.int64(index + by) }
    func optionalInt64(_ index: Int) throws -> Int64? { try row.optionalInt64(index + by) }
    func bool(_ index: Int) throws -> Bool { try row.bool(index + by) }
}
