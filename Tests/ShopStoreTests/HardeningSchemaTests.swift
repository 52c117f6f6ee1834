import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
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
        _ = try CatalogStore.sqlite(database).upsert([.mock(handle: "chair", variants: [
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
        #expect(try database.migrate().first == 9)
        #expect(try orders.setStock("CHAIR-1", 4, Fixtures.start) == StockUpdate(variants: 1, trimmedHolds: 1))
        #expect(try orders.takeReservationTrims(.guest("second"), Fixtures.start)
                == [ReservationTrim(variantID: 1, held: 2, kept: 1)])
        #expect(try orders.takeReservationTrims(.guest("first"), Fixtures.start).isEmpty)
    }
}
