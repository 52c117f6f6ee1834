public import ShopStore
import Foundation
import ShopCore
import SQLite

extension SavedCartStore {
    /// Saved carts in a SQLite database (`ShopSchema` migration 14). Every write is one
    /// `BEGIN IMMEDIATE` transaction; `change` is one conditional `UPDATE` of the fields given
    /// (`WHERE id = ? AND user_id = ?`) plus, when lines are given, their replacement, so two
    /// simultaneous changes of different fields both land and lines of two replacements never mix.
    /// Lines are written only for published products (`INSERT … SELECT … WHERE is_published`).
    public static func sqlite(_ database: SQLiteDatabase) -> SavedCartStore {
        SavedCartStore(
            carts: { query in
                try database.withConnection { connection in
                    var conditions: [String] = [], values: [SQLValue] = []
                    if let userID = query.userID { conditions.append("user_id = ?"); values.append(.integer(userID.rawValue)) }
                    if let start = query.start { conditions.append("date_ms >= ?"); values.append(.integer(StoredTime.unixMilliseconds(start))) }
                    if let end = query.end { conditions.append("date_ms < ?"); values.append(.integer(StoredTime.unixMilliseconds(end))) }
                    let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
                    values.append(SQLValue(query.limit ?? -1))
                    let ids = try connection.prepare("""
                        SELECT id FROM api_carts \(filter) ORDER BY id \(query.descending ? "DESC" : "ASC") LIMIT ?
                        """).query(values).map { try $0.int64(0) }
                    return try ids.compactMap { try load($0, connection) }
                }
            },
            cart: { id in
                try database.withConnection { connection in try load(id.rawValue, connection) }
            },
            insert: { userID, date, lines in
                try database.write { connection in
                    guard try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(userID.rawValue)]) != nil else {
                        throw SavedCartStoreError.userNotFound
                    }
                    try connection.prepare("INSERT INTO api_carts (user_id, date_ms) VALUES (?, ?)")
                        .run([.integer(userID.rawValue), .integer(StoredTime.unixMilliseconds(date))])
                    let id = connection.lastInsertRowID
                    try writeLines(lines, cart: id, connection)
                    guard let cart = try load(id, connection) else { throw SavedCartStoreError.userNotFound }
                    return cart
                }
            },
            change: { id, owner, change in
                try database.write { connection in
                    guard try connection.prepare("SELECT 1 FROM api_carts WHERE id = ?1 AND (?2 IS NULL OR user_id = ?2)")
                        .first([.integer(id.rawValue), SQLValue(owner?.rawValue)]) != nil else { return nil }
                    if let userID = change.userID,
                       try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(userID.rawValue)]) == nil {
                        throw SavedCartStoreError.userNotFound
                    }
                    var assignments: [String] = [], values: [SQLValue] = []
                    if let userID = change.userID { assignments.append("user_id = ?"); values.append(.integer(userID.rawValue)) }
                    if let date = change.date { assignments.append("date_ms = ?"); values.append(.integer(StoredTime.unixMilliseconds(date))) }
                    if !assignments.isEmpty {
                        try connection.prepare("UPDATE api_carts SET \(assignments.joined(separator: ", ")) WHERE id = ?")
                            .run(values + [.integer(id.rawValue)])
                    }
                    if let lines = change.lines {
                        try connection.prepare("DELETE FROM api_cart_lines WHERE cart_id = ?").run([.integer(id.rawValue)])
                        try writeLines(lines, cart: id.rawValue, connection)
                    }
                    return try load(id.rawValue, connection)
                }
            },
            delete: { id, owner in
                try database.write { connection in
                    guard let cart = try load(id.rawValue, connection), owner == nil || cart.userID == owner else { return nil }
                    try connection.prepare("DELETE FROM api_carts WHERE id = ?").run([.integer(id.rawValue)])
                    return cart
                }
            })
    }

    /// Inserts lines in order, each only for a published product.
    /// - Throws: `SavedCartStoreError.productUnavailable` for the first that is not.
    private static func writeLines(_ lines: [SavedCart.Line], cart: Int64, _ connection: Connection) throws {
        let insert = try connection.prepare("""
            INSERT INTO api_cart_lines (cart_id, position, product_id, quantity)
            SELECT ?1, ?2, id, ?4 FROM products WHERE id = ?3 AND is_published = 1
            """)
        for (position, line) in lines.enumerated() {
            try insert.run([.integer(cart), SQLValue(position), .integer(line.productID.rawValue), SQLValue(line.quantity)])
            guard connection.changes == 1 else { throw SavedCartStoreError.productUnavailable(line.productID) }
        }
    }

    private static func load(_ id: Int64, _ connection: Connection) throws -> SavedCart? {
        guard let row = try connection.prepare("SELECT user_id, date_ms FROM api_carts WHERE id = ?").first([.integer(id)]) else {
            return nil
        }
        let lines = try connection.prepare("SELECT product_id, quantity FROM api_cart_lines WHERE cart_id = ? ORDER BY position")
            .query([.integer(id)]).map { SavedCart.Line(productID: Product.ID(try $0.int64(0)), quantity: try $0.int(1)) }
        return SavedCart(id: SavedCart.ID(id), userID: User.ID(try row.int64(0)),
                         date: StoredTime.date(unixMilliseconds: try row.int64(1)), lines: lines)
    }
}
