public import ShopStore
import Foundation
import Postgres
import ShopCore

extension SavedCartStore {
    /// Saved carts (the JSON API's `/carts`) in PostgreSQL (`PostgresSchema` migration 14), with
    /// the behaviour of `SavedCartStore.sqlite` (the same contract suite). `change` and `delete`
    /// lock the cart's row first (`FOR UPDATE`), as SQLite's single writer orders them, so two
    /// replacements of its lines never mix.
    public static func postgres(_ database: PostgresDatabase) -> SavedCartStore {
        SavedCartStore(
            carts: { query in
                try database.pool.transaction(.repeatableRead, attempts: 3) { connection in
                    var conditions: [String] = [], values: [PostgresValue] = []
                    if let userID = query.userID {
                        values.append(.integer(userID.rawValue))
                        conditions.append("user_id = $\(values.count)")
                    }
                    if let start = query.start {
                        values.append(.integer(StoredTime.unixMilliseconds(start)))
                        conditions.append("date_ms >= $\(values.count)")
                    }
                    if let end = query.end {
                        values.append(.integer(StoredTime.unixMilliseconds(end)))
                        conditions.append("date_ms < $\(values.count)")
                    }
                    let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
                    values.append(PostgresValue(query.limit))
                    let ids = try connection.query("""
                        SELECT id FROM api_carts \(filter) ORDER BY id \(query.descending ? "DESC" : "ASC") LIMIT $\(values.count)::bigint
                        """, values).map { try $0.int64(0) }
                    return try ids.compactMap { try load($0, connection) }
                }
            },
            cart: { id in
                try database.pool.transaction(.repeatableRead, attempts: 3) { connection in try load(id.rawValue, connection) }
            },
            insert: { userID, date, lines in
                try database.transaction { connection in
                    let id: Int64
                    do {
                        id = try connection.first("INSERT INTO api_carts (user_id, date_ms) VALUES ($1, $2) RETURNING id",
                                                  [.integer(userID.rawValue), .integer(StoredTime.unixMilliseconds(date))])?.int64(0) ?? 0
                    } catch let error as PostgresError where error.sqlState == .foreignKeyViolation {
                        throw SavedCartStoreError.userNotFound
                    }
                    try writeLines(lines, cart: id, connection)
                    guard let cart = try load(id, connection) else { throw SavedCartStoreError.userNotFound }
                    return cart
                }
            },
            change: { id, owner, change in
                try database.transaction { connection in
                    guard try connection.first("""
                        SELECT 1 FROM api_carts WHERE id = $1 AND ($2::bigint IS NULL OR user_id = $2) FOR UPDATE
                        """, [.integer(id.rawValue), PostgresValue(owner?.rawValue)]) != nil else { return nil }
                    var assignments: [String] = [], values: [PostgresValue] = []
                    if let userID = change.userID {
                        values.append(.integer(userID.rawValue))
                        assignments.append("user_id = $\(values.count)")
                    }
                    if let date = change.date {
                        values.append(.integer(StoredTime.unixMilliseconds(date)))
                        assignments.append("date_ms = $\(values.count)")
                    }
                    if !assignments.isEmpty {
                        do {
                            try connection.run("UPDATE api_carts SET \(assignments.joined(separator: ", ")) WHERE id = $\(values.count + 1)",
                                               values + [.integer(id.rawValue)])
                        } catch let error as PostgresError where error.sqlState == .foreignKeyViolation {
                            throw SavedCartStoreError.userNotFound
                        }
                    }
                    if let lines = change.lines {
                        try connection.run("DELETE FROM api_cart_lines WHERE cart_id = $1", [.integer(id.rawValue)])
                        try writeLines(lines, cart: id.rawValue, connection)
                    }
                    return try load(id.rawValue, connection)
                }
            },
            delete: { id, owner in
                try database.transaction { connection in
                    guard try connection.first("SELECT 1 FROM api_carts WHERE id = $1 FOR UPDATE", [.integer(id.rawValue)]) != nil,
                          let cart = try load(id.rawValue, connection), owner == nil || cart.userID == owner else { return nil }
                    try connection.run("DELETE FROM api_carts WHERE id = $1", [.integer(id.rawValue)])
                    return cart
                }
            })
    }

    /// Inserts lines in order, each only for a published product.
    /// - Throws: `SavedCartStoreError.productUnavailable` for the first that is not.
    private static func writeLines(_ lines: [SavedCart.Line], cart: Int64, _ connection: PostgresConnection) throws {
        for (position, line) in lines.enumerated() {
            let inserted = try connection.run("""
                INSERT INTO api_cart_lines (cart_id, position, product_id, quantity)
                SELECT $1, $2, id, $4 FROM products WHERE id = $3 AND is_published
                """, [.integer(cart), PostgresValue(position), .integer(line.productID.rawValue), PostgresValue(line.quantity)])
            guard inserted == 1 else { throw SavedCartStoreError.productUnavailable(line.productID) }
        }
    }

    private static func load(_ id: Int64, _ connection: PostgresConnection) throws -> SavedCart? {
        guard let row = try connection.first("SELECT user_id, date_ms FROM api_carts WHERE id = $1", [.integer(id)]) else {
            return nil
        }
        let lines = try connection.query("SELECT product_id, quantity FROM api_cart_lines WHERE cart_id = $1 ORDER BY position",
                                         [.integer(id)])
            .map { SavedCart.Line(productID: Product.ID(try $0.int64(0)), quantity: try $0.int(1)) }
        return SavedCart(id: SavedCart.ID(id), userID: User.ID(try row.int64(0)),
                         date: StoredTime.date(unixMilliseconds: try row.int64(1)), lines: lines)
    }
}
