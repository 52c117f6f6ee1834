import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import Testing

@MainActor
@Suite("AppModel")
struct AppModelTests {
    @Test func onboardingIsShownOnce() {
        let settings = MemoryKeyValueStore()
        let first = AppModel(shop: .failing, settings: settings)
        #expect(first.showsOnboarding)
        first.finishOnboarding()
        #expect(!first.showsOnboarding)
        let second = AppModel(shop: .failing, settings: settings)
        #expect(!second.showsOnboarding)
        #expect(AppModel(shop: .failing, settings: MemoryKeyValueStore()).showsOnboarding)
    }

    @Test func aGuestSessionStartedByTheCartIsSavedAndRestored() async {
        let sessions = MemorySessionStore()
        let held = Recorded<Credentials?>()
        var shop = FakeCartServer([]).operations()
        shop.credentials = { held.all.last ?? nil }
        shop.setCredentials = { held.append($0) }
        shop.startGuestSession = {
            held.append(token)
            return V1GuestToken(token: token.accessToken, expiresAt: .distantFuture)
        }
        let app = AppModel(shop: shop, settings: MemoryKeyValueStore(), sessions: sessions)
        #expect(app.session == .none)
        await app.start()
        #expect(await app.cart.add(productID: 3, quantity: 2))
        #expect(app.session == .guest && app.cartBadge == 2)
        #expect(sessions.load() == SavedSession(kind: .guest, credentials: token))

        held.append(nil) // a new launch: the client starts without credentials
        let relaunched = AppModel(shop: shop, settings: MemoryKeyValueStore(), sessions: sessions)
        #expect(relaunched.session == .guest && shop.credentials() == token)
        await relaunched.start()
        #expect(relaunched.cartBadge == 2)
    }

    @Test func signingInAndOutIsSavedAndReloadsTheSharedModels() async {
        let sessions = MemorySessionStore(SavedSession(kind: .guest, credentials: token))
        let held = Recorded<Credentials?>()
        let account = Credentials(accessToken: "account", refreshToken: "refresh")
        var shop = ShopOperations.failing
        shop.credentials = { held.all.last ?? nil }
        shop.setCredentials = { held.append($0) }
        shop.signIn = { _, _ in held.append(account); return account }
        shop.signOut = { _ in throw NetworkError.offline }
        shop.cart = { await FakeCartServer([.init(variantID: 1, quantity: 1)]).cart() }
        shop.favorites = { [summary(1, "arc-lamp"), summary(2, "desk-lamp")] }
        let app = AppModel(shop: shop, settings: MemoryKeyValueStore(), sessions: sessions)
        #expect(app.session == .guest)
        _ = try? await app.shop.signIn("ana@example.com", "Blue9sky!")
        #expect(app.session == .signedIn && app.isSignedIn && sessions.load()?.kind == .account)
        #expect(app.cartBadge == 1 && app.favoritesBadge == 2)
        // Signing out while offline still forgets the session on this device.
        await app.signOut()
        #expect(app.session == .none && sessions.load() == nil && held.all.last == .some(nil))
        #expect(app.cartBadge == 0 && app.favoritesBadge == 0)
    }

    @Test func theLanguageIsRememberedAndSentToTheShop() async {
        let settings = MemoryKeyValueStore()
        let sent = Recorded<String?>()
        var shop = ShopOperations.failing
        shop.setAcceptLanguage = { sent.append($0) }
        let app = AppModel(shop: shop, settings: settings, language: .english)
        await app.setLanguage(.turkish)
        #expect(app.language == .turkish && app.locale.identifier == "tr_TR" && app.cart.locale.identifier == "tr_TR")
        #expect(sent.all == ["en", "tr"])
        let relaunched = AppModel(shop: shop, settings: settings)
        #expect(relaunched.language == .turkish && sent.all.last == "tr")
    }

    @Test func offlineDisablesActionsAndTheProbeBringsTheCartBack() async {
        let reachable = Recorded<Bool>()
        let server = FakeCartServer([.init(variantID: 1, quantity: 2)])
        var shop = server.operations()
        let cart = shop.cart
        shop.cart = {
            guard !reachable.all.isEmpty else { throw NetworkError.offline }
            return try await cart()
        }
        shop.probe = { guard !reachable.all.isEmpty else { throw NetworkError.offline } }
        let app = AppModel(shop: shop, settings: MemoryKeyValueStore())
        await app.cart.load()
        guard case .offline = app.cart.state else { Issue.record("\(app.cart.state)"); return }
        #expect(app.network == .offline && !app.cart.canAddToCart && !app.favorites.canToggle)
        #expect(await app.cart.add(productID: 1) == false)   // disabled: not even sent
        reachable.append(true)
        #expect(await app.connectivity.probeNow())
        #expect(app.network == .online && app.cart.canAddToCart && app.cartBadge == 2)
    }

    @Test func thePeriodicProbeRunsOnTheInjectedClock() async {
        let slept = Recorded<Duration>()
        let probes = Recorded<Int>()
        let connectivity = Connectivity(probe: {
            probes.append(probes.all.count)
            if probes.all.count == 1 { throw NetworkError.offline }
        }, interval: .seconds(30), offlineInterval: .seconds(5), sleep: { duration in
            slept.append(duration)
            if slept.all.count > 3 { throw CancellationError() }
        })
        await connectivity.run()
        // online → wait 30 s → probe fails → wait 5 s → probe succeeds → wait 30 s → …
        #expect(slept.all == [.seconds(30), .seconds(5), .seconds(30), .seconds(30)])
        #expect(probes.all.count == 3 && connectivity.status == .online)
    }

    @Test func renewedCredentialsAreSavedAndARefusedRefreshSignsOut() async {
        let account = Credentials(accessToken: "a1", refreshToken: "r1")
        let sessions = MemorySessionStore(SavedSession(kind: .account, credentials: account))
        let observer = Recorded<@Sendable (Credentials?) -> Void>()
        var shop = ShopOperations.failing
        shop.onCredentialsRenewed = { observer.append($0) }
        let app = AppModel(shop: shop, settings: MemoryKeyValueStore(), sessions: sessions)
        #expect(app.session == .signedIn && observer.all.count == 1)
        let renewed = Credentials(accessToken: "a2", refreshToken: "r2")
        observer.all[0](renewed)
        #expect(sessions.load() == SavedSession(kind: .account, credentials: renewed))
        observer.all[0](nil)
        #expect(sessions.load() == nil)
        #expect(await eventually { app.session == .none })
    }

    @Test func anExpiredGuestTokenIsForgotten() async {
        let sessions = MemorySessionStore(SavedSession(kind: .guest, credentials: token))
        let held = Recorded<Credentials?>()
        var shop = ShopOperations.failing
        shop.credentials = { held.all.last ?? nil }
        shop.setCredentials = { held.append($0) }
        shop.cart = { throw NetworkError.serverError(status: 401, code: "unauthorized", message: "Sign in again.") }
        shop.favorites = { throw NetworkError.serverError(status: 401, code: "unauthorized", message: "Sign in again.") }
        let app = AppModel(shop: shop, settings: MemoryKeyValueStore(), sessions: sessions)
        #expect(app.session == .guest)
        await app.start()
        #expect(await eventually {
            if case .empty = app.cart.state { app.session == .none } else { false }
        })
        #expect(sessions.load() == nil && held.all.last == .some(nil))
    }
}
