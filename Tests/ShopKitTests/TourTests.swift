import Foundation
import ShopAPI
import ShopClient
import ShopCore
import ShopKit
import ShopKitTour
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// The tour (issue #12, point 4) against the real server on a free port, in `make test`: the
/// view models driven as a shopper's taps would, from onboarding to a placed order, each screen
/// printed as text in the test log (`ShopKitTour.Tour`; `shoppable-tour URL` runs the same trip
/// against a running shop).
@MainActor
@Suite("ShopKit: the tour")
struct TourTests {
    @Test func aShopperGoesFromOnboardingToAPlacedOrder() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let clock = live.shop.clock
        live.shop.environment.shippingMethods = [
            ShippingMethod(id: "standard", name: "Standard", price: .usd(4_90), freeAbove: .usd(500_00)),
            ShippingMethod(id: "express", name: "Express", price: .usd(12_00)),
        ]
        _ = try live.shop.campaigns.replaceAll([
            Campaign(id: Campaign.ID(rawValue: "tour10"), title: "Tour week", description: "10 % off everything",
                     imageURL: nil, startsAt: clock.now - 86_400, endsAt: clock.now + 6 * 86_400, discount: .percentage(10),
                     target: .wholeCart, minimumSubtotal: nil, voucherCode: VoucherCode("TOUR10")),
        ])
        let settings = MemoryKeyValueStore()
        let app = AppModel(shop: .live(live.client()), settings: settings, sessions: MemorySessionStore(), language: .english)
        #expect(app.showsOnboarding)
        var printed: [String] = []
        var tour = Tour(print: { print($0); printed.append($0) },
                        verificationToken: { address in
                            // The emailed link's token, as a universal link would bring it.
                            let email = try #require(try live.shop.outbox().last { $0.draft.toAddress == address })
                            return String(try #require(email.draft.textBody.firstMatch(of: /token=([A-Za-z0-9_\-]+)/)).1)
                        },
                        now: { clock.now }, timeZone: TimeZone(identifier: "UTC")!)

        let result = try await tour.run(app: app, settings: settings, email: "ana@example.com")

        #expect(!app.showsOnboarding && app.isSignedIn)
        #expect(result.verified)
        #expect(result.voucherCode == "TOUR10" && result.order.charges.voucherCode == "TOUR10")
        #expect(result.order.charges == result.reviewed, "the order charges what the review showed")
        #expect(result.order.charges.shippingMethod == "Express")
        // The first category (Lamps): 2 × Arc Lamp ($49.90) from its page and a quick-added Desk
        // Lamp ($10.00) = $109.80, 10 % off = $98.82, express shipping $12.00.
        #expect(result.order.charges.lines.map(\.title) == ["Arc Lamp", "Desk Lamp"])
        #expect(result.order.charges.lines.map(\.quantity) == [2, 1])
        #expect(result.order.charges.total == "$110.82")
        #expect(result.listed == result.order)
        #expect(result.cartBadgeAfter == 0)
        #expect(app.favorites.count == 1)
        let log = printed.joined(separator: "\n")
        #expect(log.contains("email: Please enter an email address like name@example.com."), "live validation was shown")
        #expect(log.contains("[Register] registered ana@example.com (Ana Lima) — verification: verified"))
        #expect(result.screens >= 25)
    }
}
