import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
import Testing

@Suite("SessionService")
struct SessionServiceTests {
    // MARK: resume

    @Test(arguments: [nil, "", "abc", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcdef0",
                      "0123456789abcdeg0123456789abcdef", "' OR 1=1 --"])
    func aMissingOrMalformedTokenIsNoSession(token: String?) throws {
        let shop = try ServiceShop()
        #expect(try shop.sessionService.resume(token: token) == .none)
    }

    @Test func aLiveSessionResumesWithoutWritingWithinTheHour() throws {
        let shop = try ServiceShop()
        let issued = try shop.guestSession()
        shop.clock.advance(by: 59 * 60)
        let resumed = try shop.sessionService.resume(token: issued.token)
        #expect(resumed == .active(issued.session, cookie: nil))
        #expect(try shop.sessions.find(issued.session.id) == issued.session)  // not touched
    }

    @Test(arguments: [true, false])
    func useAfterAnHourSlidesTheExpiryAndRenewsAPersistentCookie(persistent: Bool) throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let signedIn = try shop.sessionService.signIn(user.id, replacing: nil, remember: persistent)
        shop.clock.advance(by: 61 * 60)
        let resumed = try shop.sessionService.resume(token: signedIn.issued.token)

        let lifetime = persistent ? SessionService.persistentLifetime : SessionService.browserSessionLifetime
        #expect(resumed.session?.lastSeenAt == shop.clock.now)
        #expect(resumed.session?.expiresAt == shop.clock.now.addingTimeInterval(lifetime))
        #expect(try shop.sessions.find(signedIn.issued.session.id)?.expiresAt == shop.clock.now.addingTimeInterval(lifetime))
        // A browser-session cookie stays one: only the server's expiry moves.
        #expect(resumed.cookie == (persistent ? .set(value: signedIn.issued.token, maxAge: 30 * 86_400) : nil))

        // Written at most once an hour: the next use within the hour writes nothing.
        shop.clock.advance(by: 30 * 60)
        #expect(try shop.sessionService.resume(token: signedIn.issued.token).cookie == nil)
        #expect(try shop.sessions.find(signedIn.issued.session.id)?.lastSeenAt == shop.clock.now.addingTimeInterval(-30 * 60))
    }

    @Test func anExpiredSessionHasEndedIsDeletedAndItsCookieToo() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let signedIn = try shop.sessionService.signIn(user.id, replacing: nil, remember: false)
        shop.clock.advance(by: SessionService.browserSessionLifetime + 1)
        #expect(try shop.sessionService.resume(token: signedIn.issued.token) == .ended(cookie: .delete))
        #expect(try shop.sessions.find(signedIn.issued.session.id) == nil)
    }

    @Test func aSessionSignedOutElsewhereHasEndedAndItsCookieIsLeftAlone() throws {
        let shop = try ServiceShop()
        let issued = try shop.guestSession()
        try shop.sessionService.signOut(issued.session, everywhere: false)
        let resumed = try shop.sessionService.resume(token: issued.token)
        #expect(resumed == .ended(cookie: nil) && resumed.session == nil)
    }

    // MARK: guest sessions

    @Test func simultaneousFirstRequestsWithOneCSRFCookieShareOneGuestSession() throws {
        let shop = try ServiceShop()
        let first = try shop.guestSession()
        shop.clock.advance(by: SessionService.guestSessionJoinWindow)
        let second = try shop.guestSession()
        #expect(second.session == first.session && second.token == first.token)
        #expect(first.cookie == .set(value: first.token, maxAge: 30 * 86_400))
        #expect(first.session.userID == nil && first.session.isPersistent)
    }

    @Test func aCSRFCookieDoesNotJoinAnOlderSessionOrOneItDidNotCome() throws {
        let shop = try ServiceShop()
        let first = try shop.guestSession()
        shop.clock.advance(by: SessionService.guestSessionJoinWindow + 1)
        let later = try shop.guestSession()
        #expect(later.session.id != first.session.id && later.token != first.token)
        // A form token that is not the cookie's gets a random session, not the derived one.
        let other = try shop.sessionService.startGuestSession(csrfToken: ServiceShop.csrfCookie, csrfCookie: nil)
        #expect(![first.session.id, later.session.id].contains(other.session.id))
    }

    // MARK: sign in and out

    @Test func signInIssuesANewSessionAndMergesTheGuestsCartAndFavorites() throws {
        let shop = try ServiceShop([.mock(handle: "lamp", variants: [.mock(inventory: .tracked(quantity: 3, allowsBackorder: false))]),
                                    .mock(handle: "mug"), .mock(handle: "desk")])
        let lamp = try shop.product("lamp"), mug = try shop.product("mug"), desk = try shop.product("desk")
        let user = try shop.account()
        try shop.sessions.saveCart(.account(user.id), Cart(lines: [try shop.line("lamp", 2), try shop.line("desk", 1)]))
        try shop.sessions.setFavorite(.account(user.id), mug.id, true, shop.clock.now)
        let guest = try shop.guestSession()
        try shop.sessions.saveCart(.guest(guest.session.id), Cart(lines: [try shop.line("lamp", 2), try shop.line("mug", 1)]))
        try shop.sessions.setFavorite(.guest(guest.session.id), lamp.id, true, shop.clock.now.addingTimeInterval(1))
        try shop.sessions.setFavorite(.guest(guest.session.id), mug.id, true, shop.clock.now)

        let signedIn = try shop.sessionService.signIn(user.id, replacing: guest.session, remember: true)

        #expect(signedIn.issued.session.id != guest.session.id && signedIn.issued.token != guest.token)
        #expect(signedIn.issued.csrfToken != ServiceShop.csrfCookie)
        #expect(signedIn.issued.session.userID == user.id && signedIn.issued.session.isPersistent)
        #expect(try shop.sessions.find(guest.session.id) == nil)
        #expect(try shop.sessionService.resume(token: signedIn.issued.token).session?.userID == user.id)
        #expect(try shop.sessions.loadCart(.account(user.id)).lines
                == [try shop.line("lamp", 3), try shop.line("desk", 1), try shop.line("mug", 1)])
        #expect(signedIn.cappedLines == [Cart.CappedLine(productID: lamp.id, variantID: lamp.variants[0].id, requested: 4, kept: 3)])
        #expect(try shop.sessions.favorites(.account(user.id)) == [lamp.id, mug.id])
        _ = desk
    }

    @Test(arguments: [false, true])
    func signOutEndsTheSessionOrEveryOneOfTheAccount(everywhere: Bool) throws {
        let shop = try ServiceShop()
        let ana = try shop.account(), bo = try shop.account("bo@example.com")
        let phone = try shop.sessionService.signIn(ana.id, replacing: nil, remember: true).issued
        let laptop = try shop.sessionService.signIn(ana.id, replacing: nil, remember: true).issued
        let bos = try shop.sessionService.signIn(bo.id, replacing: nil, remember: true).issued

        #expect(try shop.sessionService.signOut(phone.session, everywhere: everywhere) == .delete)

        #expect(try shop.sessions.find(phone.session.id) == nil)
        #expect(try (shop.sessions.find(laptop.session.id) == nil) == everywhere)
        #expect(try shop.sessions.find(bos.session.id) != nil)
    }

    @Test func purgingDeletesOnlyExpiredSessions() throws {
        let shop = try ServiceShop()
        let user = try shop.account()
        let short = try shop.sessionService.signIn(user.id, replacing: nil, remember: false).issued
        let long = try shop.sessionService.signIn(user.id, replacing: nil, remember: true).issued
        shop.clock.advance(by: SessionService.browserSessionLifetime + 1)
        #expect(try shop.sessionService.purgeExpired() == 1)
        #expect(try shop.sessions.find(short.session.id) == nil && shop.sessions.find(long.session.id) != nil)
    }
}
