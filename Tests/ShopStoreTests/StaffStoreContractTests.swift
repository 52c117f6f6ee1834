import Synchronization
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

    /// Roles change and accounts go, audited; a removed member's sessions end; the shop's last
    /// owner can be neither demoted nor removed.
    /// A new password hash ends every other session of the account, keeps the one named, and
    /// is audited without the hash.
    @Test(arguments: StoreKind.engines(for: .staff))
    func aNewPasswordEndsTheOtherSessions(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let member = try stores.staff.create(Self.new("owner@shop.test", role: .owner))
        let other = try stores.staff.create(Self.new("ayse@shop.test", role: .support))
        for id in ["s1", "s2"] { try stores.staff.startSession(Self.session(id, member)) }
        try stores.staff.startSession(Self.session("o1", other))
        try stores.staff.setPassword(member.id, "new-hash", "s1", Fixtures.start)
        #expect(try stores.staff.credentials("owner@shop.test")?.passwordHash == "new-hash")
        #expect(try stores.staff.session("s1", Fixtures.start) != nil && stores.staff.session("s2", Fixtures.start) == nil)
        #expect(try stores.staff.session("o1", Fixtures.start) != nil, "another account's sessions stay")
        #expect(throws: StaffStoreError.staffNotFound) { try stores.staff.setPassword(StaffMember.ID(999_999), "x", "s1", Fixtures.start) }
        let entries = try stores.audit.entries(AuditQuery(subject: "staff", actor: "owner@shop.test")).entries
        #expect(entries.map(\.changes) == [[AuditChange(field: "password", before: nil, after: "changed")]])
        #expect(!entries.description.contains("new-hash"))
    }

    /// A second factor's step is used once: a step not later than the last is refused, also
    /// when threads send the same one at once; using it opens the waiting session.
    @Test(arguments: StoreKind.engines(for: .staff))
    func aSecondFactorsStepIsUsedOnceAndOpensTheWaitingSession(kind: StoreKind) throws {
        let stores = try StoreHarness(kind, poolSize: 4)
        let member = try stores.staff.create(Self.new("owner@shop.test", role: .owner))
        #expect(try stores.staff.secondFactor(member.id) == nil)
        #expect(try !stores.staff.useSecondFactorStep(member.id, 100, nil), "no second factor, no step")
        try stores.staff.setSecondFactor(member.id, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", Fixtures.start)
        #expect(try stores.staff.secondFactor(member.id) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(throws: StaffStoreError.secondFactorOn) { try stores.staff.setSecondFactor(member.id, "AAAAAAAAAAAAAAAA", Fixtures.start) }
        #expect(try stores.staff.secondFactor(member.id) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "kept")
        var waiting = Self.session("s1", member)
        waiting.needsSecondFactor = true
        try stores.staff.startSession(waiting)
        #expect(try stores.staff.session("s1", Fixtures.start)?.session.needsSecondFactor == true)
        let wins = Mutex(0), staff = stores.staff
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            if (try? staff.useSecondFactorStep(member.id, 100, "s1")) == true { wins.withLock { $0 += 1 } }
        }
        #expect(wins.withLock { $0 } == 1)
        #expect(try stores.staff.session("s1", Fixtures.start)?.session.needsSecondFactor == false)
        #expect(try !stores.staff.useSecondFactorStep(member.id, 99, nil) && stores.staff.useSecondFactorStep(member.id, 101, nil))
        try stores.staff.setSecondFactor(member.id, nil, Fixtures.start)
        #expect(try stores.staff.secondFactor(member.id) == nil)
        #expect(throws: StaffStoreError.staffNotFound) { try stores.staff.setSecondFactor(StaffMember.ID(999_999), nil, Fixtures.start) }
    }

    @Test(arguments: StoreKind.engines(for: .staff))
    func rolesChangeAndAccountsGoButTheLastOwnerStays(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let owner = try stores.staff.create(Self.new("owner@shop.test", role: .owner))
        let manager = try stores.staff.create(Self.new("manager@shop.test", role: .manager))
        try stores.staff.startSession(Self.session("s-manager", manager))
        #expect(throws: StaffStoreError.lastOwner) { try stores.staff.setRole(owner.id, .manager, .cli, Fixtures.start) }
        #expect(throws: StaffStoreError.lastOwner) { try stores.staff.remove(owner.id, .cli, Fixtures.start) }
        #expect(try stores.staff.setRole(manager.id, .owner, .staff("owner@shop.test"), Fixtures.start).role == .owner)
        #expect(try stores.staff.setRole(owner.id, .support, .cli, Fixtures.start).role == .support, "another owner exists now")
        #expect(throws: StaffStoreError.lastOwner) { try stores.staff.remove(manager.id, .cli, Fixtures.start) }
        _ = try stores.staff.setRole(owner.id, .owner, .cli, Fixtures.start)
        try stores.staff.remove(manager.id, .cli, Fixtures.start.addingTimeInterval(60))
        #expect(try stores.staff.session("s-manager", Fixtures.start) == nil, "their sessions end with them")
        #expect(try stores.staff.members().map(\.email) == ["owner@shop.test"])
        #expect(throws: StaffStoreError.staffNotFound) { try stores.staff.remove(manager.id, .cli, Fixtures.start) }
        let audit = try stores.audit.entries(AuditQuery(subject: "staff")).entries.map { "\($0.action) \($0.subjectID) \($0.changes.first?.after ?? "-")" }
        #expect(audit == ["delete manager@shop.test -", "update owner@shop.test owner", "update owner@shop.test support",
                          "update manager@shop.test owner",
                          "create manager@shop.test manager@shop.test", "create owner@shop.test owner@shop.test"])
    }

    /// Two owners demote each other at the same moment: one demotion goes through, the other is
    /// refused, and the shop keeps an owner.
    @Test(arguments: StoreKind.engines(for: .staff).filter { $0 != .sqlite })
    func twoOwnersDemotingEachOtherAtOnceLeaveOne(kind: StoreKind) throws {
        for round in 0..<10 {
            let stores = try StoreHarness(kind, poolSize: 4)
            let first = try stores.staff.create(Self.new("a\(round)@shop.test", role: .owner))
            let second = try stores.staff.create(Self.new("b\(round)@shop.test", role: .owner))
            let staff = stores.staff
            let outcomes = try ConcurrentRun.together(2) { index -> Bool in
                do {
                    _ = try staff.setRole(index == 0 ? first.id : second.id, .manager, .cli, Fixtures.start)
                    return true
                } catch StaffStoreError.lastOwner {
                    return false
                }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try stores.staff.members().filter { $0.role == .owner }.count == 1)
        }
    }
}
