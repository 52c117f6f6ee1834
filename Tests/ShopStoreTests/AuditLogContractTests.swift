import Foundation
import Postgres
import ShopCore
import ShopStore
import ShopStorePostgres
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// The audit log on every engine (issue #16, point 2): each kind of change recorded so far —
/// an order step, a stock change, a staff account, a campaign replacement — is written in the
/// change's own transaction, field by field, found by the audit page's filters, and can be
/// neither changed nor deleted.
@Suite("Audit log contract")
struct AuditLogContractTests {
    static let later = Fixtures.start.addingTimeInterval(3_600)

    @Test(arguments: StoreKind.engines(for: [.orders, .staff, .campaigns]))
    func everyKindOfChangeIsRecordedWithWhoWhenAndWhatChanged(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        let order = try #require(try stores.orders.placeOrder(
            OrderFixtures.request(try stores.guest("buyer"), [(try stores.variant("chair").variant, 2)]), Fixtures.start).placedOrder)
        _ = try stores.orders.apply(OrderActionRequest(number: order.number, action: .markPaid, actor: "ana@shop.test"), Self.later)
        _ = try stores.orders.apply(OrderActionRequest(number: order.number, action: .cancel, actor: "cli"), Self.later)
        _ = try stores.orders.setStock("MUG-1", 7, Self.later)
        _ = try stores.orders.setStock("LAMP-1", 4, Self.later, by: .staff("ana@shop.test"))  // untracked until now
        _ = try stores.staff.create(NewStaffMember(email: "bora@shop.test", name: "Bora", role: .support, passwordHash: "secret-hash",
                                                   createdAt: Self.later))
        let welcome = CampaignStoreContractTests.campaign("welcome", code: "WELCOME10")
        _ = try stores.campaigns.replaceAll([welcome, CampaignStoreContractTests.campaign("old")], by: .shop, now: Self.later)
        var changed = welcome
        changed.discount = .percentage(15)
        _ = try stores.campaigns.replaceAll([changed], now: Self.later)

        let all = try stores.audit.entries(AuditQuery())
        #expect(all.total == 13, "with the four products the shop was stocked with")
        #expect(try stores.audit.entries(AuditQuery(source: .shop, subject: "product")).entries.allSatisfy { $0.action == "import" })
        func entry(_ subject: String, _ id: String, _ action: String) throws -> AuditEntry {
            try #require(all.entries.first { $0.subject == subject && $0.subjectID.hasPrefix(id) && $0.action == action },
                         "\(subject) \(id) \(action)")
        }
        let paid = try entry("order", order.number, "mark-paid")
        #expect(paid.actor == "ana@shop.test" && paid.source == .backOffice && paid.at == Self.later)
        #expect(paid.changes == [AuditChange(field: "status", before: "awaiting_payment", after: "paid")])
        let cancelled = try entry("order", order.number, "cancel")
        #expect(cancelled.source == .cli && cancelled.changes == [
            AuditChange(field: "status", before: "paid", after: "cancelled"),
            AuditChange(field: "itemsReturnedToStock", before: nil, after: "2"),
            AuditChange(field: "refundOwed", before: nil, after: "\(order.total.minorUnits) USD minor units"),
        ])
        #expect(try entry("stock", "MUG-1", "set").changes == [AuditChange(field: "stock", before: "3", after: "7")])
        let lamp = try entry("stock", "LAMP-1", "set")
        #expect(lamp.source == .backOffice && lamp.changes.map(\.field) == ["stock", "tracked"])
        let staff = try entry("staff", "bora@shop.test", "create")
        #expect(staff.changes.map(\.field) == ["email", "name", "role", "language"] && !staff.changes.contains { $0.after == "secret-hash" },
                "never the password's hash")
        #expect(try entry("campaign", "welcome", "create").source == .shop)
        #expect(try entry("campaign", "old", "delete").changes.allSatisfy { $0.after == nil })
        let update = try entry("campaign", "welcome", "update")
        #expect(update.changes.map(\.field) == ["discount"], "only what differs")

        #expect(try stores.audit.entries(AuditQuery(source: .cli)).entries.map(\.subject) == ["campaign", "campaign", "staff", "stock", "order"])
        #expect(try stores.audit.entries(AuditQuery(subject: "stock")).total == 2)
        #expect(try stores.audit.entries(AuditQuery(actor: "ANA@")).total == 2)
        #expect(try stores.audit.entries(AuditQuery(subjectID: order.number.lowercased())).total == 2)
        #expect(try stores.audit.entries(AuditQuery(from: Self.later.addingTimeInterval(1))).total == 0)
        let page = try stores.audit.entries(AuditQuery(limit: 4, offset: 12))
        #expect(page.total == 13 && page.entries.count == 1)
    }

    /// A refused or failed change leaves no entry: the entry is in the change's transaction.
    @Test(arguments: StoreKind.engines(for: [.orders, .staff]))
    func aRefusedChangeRecordsNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        let order = try #require(try stores.orders.placeOrder(
            OrderFixtures.request(try stores.guest("buyer"), [(try stores.variant("chair").variant, 1)]), Fixtures.start).placedOrder)
        #expect(throws: OrderTransitionRefused.self) {
            try stores.orders.apply(OrderActionRequest(number: order.number, action: .markDelivered, actor: "cli"), Self.later)
        }
        _ = try stores.staff.create(NewStaffMember(email: "a@shop.test", name: "A", role: .owner, passwordHash: "h", createdAt: Self.later))
        #expect(throws: StaffStoreError.emailTaken) {
            try stores.staff.create(NewStaffMember(email: "a@shop.test", name: "A", role: .owner, passwordHash: "h", createdAt: Self.later))
        }
        _ = try stores.orders.setStock("NO-SUCH-SKU", 3, Self.later)
        #expect(try stores.audit.entries(AuditQuery(from: Self.later)).entries.map(\.subject) == ["staff"], "after the stocking")
    }

    /// The log is append-only in the database itself: an update or a delete is refused.
    @Test(arguments: StoreKind.engines(for: .staff))
    func entriesCanBeNeitherChangedNorDeleted(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        _ = try stores.staff.create(NewStaffMember(email: "a@shop.test", name: "A", role: .owner, passwordHash: "h", createdAt: Self.later))
        for statement in ["UPDATE audit_events SET actor = 'someone else'", "DELETE FROM audit_events"] {
            if let postgres = stores.postgres {
                #expect(throws: PostgresError.self) { try postgres.database.withConnection { try $0.run(statement) } }
            } else {
                #expect(throws: SQLiteError.self) { try stores.database.withConnection { try $0.prepare(statement).run() } }
            }
        }
        #expect(try stores.audit.entries(AuditQuery()).entries.map(\.actor) == ["cli"])
    }
}
