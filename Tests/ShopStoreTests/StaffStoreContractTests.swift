import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

/// The staff store's contract on every engine (issue #16): accounts unique by email, sessions
/// found only while live and only with their member, ended and purged.
@Suite("Staff store contract")
struct StaffStoreContractTests {
    static func new(_ email: String, role: StaffRole = .manager) -> NewStaffMember {
        NewStaffMember(email: email, name: "Name of \(email)", role: role, passwordHash: "hash-\(email)", createdAt: Fixtures.start,
                       language: .turkish)
    }

    static func session(_ id: String, _ member: StaffMember, expiresIn: TimeInterval = 3_600) -> StaffSession {
        StaffSession(id: id, staffID: member.id, csrfTokenHash: "csrf-\(id)", createdAt: Fixtures.start,
                     expiresAt: Fixtures.start.addingTimeInterval(expiresIn))
    }

    @Test(arguments: StoreKind.engines(for: .staff))
    func membersAreStoredOncePerEmailWithTheirCredentials(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let owner = try stores.staff.create(Self.new("owner@shop.test", role: .owner))
        let support = try stores.staff.create(Self.new("ayse@shop.test", role: .support))
        #expect(owner.role == .owner && owner.language == .turkish && owner.createdAt == Fixtures.start && owner.id != support.id)
        #expect(throws: StaffStoreError.emailTaken) { try stores.staff.create(Self.new("owner@shop.test", role: .support)) }
        let found = try #require(try stores.staff.credentials("owner@shop.test"))
        #expect(found.member == owner && found.passwordHash == "hash-owner@shop.test")
        #expect(try stores.staff.credentials("nobody@shop.test") == nil)
        #expect(try stores.staff.members() == [support, owner], "by email")
    }

    @Test(arguments: StoreKind.engines(for: .staff))
    func aSessionIsFoundWhileLiveAndEndsWhenAskedOrPurged(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let member = try stores.staff.create(Self.new("owner@shop.test", role: .owner))
        try stores.staff.startSession(Self.session("s1", member))
        try stores.staff.startSession(Self.session("s2", member, expiresIn: 60))
        let found = try #require(try stores.staff.session("s1", Fixtures.start))
        #expect(found.session == Self.session("s1", member) && found.member == member)
        #expect(try stores.staff.session("s2", Fixtures.start.addingTimeInterval(60)) == nil, "expired at its end")
        #expect(try stores.staff.session("unknown", Fixtures.start) == nil)
        #expect(try stores.staff.purgeExpiredSessions(Fixtures.start.addingTimeInterval(120)) == 1)
        #expect(try stores.staff.session("s1", Fixtures.start) != nil)
        try stores.staff.endSession("s1")
        #expect(try stores.staff.session("s1", Fixtures.start) == nil)
        let ghost = StaffMember(id: 9_999, email: "ghost@shop.test", name: "Ghost", role: .owner, createdAt: Fixtures.start)
        #expect(throws: StaffStoreError.staffNotFound) { try stores.staff.startSession(Self.session("s3", ghost)) }
    }
}
