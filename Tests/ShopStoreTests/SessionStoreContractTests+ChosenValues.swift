import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Synchronization
import Testing

/// Issue #13, point 2: a WooCommerce "any" variant is ONE variant with one stock pool; the
/// shopper's pick rides on the cart line and is part of its identity.
extension SessionStoreContractTests {
    private static let sizeM = ChosenValues(entries: [.init(name: "Size", value: "M")])
    private static let sizeL = ChosenValues(entries: [.init(name: "Size", value: "L")])

    private static func tee(_ kind: StoreKind) throws -> (StoreHarness, Product) {
        let stores = try StoreHarness(kind, poolSize: 8)
        _ = try stores.catalog.upsert([.openTee()])
        return (stores, try stores.product("tee"))
    }

    private static func add(_ tee: Product, _ chosen: ChosenValues, _ quantity: Int = 1, limit: Int = 5) -> CartChange {
        .add(productID: tee.id, variantID: tee.variants[0].id, quantity: quantity, limit: limit, chosen: chosen)
    }

    @Test(.bug(id: "13"), arguments: StoreKind.engines(for: .sessions))
    func anOpenVariantKeepsItsChoicesInTheCatalog(kind: StoreKind) throws {
        let (_, tee) = try Self.tee(kind)
        #expect(tee.variants.map(\.optionValues) == [[""]])
        #expect(tee.variants.map(\.optionChoices) == [[["S", "M", "L"]]])
        #expect(tee.variants.map(\.sku) == ["TEE-ANY"])
    }

    @Test(.bug(id: "13"), arguments: StoreKind.engines(for: .sessions))
    func aLineIsItsVariantAndItsChosenValues(kind: StoreKind) throws {
        let (stores, tee) = try Self.tee(kind)
        try stores.session("guest")
        let guest = Shopper.guest("guest")
        try stores.sessions.changeCart(guest, [Self.add(tee, Self.sizeM), Self.add(tee, Self.sizeL), Self.add(tee, Self.sizeM)])
        let variant = tee.variants[0].id
        #expect(try stores.sessions.loadCart(guest).lines == [
            LineItem(productID: tee.id, variantID: variant, quantity: 2, chosen: Self.sizeM),
            LineItem(productID: tee.id, variantID: variant, quantity: 1, chosen: Self.sizeL),
        ])
        try stores.sessions.changeCart(guest, [.setQuantity(variant, 3, chosen: Self.sizeL, limit: 5), .remove(variant, chosen: Self.sizeM)])
        #expect(try stores.sessions.loadCart(guest).lines == [
            LineItem(productID: tee.id, variantID: variant, quantity: 3, chosen: Self.sizeL),
        ])
    }

    @Test(.bug(id: "13"), arguments: StoreKind.engines(for: .sessions))
    func linesOfOneVariantShareItsStockWhateverWasChosen(kind: StoreKind) throws {
        let (stores, tee) = try Self.tee(kind)
        try stores.session("guest")
        let guest = Shopper.guest("guest")
        try stores.sessions.changeCart(guest, [Self.add(tee, Self.sizeM, 3)])
        #expect(throws: CartLineLimitExceeded(inCart: 3)) {
            try stores.sessions.changeCart(guest, [Self.add(tee, Self.sizeL, 3)])
        }
        try stores.sessions.changeCart(guest, [Self.add(tee, Self.sizeL, 2)])
        // Raising one line past what the other leaves is refused, naming what both hold.
        #expect(throws: CartLineLimitExceeded(inCart: 5)) {
            try stores.sessions.changeCart(guest, [.setQuantity(tee.variants[0].id, 3, chosen: Self.sizeL, limit: 5)])
        }
        #expect(try stores.sessions.loadCart(guest).lines.map(\.quantity) == [3, 2])
    }

    /// Twelve threads add one each, alternating M and L, to a variant with 5 in stock: exactly
    /// five are accepted and the two lines hold five together.
    @Test(.bug(id: "13"), arguments: StoreKind.engines(for: .sessions))
    func simultaneousAddsOfTwoChosenValuesNeverPassTheVariantsStock(kind: StoreKind) throws {
        let (stores, tee) = try Self.tee(kind)
        let sessions = stores.sessions
        for round in 0..<20 {
            let id = Session.ID(rawValue: "round-\(round)")
            try stores.session(id)
            let accepted = Atomic<Int>(0)
            let bodies: [@Sendable () -> Void] = (0..<12).map { index in {
                do {
                    try sessions.changeCart(.guest(id), [Self.add(tee, index.isMultiple(of: 2) ? Self.sizeM : Self.sizeL)])
                    accepted.add(1, ordering: .relaxed)
                } catch {}
            } }
            Self.race(bodies)
            let cart = try sessions.loadCart(.guest(id))
            #expect(accepted.load(ordering: .relaxed) == 5, "round \(round)")
            #expect(cart.quantityOfVariant(tee.variants[0].id) == 5, "round \(round): \(cart.lines)")
        }
    }

    @Test(.bug(id: "13"), arguments: StoreKind.engines(for: .sessions))
    func signInMergesLinesByChosenValuesWithinTheVariantsStock(kind: StoreKind) throws {
        let (stores, tee) = try Self.tee(kind)
        let user = try stores.account()
        try stores.session("guest")
        let variant = tee.variants[0].id
        try stores.sessions.changeCart(.account(user.id), [Self.add(tee, Self.sizeM, 2)])
        try stores.sessions.changeCart(.guest("guest"), [Self.add(tee, Self.sizeM, 1), Self.add(tee, Self.sizeL, 4)])
        let capped = try stores.sessions.signIn(SignIn(guestSession: "guest", newSession: Fixtures.session("new", user: user.id)))
        // M: 2 + 1 = 3 fits; L: 4 asked, 2 left of the 5.
        #expect(capped == [Cart.CappedLine(productID: tee.id, variantID: variant, requested: 4, kept: 2)])
        let cart = try stores.sessions.loadCart(.account(user.id))
        #expect(cart.lines.map(\.chosen) == [Self.sizeM, Self.sizeL])
        #expect(cart.lines.map(\.quantity) == [3, 2])
    }
}
