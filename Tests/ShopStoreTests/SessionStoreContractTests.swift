import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The session, cart and favorites contract every store must meet, run against each
/// implementation.
@Suite("Session store contract")
struct SessionStoreContractTests {
    static let start = Fixtures.start

    // MARK: sessions

    @Test(arguments: StoreKind.engines(for: .sessions))
    func createdSessionIsFoundAndTouchSlidesItsExpiry(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let guest = try stores.session("0123456789abcdef0123456789abcdef")
        #expect(try stores.sessions.find(guest.id) == guest)
        #expect(guest.shopper == .guest(guest.id))

        try stores.sessions.touch(guest.id, Self.start.addingTimeInterval(90.6), Self.start.addingTimeInterval(86_400.9))
        let touched = try #require(try stores.sessions.find(guest.id))
        #expect(touched.createdAt == Self.start)
        #expect(touched.lastSeenAt == Self.start.addingTimeInterval(90))  // kept to the second
        #expect(touched.expiresAt == Self.start.addingTimeInterval(86_400))
        #expect(touched.csrfTokenHash == guest.csrfTokenHash)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func aSessionsCSRFTokenCanBeRenewed(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let guest = try stores.session("0123456789abcdef0123456789abcdef")
        try stores.sessions.renewCSRFToken(guest.id, "renewed-hash")
        var expected = guest
        expected.csrfTokenHash = "renewed-hash"
        #expect(try stores.sessions.find(guest.id) == expected)
        try stores.sessions.renewCSRFToken("ffffffffffffffffffffffffffffffff", "x")  // unknown: no effect
        #expect(try stores.sessions.find("ffffffffffffffffffffffffffffffff") == nil)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func signedInSessionKeepsItsAccountAndCookieKind(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.account()
        let session = Fixtures.session("bb", user: user.id, at: Self.start.addingTimeInterval(0.7), isPersistent: false)
        try stores.sessions.create(session)
        let found = try #require(try stores.sessions.find("bb"))
        #expect(found.userID == user.id)
        #expect(found.isPersistent == false)
        #expect(found.createdAt == Self.start)
        #expect(found.shopper == .account(user.id))
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func unknownSessionsAndAccountsAreAbsent(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let unknown: Session.ID = "ffffffffffffffffffffffffffffffff"
        #expect(try stores.sessions.find(unknown) == nil)
        try stores.sessions.touch(unknown, Self.start, Self.start)  // no effect
        try stores.sessions.delete(unknown)  // no effect
        #expect(try stores.sessions.find(unknown) == nil)
        #expect(try stores.sessions.loadCart(.guest(unknown)).isEmpty)
        #expect(try stores.sessions.favorites(.guest(unknown)).isEmpty)
        #expect(try stores.sessions.loadCart(.account(42)).isEmpty)

        let cartError = #expect(throws: SessionStoreError.self) { try stores.sessions.saveCart(.guest(unknown), Cart()) }
        #expect(cartError == .sessionNotFound(unknown))
        let favoriteError = #expect(throws: SessionStoreError.self) {
            try stores.sessions.setFavorite(.guest(unknown), 1, true, Self.start)
        }
        #expect(favoriteError == .sessionNotFound(unknown))
        #expect(throws: AccountStoreError.userNotFound) { try stores.sessions.saveCart(.account(42), Cart()) }
        #expect(throws: AccountStoreError.userNotFound) { try stores.sessions.setFavorite(.account(42), 1, true, Self.start) }
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func creatingAKnownSessionIsRefused(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let session = try stores.session("aa")
        let error = #expect(throws: SessionStoreError.self) {
            try stores.sessions.create(Fixtures.session("aa", at: .distantPast))
        }
        #expect(error == .sessionAlreadyExists("aa"))
        #expect(try stores.sessions.find("aa") == session)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func sessionOfAnUnknownAccountIsRefused(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        #expect(throws: AccountStoreError.userNotFound) { try stores.sessions.create(Fixtures.session("aa", user: 42)) }
        #expect(try stores.sessions.find("aa") == nil)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func deleteAllSignsOutTheAccountsOtherSessionsOnly(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let ana = try stores.account("ana@example.com")
        let bo = try stores.account("bo@example.com", name: "Bo Berg")
        for id in ["a1", "a2", "a3"] { try stores.session(Session.ID(id), user: ana.id) }
        try stores.session("b1", user: bo.id)
        try stores.session("g1")

        try stores.sessions.deleteAll(ana.id, "a2")
        #expect(try stores.sessions.find("a1") == nil)
        #expect(try stores.sessions.find("a3") == nil)
        #expect(try stores.sessions.find("a2") != nil)
        #expect(try stores.sessions.find("b1") != nil)
        #expect(try stores.sessions.find("g1") != nil)

        try stores.sessions.deleteAll(ana.id, nil)
        #expect(try stores.sessions.find("a2") == nil)
        #expect(try stores.sessions.find("b1") != nil)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func purgeDeletesSessionsThatExpiredBeforeTheDateWithTheirGuestCarts(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a")])
        let a = try stores.product("a")
        let user = try stores.account()
        let cutoff = Self.start.addingTimeInterval(1_000)
        try stores.session("old-guest", expiresAt: cutoff.addingTimeInterval(-1))
        try stores.session("old-account", user: user.id, expiresAt: cutoff.addingTimeInterval(-500))
        try stores.session("at-cutoff", expiresAt: cutoff)
        try stores.session("fresh", expiresAt: cutoff.addingTimeInterval(1))
        let cart = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        try stores.sessions.saveCart(.guest("old-guest"), cart)
        try stores.sessions.saveCart(.account(user.id), cart)

        #expect(try stores.sessions.purgeExpired(cutoff) == 2)
        #expect(try stores.sessions.find("old-guest") == nil)
        #expect(try stores.sessions.find("old-account") == nil)
        #expect(try stores.sessions.find("at-cutoff") != nil)
        #expect(try stores.sessions.find("fresh") != nil)
        #expect(try stores.sessions.loadCart(.guest("old-guest")).isEmpty)
        #expect(try stores.sessions.loadCart(.account(user.id)) == cart)  // the account's cart stays
        #expect(try stores.sessions.purgeExpired(cutoff) == 0)
    }

    // MARK: carts

    @Test(arguments: StoreKind.engines(for: .sessions))
    func savedCartLoadsBackInOrderAndSavingReplacesIt(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "a", optionNames: ["Size"], variants: [.mock(options: ["S"]), .mock(options: ["M"])]),
            .mock(handle: "b"),
        ])
        let a = try stores.product("a")
        let b = try stores.product("b")
        try stores.session("s1")
        try stores.session("s2")
        #expect(try stores.sessions.loadCart(.guest("s1")).isEmpty)

        let cart = Cart(lines: [
            LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 2),
            LineItem(productID: a.id, variantID: a.variants[1].id, quantity: 1),
            LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 5),
        ])
        try stores.sessions.saveCart(.guest("s1"), cart)
        #expect(try stores.sessions.loadCart(.guest("s1")) == cart)
        #expect(try stores.sessions.loadCart(.guest("s2")).isEmpty)

        let smaller = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        try stores.sessions.saveCart(.guest("s1"), smaller)
        #expect(try stores.sessions.loadCart(.guest("s1")) == smaller)
        try stores.sessions.saveCart(.guest("s1"), Cart())
        #expect(try stores.sessions.loadCart(.guest("s1")).isEmpty)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func cartWithInvalidLinesIsRefusedAndTheOldCartKept(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a")])
        let a = try stores.product("a")
        try stores.session("s")
        let good = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        try stores.sessions.saveCart(.guest("s"), good)

        for lines in [[LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 0)],
                      [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1),
                       LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 2)]] {
            let error = #expect(throws: SessionStoreError.self) { try stores.sessions.saveCart(.guest("s"), Cart(lines: lines)) }
            #expect(error == .invalidCartLine(a.variants[0].id))
        }
        #expect(try stores.sessions.loadCart(.guest("s")) == good)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func guestAndAccountCartsAreSeparateAndTheAccountsFollowsItsSessions(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a"), .mock(handle: "b")])
        let a = try stores.product("a")
        let b = try stores.product("b")
        let user = try stores.account()
        let guest = try stores.session("guest")
        let laptop = try stores.session("laptop", user: user.id)
        let phone = try stores.session("phone", user: user.id)
        let guestCart = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        let accountCart = Cart(lines: [LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 3)])

        try stores.sessions.saveCart(guest.shopper, guestCart)
        try stores.sessions.saveCart(laptop.shopper, accountCart)
        #expect(try stores.sessions.loadCart(guest.shopper) == guestCart)
        #expect(try stores.sessions.loadCart(phone.shopper) == accountCart)
        #expect(try stores.sessions.loadCart(.guest(laptop.id)).isEmpty)

        try stores.sessions.delete(laptop.id)
        try stores.sessions.delete(phone.id)
        #expect(try stores.sessions.loadCart(.account(user.id)) == accountCart)  // signing out keeps it
        try stores.sessions.delete(guest.id)
        #expect(try stores.sessions.loadCart(guest.shopper).isEmpty)
    }

    // MARK: favorites

    @Test(arguments: StoreKind.engines(for: .sessions))
    func favoritesAreMostRecentFirstAndAddingAgainKeepsTheFirstDate(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(["a", "b", "c", "d"].map { ProductDraft.mock(handle: $0) })
        let (a, b, c, d) = (try stores.product("a").id, try stores.product("b").id, try stores.product("c").id,
                            try stores.product("d").id)
        let shopper = try stores.session("s").shopper
        try stores.sessions.setFavorite(shopper, a, true, Self.start)
        try stores.sessions.setFavorite(shopper, b, true, Self.start.addingTimeInterval(1))
        try stores.sessions.setFavorite(shopper, a, true, Self.start.addingTimeInterval(5))  // already there
        #expect(try stores.sessions.favorites(shopper) == [b, a])

        // Two in the same second: the later call comes first.
        try stores.sessions.setFavorite(shopper, d, true, Self.start.addingTimeInterval(9.1))
        try stores.sessions.setFavorite(shopper, c, true, Self.start.addingTimeInterval(9.8))
        #expect(try stores.sessions.favorites(shopper) == [c, d, b, a])

        try stores.sessions.setFavorite(shopper, b, false, Self.start.addingTimeInterval(10))
        try stores.sessions.setFavorite(shopper, b, false, Self.start.addingTimeInterval(11))  // not there: nothing
        #expect(try stores.sessions.favorites(shopper) == [c, d, a])
        #expect(try stores.sessions.favorites(.guest("other")).isEmpty)
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func guestFavoritesGoWithTheSessionAndAccountFavoritesStay(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a")])
        let a = try stores.product("a").id
        let user = try stores.account()
        try stores.session("guest")
        try stores.session("signed-in", user: user.id)
        try stores.sessions.setFavorite(.guest("guest"), a, true, Self.start)
        try stores.sessions.setFavorite(.account(user.id), a, true, Self.start)

        try stores.sessions.delete("guest")
        try stores.sessions.delete("signed-in")
        #expect(try stores.sessions.favorites(.guest("guest")).isEmpty)
        #expect(try stores.sessions.favorites(.account(user.id)) == [a])
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func unpublishedFavoriteStaysListedAndTheCatalogNoLongerServesIt(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a"), .mock(handle: "b")])
        let a = try stores.product("a").id
        let b = try stores.product("b").id
        let user = try stores.account()
        try stores.sessions.setFavorite(.account(user.id), a, true, Self.start)
        try stores.sessions.setFavorite(.account(user.id), b, true, Self.start.addingTimeInterval(1))

        _ = try stores.catalog.upsert([.mock(handle: "a", isPublished: false)])
        let favorites = try stores.sessions.favorites(.account(user.id))
        #expect(favorites == [b, a])  // the web layer filters what the catalog no longer serves
        #expect(Set(try stores.catalog.productsByID(favorites).keys) == [b])
    }

    // MARK: sign-in

    @Test(arguments: StoreKind.engines(for: .sessions))
    func signInMovesFavoritesMergesTheCartsAndDeletesTheGuestSession(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert(["p1", "p2", "p3"].map { ProductDraft.mock(handle: $0) })
        let p1 = try stores.product("p1"), p2 = try stores.product("p2"), p3 = try stores.product("p3")
        let user = try stores.account()
        let other = try stores.account("bo@example.com", name: "Bo Berg")
        try stores.session("guest")
        try stores.session("elsewhere", user: user.id)
        try stores.sessions.setFavorite(.account(user.id), p1.id, true, Self.start.addingTimeInterval(10))
        try stores.sessions.setFavorite(.account(user.id), p2.id, true, Self.start.addingTimeInterval(20))
        try stores.sessions.setFavorite(.guest("guest"), p2.id, true, Self.start.addingTimeInterval(5))  // earlier
        try stores.sessions.setFavorite(.guest("guest"), p3.id, true, Self.start.addingTimeInterval(30))
        try stores.sessions.setFavorite(.account(other.id), p3.id, true, Self.start)
        try stores.sessions.saveCart(.guest("guest"), Cart(lines: [LineItem(productID: p1.id, variantID: p1.variants[0].id, quantity: 1),
                                                                   LineItem(productID: p3.id, variantID: p3.variants[0].id, quantity: 2)],
                                                           voucherCode: VoucherCode("GUEST10")))
        try stores.sessions.saveCart(.account(user.id), Cart(lines: [LineItem(productID: p3.id, variantID: p3.variants[0].id, quantity: 1,
                                                                              isSelected: false)]))

        // The account's line adds the guest's quantity and keeps its place and selection; the
        // guest's other lines follow; the guest's voucher code wins.
        let merged = Cart(lines: [LineItem(productID: p3.id, variantID: p3.variants[0].id, quantity: 3, isSelected: false),
                                  LineItem(productID: p1.id, variantID: p1.variants[0].id, quantity: 1)],
                          voucherCode: VoucherCode("GUEST10"))
        let newSession = Fixtures.session("new", user: user.id, at: Self.start.addingTimeInterval(60))
        #expect(try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: newSession)).isEmpty)

        #expect(try stores.sessions.find("new") == newSession)
        #expect(try stores.sessions.find("guest") == nil)
        #expect(try stores.sessions.find("elsewhere") != nil)
        #expect(try stores.sessions.loadCart(.account(user.id)) == merged)
        #expect(try stores.sessions.loadCart(.guest("guest")).isEmpty)
        #expect(try stores.sessions.favorites(.guest("guest")).isEmpty)
        // Union without duplicates; p2 keeps the guest's earlier date, so it sorts last.
        #expect(try stores.sessions.favorites(.account(user.id)) == [p3.id, p1.id, p2.id])
        #expect(try stores.sessions.favorites(.account(other.id)) == [p3.id])
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func signInWithoutAGuestSessionCreatesTheSessionAndKeepsTheAccountCart(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a")])
        let a = try stores.product("a")
        let user = try stores.account()
        let cart = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 2)], voucherCode: VoucherCode("MINE"))
        try stores.sessions.saveCart(.account(user.id), cart)
        #expect(try stores.sessions.signIn(SignIn(guestSession: nil, newSession: Fixtures.session("new", user: user.id))).isEmpty)
        #expect(try stores.sessions.find("new")?.userID == user.id)
        #expect(try stores.sessions.loadCart(.account(user.id)) == cart)

        // An unknown guest session is skipped; a guest without a voucher code leaves the account's.
        try stores.sessions.signIn(SignIn(guestSession: "gone", newSession: Fixtures.session("newer", user: user.id)))
        try stores.session("guest")
        try stores.sessions.saveCart(.guest("guest"), Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)]))
        try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("newest", user: user.id)))
        #expect(try stores.sessions.loadCart(.account(user.id))
                == Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 3)], voucherCode: VoucherCode("MINE")))
        #expect(try stores.sessions.find("newer") != nil && stores.sessions.find("guest") == nil)
    }

    @Test func signInCapsMergedLinesAtTheLineLimitAndLeavesOutSoldOutOnes() throws {
        let stores = try StoreHarness(.sqlite)
        _ = try stores.catalog.upsert([
            .mock(handle: "five", variants: [.mock(inventory: .tracked(quantity: 5, allowsBackorder: false))]),
            .mock(handle: "free"),
            .mock(handle: "backorder", variants: [.mock(inventory: .tracked(quantity: 0, allowsBackorder: true))]),
            .mock(handle: "gone", variants: [.mock(inventory: .tracked(quantity: 0, allowsBackorder: false))]),
        ])
        let five = try stores.product("five"), free = try stores.product("free")
        let backorder = try stores.product("backorder"), gone = try stores.product("gone")
        func line(_ product: Product, _ quantity: Int) -> LineItem {
            LineItem(productID: product.id, variantID: product.variants[0].id, quantity: quantity)
        }
        let user = try stores.account()
        try stores.session("guest")
        try stores.sessions.saveCart(.account(user.id), Cart(lines: [line(five, 3), line(free, 90)]))
        try stores.sessions.saveCart(.guest("guest"), Cart(lines: [line(gone, 1), line(five, 4), line(free, 20), line(backorder, 7)]))

        let capped = try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("new", user: user.id)))

        #expect(capped == [Cart.CappedLine(productID: five.id, variantID: five.variants[0].id, requested: 7, kept: 5),
                           Cart.CappedLine(productID: free.id, variantID: free.variants[0].id, requested: 110,
                                           kept: Cart.maximumQuantityPerLine)])
        #expect(try stores.sessions.loadCart(.account(user.id)).lines
                == [line(five, 5), line(free, Cart.maximumQuantityPerLine), line(backorder, 7)])
    }

    @Test(arguments: StoreKind.engines(for: .sessions))
    func failedSignInChangesNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a")])
        let a = try stores.product("a")
        let user = try stores.account()
        try stores.session("guest")
        try stores.session("taken", user: user.id)
        try stores.sessions.setFavorite(.guest("guest"), a.id, true, Self.start)
        let guestCart = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        try stores.sessions.saveCart(.guest("guest"), guestCart)

        let error = #expect(throws: SessionStoreError.self) {
            try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("taken", user: user.id)))
        }
        #expect(error == .sessionAlreadyExists("taken"))
        #expect(throws: AccountStoreError.userNotFound) {
            try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("anon")))
        }
        #expect(throws: AccountStoreError.userNotFound) {
            try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("nobody", user: 42)))
        }
        #expect(try stores.sessions.find("guest") != nil)
        #expect(try stores.sessions.find("anon") == nil)
        #expect(try stores.sessions.find("nobody") == nil)
        #expect(try stores.sessions.loadCart(.guest("guest")) == guestCart)
        #expect(try stores.sessions.favorites(.guest("guest")) == [a.id])
        #expect(try stores.sessions.loadCart(.account(user.id)).isEmpty)
        #expect(try stores.sessions.favorites(.account(user.id)).isEmpty)
    }
}
