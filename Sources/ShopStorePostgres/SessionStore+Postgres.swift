public import ShopStore
import Foundation
import Postgres
import ShopCore

extension SessionStore {
    /// Sessions in PostgreSQL (`PostgresSchema` migration 3), with the behaviour of
    /// `SessionStore.sqlite` for the session itself: `create` refuses a known id
    /// (`sessionAlreadyExists`) and an unknown account (`AccountStoreError.userNotFound`, also
    /// when the account is deleted at the same moment: the foreign key decides); `touch`,
    /// `renewCSRFToken` and `delete` of an unknown id do nothing; times are kept to the second.
    /// Each of those is one statement, run outside an explicit transaction (a statement is its
    /// own): one round trip instead of three, which a new visitor's first add to cart pays.
    ///
    /// Carts and favorites behave as `SessionStore.sqlite`'s (the same contract suite). Where
    /// SQLite's single writer orders a shopper's cart changes, here each writing call first locks
    /// the owner's row — the guest's session or the account's user, `FOR NO KEY UPDATE` —
    /// (`lockOwner`), so two requests for one cart take turns and each statement's limit check
    /// sees the other's lines, while different shoppers never wait for each other; the lock also
    /// says whether the owner exists. A sign-in locks the account, then the guest session, before
    /// it merges (always in that order).
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> SessionStore {
        SessionStore(
            create: { session in
                try database.withConnection { connection in try insert(session, connection) }  // one statement: its own transaction
            },
            createWithCart: { session, changes in
                // The session is new: no other request can see it, let alone lock it, until this
                // commits, so its cart needs no `lockOwner`.
                if changes.count == 1, case let .add(_, variantID, quantity, limit, chosen) = changes[0] {
                    // A new visitor's first add to cart: one statement, so one round trip and its
                    // own transaction. An empty cart's limit check is the quantity's alone.
                    guard quantity <= limit else { throw CartLineLimitExceeded(inCart: 0) }
                    try database.withConnection { connection in
                        try insert(session, connection, addingLine: (variantID, quantity, chosen))
                    }
                    return
                }
                try database.transaction { connection in
                    try insert(session, connection)
                    for change in changes { try apply(change, to: session.shopper, connection) }
                }
            },
            find: { id in
                try database.withConnection { connection in
                    try connection.first("SELECT \(sessionColumns("sessions")) FROM sessions WHERE id = $1", [.text(id.rawValue)])
                        .map { try session($0) }
                }
            },
            touch: { id, lastSeenAt, expiresAt in
                try database.withConnection { connection in
                    _ = try connection.run("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE id = $3",
                                           [.integer(StoredTime.unixSeconds(lastSeenAt)), .integer(StoredTime.unixSeconds(expiresAt)),
                                            .text(id.rawValue)])
                }
            },
            renewCSRFToken: { id, tokenHash in
                try database.withConnection { connection in
                    _ = try connection.run("UPDATE sessions SET csrf_token_hash = $1 WHERE id = $2", [.text(tokenHash), .text(id.rawValue)])
                }
            },
            delete: { id in
                try database.withConnection { connection in
                    _ = try connection.run("DELETE FROM sessions WHERE id = $1", [.text(id.rawValue)])
                }
            },
            deleteAll: { userID, keeping in
                try database.withConnection { connection in try deleteSessions(of: userID, keeping: keeping, connection) }
            },
            purgeExpired: { before in
                try database.withConnection { connection in
                    try connection.run("DELETE FROM sessions WHERE expires_at < $1", [.integer(StoredTime.unixSeconds(before))])
                }
            },
            signIn: { signIn in
                guard let userID = signIn.newSession.userID else { throw AccountStoreError.userNotFound }
                return try database.transaction { connection in
                    // The account's cart changes take turns with this merge (`lockOwner`).
                    try lockOwner(.account(userID), connection)
                    try insert(signIn.newSession, connection)
                    guard let guest = signIn.guestSession, guest != signIn.newSession.id else { return [] }
                    // The guest's cart takes turns too: an add that commits between the merge's
                    // read and the session's deletion would be lost with the session.
                    try lockOwner(.guest(guest), ifStored: true, connection)
                    let capped = try mergeCart(of: guest, into: userID, connection)
                    // Products both have: the account keeps its row with the earlier date.
                    try connection.run("""
                        UPDATE favorites SET added_at = LEAST(added_at, (
                            SELECT guest.added_at FROM favorites AS guest
                            WHERE guest.session_id = $1 AND guest.product_id = favorites.product_id))
                        WHERE user_id = $2 AND product_id IN (SELECT product_id FROM favorites WHERE session_id = $1)
                        """, [.text(guest.rawValue), .integer(userID.rawValue)])
                    // The others move over, keeping their rows (dates and order).
                    try connection.run("""
                        UPDATE favorites SET user_id = $2, session_id = NULL
                        WHERE session_id = $1 AND product_id NOT IN (SELECT product_id FROM favorites WHERE user_id = $2)
                        """, [.text(guest.rawValue), .integer(userID.rawValue)])
                    // The guest session goes with its cart and what is left of its favorites.
                    try connection.run("DELETE FROM sessions WHERE id = $1", [.text(guest.rawValue)])
                    return capped
                }
            },
            loadCart: { shopper in
                let owner = Owner(shopper)
                // Two statements without a transaction around them (two round trips, not four): the
                // lines and the code are changed by separate requests, so reading them a moment
                // apart is the same as reading them just before or after either change.
                return try database.withConnection { connection in
                    let lines = try connection.query("""
                        SELECT product_id, variant_id, quantity, selected, chosen_values FROM cart_lines
                        WHERE \(owner.column) = $1 ORDER BY position
                        """, [owner.value]).map { row in
                        LineItem(productID: Product.ID(try row.int64(0)), variantID: Variant.ID(try row.int64(1)),
                                 quantity: try row.int(2), isSelected: try row.bool(3),
                                 chosen: ChosenValues(text: try row.string(4)))
                    }
                    let code = try connection.first("SELECT code FROM cart_vouchers WHERE \(owner.column) = $1", [owner.value])
                        .map { try $0.string(0) }
                    return Cart(lines: lines, voucherCode: code.flatMap(VoucherCode.init))
                }
            },
            saveCart: { shopper, cart in
                try SessionStoreError.checkLines(of: cart)
                try database.transaction { connection in
                    try lockOwner(shopper, connection)
                    try replaceCart(of: shopper, with: cart, connection)
                }
            },
            changeCart: { shopper, changes in
                try database.transaction { connection in
                    try lockOwner(shopper, connection)
                    for change in changes { try apply(change, to: shopper, connection) }
                }
            },
            favorites: { shopper in
                let owner = Owner(shopper)
                return try database.withConnection { connection in
                    try connection.query("""
                        SELECT product_id FROM favorites WHERE \(owner.column) = $1 ORDER BY added_at DESC, id DESC
                        """, [owner.value]).map { Product.ID(try $0.int64(0)) }
                }
            },
            setFavorite: { shopper, productID, isFavorite, date in
                let owner = Owner(shopper)
                try database.transaction { connection in
                    try lockOwner(shopper, connection)
                    if isFavorite {
                        try connection.run("""
                            INSERT INTO favorites (\(owner.column), product_id, added_at)
                            SELECT $1, id, $2 FROM products WHERE id = $3
                            ON CONFLICT DO NOTHING
                            """, [owner.value, .integer(StoredTime.unixSeconds(date)), .integer(productID.rawValue)])
                    } else {
                        try connection.run("DELETE FROM favorites WHERE \(owner.column) = $1 AND product_id = $2",
                                           [owner.value, .integer(productID.rawValue)])
                    }
                }
            }
        )
    }

    /// The columns ``session(_:)`` reads, of the table or alias `table`.
    static func sessionColumns(_ table: String) -> String {
        ["id", "user_id", "csrf_token_hash", "created_at", "last_seen_at", "expires_at", "is_persistent"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// A session from a row whose first columns are ``sessionColumns(_:)``.
    static func session(_ row: PostgresRow) throws -> Session {
        Session(id: Session.ID(rawValue: try row.string(0)), userID: try row.optionalInt64(1).map { User.ID($0) },
                csrfTokenHash: try row.string(2), createdAt: StoredTime.date(unixSeconds: try row.int64(3)),
                lastSeenAt: StoredTime.date(unixSeconds: try row.int64(4)),
                expiresAt: StoredTime.date(unixSeconds: try row.int64(5)), isPersistent: try row.bool(6))
    }

    /// Inserts a session and, with `line`, the first line of its cart in the same statement (the
    /// line's insert reads the session's from its `RETURNING`, so there is no line without the
    /// session; a variant that no longer exists is left out, as `CartChange.add` says).
    /// - Throws: `sessionAlreadyExists`, `AccountStoreError.userNotFound`; nothing written then.
    private static func insert(_ session: Session, _ connection: PostgresConnection,
                               addingLine line: (variant: Variant.ID, quantity: Int, chosen: ChosenValues)? = nil) throws {
        let insertSession = """
            INSERT INTO sessions (id, user_id, csrf_token_hash, created_at, last_seen_at, expires_at, is_persistent)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING
            """
        var values: [PostgresValue] = [
            .text(session.id.rawValue), PostgresValue(session.userID?.rawValue), .text(session.csrfTokenHash),
            .integer(StoredTime.unixSeconds(session.createdAt)), .integer(StoredTime.unixSeconds(session.lastSeenAt)),
            .integer(StoredTime.unixSeconds(session.expiresAt)), .bool(session.isPersistent)]
        let inserted: Int
        do {
            if let line {
                // $8 variant, $9 quantity, $10 chosen values.
                values += [.integer(line.variant.rawValue), PostgresValue(line.quantity), .text(line.chosen.text)]
                let counted = try connection.first("""
                    WITH session AS (\(insertSession) RETURNING id),
                    line AS (INSERT INTO cart_lines (session_id, variant_id, product_id, quantity, position, selected, chosen_values)
                             SELECT session.id, v.id, v.product_id, $9, 0, true, $10 FROM session, variants v WHERE v.id = $8)
                    SELECT count(*)::bigint FROM session
                    """, values)
                inserted = try counted?.int(0) ?? 0
            } else {
                inserted = try connection.run(insertSession, values)
            }
        } catch {
            // The account is unknown, or was deleted at this moment.
            guard error.sqlState == .foreignKeyViolation else { throw error }
            throw AccountStoreError.userNotFound
        }
        guard inserted == 1 else { throw SessionStoreError.sessionAlreadyExists(session.id) }
    }

    /// Deletes the account's sessions but `keeping`. Shared with the account store's password
    /// operations, inside their transaction.
    static func deleteSessions(of userID: User.ID, keeping: Session.ID?, _ connection: PostgresConnection) throws {
        try connection.run("DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2::text",
                           [.integer(userID.rawValue), PostgresValue(keeping?.rawValue)])
    }
}

extension SessionStore {
    /// The columns that say whose a cart line or favorite is.
    struct Owner {
        /// `session_id` for a guest, `user_id` for an account (a fixed name: safe to splice into SQL).
        var column: String
        var value: PostgresValue

        init(_ shopper: Shopper) {
            switch shopper {
            case let .guest(id): (column, value) = ("session_id", .text(id.rawValue))
            case let .account(id): (column, value) = ("user_id", .integer(id.rawValue))
            }
        }
    }

    /// Locks the shopper's row (the guest's session, the account's user) until the transaction
    /// ends: writes to one cart or favorites list take turns.
    /// - Parameter ifStored: `true` to lock the row only if there is one, and not throw.
    /// - Throws: `SessionStoreError.sessionNotFound`, `AccountStoreError.userNotFound`.
    static func lockOwner(_ shopper: Shopper, ifStored: Bool = false, _ connection: PostgresConnection) throws {
        switch shopper {
        case let .guest(id):
            guard try connection.first("SELECT 1 FROM sessions WHERE id = $1 FOR NO KEY UPDATE", [.text(id.rawValue)]) != nil
                    || ifStored else {
                throw SessionStoreError.sessionNotFound(id)
            }
        case let .account(id):
            guard try connection.first("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE", [.integer(id.rawValue)]) != nil
                    || ifStored else {
                throw AccountStoreError.userNotFound
            }
        }
    }

    /// One cart change as one statement on that line (the rules of `Cart.applying`, as
    /// `SessionStore.sqlite` writes them), inside a transaction that holds the owner's lock.
    private static func apply(_ change: CartChange, to shopper: Shopper, _ connection: PostgresConnection) throws {
        let owner = Owner(shopper)
        switch change {
        case let .add(_, variantID, quantity, limit, chosen):
            // $1 owner, $2 quantity, $3 variant, $4 limit, $5 chosen values; the limit holds for
            // the sum of the owner's lines of the variant (one stock pool).
            let held = "(SELECT coalesce(sum(quantity), 0) FROM cart_lines WHERE \(owner.column) = $1 AND variant_id = $3)"
            let inserted = try connection.run("""
                INSERT INTO cart_lines (\(owner.column), variant_id, product_id, quantity, position, selected, chosen_values)
                SELECT $1, v.id, v.product_id, $2,
                       (SELECT coalesce(max(position), -1) + 1 FROM cart_lines WHERE \(owner.column) = $1), true, $5
                FROM variants v WHERE v.id = $3 AND \(held) + $2 <= $4
                ON CONFLICT (\(owner.column), variant_id, chosen_values) WHERE \(owner.column) IS NOT NULL
                DO UPDATE SET quantity = cart_lines.quantity + excluded.quantity, selected = true
                """, [owner.value, PostgresValue(quantity), .integer(variantID.rawValue), PostgresValue(limit), .text(chosen.text)])
            guard inserted == 0 else { return }
            let inCart = try connection.first("""
                SELECT sum(quantity)::bigint FROM cart_lines WHERE \(owner.column) = $1 AND variant_id = $2
                """, [owner.value, .integer(variantID.rawValue)]).flatMap { try $0.optionalInt(0) }
            try CartLineLimitExceeded.check(refusedAdd: quantity, limit: limit, inCart: inCart)
        case let .setQuantity(variantID, quantity, chosen, limit):
            let changed = try connection.run("""
                UPDATE cart_lines SET quantity = $1
                WHERE \(owner.column) = $2 AND variant_id = $3 AND chosen_values = $4
                  AND ($5::bigint IS NULL OR $1 + (SELECT coalesce(sum(o.quantity), 0) FROM cart_lines o
                                                   WHERE o.\(owner.column) = $2 AND o.variant_id = $3 AND o.chosen_values <> $4) <= $5)
                """, [PostgresValue(quantity), owner.value, .integer(variantID.rawValue), .text(chosen.text), PostgresValue(limit)])
            guard changed == 0, limit != nil else { return }
            let held = try connection.first("""
                SELECT sum(quantity)::bigint, count(*) FILTER (WHERE chosen_values = $3) FROM cart_lines
                WHERE \(owner.column) = $1 AND variant_id = $2
                """, [owner.value, .integer(variantID.rawValue), .text(chosen.text)])
            try CartLineLimitExceeded.check(refusedQuantityWithLineThere: try held.map { try $0.int(1) > 0 } ?? false,
                                            inCart: try held?.optionalInt(0))
        case let .remove(variantID, chosen):
            try connection.run("DELETE FROM cart_lines WHERE \(owner.column) = $1 AND variant_id = $2 AND chosen_values = $3",
                               [owner.value, .integer(variantID.rawValue), .text(chosen.text)])
        case let .setSelected(variantID?, isSelected, chosen?):
            try connection.run("""
                UPDATE cart_lines SET selected = $1 WHERE \(owner.column) = $2 AND variant_id = $3 AND chosen_values = $4
                """, [.bool(isSelected), owner.value, .integer(variantID.rawValue), .text(chosen.text)])
        case let .setSelected(variantID?, isSelected, nil):
            try connection.run("UPDATE cart_lines SET selected = $1 WHERE \(owner.column) = $2 AND variant_id = $3",
                               [.bool(isSelected), owner.value, .integer(variantID.rawValue)])
        case let .setSelected(nil, isSelected, _):
            try connection.run("UPDATE cart_lines SET selected = $1 WHERE \(owner.column) = $2", [.bool(isSelected), owner.value])
        case let .setVoucher(code?):
            try connection.run("""
                INSERT INTO cart_vouchers (\(owner.column), code) VALUES ($1, $2)
                ON CONFLICT (\(owner.column)) WHERE \(owner.column) IS NOT NULL DO UPDATE SET code = excluded.code
                """, [owner.value, .text(code.normalized)])
        case .setVoucher(nil):
            try connection.run("DELETE FROM cart_vouchers WHERE \(owner.column) = $1", [owner.value])
        }
    }

    /// Merges the guest session's cart into the account's with upserts (the rules of
    /// `SessionStore.signIn`, as `SessionStore.sqlite` writes them), inside the sign-in's
    /// transaction, which holds the account's lock.
    /// - Returns: the lines capped at their limit, in the guest cart's order.
    private static func mergeCart(of guest: Session.ID, into userID: User.ID,
                                  _ connection: PostgresConnection) throws -> [Cart.CappedLine] {
        // $1 guest line, $2 account, $3 the per-line maximum; a variant's limit is
        // `Cart.quantityLimit(for:)` in SQL, for the sum of the account's lines of the variant.
        let limit = "LEAST($3, CASE WHEN v.inventory_tracked AND NOT v.allow_backorder THEN GREATEST(v.stock, 0) ELSE $3 END)"
        let pool = "(SELECT coalesce(sum(p.quantity), 0) FROM cart_lines p WHERE p.user_id = $2 AND p.variant_id = g.variant_id)"
        let firstPosition = try connection.first("SELECT coalesce(max(position), -1) + 1 FROM cart_lines WHERE user_id = $1",
                                                 [.integer(userID.rawValue)]).map { try $0.int64(0) } ?? 0
        let guestLines = try connection.query("SELECT id FROM cart_lines WHERE session_id = $1 ORDER BY position",
                                              [.text(guest.rawValue)]).map { try $0.int64(0) }
        var capped: [Cart.CappedLine] = []
        for line in guestLines {
            let parameters: [PostgresValue] = [.integer(line), .integer(userID.rawValue), PostgresValue(Cart.maximumQuantityPerLine)]
            if let row = try connection.first("""
                SELECT v.product_id, g.variant_id, (coalesce(a.quantity, 0) + g.quantity)::bigint,
                       (coalesce(a.quantity, 0) + GREATEST(\(limit) - \(pool), 0))::bigint
                FROM cart_lines g JOIN variants v ON v.id = g.variant_id
                LEFT JOIN cart_lines a ON a.user_id = $2 AND a.variant_id = g.variant_id AND a.chosen_values = g.chosen_values
                WHERE g.id = $1 AND \(limit) > 0 AND g.quantity > \(limit) - \(pool)
                """, parameters) {
                capped.append(Cart.CappedLine(productID: Product.ID(try row.int64(0)), variantID: Variant.ID(try row.int64(1)),
                                              requested: try row.int(2), kept: try row.int(3)))
            }
            try connection.run("""
                INSERT INTO cart_lines (user_id, variant_id, product_id, quantity, position, selected, chosen_values)
                SELECT $2, g.variant_id, v.product_id, LEAST(g.quantity, \(limit) - \(pool)), $4 + g.position, g.selected,
                       g.chosen_values
                FROM cart_lines g JOIN variants v ON v.id = g.variant_id
                WHERE g.id = $1 AND \(limit) - \(pool) > 0
                ON CONFLICT (user_id, variant_id, chosen_values) WHERE user_id IS NOT NULL
                DO UPDATE SET quantity = cart_lines.quantity + excluded.quantity
                """, parameters + [.integer(firstPosition)])
        }
        // The code typed most recently (as a guest) wins; else the account keeps its own.
        try connection.run("""
            INSERT INTO cart_vouchers (user_id, code) SELECT $2, code FROM cart_vouchers WHERE session_id = $1
            ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET code = excluded.code
            """, [.text(guest.rawValue), .integer(userID.rawValue)])
        return capped
    }

    /// Replaces the shopper's cart lines (with their selection), leaving out variants that no
    /// longer exist, and the cart's voucher code (none: its row goes).
    private static func replaceCart(of shopper: Shopper, with cart: Cart, _ connection: PostgresConnection) throws {
        let owner = Owner(shopper)
        try connection.run("DELETE FROM cart_lines WHERE \(owner.column) = $1", [owner.value])
        for (position, line) in cart.lines.enumerated() {
            try connection.run("""
                INSERT INTO cart_lines (\(owner.column), variant_id, product_id, quantity, position, selected, chosen_values)
                SELECT $1, id, product_id, $2, $3, $4, $5 FROM variants WHERE id = $6
                """, [owner.value, PostgresValue(line.quantity), PostgresValue(position), .bool(line.isSelected),
                      .text(line.chosen.text), .integer(line.variantID.rawValue)])
        }
        try connection.run("DELETE FROM cart_vouchers WHERE \(owner.column) = $1", [owner.value])
        if let code = cart.voucherCode {
            try connection.run("INSERT INTO cart_vouchers (\(owner.column), code) VALUES ($1, $2)", [owner.value, .text(code.normalized)])
        }
    }
}
