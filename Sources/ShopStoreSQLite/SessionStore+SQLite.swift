public import ShopStore
import Foundation
import ShopCore
import SQLite

extension SessionStore {
    /// Sessions, carts and favorites in a SQLite database (schema: `ShopSchema`, migrated
    /// beforehand). Every write is one transaction (`BEGIN IMMEDIATE`, through the process's
    /// `WriterGate`).
    ///
    /// - Times are kept to the whole second (`StoredTime`).
    /// - `create` refuses a known id (`SessionStoreError.sessionAlreadyExists`) and a `userID`
    ///   that is not stored (`AccountStoreError.userNotFound`); `touch`, `renewCSRFToken` and
    ///   `delete` of an unknown id do nothing.
    /// - It stores what it is given: the web layer passes hashes (`Session`), so neither the
    ///   cookie's token nor the CSRF token is ever written to the file (migration 10 hashed the
    ///   ones stored before).
    /// - Deleting a session (`delete`, `deleteAll`, `purgeExpired`, `signIn`) deletes its
    ///   guest cart and favorites (`ON DELETE CASCADE`); an account's stay.
    /// - `saveCart` and `setFavorite` throw `SessionStoreError.sessionNotFound` for an unknown
    ///   guest session and `AccountStoreError.userNotFound` for an unknown account.
    ///   `saveCart` replaces the lines keeping their order and selection, and the cart's voucher
    ///   code (kept even when the cart has no lines); it takes each line's product from
    ///   the variant row and leaves out lines whose variant no longer exists (removed by an
    ///   import since the cart was loaded). `setFavorite` ignores a product that does not exist.
    /// - Favorites come back most recently added first (same second: the later call first);
    ///   they vanish with their product (`ON DELETE CASCADE`), unpublished ones stay.
    /// - `signIn` throws `AccountStoreError.userNotFound` when `newSession.userID` is nil or
    ///   unknown, `sessionAlreadyExists` when the new id is taken, and changes nothing then; an
    ///   unknown `guestSession` is skipped. The guest's cart is merged by upserts inside the
    ///   sign-in's `BEGIN IMMEDIATE` transaction (`mergeCart`), never read into Swift and written
    ///   back; favorites move as a union keeping each product's earlier `addedAt`.
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> SessionStore {
        SessionStore(
            create: { session in
                try database.write { connection in try insert(session, connection) }
            },
            createWithCart: { session, changes in
                // One transaction, so one commit: the session's insert and its lines' upserts.
                try database.write { connection in
                    try insert(session, connection)
                    for (index, change) in changes.enumerated() {
                        if index == 0, case let .add(_, variantID, quantity, limit, chosen) = change {
                            try addFirstLine(of: session.id, variantID, quantity: quantity, limit: limit, chosen: chosen,
                                             connection)
                        } else {
                            try apply(change, to: session.shopper, connection)
                        }
                    }
                }
            },
            find: { id in
                try database.withConnection { connection in try sqliteFind(id, connection) }
            },
            touch: { id, lastSeenAt, expiresAt in
                try database.write { connection in
                    try connection.prepare("UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE id = ?")
                        .run([.integer(StoredTime.unixSeconds(lastSeenAt)), .integer(StoredTime.unixSeconds(expiresAt)),
                              .text(id.rawValue)])
                }
            },
            renewCSRFToken: { id, tokenHash in
                try database.write { connection in
                    try connection.prepare("UPDATE sessions SET csrf_token_hash = ? WHERE id = ?")
                        .run([.text(tokenHash), .text(id.rawValue)])
                }
            },
            delete: { id in
                try database.write { connection in
                    try connection.prepare("DELETE FROM sessions WHERE id = ?").run([.text(id.rawValue)])
                }
            },
            deleteAll: { userID, keeping in
                try database.write { connection in try deleteSessions(of: userID, keeping: keeping, connection) }
            },
            purgeExpired: { before in
                try database.write { connection in
                    try connection.prepare("DELETE FROM sessions WHERE expires_at < ?")
                        .run([.integer(StoredTime.unixSeconds(before))])
                    return connection.changes  // cascaded cart and favorite rows are not counted
                }
            },
            signIn: { signIn in
                guard let userID = signIn.newSession.userID else { throw AccountStoreError.userNotFound }
                return try database.write { connection in
                    try insert(signIn.newSession, connection)
                    guard let guest = signIn.guestSession, guest != signIn.newSession.id else { return [] }
                    let capped = try mergeCart(of: guest, into: userID, connection)
                    // Products both have: the account keeps its row with the earlier date.
                    try connection.prepare("""
                        UPDATE favorites SET added_at = min(added_at, (
                            SELECT guest.added_at FROM favorites AS guest
                            WHERE guest.session_id = ?1 AND guest.product_id = favorites.product_id))
                        WHERE user_id = ?2 AND product_id IN (SELECT product_id FROM favorites WHERE session_id = ?1)
                        """).run([.text(guest.rawValue), .integer(userID.rawValue)])
                    // The others move over, keeping their rows (dates and order).
                    try connection.prepare("""
                        UPDATE favorites SET user_id = ?2, session_id = NULL
                        WHERE session_id = ?1 AND product_id NOT IN (SELECT product_id FROM favorites WHERE user_id = ?2)
                        """).run([.text(guest.rawValue), .integer(userID.rawValue)])
                    // The guest session goes with its cart and what is left of its favorites.
                    try connection.prepare("DELETE FROM sessions WHERE id = ?").run([.text(guest.rawValue)])
                    return capped
                }
            },
            loadCart: { shopper in
                try database.withConnection { connection in
                    let owner = Owner(shopper)
                    return try connection.transaction(.deferred) {
                        // Put in order here, not by `ORDER BY position`: a cart has a few lines, and
                        // SQLite's sorter (set up, fed and closed for every cart read) was ~1 % of a
                        // shopper's page.
                        let lines = try connection.prepare("""
                            SELECT position, product_id, variant_id, quantity, selected, chosen_values FROM cart_lines
                            WHERE \(owner.column) = ?
                            """).query([owner.value]).map { row in
                            (position: try row.int64(0),
                             line: LineItem(productID: Product.ID(try row.int64(1)), variantID: Variant.ID(try row.int64(2)),
                                            quantity: try row.int(3), isSelected: try row.bool(4),
                                            chosen: ChosenValues(text: try row.string(5))))
                        }.sorted { $0.position < $1.position }.map(\.line)
                        let code = try connection.prepare("SELECT code FROM cart_vouchers WHERE \(owner.column) = ?")
                            .first([owner.value]).map { try $0.string(0) }
                        return Cart(lines: lines, voucherCode: code.flatMap(VoucherCode.init))
                    }
                }
            },
            saveCart: { shopper, cart in
                try SessionStoreError.checkLines(of: cart)
                try database.write { connection in
                    try SQLOrders.requireOwner(shopper, connection)
                    try replaceCart(of: shopper, with: cart, connection)
                }
            },
            changeCart: { shopper, changes in
                try database.write { connection in
                    // Adds need no query for the shopper first (issue #14: a statement fewer per
                    // add): an add's insert meets the foreign key, and an add that inserts nothing asks.
                    if !changes.allSatisfy(\.isAdd) { try SQLOrders.requireOwner(shopper, connection) }
                    do {
                        for change in changes { try apply(change, to: shopper, connection) }
                    } catch let error as SQLiteError where error.isForeignKeyViolation {
                        try SQLOrders.requireOwner(shopper, connection)
                        throw error
                    }
                }
            },
            favorites: { shopper in
                try database.withConnection { connection in
                    let owner = Owner(shopper)
                    return try connection.prepare("""
                        SELECT product_id FROM favorites WHERE \(owner.column) = ? ORDER BY added_at DESC, id DESC
                        """).query([owner.value]).map { Product.ID(try $0.int64(0)) }
                }
            },
            setFavorite: { shopper, productID, isFavorite, date in
                try database.write { connection in
                    try SQLOrders.requireOwner(shopper, connection)
                    let owner = Owner(shopper)
                    if isFavorite {
                        try connection.prepare("""
                            INSERT INTO favorites (\(owner.column), product_id, added_at)
                            SELECT ?, id, ? FROM products WHERE id = ?
                            ON CONFLICT DO NOTHING
                            """).run([owner.value, .integer(StoredTime.unixSeconds(date)), .integer(productID.rawValue)])
                    } else {
                        try connection.prepare("DELETE FROM favorites WHERE \(owner.column) = ? AND product_id = ?")
                            .run([owner.value, .integer(productID.rawValue)])
                    }
                }
            }
        )
    }

    /// The columns that say whose a cart line or favorite is.
    private typealias Owner = SQLOrders.Owner

    /// One cart change as one statement on that line (the rules of `Cart.applying`): an add is
    /// an upsert that increments in the database only while the sum stays within the limit.
    private static func apply(_ change: CartChange, to shopper: Shopper, _ connection: Connection) throws {
        let owner = Owner(shopper)
        switch change {
        case let .add(_, variantID, quantity, limit, chosen):
            // ?1 owner, ?2 quantity, ?3 variant, ?4 limit, ?5 chosen values. The limit holds for
            // the sum of the owner's lines of the variant (one stock pool for every chosen value),
            // checked inside the statement. The SELECT's WHERE also keeps the upsert unambiguous
            // after INSERT … SELECT.
            let held = "(SELECT coalesce(sum(quantity), 0) FROM cart_lines WHERE \(owner.column) = ?1 AND variant_id = ?3)"
            try connection.prepare("""
                INSERT INTO cart_lines (\(owner.column), variant_id, product_id, quantity, position, selected, chosen_values)
                SELECT ?1, v.id, v.product_id, ?2,
                       (SELECT coalesce(max(position), -1) + 1 FROM cart_lines WHERE \(owner.column) = ?1), 1, ?5
                FROM variants v WHERE v.id = ?3 AND \(held) + ?2 <= ?4
                ON CONFLICT (\(owner.column), variant_id, chosen_values) WHERE \(owner.column) IS NOT NULL
                DO UPDATE SET quantity = quantity + excluded.quantity, selected = 1
                """).run([owner.value, SQLValue(quantity), .integer(variantID.rawValue), SQLValue(limit), .text(chosen.text)])
            guard connection.changes == 0 else { return }
            try SQLOrders.requireOwner(shopper, connection)  // nothing inserted: an unknown shopper says so first
            let inCart = try connection.prepare("""
                SELECT sum(quantity) FROM cart_lines WHERE \(owner.column) = ? AND variant_id = ?
                """).first([owner.value, .integer(variantID.rawValue)]).flatMap { try $0.optionalInt(0) }
            try CartLineLimitExceeded.check(refusedAdd: quantity, limit: limit, inCart: inCart)
        case let .setQuantity(variantID, quantity, chosen, limit):
            // ?1 quantity, ?2 owner, ?3 variant, ?4 chosen values, ?5 limit (NULL: none) for the
            // sum with the variant's other lines, checked inside the statement.
            try connection.prepare("""
                UPDATE cart_lines SET quantity = ?1
                WHERE \(owner.column) = ?2 AND variant_id = ?3 AND chosen_values = ?4
                  AND (?5 IS NULL OR ?1 + (SELECT coalesce(sum(o.quantity), 0) FROM cart_lines o
                                           WHERE o.\(owner.column) = ?2 AND o.variant_id = ?3 AND o.chosen_values <> ?4) <= ?5)
                """).run([SQLValue(quantity), owner.value, .integer(variantID.rawValue), .text(chosen.text), SQLValue(limit)])
            guard connection.changes == 0, limit != nil else { return }
            let held = try connection.prepare("""
                SELECT sum(quantity), sum(chosen_values = ?3) FROM cart_lines WHERE \(owner.column) = ?1 AND variant_id = ?2
                """).first([owner.value, .integer(variantID.rawValue), .text(chosen.text)])
            try CartLineLimitExceeded.check(refusedQuantityWithLineThere: try held.map { try $0.int(1) > 0 } ?? false,
                                            inCart: try held?.optionalInt(0))
        case let .remove(variantID, chosen):
            try connection.prepare("DELETE FROM cart_lines WHERE \(owner.column) = ? AND variant_id = ? AND chosen_values = ?")
                .run([owner.value, .integer(variantID.rawValue), .text(chosen.text)])
        case let .setSelected(variantID?, isSelected, chosen?):
            try connection.prepare("""
                UPDATE cart_lines SET selected = ? WHERE \(owner.column) = ? AND variant_id = ? AND chosen_values = ?
                """).run([SQLValue(isSelected), owner.value, .integer(variantID.rawValue), .text(chosen.text)])
        case let .setSelected(variantID?, isSelected, nil):
            try connection.prepare("UPDATE cart_lines SET selected = ? WHERE \(owner.column) = ? AND variant_id = ?")
                .run([SQLValue(isSelected), owner.value, .integer(variantID.rawValue)])
        case let .setSelected(nil, isSelected, _):
            try connection.prepare("UPDATE cart_lines SET selected = ? WHERE \(owner.column) = ?")
                .run([SQLValue(isSelected), owner.value])
        case let .setVoucher(code?):
            try connection.prepare("""
                INSERT INTO cart_vouchers (\(owner.column), code) VALUES (?, ?)
                ON CONFLICT (\(owner.column)) WHERE \(owner.column) IS NOT NULL DO UPDATE SET code = excluded.code
                """).run([owner.value, .text(code.normalized)])
        case .setVoucher(nil):
            try connection.prepare("DELETE FROM cart_vouchers WHERE \(owner.column) = ?").run([owner.value])
        }
    }

    /// The first line of a session stored in this transaction — `apply`'s add where the cart is
    /// known to be empty: it holds nothing of the variant and the line goes first, so the
    /// statement reads no cart line. (`apply`'s upsert reads `cart_lines` while it inserts into
    /// it, so SQLite materializes its row in a temporary table and opens a statement journal:
    /// 12 % of a new visitor's add, docs/BENCHMARKS.md, twenty-third session.) A variant that no
    /// longer exists is left out; a quantity over the limit is refused, as `apply` does.
    private static func addFirstLine(of session: Session.ID, _ variantID: Variant.ID, quantity: Int, limit: Int,
                                     chosen: ChosenValues, _ connection: Connection) throws {
        try connection.prepare("""
            INSERT INTO cart_lines (session_id, variant_id, product_id, quantity, position, selected, chosen_values)
            SELECT ?1, v.id, v.product_id, ?2, 0, 1, ?5 FROM variants v WHERE v.id = ?3 AND ?2 <= ?4
            """).run([.text(session.rawValue), SQLValue(quantity), .integer(variantID.rawValue), SQLValue(limit), .text(chosen.text)])
        guard connection.changes == 0 else { return }
        try CartLineLimitExceeded.check(refusedAdd: quantity, limit: limit, inCart: nil)
    }

    /// Merges the guest session's cart into the account's with upserts (the rules of
    /// `SessionStore.signIn`), inside the caller's write transaction: no other writer can
    /// change either cart between the statements, and nothing is read into Swift and written
    /// back, so a line another device adds to the account's cart is kept.
    /// - Returns: the lines capped at their limit, in the guest cart's order.
    private static func mergeCart(of guest: Session.ID, into userID: User.ID, _ connection: Connection) throws -> [Cart.CappedLine] {
        // ?1 guest line, ?2 account, ?3 the per-line maximum. A variant's limit is
        // `Cart.quantityLimit(for:)` in SQL: the maximum, or the stock when it is lower and counts;
        // it holds for the sum of the account's lines of the variant (`pool`: lines differ only by
        // the values chosen for open options and share one stock pool). Guest lines go one
        // statement each, in the guest's order, so each sees what the ones before added.
        let limit = "min(?3, CASE WHEN v.inventory_tracked = 1 AND v.allow_backorder = 0 THEN max(v.stock, 0) ELSE ?3 END)"
        let pool = "(SELECT coalesce(sum(p.quantity), 0) FROM cart_lines p WHERE p.user_id = ?2 AND p.variant_id = g.variant_id)"
        // New lines go after the account's, in the guest's order (?4: the first free position).
        let firstPosition = try connection.prepare("SELECT coalesce(max(position), -1) + 1 FROM cart_lines WHERE user_id = ?")
            .first([.integer(userID.rawValue)]).map { try $0.int64(0) } ?? 0
        let guestLines = try connection.prepare("SELECT id FROM cart_lines WHERE session_id = ? ORDER BY position")
            .query([.text(guest.rawValue)]).map { try $0.int64(0) }
        let cappedLine = try connection.prepare("""
            SELECT v.product_id, g.variant_id, coalesce(a.quantity, 0) + g.quantity,
                   coalesce(a.quantity, 0) + max(\(limit) - \(pool), 0)
            FROM cart_lines g JOIN variants v ON v.id = g.variant_id
            LEFT JOIN cart_lines a ON a.user_id = ?2 AND a.variant_id = g.variant_id AND a.chosen_values = g.chosen_values
            WHERE g.id = ?1 AND \(limit) > 0 AND g.quantity > \(limit) - \(pool)
            """)
        let merge = try connection.prepare("""
            INSERT INTO cart_lines (user_id, variant_id, product_id, quantity, position, selected, chosen_values)
            SELECT ?2, g.variant_id, v.product_id, min(g.quantity, \(limit) - \(pool)), ?4 + g.position, g.selected,
                   g.chosen_values
            FROM cart_lines g JOIN variants v ON v.id = g.variant_id
            WHERE g.id = ?1 AND \(limit) - \(pool) > 0
            ON CONFLICT (user_id, variant_id, chosen_values) WHERE user_id IS NOT NULL
            DO UPDATE SET quantity = quantity + excluded.quantity
            """)
        var capped: [Cart.CappedLine] = []
        for line in guestLines {
            let parameters: [SQLValue] = [.integer(line), .integer(userID.rawValue), SQLValue(Cart.maximumQuantityPerLine)]
            if let row = try cappedLine.first(parameters) {
                capped.append(Cart.CappedLine(productID: Product.ID(try row.int64(0)), variantID: Variant.ID(try row.int64(1)),
                                              requested: try row.int(2), kept: try row.int(3)))
            }
            try merge.run(parameters + [.integer(firstPosition)])
        }
        // The code typed most recently (as a guest) wins; else the account keeps its own.
        try connection.prepare("""
            INSERT INTO cart_vouchers (user_id, code) SELECT ?2, code FROM cart_vouchers WHERE session_id = ?1
            ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET code = excluded.code
            """).run([.text(guest.rawValue), .integer(userID.rawValue)])
        return capped
    }

    /// Inserts a session. - Throws: `sessionAlreadyExists`, `AccountStoreError.userNotFound`.
    /// The session with this id, read on `connection` (also inside another store's transaction).
    static func sqliteFind(_ id: Session.ID, _ connection: Connection) throws -> Session? {
        try connection.prepare("""
            SELECT user_id, csrf_token_hash, created_at, last_seen_at, expires_at, is_persistent
            FROM sessions WHERE id = ?
            """).first([.text(id.rawValue)]).map { row in
            Session(id: id, userID: try row.optionalInt64(0).map { User.ID($0) }, csrfTokenHash: try row.string(1),
                    createdAt: StoredTime.date(unixSeconds: try row.int64(2)),
                    lastSeenAt: StoredTime.date(unixSeconds: try row.int64(3)),
                    expiresAt: StoredTime.date(unixSeconds: try row.int64(4)), isPersistent: try row.bool(5))
        }
    }

    private static func insert(_ session: Session, _ connection: Connection) throws {
        if let userID = session.userID {
            guard try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(userID.rawValue)]) != nil else {
                throw AccountStoreError.userNotFound
            }
        }
        try connection.prepare("""
            INSERT INTO sessions (id, user_id, csrf_token_hash, created_at, last_seen_at, expires_at, is_persistent)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
            """).run([.text(session.id.rawValue), SQLValue(session.userID?.rawValue), .text(session.csrfTokenHash),
                      .integer(StoredTime.unixSeconds(session.createdAt)), .integer(StoredTime.unixSeconds(session.lastSeenAt)),
                      .integer(StoredTime.unixSeconds(session.expiresAt)), SQLValue(session.isPersistent)])
        guard connection.changes == 1 else { throw SessionStoreError.sessionAlreadyExists(session.id) }
    }

    /// Replaces the shopper's cart lines (with their selection), leaving out variants that no
    /// longer exist, and the cart's voucher code (none: its row goes).
    private static func replaceCart(of shopper: Shopper, with cart: Cart, _ connection: Connection) throws {
        let owner = Owner(shopper)
        try connection.prepare("DELETE FROM cart_lines WHERE \(owner.column) = ?").run([owner.value])
        let insert = try connection.prepare("""
            INSERT INTO cart_lines (\(owner.column), variant_id, product_id, quantity, position, selected, chosen_values)
            SELECT ?, id, product_id, ?, ?, ?, ? FROM variants WHERE id = ?
            """)
        for (position, line) in cart.lines.enumerated() {
            try insert.run([owner.value, SQLValue(line.quantity), SQLValue(position), SQLValue(line.isSelected),
                            .text(line.chosen.text), .integer(line.variantID.rawValue)])
        }
        try connection.prepare("DELETE FROM cart_vouchers WHERE \(owner.column) = ?").run([owner.value])
        if let code = cart.voucherCode {
            try connection.prepare("INSERT INTO cart_vouchers (\(owner.column), code) VALUES (?, ?)")
                .run([owner.value, .text(code.normalized)])
        }
    }
}

extension CartChange {
    /// `true` for `.add`.
    fileprivate var isAdd: Bool {
        if case .add = self { return true }
        return false
    }
}

extension SessionStore {
    /// Deletes the account's sessions but `keeping` (their guest rows cascade). Shared with the
    /// account store's password operations, inside their transaction.
    static func deleteSessions(of userID: User.ID, keeping: Session.ID?, _ connection: Connection) throws {
        try connection.prepare("DELETE FROM sessions WHERE user_id = ? AND id IS NOT ?")
            .run([.integer(userID.rawValue), SQLValue(keeping?.rawValue)])
    }
}
