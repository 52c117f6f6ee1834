import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
import Testing

@Suite("Sign-in merge races another device")
struct SignInRaceTests {
    /// The account's cart is merged with the guest's inside the sign-in transaction (issue #9).
    /// When the merge was computed in Swift between reading the account's cart and writing it
    /// back, a line another device added in that gap was overwritten; this races the two on
    /// real threads over a file-backed database, where each has its own connection.
    @Test(.bug(id: 9, "sign-in merge lost the other device's cart change"))
    func signingInWhileAnotherDeviceChangesTheAccountsCartLosesNothing() throws {
        let shop = try ServiceShop([.mock(handle: "lamp"), .mock(handle: "mug"), .mock(handle: "desk")], file: true, poolSize: 4)
        let lamp = try shop.line("lamp", 1), mug = try shop.line("mug", 1), desk = try shop.line("desk", 1)
        let service = shop.sessionService
        let sessions = shop.sessions
        var lost: [Int] = []
        for round in 0..<200 {
            let user = try shop.account("shopper\(round)@example.com")
            try sessions.saveCart(.account(user.id), Cart(lines: [lamp]))
            let guest = try shop.sessionService.startGuestSession(csrfToken: "csrf-of-round-\(round)-0123456789abcdef0123",
                                                                  csrfCookie: nil)
            try sessions.saveCart(.guest(guest.session.id), Cart(lines: [LineItem(productID: lamp.productID, variantID: lamp.variantID,
                                                                                  quantity: 2), mug]))

            _ = try ConcurrentRun.together(2) { thread in
                if thread == 0 {
                    _ = try service.signIn(user.id, replacing: guest.session, remember: true)
                } else {
                    // The shopper's other device, already signed in: one more lamp and a desk.
                    try sessions.changeCart(.account(user.id), [
                        .add(productID: lamp.productID, variantID: lamp.variantID, quantity: 1, limit: Cart.maximumQuantityPerLine),
                        .add(productID: desk.productID, variantID: desk.variantID, quantity: 1, limit: Cart.maximumQuantityPerLine),
                    ])
                }
            }

            let quantities = Dictionary(uniqueKeysWithValues: try sessions.loadCart(.account(user.id)).lines.map { ($0.variantID, $0.quantity) })
            if quantities != [lamp.variantID: 4, mug.variantID: 1, desk.variantID: 1] { lost.append(round) }
        }
        #expect(lost.isEmpty, "rounds that lost a line or a quantity: \(lost.count) of 200")
    }
}
