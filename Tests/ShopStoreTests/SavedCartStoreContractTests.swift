import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

/// The JSON API's saved carts (Fake Store's `/carts`), the same on every engine.
@Suite("Saved cart store contract")
struct SavedCartStoreContractTests {
    private static func shop(_ kind: StoreKind) throws -> (StoreHarness, User, [Product]) {
        let stores = try StoreHarness(kind, poolSize: 4)
        var hidden = ProductDraft.mock(handle: "hidden")
        hidden.isPublished = false
        _ = try stores.catalog.upsert([.mock(handle: "mug"), .mock(handle: "lamp"), hidden])
        let user = try stores.account()
        return (stores, user, try ["mug", "lamp"].map(stores.product))
    }

    private static func date(_ day: Int) -> Date { Fixtures.start.addingTimeInterval(Double(day) * 86_400 + 0.25) }

    @Test(arguments: StoreKind.engines(for: .savedCarts))
    func cartsAreStoredListedChangedAndDeleted(kind: StoreKind) throws {
        let (stores, user, products) = try Self.shop(kind)
        let (mug, lamp) = (products[0], products[1])
        let other = try stores.account("rui@example.com")
        let first = try stores.savedCarts.insert(user.id, Self.date(1), [.init(productID: mug.id, quantity: 2)])
        let second = try stores.savedCarts.insert(other.id, Self.date(2), [.init(productID: lamp.id, quantity: 1),
                                                                          .init(productID: mug.id, quantity: 3)])
        #expect(first.lines == [.init(productID: mug.id, quantity: 2)])
        #expect(first.date == Self.date(1), "kept to the millisecond")
        #expect(try stores.savedCarts.cart(second.id) == second)
        #expect(try stores.savedCarts.carts(SavedCartQuery()).map(\.id) == [first.id, second.id])
        #expect(try stores.savedCarts.carts(SavedCartQuery(descending: true, limit: 1)).map(\.id) == [second.id])
        #expect(try stores.savedCarts.carts(SavedCartQuery(userID: other.id)).map(\.id) == [second.id])
        #expect(try stores.savedCarts.carts(SavedCartQuery(start: Self.date(2))).map(\.id) == [second.id])
        #expect(try stores.savedCarts.carts(SavedCartQuery(end: Self.date(2))).map(\.id) == [first.id])

        // Only the owner's changes land when an owner is given; fields not given stay.
        #expect(try stores.savedCarts.change(second.id, user.id, SavedCartChange(date: Self.date(5))) == nil)
        let changed = try stores.savedCarts.change(second.id, other.id, SavedCartChange(lines: [.init(productID: mug.id, quantity: 1)]))
        #expect(changed?.lines == [.init(productID: mug.id, quantity: 1)])
        #expect(changed?.date == Self.date(2))
        #expect(try stores.savedCarts.delete(second.id, user.id) == nil)
        #expect(try stores.savedCarts.delete(second.id, nil) == changed)
        #expect(try stores.savedCarts.cart(second.id) == nil)
    }

    @Test(arguments: StoreKind.engines(for: .savedCarts))
    func badLinesAndUnknownAccountsChangeNothing(kind: StoreKind) throws {
        let (stores, user, products) = try Self.shop(kind)
        let hidden = try #require(try stores.catalog.allProducts().first { $0.product.handle == "hidden" }).product
        #expect(throws: SavedCartStoreError.productUnavailable(hidden.id)) {
            try stores.savedCarts.insert(user.id, Self.date(1), [.init(productID: products[0].id, quantity: 1),
                                                                 .init(productID: hidden.id, quantity: 1)])
        }
        #expect(throws: SavedCartStoreError.userNotFound) {
            try stores.savedCarts.insert(User.ID(9_999), Self.date(1), [.init(productID: products[0].id, quantity: 1)])
        }
        #expect(try stores.savedCarts.carts(SavedCartQuery()).isEmpty, "nothing half-written")
        let cart = try stores.savedCarts.insert(user.id, Self.date(1), [.init(productID: products[0].id, quantity: 1)])
        #expect(throws: SavedCartStoreError.userNotFound) {
            try stores.savedCarts.change(cart.id, nil, SavedCartChange(userID: User.ID(9_999)))
        }
        #expect(throws: SavedCartStoreError.productUnavailable(hidden.id)) {
            try stores.savedCarts.change(cart.id, nil, SavedCartChange(date: Self.date(3), lines: [.init(productID: hidden.id, quantity: 1)]))
        }
        #expect(try stores.savedCarts.cart(cart.id) == cart)
    }

    /// Two replacements of one cart's lines at once: the cart ends as one of them, never a mix.
    @Test(arguments: StoreKind.engines(for: .savedCarts))
    func simultaneousReplacementsNeverMix(kind: StoreKind) throws {
        let (stores, user, products) = try Self.shop(kind)
        let (mug, lamp) = (products[0], products[1])
        let cart = try stores.savedCarts.insert(user.id, Self.date(1), [])
        let savedCarts = stores.savedCarts
        let choices: [[SavedCart.Line]] = [[.init(productID: mug.id, quantity: 1), .init(productID: lamp.id, quantity: 1)],
                                           [.init(productID: lamp.id, quantity: 2), .init(productID: mug.id, quantity: 2)]]
        for _ in 0..<20 {
            _ = try ConcurrentRun.together(4) { index in
                try savedCarts.change(cart.id, nil, SavedCartChange(lines: choices[index % 2]))
            }
            #expect(choices.contains(try #require(try savedCarts.cart(cart.id)).lines))
        }
    }
}
