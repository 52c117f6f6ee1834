import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Sodium
import SQLite
import Testing

/// Upgrading a database in use to the schema of issue #8.
@Suite("SQLite schema of issue #8")
struct HardeningSchemaTests {
    /// A migrated temporary database at `version`.
    private static func database(at version: Int) throws -> (SQLiteDatabase, TemporaryDatabasePath) {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(version))) == Array(1...version))
        return (database, path)
    }

    @Test func migrationEightKeepsRecentSignInFailuresCounting() throws {
        let (database, path) = try Self.database(at: 7)
        defer { database.close(); path.remove() }
        let now = Fixtures.start
        try database.withConnection { connection in
            let insert = try connection.prepare("INSERT INTO sign_in_failures (key, at) VALUES (?, ?)")
            for offset: Int64 in [0, 60, 120, 180, 240] {
                try insert.run([.text("email:ana@example.com"), .integer(StoredTime.unixSeconds(now) + offset)])
            }
            try insert.run([.text("ip:203.0.113.9"), .integer(StoredTime.unixSeconds(now))])
        }
        #expect(try database.migrate().first == 8)

        let accounts = AccountStore.sqlite(database)
        let throttles = AccountThrottles()
        let later = now.addingTimeInterval(300)
        #expect(try accounts.countAttempt(throttles.signIn(email: "ana@example.com", client: "198.51.100.7"), later)
                == now.addingTimeInterval(900), "the account is still locked after the upgrade")
        #expect(try accounts.purgeAttempts(.distantFuture) == 6)
        let leftovers = try database.withConnection { connection in
            try connection.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'sign_in_failures%'").query()
        }
        #expect(leftovers.isEmpty)
    }

    @Test func migrationNineTrimsHoldsTakenBeforeTheUpgradeLatestFirst() throws {
        let (database, path) = try Self.database(at: 8)
        defer { database.close(); path.remove() }
        let orders = OrderStore.sqlite(database)
        try Fixtures.upsertIntoOldSchema(database, [.mock(handle: "chair", variants: [
            .mock(sku: "CHAIR-1", price: .usd(10_00), inventory: .tracked(quantity: 5, allowsBackorder: false)),
        ])])
        let until = StoredTime.unixSeconds(Fixtures.start) + 900
        try database.withConnection { connection in
            try connection.execute("""
                INSERT INTO sessions (id, csrf_token, created_at, last_seen_at, expires_at)
                    VALUES ('first', 'x', 0, 0, 9999999999), ('second', 'y', 0, 0, 9999999999);
                INSERT INTO stock_reservations (session_id, variant_id, quantity, expires_at)
                    VALUES ('first', 1, 3, \(until)), ('second', 1, 2, \(until));
                """)
        }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(9))) == [9])
        #expect(try Fixtures.withLaterColumns(database) { try orders.setStock("CHAIR-1", 4, Fixtures.start) }
                == StockUpdate(variants: 1, trimmedHolds: 1))
        #expect(try orders.takeReservationTrims(.guest("second"), Fixtures.start)
                == [ReservationTrim(variantID: 1, held: 2, kept: 1)])
        #expect(try orders.takeReservationTrims(.guest("first"), Fixtures.start).isEmpty)
    }

    /// Migration 10 keeps existing sessions valid: every id becomes its SHA-256 — in `sessions`
    /// and in every row naming the session — and every CSRF token its SHA-256; no raw id is left.
    @Test func migrationTenRekeysSessionsAndEverythingTheyOwnUnderTheirHashes() throws {
        let (database, path) = try Self.database(at: 9)
        defer { database.close(); path.remove() }
        let guest = "0123456789abcdef0123456789abcdef", other = "fedcba9876543210fedcba9876543210"
        // The account as a version-9 database holds it (today's store writes columns added later).
        let user = try database.withConnection { connection in
            try connection.prepare("""
                INSERT INTO users (email, name, password_hash, created_at) VALUES ('ana@example.com', 'Ana', 'x', 1750000000)
                """).run()
            return User.ID(connection.lastInsertRowID)
        }
        try database.withConnection { connection in
            try connection.prepare("""
                INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at, expires_at, is_persistent)
                VALUES (?1, NULL, 'csrf-of-guest', 1750000000, 1750000100, 1760000000, 1),
                       (?2, NULL, 'csrf-of-other', 1750000000, 1750000000, 1760000000, 1),
                       ('signed-in', ?3, 'csrf-of-ana', 1750000000, 1750000000, 1760000000, 0)
                """).run([.text(guest), .text(other), .integer(user.rawValue)])
        }
        let stores = (catalog: CatalogStore.sqlite(database), sessions: SessionStore.sqlite(database),
                      orders: OrderStore.sqlite(database))
        try Fixtures.upsertIntoOldSchema(database, [
            .mock(handle: "chair", variants: [.mock(sku: "CHAIR-1", price: .usd(49_90),
                                                    inventory: .tracked(quantity: 5, allowsBackorder: false))]),
            .mock(handle: "mug", variants: [.mock(sku: "MUG-1", price: .usd(5_00))]),
        ])
        let (chair, mug) = try Fixtures.withLaterColumns(database) {
            (try #require(try stores.catalog.productByHandle("chair")), try #require(try stores.catalog.productByHandle("mug")))
        }
        let before: Shopper = .guest(Session.ID(rawValue: guest))
        // An earlier guest order (its idempotency key names the session), then a cart, a voucher,
        // a favorite, a checkout and a hold; another guest's hold trimmed by a lower stock.
        let key = "place-order-key"
        let first = OrderFixtures.request(before, [(mug.variants[0], 1)], key: key)
        let placed = try #require(try Fixtures.withLaterColumns(database) { try stores.orders.placeOrder(first, Fixtures.start) }
            .placedOrder)
        try Fixtures.withLaterColumns(database) {
            try stores.sessions.saveCart(before, Cart(lines: [LineItem(productID: chair.id, variantID: chair.variants[0].id, quantity: 3)],
                                                      voucherCode: VoucherCode("WELCOME10")))
        }
        try stores.sessions.setFavorite(before, chair.id, true, Fixtures.start)
        try stores.orders.saveCheckout(before, CheckoutState(email: "guest@example.com", idempotencyKey: "next-key"))
        let until = Fixtures.start.addingTimeInterval(900)
        _ = try stores.orders.reserve(before, [StockRequest(variantID: chair.variants[0].id, quantity: 3)], until, Fixtures.start)
        _ = try stores.orders.reserve(.guest(Session.ID(rawValue: other)), [StockRequest(variantID: chair.variants[0].id, quantity: 2)],
                                      until, Fixtures.start)
        #expect(try Fixtures.withLaterColumns(database) { try stores.orders.setStock("CHAIR-1", 4, Fixtures.start) }.trimmedHolds == 1)

        #expect(try database.migrate() == Array(10...ShopSchema.migrations.count))

        let after = Fixtures.upgradedSessionID(guest)
        let session = try #require(try stores.sessions.find(after))
        #expect(session.csrfTokenHash == Digest.sha256Hex("csrf-of-guest"))
        #expect(session.lastSeenAt == Date(timeIntervalSince1970: 1_750_000_100) && session.userID == nil)
        #expect(try stores.sessions.find(Fixtures.upgradedSessionID("signed-in"))?.userID == user)
        #expect(try stores.sessions.find(Session.ID(rawValue: guest)) == nil)
        let cart = try stores.sessions.loadCart(.guest(after))
        #expect(cart.lines.map(\.quantity) == [3] && cart.voucherCode == VoucherCode("WELCOME10"))
        #expect(try stores.sessions.favorites(.guest(after)) == [chair.id])
        #expect(try stores.orders.checkout(.guest(after))?.idempotencyKey == "next-key")
        #expect(try stores.orders.available([chair.variants[0].id], .guest(after), Fixtures.start)[chair.variants[0].id] == .some(3),
                "the hold is still the guest's own")
        #expect(try stores.orders.takeReservationTrims(.guest(Fixtures.upgradedSessionID(other)), Fixtures.start)
                == [ReservationTrim(variantID: chair.variants[0].id, held: 2, kept: 1)])
        #expect(try stores.orders.placeOrder(OrderFixtures.request(.guest(after), [(mug.variants[0], 1)], key: key), Fixtures.start)
                == .alreadyPlaced(placed), "a replayed form still finds its order")

        let leftovers = try database.withConnection { connection in
            let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").query().map { try $0.string(0) }
            let texts = try tables.flatMap { table in
                try connection.prepare("SELECT * FROM \"\(table)\"").query().flatMap { row in
                    (0..<row.count).compactMap { try? row.optionalString($0) ?? nil }
                }
            }
            return (raw: texts.filter { text in [guest, other, "csrf-of-guest", "csrf-of-ana"].contains { text.contains($0) } },
                    foreignKeys: try connection.prepare("PRAGMA foreign_key_check").query().count)
        }
        #expect(leftovers.raw.isEmpty)
        #expect(leftovers.foreignKeys == 0)
    }
}
