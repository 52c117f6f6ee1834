import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The session and cart contract every store must meet, run against each implementation.
@Suite("Session store contract")
struct SessionStoreContractTests {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    @Test(arguments: StoreKind.allCases)
    func createdSessionIsFoundAndTouchUpdatesLastSeen(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let session = Session(id: "0123456789abcdef0123456789abcdef", createdAt: Self.start, lastSeenAt: Self.start)
        try stores.sessions.create(session)
        #expect(try stores.sessions.find(session.id) == session)

        try stores.sessions.touch(session.id, Self.start.addingTimeInterval(90.6))
        let touched = try #require(try stores.sessions.find(session.id))
        #expect(touched.createdAt == Self.start)
        #expect(touched.lastSeenAt == Self.start.addingTimeInterval(90))  // kept to the second
    }

    @Test(arguments: StoreKind.allCases)
    func unknownSessionsAreAbsent(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        #expect(try stores.sessions.find("ffffffffffffffffffffffffffffffff") == nil)
        try stores.sessions.touch("ffffffffffffffffffffffffffffffff", Self.start)  // no effect
        #expect(try stores.sessions.find("ffffffffffffffffffffffffffffffff") == nil)
        #expect(try stores.sessions.loadCart("ffffffffffffffffffffffffffffffff").isEmpty)
        let error = #expect(throws: SessionStoreError.self) {
            try stores.sessions.saveCart("ffffffffffffffffffffffffffffffff", Cart())
        }
        #expect(error == .sessionNotFound("ffffffffffffffffffffffffffffffff"))
    }

    @Test(arguments: StoreKind.allCases)
    func creatingAKnownSessionIsRefused(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let session = Session(id: "aa", createdAt: Self.start, lastSeenAt: Self.start)
        try stores.sessions.create(session)
        let error = #expect(throws: SessionStoreError.self) {
            try stores.sessions.create(Session(id: "aa", createdAt: .distantPast, lastSeenAt: .distantPast))
        }
        #expect(error == .sessionAlreadyExists("aa"))
        #expect(try stores.sessions.find("aa") == session)
    }

    @Test(arguments: StoreKind.allCases)
    func savedCartLoadsBackInOrderAndSavingReplacesIt(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([
            .mock(handle: "a", optionNames: ["Size"], variants: [.mock(options: ["S"]), .mock(options: ["M"])]),
            .mock(handle: "b"),
        ])
        let a = try stores.product("a")
        let b = try stores.product("b")
        try stores.sessions.create(Session(id: "s1", createdAt: Self.start, lastSeenAt: Self.start))
        try stores.sessions.create(Session(id: "s2", createdAt: Self.start, lastSeenAt: Self.start))
        #expect(try stores.sessions.loadCart("s1").isEmpty)

        let cart = Cart(lines: [
            LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 2),
            LineItem(productID: a.id, variantID: a.variants[1].id, quantity: 1),
            LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 5),
        ])
        try stores.sessions.saveCart("s1", cart)
        #expect(try stores.sessions.loadCart("s1") == cart)
        #expect(try stores.sessions.loadCart("s2").isEmpty)

        let smaller = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        try stores.sessions.saveCart("s1", smaller)
        #expect(try stores.sessions.loadCart("s1") == smaller)
        try stores.sessions.saveCart("s1", Cart())
        #expect(try stores.sessions.loadCart("s1").isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func cartWithInvalidLinesIsRefusedAndTheOldCartKept(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.catalog.upsert([.mock(handle: "a")])
        let a = try stores.product("a")
        try stores.sessions.create(Session(id: "s", createdAt: Self.start, lastSeenAt: Self.start))
        let good = Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1)])
        try stores.sessions.saveCart("s", good)

        for lines in [[LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 0)],
                      [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 1),
                       LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 2)]] {
            let error = #expect(throws: SessionStoreError.self) { try stores.sessions.saveCart("s", Cart(lines: lines)) }
            #expect(error == .invalidCartLine(a.variants[0].id))
        }
        #expect(try stores.sessions.loadCart("s") == good)
    }
}
