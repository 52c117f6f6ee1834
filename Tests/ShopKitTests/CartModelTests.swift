import Foundation
import ShopAPI
import ShopClient
@testable import ShopKit
import Testing

@MainActor
@Suite("CartModel")
struct CartModelTests {
    enum Answer: String, CaseIterable, Sendable {
        case lines, nothing, refusal, offline
    }

    @Test(arguments: Answer.allCases)
    func loadingEndsInTheStateOfTheAnswer(_ answer: Answer) async {
        var shop = ShopOperations.failing
        shop.credentials = { token }
        let gate = FakeCartServer([])
        await gate.hold()
        shop.cart = {
            _ = try await gate.remove(0) // waits for the test's release
            switch answer {
            case .lines: return await FakeCartServer([.init(variantID: 1, quantity: 2)]).cart()
            case .nothing: return await FakeCartServer([]).cart()
            case .refusal: throw NetworkError.serverError(status: 500, code: "internal", message: "Broken.")
            case .offline: throw NetworkError.offline
            }
        }
        let model = CartModel(shop: shop, locale: enUS)
        guard case .idle = model.state else { Issue.record("not idle: \(model.state)"); return }
        let load = Task { await model.load() }
        #expect(await eventually { model.state.isLoading })
        await gate.release()
        await load.value
        switch (answer, model.state) {
        case let (.lines, .loaded(display)):
            #expect(display.lines.map(\.quantity) == [2] && display.total == "$20.00" && model.badge == 2)
        case (.nothing, .empty), (.offline, .offline): break
        case let (.refusal, .failed(error)): #expect(error.errorDescription == "Broken.")
        default: Issue.record("\(answer) ended in \(model.state)")
        }
    }

    @Test func withoutASessionTheCartIsEmptyWithoutAsking() async {
        let model = CartModel(shop: .failing, locale: enUS)   // `cart` would fail: it is not called
        await model.load()
        guard case .empty = model.state else { Issue.record("\(model.state)"); return }
        #expect(model.badge == 0)
    }

    @Test func aQuantityShowsAtOnceThenTheServersCart() async throws {
        let server = FakeCartServer([.init(variantID: 7, quantity: 1)])
        let model = CartModel(shop: server.operations(), locale: enUS)
        await model.load()
        await server.hold()
        let tap = Task { await model.increase(model.lines[0]) }
        #expect(await eventually { await server.heldCount == 1 })
        // Shown at once, the amounts still the server's previous ones, checkout waiting.
        let shown = try #require(model.state.value)
        #expect(shown.lines[0].quantity == 2 && shown.lines[0].isUpdating && shown.lines[0].total == "$10.00")
        #expect(shown.isUpdating && !shown.canCheckout && model.badge == 2)
        await server.release()
        await tap.value
        let answered = try #require(model.state.value)
        #expect(answered.lines[0].quantity == 2 && !answered.lines[0].isUpdating && answered.total == "$20.00")
        #expect(answered.canCheckout && model.errorMessage == nil)
    }

    @Test func aRefusedQuantityIsRolledBackWithTheServersMessage() async throws {
        let server = FakeCartServer([.init(variantID: 7, quantity: 4)])
        await server.setRefused([5])
        let model = CartModel(shop: server.operations(), locale: enUS)
        await model.load()
        await server.hold()
        let tap = Task { await model.setQuantity(5, forLine: .init(variantID: 7)) }
        #expect(await eventually { await server.heldCount == 1 })
        #expect(model.lines.first?.quantity == 5)
        await server.release()
        await tap.value
        #expect(model.lines.first?.quantity == 4 && model.lines.first?.isUpdating == false)
        #expect(model.errorMessage == "Only 5 left." && model.badge == 4)
        model.dismissError()
        #expect(model.errorMessage == nil)
    }

    @Test func aRemovedLineGoesAtOnceAndComesBackWhenOffline() async throws {
        var shop = FakeCartServer([.init(variantID: 7, quantity: 1), .init(variantID: 8, quantity: 3)]).operations()
        let entered = AsyncStream<Void>.makeStream()
        let proceed = AsyncStream<Void>.makeStream()
        shop.removeLine = { _ in
            entered.continuation.yield()
            for await _ in proceed.stream { break }
            throw NetworkError.offline
        }
        let connectivity = Connectivity.manual()
        let model = CartModel(shop: shop, connectivity: connectivity, locale: enUS)
        await model.load()
        let tap = Task { await model.remove(.init(variantID: 8)) }
        for await _ in entered.stream { break }
        #expect(model.lines.map(\.variantID) == [7] && model.badge == 1)
        proceed.continuation.yield()
        await tap.value
        #expect(model.lines.map(\.variantID) == [7, 8] && model.badge == 4)
        #expect(model.errorMessage == NetworkError.offline.errorDescription)
        #expect(connectivity.status == .offline && !model.canChange && !model.canAddToCart)
    }

    @Test func quickTapsGoOutInOrderAndEndOnTheLastAnswer() async throws {
        let server = FakeCartServer([.init(variantID: 7, quantity: 1)])
        await server.setRefused([3])
        let model = CartModel(shop: server.operations(), locale: enUS)
        await model.load()
        await server.hold()
        var taps: [Task<Void, Never>] = []
        for expected in 2...4 {
            taps.append(Task { await model.increase(model.lines[0]) })
            #expect(await eventually { model.lines.first?.quantity == expected })
        }
        // One request at a time: the second waits for the first's answer.
        #expect(await server.heldCount == 1)
        #expect(model.badge == 4)
        await server.release()
        for tap in taps { await tap.value }
        let updates = await server.updates
        #expect(updates.map(\.1) == [2, 3, 4])
        // 3 was refused, 4 went through: the server holds 4, and so does the display.
        #expect(await server.entries.map(\.quantity) == [4])
        #expect(model.lines.map(\.quantity) == [4] && model.state.value?.total == "$40.00" && model.badge == 4)
        #expect(model.errorMessage == "Only 5 left.")
    }

    @Test func aTickedBoxShowsAtOnceAndComesBackOnRefusal() async throws {
        var shop = FakeCartServer([.init(variantID: 7, quantity: 1)]).operations()
        shop.updateLine = { _, _, _ in throw NetworkError.serverError(status: 404, code: "not_found", message: "Gone.") }
        let model = CartModel(shop: shop, locale: enUS)
        await model.load()
        await model.setSelected(false, forLine: .init(variantID: 7))
        #expect(model.lines.first?.selected == true && model.errorMessage == "Gone.")
    }

    @Test func theFirstAddStartsAGuestSession() async {
        let server = FakeCartServer([])
        var shop = server.operations()
        let started = Recorded<String>()
        shop.credentials = { started.all.isEmpty ? nil : token }
        shop.startGuestSession = {
            started.append("guest")
            return V1GuestToken(token: token.accessToken, expiresAt: .distantFuture)
        }
        let model = CartModel(shop: shop, locale: enUS)
        #expect(await model.add(productID: 3, quantity: 2))
        #expect(await model.add(productID: 3))
        #expect(started.all == ["guest"] && model.badge == 3 && model.addsInFlight == 0)
    }

    enum VoucherCase: String, CaseIterable, Sendable {
        case applied, rejected, malformed
    }

    @Test(arguments: VoucherCase.allCases)
    func aVoucherShowsWhatTheServerSaid(_ voucherCase: VoucherCase) async throws {
        let server = FakeCartServer([.init(variantID: 7, quantity: 1)])
        var shop = server.operations()
        shop.setVoucher = { code in
            var cart = await server.cart()
            switch voucherCase {
            case .applied:
                cart.voucher = .init(code: code, status: "applied", campaign: "15 % off", problem: nil)
                cart.discount = usd(1_50)
                cart.total = usd(8_50)
            case .rejected:
                cart.voucher = .init(code: code, status: "rejected", campaign: nil,
                                     problem: V1Problem(code: "voucher_unknown", message: "No campaign has this code."))
            case .malformed:
                throw NetworkError.serverError(status: 400, code: "invalid_voucher_code", message: "Codes are letters and digits.")
            }
            return cart
        }
        let model = CartModel(shop: shop, locale: enUS)
        await model.load()
        let applied = await model.applyVoucher("SAVE15")
        let display = try #require(model.state.value)
        switch voucherCase {
        case .applied:
            #expect(applied && display.voucher?.isApplied == true && display.voucher?.campaign == "15 % off")
            #expect(display.discount == "$1.50" && display.total == "$8.50" && model.voucherError == nil)
        case .rejected:
            #expect(!applied && display.voucher?.isApplied == false)
            #expect(display.voucher?.message == "No campaign has this code." && display.discount == nil)
        case .malformed:
            #expect(!applied && display.voucher == nil && model.voucherError == "Codes are letters and digits.")
        }
    }

    @Test func suggestionsAreTheShoppersRecommendations() async {
        var shop = FakeCartServer([]).operations()
        let asked = Recorded<Bool>()
        shop.featured = { recommendations in
            asked.append(recommendations)
            guard asked.all.count == 1 else { throw NetworkError.offline }
            return V1Featured(products: [summary(3, "desk-lamp")], recommendations: recommendations)
        }
        let model = CartModel(shop: shop, locale: enUS)
        await model.loadSuggestions()
        #expect(asked.all == [true] && model.suggestions.map(\.handle) == ["desk-lamp"])
        await model.loadSuggestions()   // fails: the suggestions stay
        #expect(model.suggestions.map(\.handle) == ["desk-lamp"])
    }
}
