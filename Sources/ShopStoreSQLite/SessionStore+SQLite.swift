public import ShopStore
import Foundation
import ShopCore
import SQLite

extension SessionStore {
    /// Sessions and carts in a SQLite database (schema: `ShopSchema`, migrated beforehand).
    ///
    /// Times are kept to the whole second (`StoredTime`). `create` refuses a known id, `touch`
    /// of an unknown id does nothing. `saveCart` replaces the lines in one transaction, keeping
    /// their order; it takes each line's product from the variant row and leaves out lines whose
    /// variant no longer exists (removed by an import since the cart was loaded).
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> SessionStore {
        SessionStore(
            create: { session in
                // Single-statement writes still go through `transaction` so they take turns with the
                // process's other writers (`WriterGate`) instead of meeting SQLite's busy sleep.
                try database.withConnection { connection in
                    try connection.transaction {
                        try connection.prepare("""
                            INSERT INTO sessions (id, created_at, last_seen_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING
                            """).run([.text(session.id.rawValue), .integer(StoredTime.unixSeconds(session.createdAt)),
                                      .integer(StoredTime.unixSeconds(session.lastSeenAt))])
                        guard connection.changes == 1 else { throw SessionStoreError.sessionAlreadyExists(session.id) }
                    }
                }
            },
            find: { id in
                try database.withConnection { connection in
                    try connection.prepare("SELECT created_at, last_seen_at FROM sessions WHERE id = ?")
                        .first([.text(id.rawValue)]).map { row in
                            Session(id: id, createdAt: StoredTime.date(unixSeconds: try row.int64(0)),
                                    lastSeenAt: StoredTime.date(unixSeconds: try row.int64(1)))
                        }
                }
            },
            touch: { id, date in
                try database.withConnection { connection in
                    try connection.transaction {
                        try connection.prepare("UPDATE sessions SET last_seen_at = ? WHERE id = ?")
                            .run([.integer(StoredTime.unixSeconds(date)), .text(id.rawValue)])
                    }
                }
            },
            loadCart: { id in
                try database.withConnection { connection in
                    let lines = try connection.prepare("""
                        SELECT product_id, variant_id, quantity FROM cart_lines WHERE session_id = ? ORDER BY position
                        """).query([.text(id.rawValue)]).map { row in
                        LineItem(productID: Product.ID(try row.int64(0)), variantID: Variant.ID(try row.int64(1)),
                                 quantity: try row.int(2))
                    }
                    return Cart(lines: lines)
                }
            },
            saveCart: { id, cart in
                try SessionStoreError.checkLines(of: cart)
                try database.withConnection { connection in
                    try connection.transaction {
                        guard try connection.prepare("SELECT 1 FROM sessions WHERE id = ?").first([.text(id.rawValue)]) != nil else {
                            throw SessionStoreError.sessionNotFound(id)
                        }
                        try connection.prepare("DELETE FROM cart_lines WHERE session_id = ?").run([.text(id.rawValue)])
                        let insert = try connection.prepare("""
                            INSERT INTO cart_lines (session_id, variant_id, product_id, quantity, position)
                            SELECT ?, id, product_id, ?, ? FROM variants WHERE id = ?
                            """)
                        for (position, line) in cart.lines.enumerated() {
                            try insert.run([.text(id.rawValue), SQLValue(line.quantity), SQLValue(position),
                                            .integer(line.variantID.rawValue)])
                        }
                    }
                }
            }
        )
    }
}
