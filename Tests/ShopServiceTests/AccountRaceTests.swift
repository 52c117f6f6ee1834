import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopTestSupport
import Testing

/// Account writes racing on real threads over a file-backed database (each thread its own
/// connection): no write lost, and the shop never left without an operator.
@Suite("Account writes race")
struct AccountRaceTests {
    private static func operatorAccount(_ shop: ServiceShop, _ email: String) throws -> User {
        try shop.accounts.createUser(NewAccount(email: email, name: "Op Erator", passwordHash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA",
                                                createdAt: shop.clock.now, role: .operator), true)
    }

    /// Two operators deleting each other at the same moment: one delete lands, the other is
    /// refused as the last operator's — never both (the check is part of the conditional delete).
    @Test func twoOperatorsDeletingEachOtherLeaveOne() throws {
        var bothGone: [Int] = []
        for round in 0..<40 {
            let shop = try ServiceShop(file: true, poolSize: 2)
            let first = try Self.operatorAccount(shop, "first@example.com")
            let second = try Self.operatorAccount(shop, "second@example.com")
            let service = shop.accountService
            let outcomes = try ConcurrentRun.together(2) { thread -> Bool in
                do {
                    _ = thread == 0 ? try service.delete(first.id, by: second) : try service.delete(second.id, by: first)
                    return true
                } catch AccountServiceError.lastOperator {
                    return false
                }
            }
            #expect(outcomes.filter { $0 }.count == 1, "round \(round): \(outcomes)")
            if try shop.accounts.users().filter({ $0.role == .operator }).isEmpty { bothGone.append(round) }
        }
        #expect(bothGone.isEmpty, "rounds that left no operator: \(bothGone)")
    }

    @Test func theOnlyOperatorCannotDeleteItself() throws {
        let shop = try ServiceShop()
        let only = try Self.operatorAccount(shop, "only@example.com")
        let shopper = try shop.account("shopper@example.com")
        #expect(throws: AccountServiceError.lastOperator) { try shop.accountService.delete(only.id, by: only) }
        #expect(try shop.accountService.delete(shopper.id, by: only).id == shopper.id, "shoppers go as before")
        #expect(try shop.accounts.user(only.id) != nil)
    }

    /// Two PATCHes of different fields of one account at once (the API's `PATCH /api/users/{id}`
    /// from two devices): both land, because each writes only its own fields in one `UPDATE`.
    @Test func simultaneousChangesOfDifferentFieldsBothLand() throws {
        let shop = try ServiceShop(file: true, poolSize: 4)
        let user = try shop.account("ana@example.com")
        let service = shop.accountService
        var lost: [Int] = []
        for round in 0..<100 {
            let phone = "+90 555 000 \(1000 + round)", name = "Ana Round \(round)", city = "City \(round)"
            _ = try ConcurrentRun.together(3) { thread in
                let fields: AccountService.AccountFields = switch thread {
                case 0: .init(phone: phone)
                case 1: .init(name: name)
                default: .init(address: AccountService.AddressFields(city: city, street: "Main", number: round, zipcode: "34000",
                                                               latitude: "", longitude: ""))
                }
                _ = try service.update(user.id, fields, replacing: false, by: user, session: nil) { _, _, _ in
                    preconditionFailure("no email changes here")
                } emailChangedNotice: { _, _ in
                    preconditionFailure("no email changes here")
                }
            }
            let stored = try #require(try shop.accounts.user(user.id))
            if stored.profile.phone != phone || stored.name != name || stored.profile.address.city != city { lost.append(round) }
        }
        #expect(lost.isEmpty, "rounds that lost a field: \(lost.count) of 100")
    }
}
