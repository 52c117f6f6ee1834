import Foundation
import ShopAPI
import ShopClient
@testable import ShopKit
import Testing

@MainActor
@Suite("FavoritesModel")
struct FavoritesModelTests {
    @Test func aHeartFillsAtOnceThenShowsTheServersList() async throws {
        var shop = ShopOperations.failing
        shop.credentials = { token }
        shop.favorites = { [summary(1, "arc-lamp")] }
        let entered = AsyncStream<Void>.makeStream()
        let proceed = AsyncStream<Void>.makeStream()
        shop.addFavorite = { id in
            entered.continuation.yield()
            for await _ in proceed.stream { break }
            return [summary(id, "oak-chair"), summary(1, "arc-lamp")]
        }
        let model = FavoritesModel(shop: shop, locale: enUS)
        await model.load()
        #expect(model.isFavorite(1) && !model.isFavorite(2) && model.count == 1)
        let tap = Task { await model.toggle(2) }
        for await _ in entered.stream { break }
        #expect(model.isFavorite(2) && model.count == 2)
        proceed.continuation.yield()
        await tap.value
        let cards = try #require(model.state.value)
        #expect(cards.map(\.handle) == ["oak-chair", "arc-lamp"] && cards[0].price == "$10.00" && cards[0].rating == "3.9")
    }

    @Test func aRefusedToggleTurnsTheHeartBack() async throws {
        var shop = ShopOperations.failing
        shop.credentials = { token }
        shop.favorites = { [summary(1, "arc-lamp")] }
        shop.removeFavorite = { _ in throw NetworkError.serverError(status: 500, code: nil, message: "Try later.") }
        let model = FavoritesModel(shop: shop, locale: enUS)
        await model.load()
        await model.toggle(1)
        #expect(model.isFavorite(1) && model.errorMessage == "Try later.")
        #expect(model.state.value?.map(\.id) == [1])
    }

    @Test func withoutASessionThereAreNoFavoritesAndTheFirstHeartStartsOne() async {
        var shop = ShopOperations.failing
        let started = Recorded<String>()
        shop.credentials = { started.all.isEmpty ? nil : token }
        shop.startGuestSession = {
            started.append("guest")
            return V1GuestToken(token: token.accessToken, expiresAt: .distantFuture)
        }
        shop.addFavorite = { [summary($0, "arc-lamp")] }
        let model = FavoritesModel(shop: shop, locale: enUS)
        await model.load()
        guard case .empty = model.state else { Issue.record("\(model.state)"); return }
        await model.toggle(5)
        #expect(started.all == ["guest"] && model.isFavorite(5))
    }

    @Test func offlineLoadIsRetriedWhenTheProbeSucceeds() async {
        let online = Recorded<Bool>()
        var shop = ShopOperations.failing
        shop.credentials = { token }
        shop.favorites = {
            guard !online.all.isEmpty else { throw NetworkError.offline }
            return [summary(1, "arc-lamp")]
        }
        let connectivity = Connectivity(probe: {
            guard !online.all.isEmpty else { throw NetworkError.offline }
        })
        let model = FavoritesModel(shop: shop, connectivity: connectivity, locale: enUS)
        await model.load()
        guard case .offline = model.state else { Issue.record("\(model.state)"); return }
        #expect(connectivity.status == .offline && !model.canToggle && connectivity.pendingRetries == ["favorites"])
        #expect(await connectivity.probeNow() == false)
        online.append(true)
        #expect(await connectivity.probeNow())
        #expect(model.state.value?.map(\.id) == [1] && model.canToggle && connectivity.pendingRetries.isEmpty)
    }
}
