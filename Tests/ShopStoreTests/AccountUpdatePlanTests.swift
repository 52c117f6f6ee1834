import Foundation
import ShopCore
import ShopStore
import Testing

/// What an account update writes, decided once for both engines (issue #15).
@Suite("Account update plan")
struct AccountUpdatePlanTests {
    private static let verification = (token: Fixtures.token("v2"), email: Fixtures.message(subject: "Confirm"))

    private static func columns(_ plan: AccountUpdatePlan) -> [String] { plan.assignments.map(\.column) }

    @Test func aChangedEmailIsUnverifiedAndSendsItsVerification() {
        let update = AccountUpdate(email: "new@example.com", verification: Self.verification)
        let plan = update.plan(changesEmail: true)
        #expect(plan.assignments == [.init(column: "email", value: .text("new@example.com")),
                                     .init(column: "email_verified_at", value: .null)])
        #expect(plan.verification?.token == Self.verification.token && !plan.endsSessions)
    }

    @Test func theSameEmailWritesNothingAndSendsNothing() {
        let plan = AccountUpdate(email: "ana@example.com", verification: Self.verification).plan(changesEmail: false)
        #expect(plan.assignments.isEmpty && plan.verification == nil)
    }

    @Test func aNewPasswordEndsEverySessionButTheOneKept() {
        let plan = AccountUpdate(passwordHash: "hash", keepingSession: "current").plan(changesEmail: false)
        #expect(Self.columns(plan) == ["password_hash"])
        #expect(plan.endsSessions && plan.keepingSession == "current")
        #expect(!AccountUpdate(name: "Ana").plan(changesEmail: false).endsSessions)
    }

    @Test func profileFieldsAndARemovedUsername() {
        let address = AccountProfile.Address(city: "İstanbul", street: "Bağdat Cd.", number: 12, zipcode: "34728",
                                             latitude: "40.96", longitude: "29.08")
        let plan = AccountUpdate(name: "Ana L.", username: .some(nil), phone: "+90", address: address, locale: .turkish)
            .plan(changesEmail: false)
        #expect(Self.columns(plan) == ["name", "username", "phone", "address_city", "address_street", "address_number",
                                       "address_zipcode", "address_lat", "address_long", "locale"])
        #expect(plan.assignments[1].value == .null && plan.assignments[5].value == .integer(12))
        #expect(plan.assignments.last?.value == .text("tr"))
    }
}
