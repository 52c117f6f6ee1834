import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// Migration 27 (issue #16) rebuilds SQLite's `orders` with its two child tables: the orders a
/// shop already has keep their lines, keys and links, and what they took from stock can be given
/// back.
@Suite("SQLite schema of issue #16")
struct OrdersSchemaTests {
    @Test func migration27KeepsEveryOrderAndFillsWhatItTookFromStock() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(26))) == Array(1...26))
        let stores = (catalog: CatalogStore.sqlite(database), sessions: SessionStore.sqlite(database),
                      orders: OrderStore.sqlite(database))
        _ = try stores.catalog.upsert([
            .mock(handle: "chair", variants: [.mock(sku: "CHAIR-1", price: .usd(49_90),
                                                    inventory: .tracked(quantity: 5, allowsBackorder: false))]),
            .mock(handle: "mug", variants: [.mock(sku: "MUG-1", price: .usd(5_00))]),
        ])
        let chair = try #require(try stores.catalog.productByHandle("chair")).variants[0]
        let mug = try #require(try stores.catalog.productByHandle("mug")).variants[0]
        try stores.sessions.create(Fixtures.session("buyer"))
        let request = OrderFixtures.request(.guest("buyer"), [(chair, 2), (mug, 1)], key: "kept-key", guestTokenHash: "link-hash")
        let placed = try #require(try Fixtures.withLaterColumns(database) { try stores.orders.placeOrder(request, Fixtures.start) }
            .placedOrder)

        #expect(try database.migrate() == [27])

        let order = try #require(try stores.orders.order(placed.number))
        #expect(order == placed, "every column and line as placed")
        #expect(try stores.orders.guestOrder("link-hash")?.id == placed.id)
        #expect(try stores.orders.placeOrder(request, Fixtures.start) == .alreadyPlaced(placed), "the key still answers")
        // The order took 2 chairs (tracked) and no mug (untracked): a cancel gives 2 back.
        let cancelled = try stores.orders.apply(OrderActionRequest(number: placed.number, action: .cancel, actor: "cli"),
                                                Fixtures.start)
        #expect(cancelled.event.itemsReturned == 2)
        #expect(try stores.orders.available([chair.id], nil, Fixtures.start)[chair.id] == .some(5))
        // Deleting an order still takes its lines and keys with it (the foreign keys point at the new table).
        try database.withConnection { connection in
            try connection.execute("DELETE FROM orders")
            #expect(try connection.prepare("SELECT count(*) FROM order_lines").first()?.int(0) == 0)
            #expect(try connection.prepare("SELECT count(*) FROM order_idempotency_keys").first()?.int(0) == 0)
            #expect(try connection.prepare("PRAGMA foreign_key_check").query().isEmpty)
        }
    }
}
