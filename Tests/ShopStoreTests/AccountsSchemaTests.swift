import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// What only the SQLite schema of issue #3 (migration 3) does: upgrading a database in use,
/// cascades, and constraints the stores rely on.
@Suite("SQLite accounts schema")
struct AccountsSchemaTests {
    @Test func migrationThreeKeepsTheCatalogAndGuestCartsOfAVersionTwoDatabase() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(2))) == [1, 2])
        let catalog = CatalogStore.sqlite(database)
        // A catalog and a guest session and cart as version 2 stored them (raw SQL: today's
        // store writes today's schema).
        try database.withConnection { connection in
            try connection.execute("""
                INSERT INTO categories (id, handle, name) VALUES (1, 'chairs', 'Chairs');
                INSERT INTO products (id, handle, title, category_id, tags, option_names)
                    VALUES (1, 'oak-dining-chair', 'Oak Dining Chair', 1, '["oak"]', '["Size"]'),
                           (2, 'lamp', 'Lamp', NULL, '[]', '[]');
                INSERT INTO variants (product_id, position, sku, option_values, option_key, price_minor, currency,
                                      inventory_tracked, stock)
                    VALUES (1, 0, 'CHAIR-M', '["M"]', 'm', 12900, 'USD', 1, 5),
                           (1, 1, NULL, '["L"]', 'l', 14900, 'USD', 0, 0),
                           (2, 0, NULL, '[]', '', 1000, 'USD', 0, 0);
                INSERT INTO product_images (product_id, position, url, alt) VALUES (1, 0, '/images/demo/chair.svg', 'Front');
                """)
        }
        let (chair, versionBefore) = try Fixtures.withLaterColumns(database) {
            (try #require(try catalog.productByHandle(ProductDraft.mockFull.handle)), try catalog.version())
        }
        try database.withConnection { connection in
            try connection.execute("INSERT INTO sessions (id, created_at, last_seen_at) VALUES ('old-guest', 1750000000, 1750000100)")
            try connection.prepare("""
                INSERT INTO cart_lines (session_id, variant_id, product_id, quantity, position) VALUES ('old-guest', ?, ?, ?, ?)
                """).run([.integer(chair.variants[1].id.rawValue), .integer(chair.id.rawValue), 2, 0])
            try connection.prepare("""
                INSERT INTO cart_lines (session_id, variant_id, product_id, quantity, position) VALUES ('old-guest', ?, ?, ?, ?)
                """).run([.integer(chair.variants[0].id.rawValue), .integer(chair.id.rawValue), 1, 1])
        }

        #expect(try database.migrate() == ShopSchema.migrations.map(\.version).filter { $0 >= 3 })

        #expect(try catalog.productByHandle(ProductDraft.mockFull.handle) == chair)
        #expect(try catalog.productCount() == 2)
        #expect(try catalog.version() == versionBefore)
        let sessions = SessionStore.sqlite(database)
        let upgraded = Fixtures.upgradedSessionID("old-guest")  // migration 10 keeps it under its hash
        let session = try #require(try sessions.find(upgraded))
        #expect(session.userID == nil)
        #expect(session.createdAt == Date(timeIntervalSince1970: 1_750_000_000))
        #expect(session.expiresAt == Date(timeIntervalSince1970: 1_750_000_100 + 30 * 86_400))
        #expect(session.csrfTokenHash.count == 64)
        #expect(try sessions.loadCart(.guest(upgraded)).lines.map(\.variantID) == [chair.variants[1].id, chair.variants[0].id])
        try database.withConnection { connection in
            #expect(try connection.prepare("PRAGMA foreign_key_check").query().isEmpty)
            #expect(try connection.prepare("PRAGMA integrity_check").first()?.string(0) == "ok")
            let leftovers = try connection.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%_v2'").query()
            #expect(leftovers.isEmpty)
        }
        // The upgraded tables work for accounts.
        let user = try AccountStore.sqlite(database).createUser(Fixtures.newAccount(), true)
        try sessions.signIn(SignIn(guestSession: upgraded, newSession: Fixtures.session("new", user: user.id)))
        #expect(try sessions.loadCart(.account(user.id)).lines.count == 2)
        #expect(try sessions.find(upgraded) == nil)
    }

    @Test func favoriteOfADeletedProductVanishesWithoutBreakingReads() throws {
        let database = try SQLiteDatabase.open(path: ":memory:")
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        let sessions = SessionStore.sqlite(database)
        _ = try catalog.upsert([.mock(handle: "a"), .mock(handle: "b")])
        let a = try #require(try catalog.productByHandle("a"))
        let b = try #require(try catalog.productByHandle("b"))
        try sessions.create(Fixtures.session("s"))
        try sessions.setFavorite(.guest("s"), a.id, true, Fixtures.start)
        try sessions.setFavorite(.guest("s"), b.id, true, Fixtures.start.addingTimeInterval(1))
        try sessions.saveCart(.guest("s"), Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)]))

        try database.withConnection { connection in
            try connection.transaction { try connection.prepare("DELETE FROM products WHERE id = ?").run([.integer(a.id.rawValue)]) }
        }
        #expect(try sessions.favorites(.guest("s")) == [b.id])
        // The cart line stays (issue #13): the cart reports it as no longer sold and removes it.
        #expect(try sessions.loadCart(.guest("s")).lines.map(\.variantID) == [a.variants[0].id])

        // A product that does not exist cannot become a favorite.
        try sessions.setFavorite(.guest("s"), a.id, true, Fixtures.start.addingTimeInterval(2))
        #expect(try sessions.favorites(.guest("s")) == [b.id])
    }

    @Test func deletingAnAccountDeletesItsSessionsCartsFavoritesAndTokens() throws {
        let database = try SQLiteDatabase.open(path: ":memory:")
        defer { database.close() }
        let catalog = CatalogStore.sqlite(database)
        let sessions = SessionStore.sqlite(database)
        let accounts = AccountStore.sqlite(database)
        _ = try catalog.upsert([.mock(handle: "a")])
        let a = try #require(try catalog.productByHandle("a"))
        let user = try accounts.register(Fixtures.newAccount(), Fixtures.token("v1"), Fixtures.message())
        try sessions.create(Fixtures.session("s", user: user.id))
        try sessions.setFavorite(.account(user.id), a.id, true, Fixtures.start)
        try sessions.saveCart(.account(user.id), Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)]))

        try database.withConnection { connection in
            try connection.transaction { try connection.prepare("DELETE FROM users WHERE id = ?").run([.integer(user.id.rawValue)]) }
            for table in ["sessions", "cart_lines", "favorites", "account_tokens"] {
                #expect(try connection.prepare("SELECT count(*) FROM \(table)").first()?.int(0) == 0, "\(table)")
            }
            #expect(try connection.prepare("SELECT count(*) FROM outbox").first()?.int(0) == 1)  // mail already queued
        }
    }

    @Test func schemaRefusesLinesAndFavoritesWithoutExactlyOneOwner() throws {
        let database = try SQLiteDatabase.open(path: ":memory:")
        defer { database.close() }
        _ = try CatalogStore.sqlite(database).upsert([.mock(handle: "a")])
        let user = try AccountStore.sqlite(database).createUser(Fixtures.newAccount(), true)
        try SessionStore.sqlite(database).create(Fixtures.session("s"))
        try database.withConnection { connection in
            for sql in ["INSERT INTO favorites (session_id, user_id, product_id, added_at) VALUES ('s', \(user.id.rawValue), 1, 0)",
                        "INSERT INTO favorites (session_id, user_id, product_id, added_at) VALUES (NULL, NULL, 1, 0)",
                        "INSERT INTO cart_lines (session_id, user_id, variant_id, product_id, quantity, position) VALUES (NULL, NULL, 1, 1, 1, 0)",
                        "INSERT INTO users (email, name, password_hash, created_at) VALUES ('ANA@EXAMPLE.COM', 'x', 'x', 0)"] {
                let error = #expect(throws: SQLiteError.self) { try connection.execute(sql) }
                #expect(error?.isConstraintViolation == true, "\(sql)")
            }
        }
    }
}
