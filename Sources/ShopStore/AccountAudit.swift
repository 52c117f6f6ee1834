public import Foundation
public import ShopCore

/// What an operator's change of someone else's account records in the audit log (issue #16,
/// point 2: changes through the API): the account's fields that differ, read before and after
/// in the change's transaction — a new password as "changed", never its hash. A shopper's own
/// changes are not staff changes and record nothing (`AccountUpdate.auditedAs` nil).
public enum AccountAudit {
    /// The entry of an update from `before` to `after`; nil when nothing shown changed.
    public static func update(before: User, after: User, passwordChanged: Bool, actor: AuditActor, now: Date) -> AuditEntry? {
        var changes = changes(before: before, after: after)
        if passwordChanged { changes.append(AuditChange(field: "password", before: nil, after: "changed")) }
        guard !changes.isEmpty else { return nil }
        return AuditEntry(at: now, actor: actor, subject: "customer", subjectID: after.email, action: "update", changes: changes)
    }

    /// The entry of an account made by someone else: what it holds, with its role.
    public static func creation(of user: User, actor: AuditActor, now: Date) -> AuditEntry {
        AuditEntry(at: now, actor: actor, subject: "customer", subjectID: user.email, action: "create",
                   changes: changes(before: nil, after: user) + [AuditChange(field: "role", before: nil, after: user.role.rawValue)])
    }

    /// The entry of a deletion: what the account held, after nothing.
    public static func deletion(of user: User, actor: AuditActor, now: Date) -> AuditEntry {
        AuditEntry(at: now, actor: actor, subject: "customer", subjectID: user.email, action: "delete",
                   changes: changes(before: user, after: nil))
    }

    private static func changes(before: User?, after: User?) -> [AuditChange] {
        func fields(_ user: User?) -> [(String, String?)] {
            [("email", user?.email), ("name", user?.name), ("username", user.map { $0.profile.username ?? "" }),
             ("phone", user?.profile.phone), ("address", user.map { address($0.profile.address) })]
        }
        return zip(fields(before), fields(after)).compactMap { old, new in
            old.1 == new.1 ? nil : AuditChange(field: old.0, before: old.1, after: new.1)
        }
    }

    private static func address(_ address: AccountProfile.Address) -> String {
        [address.street, address.number == 0 ? "" : String(address.number), address.zipcode, address.city]
            .filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
