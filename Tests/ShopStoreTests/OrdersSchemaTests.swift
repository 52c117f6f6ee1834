import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// Migration 27 (issue #16) rebuilds SQLite's `orders` with its two child tables: the orders a
/// shop already has keep their lines, keys and links, and are marked as placed before the
/// order's life was recorded.
@Suite("SQLite schema of issue #16")
struct OrdersSchemaTests {
    @Test func migration27KeepsEveryOrderAndLeavesItToStaff() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(26))) == Array(1...26))
        let stores = (catalog: CatalogStore.sqlite(database), sessions: SessionStore.sqlite(database),
                      orders: OrderStore.sqlite(database))
        try Fixtures.upsertIntoOldSchema(database, [
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

        #expect(try database.migrate().first == 27)

        let order = try #require(try stores.orders.order(placed.number))
        #expect(order == placed, "every column and line as placed")
        #expect(try stores.orders.guestOrder("link-hash")?.id == placed.id)
        #expect(try stores.orders.placeOrder(request, Fixtures.start) == .alreadyPlaced(placed), "the key still answers")
        // Placed before the migration: the shop never cancels it as unpaid (its payment may have
        // come in outside the shop), and what it took from stock was not recorded — whether the
        // chair was counted then is not known — so a cancel by staff gives nothing back.
        let later = Fixtures.start.addingTimeInterval(365 * 86_400)
        #expect(try stores.orders.cancelUnpaid(placedBefore: later, now: later).cancelled.isEmpty)
        let cancelled = try stores.orders.apply(OrderActionRequest(number: placed.number, action: .cancel, actor: "cli"),
                                                Fixtures.start)
        #expect(cancelled.order.status == .cancelled && cancelled.event.itemsReturned == 0)
        #expect(try stores.orders.available([chair.id], nil, Fixtures.start)[chair.id] == .some(3))
        // Deleting an order still takes its lines and keys with it (the foreign keys point at the new table).
        try database.withConnection { connection in
            try connection.execute("DELETE FROM orders")
            #expect(try connection.prepare("SELECT count(*) FROM order_lines").first()?.int(0) == 0)
            #expect(try connection.prepare("SELECT count(*) FROM order_idempotency_keys").first()?.int(0) == 0)
            #expect(try connection.prepare("PRAGMA foreign_key_check").query().isEmpty)
        }
    }
}
