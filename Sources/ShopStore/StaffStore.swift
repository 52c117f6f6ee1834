public import Foundation
public import ShopCore

/// A staff account to store (`shoppable staff create`): the email normalized, the password
/// already hashed.
public struct NewStaffMember: Hashable, Sendable {
    public var email: String
    public var name: String
    public var role: StaffRole
    public var passwordHash: String
    public var createdAt: Date
    public var language: Language
    /// Who creates it, for the audit log.
    public var createdBy: AuditActor

    public init(email: String, name: String, role: StaffRole, passwordHash: String, createdAt: Date,
                language: Language = .english, createdBy: AuditActor = .cli) {
        self.createdBy = createdBy
        self.email = email
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.language = language
    }
}

/// A signed-in staff member's session in the back office: its id is the SHA-256 of the cookie's
/// token (the token itself is never stored), with the hash of the CSRF token its forms carry.
public struct StaffSession: Hashable, Sendable {
    public var id: String
    public var staffID: StaffMember.ID
    public var csrfTokenHash: String
    public var createdAt: Date
    /// An absolute end: a back-office session does not slide (`StaffService.sessionLifetime`).
    public var expiresAt: Date
    /// The password was right but the account's second factor is still to be given: the session
    /// opens nothing but the code's form (migration 32).
    public var needsSecondFactor: Bool

    public init(id: String, staffID: StaffMember.ID, csrfTokenHash: String, createdAt: Date, expiresAt: Date,
                needsSecondFactor: Bool = false) {
        self.needsSecondFactor = needsSecondFactor
        self.id = id
        self.staffID = staffID
        self.csrfTokenHash = csrfTokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Why a staff store refused.
public enum StaffStoreError: Error, Hashable, Sendable {
    /// Another staff account has this email.
    case emailTaken
    /// No staff account has this id.
    case staffNotFound
    /// The change would leave the shop without an owner (a shop always keeps one).
    case lastOwner
    /// The account's second factor is on already: it is turned off (with a code) first.
    case secondFactorOn
}

/// Staff accounts and their back-office sessions (issue #16; tables `staff_members` and
/// `staff_sessions`, migration 28 on both engines).
public struct StaffStore: Sendable {
    /// Stores a new staff account. - Throws: `StaffStoreError.emailTaken`.
    public var create: @Sendable (NewStaffMember) throws -> StaffMember
    /// The account with this (normalized) email and its password hash, for signing in.
    public var credentials: @Sendable (_ email: String) throws -> (member: StaffMember, passwordHash: String)?
    /// Every staff account, by email.
    public var members: @Sendable () throws -> [StaffMember]
    /// Stores a session. - Throws: `StaffStoreError.staffNotFound` when the account is gone.
    public var startSession: @Sendable (StaffSession) throws -> Void
    /// The session with this id and its staff member, when it has not expired at `now`.
    public var session: @Sendable (_ id: String, _ now: Date) throws -> (session: StaffSession, member: StaffMember)?
    /// Ends a session (signing out); nothing happens for an unknown id.
    public var endSession: @Sendable (_ id: String) throws -> Void
    /// Deletes sessions that expired before `now`; returns how many.
    public var purgeExpiredSessions: @Sendable (_ now: Date) throws -> Int
    /// Gives the account another role, audited as `actor`'s; its sessions go on with the new one.
    /// - Throws: `StaffStoreError.staffNotFound`, `.lastOwner`.
    public var setRole: @Sendable (_ id: StaffMember.ID, _ role: StaffRole, _ actor: AuditActor, _ now: Date) throws -> StaffMember
    /// Deletes the account and ends its sessions, audited as `actor`'s.
    /// - Throws: `StaffStoreError.staffNotFound`, `.lastOwner`.
    public var remove: @Sendable (_ id: StaffMember.ID, _ actor: AuditActor, _ now: Date) throws -> Void
    /// Replaces the account's password hash and ends its other sessions (every session but
    /// `keepingSession`), audited as the account's own change (the hash never in the log).
    /// - Throws: `StaffStoreError.staffNotFound`.
    public var setPassword: @Sendable (_ id: StaffMember.ID, _ passwordHash: String, _ keepingSession: String, _ now: Date) throws -> Void
    /// The account's TOTP secret (Base32) when it has a second factor.
    public var secondFactor: @Sendable (_ id: StaffMember.ID) throws -> String?
    /// Turns the account's second factor on (a Base32 secret) or off (nil), audited as the
    /// account's own change (the secret never in the log); the steps used are forgotten.
    /// Turning it on is conditional in the database: an account whose second factor is on keeps
    /// its secret (a stale tab, or a session without the phone, cannot swap it).
    /// - Throws: `StaffStoreError.staffNotFound`, `.secondFactorOn`.
    public var setSecondFactor: @Sendable (_ id: StaffMember.ID, _ secret: String?, _ now: Date) throws -> Void
    /// Records that the account's code of `step` was given: `true` once per step — a step not
    /// later than the last one used is refused (a code seen over a shoulder cannot be replayed)
    /// — and then the session `sessionID` no longer needs the second factor. One conditional
    /// update in the database, so two tabs sending one code get one `true`.
    public var useSecondFactorStep: @Sendable (_ id: StaffMember.ID, _ step: Int64, _ sessionID: String?) throws -> Bool

    public init(create: @escaping @Sendable (NewStaffMember) throws -> StaffMember,
                credentials: @escaping @Sendable (String) throws -> (member: StaffMember, passwordHash: String)?,
                members: @escaping @Sendable () throws -> [StaffMember],
                startSession: @escaping @Sendable (StaffSession) throws -> Void,
                session: @escaping @Sendable (String, Date) throws -> (session: StaffSession, member: StaffMember)?,
                endSession: @escaping @Sendable (String) throws -> Void,
                purgeExpiredSessions: @escaping @Sendable (Date) throws -> Int,
                setRole: @escaping @Sendable (StaffMember.ID, StaffRole, AuditActor, Date) throws -> StaffMember,
                remove: @escaping @Sendable (StaffMember.ID, AuditActor, Date) throws -> Void,
                setPassword: @escaping @Sendable (StaffMember.ID, String, String, Date) throws -> Void,
                secondFactor: @escaping @Sendable (StaffMember.ID) throws -> String?,
                setSecondFactor: @escaping @Sendable (StaffMember.ID, String?, Date) throws -> Void,
                useSecondFactorStep: @escaping @Sendable (StaffMember.ID, Int64, String?) throws -> Bool) {
        self.secondFactor = secondFactor
        self.setSecondFactor = setSecondFactor
        self.useSecondFactorStep = useSecondFactorStep
        self.setPassword = setPassword
        self.setRole = setRole
        self.remove = remove
        self.create = create
        self.credentials = credentials
        self.members = members
        self.startSession = startSession
        self.session = session
        self.endSession = endSession
        self.purgeExpiredSessions = purgeExpiredSessions
    }
}

/// Rows of `staff_members` ↔ `StaffMember`, the same on every engine.
public enum StoredStaff {
    /// The audit log's entry of a password change: that it changed, never a hash.
    public static func passwordAudit(_ member: StaffMember, now: Date) -> AuditEntry {
        AuditEntry(at: now, actor: .staff(member.email), subject: "staff", subjectID: member.email, action: "update",
                   changes: [AuditChange(field: "password", before: nil, after: "changed")])
    }

    /// The audit log's entry of a second factor turned on or off (never the secret).
    public static func secondFactorAudit(_ member: StaffMember, on: Bool, now: Date) -> AuditEntry {
        AuditEntry(at: now, actor: .staff(member.email), subject: "staff", subjectID: member.email, action: "update",
                   changes: [AuditChange(field: "secondFactor", before: on ? "off" : "on", after: on ? "on" : "off")])
    }

    /// The columns ``member(_:)`` reads, in order, of `staff_members` aliased `m`.
    public static let columns = "m.id, m.email, m.name, m.role, m.created_at, m.language"

    /// The audit log's entry of a new account: its email, name, role and language (never the
    /// password's hash).
    public static func creationAudit(_ member: StaffMember, by actor: AuditActor) -> AuditEntry {
        AuditEntry(at: member.createdAt, actor: actor, subject: "staff", subjectID: member.email, action: "create",
                   changes: [AuditChange(field: "email", before: nil, after: member.email),
                             AuditChange(field: "name", before: nil, after: member.name),
                             AuditChange(field: "role", before: nil, after: member.role.rawValue),
                             AuditChange(field: "language", before: nil, after: member.language.rawValue)])
    }

    /// What a role change or a removal does, decided above the engines from the account and the
    /// number of owners, both read (and on PostgreSQL locked) in the change's transaction: the
    /// audit entry to write, or the refusal that keeps the shop's last owner.
    /// - Parameter newRole: the new role; nil for a removal.
    public static func change(_ member: StaffMember, to newRole: StaffRole?, owners: Int, actor: AuditActor,
                              now: Date) throws(StaffStoreError) -> AuditEntry {
        if member.role == .owner, newRole != .owner, owners <= 1 { throw .lastOwner }
        guard let newRole else {
            return AuditEntry(at: now, actor: actor, subject: "staff", subjectID: member.email, action: "delete",
                              changes: [AuditChange(field: "role", before: member.role.rawValue, after: nil)])
        }
        return AuditEntry(at: now, actor: actor, subject: "staff", subjectID: member.email, action: "update",
                          changes: [AuditChange(field: "role", before: member.role.rawValue, after: newRole.rawValue)])
    }

    /// The staff member of a row of ``columns``.
    public static func member(_ row: some StoredRow) throws -> StaffMember {
        let role = try row.string(3), language = try row.string(5)
        guard let parsedRole = StaffRole(rawValue: role) else {
            throw StoredCatalog.CorruptValue(table: "staff_members", column: "role", rowID: try row.int64(0))
        }
        return StaffMember(id: StaffMember.ID(try row.int64(0)), email: try row.string(1), name: try row.string(2),
                           role: parsedRole, createdAt: StoredTime.date(unixSeconds: try row.int64(4)),
                           language: Language(rawValue: language) ?? .english)
    }

    /// The columns of `staff_sessions` aliased `s` that ``session(_:at:)`` reads, from `offset`.
    public static let sessionColumns = "s.id, s.staff_id, s.csrf_token_hash, s.created_at, s.expires_at, s.needs_second_factor"

    /// The session of a row whose ``sessionColumns`` start at `offset`.
    public static func session(_ row: some StoredRow, at offset: Int) throws -> StaffSession {
        StaffSession(id: try row.string(offset), staffID: StaffMember.ID(try row.int64(offset + 1)),
                     csrfTokenHash: try row.string(offset + 2),
                     createdAt: StoredTime.date(unixSeconds: try row.int64(offset + 3)),
                     expiresAt: StoredTime.date(unixSeconds: try row.int64(offset + 4)), needsSecondFactor: try row.bool(offset + 5))
    }
}
