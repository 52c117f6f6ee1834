import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The `.failing` store values a service unit test starts from (`Stores+Failing.swift`): every
/// operation throws an error naming it until the test overrides it.
@Suite("Failing stores")
struct FailingStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func everyStoreNamesTheOperationThatWasNotOverridden() {
        #expect(throws: UnimplementedStoreOperation("CatalogStore.products")) {
            try CatalogStore.failing.products(ProductQuery())
        }
        #expect(throws: UnimplementedStoreOperation("SessionStore.find")) {
            try SessionStore.failing.find("session-id")
        }
        #expect(throws: UnimplementedStoreOperation("AccountStore.credentials")) {
            try AccountStore.failing.credentials("ana@example.com")
        }
        #expect(throws: UnimplementedStoreOperation("OrderStore.reserve")) {
            try OrderStore.failing.reserve(.guest("guest-session"), [], Self.now, Self.now)
        }
        #expect(throws: UnimplementedStoreOperation("AddressStore.list")) {
            try AddressStore.failing.list(7)
        }
        #expect(throws: UnimplementedStoreOperation("CampaignStore.version")) {
            try CampaignStore.failing.version()
        }
    }

    @Test func theErrorSaysWhatToOverride() {
        let error = UnimplementedStoreOperation("OrderStore.placeOrder")
        #expect(error.description.contains("OrderStore.placeOrder"))
        #expect(error.description.contains("did not override"))
    }

    @Test func anOverriddenOperationAnswersAndTheOthersStillFail() throws {
        let chair: Variant.ID = 42
        var orders = OrderStore.failing
        orders.available = { variants, _, _ in Dictionary(uniqueKeysWithValues: variants.map { ($0, 1) }) }

        #expect(try orders.available([chair], .guest("guest-session"), Self.now) == [chair: 1])
        #expect(throws: UnimplementedStoreOperation("OrderStore.releaseReservation")) {
            try orders.releaseReservation(.guest("guest-session"))
        }

        var campaigns = CampaignStore.failing
        campaigns.all = { [] }
        campaigns.version = { 3 }
        #expect(try campaigns.all().isEmpty)
        #expect(try campaigns.version() == 3)
        let code = try #require(VoucherCode("WELCOME10"))
        #expect(throws: UnimplementedStoreOperation("CampaignStore.byVoucherCode")) {
            try campaigns.byVoucherCode(code)
        }
    }
}
