import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// Issue #4's cart fields — per-line selection and the entered voucher code — survive a save and
/// load in every session store, for guests and accounts, and through sign-in.
extension SessionStoreContractTests {
    @Test(arguments: StoreKind.engines(for: .sessions))
    func cartLineSelectionAndVoucherCodeLoadBackAsSaved(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "a", optionNames: ["Size"], variants: [.mock(options: ["S"]), .mock(options: ["M"])]),
            .mock(handle: "b"),
        ])
        let a = try stores.product("a")
        let b = try stores.product("b")
        let user = try stores.account()
        try stores.session("guest")

        for shopper in [Shopper.guest("guest"), .account(user.id)] {
            let cart = Cart(lines: [
                LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 2, isSelected: false),
                LineItem(productID: a.id, variantID: a.variants[1].id, quantity: 1, isSelected: true),
                LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 3, isSelected: false),
            ], voucherCode: VoucherCode("welcome10"))
            try stores.sessions.saveCart(shopper, cart)
            let loaded = try stores.sessions.loadCart(shopper)
            #expect(loaded == cart)
            #expect(loaded.lines.map(\.isSelected) == [false, true, false])
            #expect(loaded.voucherCode?.normalized == "WELCOME10")

            var changed = loaded
            changed.setAllSelected(true)
            changed.voucherCode = VoucherCode("SEAT20")
            try stores.sessions.saveCart(shopper, changed)
            #expect(try stores.sessions.loadCart(shopper) == changed)

            changed.voucherCode = nil
            try stores.sessions.saveCart(shopper, changed)
            #expect(try stores.sessions.loadCart(shopper).voucherCode == nil)
            #expect(try stores.sessions.loadCart(shopper) == changed)
        }
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func voucherCodeIsKeptInACartWithoutLinesUntilCleared(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.session("guest")
        let codeOnly = Cart(voucherCode: VoucherCode("WELCOME10"))
        try stores.sessions.saveCart(.guest("guest"), codeOnly)
        #expect(try stores.sessions.loadCart(.guest("guest")) == codeOnly)
        try stores.sessions.saveCart(.guest("guest"), Cart())
        #expect(try stores.sessions.loadCart(.guest("guest")) == Cart())
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func signInMergesTheGuestsSelectionAndCodeAndDropsTheGuests(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a"), .mock(handle: "b")])
        let a = try stores.product("a")
        let b = try stores.product("b")
        let user = try stores.account()
        try stores.session("guest")
        try stores.sessions.saveCart(.account(user.id), Cart(lines: [LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 1)],
                                                             voucherCode: VoucherCode("MINE")))
        try stores.sessions.saveCart(.guest("guest"), Cart(
            lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1, isSelected: false)],
            voucherCode: VoucherCode("GUEST5")))

        let merged = Cart(lines: [LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 1),
                                  LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1, isSelected: false)],
                          voucherCode: VoucherCode("GUEST5"))
        try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("new", user: user.id)))
        #expect(try stores.sessions.loadCart(.account(user.id)) == merged)
        #expect(try stores.sessions.loadCart(.guest("guest")) == Cart())

        // Without a guest session the account's cart stays as it is.
        try stores.sessions.signIn(SignIn(guestSession: nil, newSession: Fixtures.session("newer", user: user.id)))
        #expect(try stores.sessions.loadCart(.account(user.id)) == merged)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func deletingAGuestSessionDeletesItsVoucherCode(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.session("guest")
        try stores.sessions.saveCart(.guest("guest"), Cart(voucherCode: VoucherCode("WELCOME10")))
        try stores.sessions.delete("guest")
        try stores.session("guest")  // the same id again (cannot happen with random ids, but shows the row went)
        #expect(try stores.sessions.loadCart(.guest("guest")) == Cart())
    }

    @Test func migrationFiveKeepsEveryExistingCartLineSelected() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(4))) == [1, 2, 3, 4])
        let catalog = CatalogStore.sqlite(database)
        try Fixtures.upsertIntoOldSchema(database, [.mock(handle: "a"), .mock(handle: "b")])
        let (a, b) = try Fixtures.withLaterColumns(database) {
            (try #require(try catalog.productByHandle("a")), try #require(try catalog.productByHandle("b")))
        }
        try database.withConnection { connection in
            try connection.execute("""
                INSERT INTO sessions (id, csrf_token, created_at, last_seen_at, expires_at)
                VALUES ('old-guest', 'csrf-0123456789abcdef0123456789abcdef', 1750000000, 1750000000, 1760000000)
                """)
            for (position, product) in [a, b].enumerated() {
                try connection.prepare("""
                    INSERT INTO cart_lines (session_id, variant_id, product_id, quantity, position) VALUES ('old-guest', ?, ?, 2, ?)
                    """).run([.integer(product.variants[0].id.rawValue), .integer(product.id.rawValue), SQLValue(position)])
            }
        }

        #expect(try database.migrate().contains(5))

        let cart = try SessionStore.sqlite(database).loadCart(.guest(Fixtures.upgradedSessionID("old-guest")))
        #expect(cart.lines.map(\.variantID) == [a.variants[0].id, b.variants[0].id])
        #expect(cart.lines.allSatisfy { $0.isSelected })
        #expect(cart.voucherCode == nil)
        try database.withConnection { (connection: Connection) throws in
            #expect(try connection.prepare("PRAGMA foreign_key_check").query().isEmpty)
            #expect(try connection.prepare("PRAGMA integrity_check").first()?.string(0) == "ok")
        }
    }
}
