public import ShopStore
import Foundation
import Postgres
import ShopCore

extension StaffStore {
    /// Staff accounts and back-office sessions in PostgreSQL (migration 28), with the behaviour
    /// of `StaffStore.sqlite`.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> StaffStore {
        StaffStore(
            create: { new in
                try database.transaction { connection in
                    guard let row = try connection.first("""
                        INSERT INTO staff_members (email, name, role, password_hash, language, created_at)
                        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING RETURNING id
                        """, [.text(new.email), .text(new.name), .text(new.role.rawValue), .text(new.passwordHash),
                              .text(new.language.rawValue), .integer(StoredTime.unixSeconds(new.createdAt))]) else {
                        throw StaffStoreError.emailTaken
                    }
                    let member = StaffMember(id: StaffMember.ID(try row.int64(0)), email: new.email, name: new.name, role: new.role,
                                             createdAt: StoredTime.date(unixSeconds: StoredTime.unixSeconds(new.createdAt)),
                                             language: new.language)
                    try PGAudit.insert([StoredStaff.creationAudit(member, by: new.createdBy)], connection)
                    return member
                }
            },
            credentials: { email in
                try read(database) { connection in
                    try connection.first("SELECT \(StoredStaff.columns), m.password_hash FROM staff_members AS m WHERE m.email = $1",
                                         [.text(email)])
                        .map { (member: try StoredStaff.member($0), passwordHash: try $0.string(6)) }
                }
            },
            members: {
                try read(database) { connection in
                    try connection.query("SELECT \(StoredStaff.columns) FROM staff_members AS m ORDER BY m.email")
                        .map { try StoredStaff.member($0) }
                }
            },
            startSession: { session in
                do {
                    _ = try database.withConnection { connection in
                        try connection.run("""
                            INSERT INTO staff_sessions (id, staff_id, csrf_token_hash, created_at, expires_at, needs_second_factor)
                            VALUES ($1, $2, $3, $4, $5, $6)
                            """, [.text(session.id), .integer(session.staffID.rawValue), .text(session.csrfTokenHash),
                                  .integer(StoredTime.unixSeconds(session.createdAt)),
                                  .integer(StoredTime.unixSeconds(session.expiresAt)), .bool(session.needsSecondFactor)])
                    }
                } catch let error as PostgresError where error.sqlState == .foreignKeyViolation {
                    throw StaffStoreError.staffNotFound
                }
            },
            session: { id, now in
                try read(database) { connection in
                    try connection.first("""
                        SELECT \(StoredStaff.columns), \(StoredStaff.sessionColumns)
                        FROM staff_sessions AS s JOIN staff_members AS m ON m.id = s.staff_id
                        WHERE s.id = $1 AND s.expires_at > $2
                        """, [.text(id), .integer(StoredTime.unixSeconds(now))])
                        .map { (session: try StoredStaff.session($0, at: 6), member: try StoredStaff.member($0)) }
                }
            },
            endSession: { id in
                _ = try database.withConnection { connection in
                    try connection.run("DELETE FROM staff_sessions WHERE id = $1", [.text(id)])
                }
            },
            purgeExpiredSessions: { now in
                try database.withConnection { connection in
                    try connection.run("DELETE FROM staff_sessions WHERE expires_at <= $1", [.integer(StoredTime.unixSeconds(now))])
                }
            },
            setRole: { id, role, actor, now in
                try change(database, id) { member, owners, connection in
                    try PGAudit.insert([try StoredStaff.change(member, to: role, owners: owners, actor: actor, now: now)], connection)
                    _ = try connection.run("UPDATE staff_members SET role = $1 WHERE id = $2", [.text(role.rawValue), .integer(id.rawValue)])
                    var changed = member
                    changed.role = role
                    return changed
                }
            },
            remove: { id, actor, now in
                try change(database, id) { member, owners, connection in
                    try PGAudit.insert([try StoredStaff.change(member, to: nil, owners: owners, actor: actor, now: now)], connection)
                    _ = try connection.run("DELETE FROM staff_members WHERE id = $1", [.integer(id.rawValue)])
                }
            },
            setPassword: { id, hash, keeping, now in
                try change(database, id) { member, _, connection in
                    _ = try connection.run("UPDATE staff_members SET password_hash = $1 WHERE id = $2", [.text(hash), .integer(id.rawValue)])
                    _ = try connection.run("DELETE FROM staff_sessions WHERE staff_id = $1 AND id <> $2", [.integer(id.rawValue), .text(keeping)])
                    try PGAudit.insert([StoredStaff.passwordAudit(member, now: now)], connection)
                }
            },
            secondFactor: { id in
                try read(database) { connection in
                    try connection.first("SELECT totp_secret FROM staff_members WHERE id = $1", [.integer(id.rawValue)])?.optionalString(0)
                }
            },
            setSecondFactor: { id, secret, now in
                try change(database, id) { member, _, connection in
                    let changed = try connection.run("""
                        UPDATE staff_members SET totp_secret = $1, totp_last_step = NULL
                        WHERE id = $2 AND ($1::text IS NULL OR totp_secret IS NULL)
                        """, [secret.map { .text($0) } ?? .null, .integer(id.rawValue)])
                    guard changed == 1 else { throw StaffStoreError.secondFactorOn }
                    try PGAudit.insert([StoredStaff.secondFactorAudit(member, on: secret != nil, now: now)], connection)
                }
            },
            useSecondFactorStep: { id, step, sessionID in
                try database.transaction { connection in
                    // One conditional update: of two requests with the same code, the second
                    // waits on the row and then finds the step used.
                    let used = try connection.first("""
                        UPDATE staff_members SET totp_last_step = $1
                        WHERE id = $2 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $1)
                        RETURNING id
                        """, [.integer(step), .integer(id.rawValue)])
                    guard used != nil else { return false }
                    if let sessionID {
                        _ = try connection.run("UPDATE staff_sessions SET needs_second_factor = false WHERE id = $1 AND staff_id = $2",
                                               [.text(sessionID), .integer(id.rawValue)])
                    }
                    return true
                }
            }
        )
    }

    /// A change of one account in a transaction that first locks every owner's row (in id
    /// order) and the account: two owners demoting each other at once take turns, and the second
    /// sees one owner left.
    private static func change<T>(_ database: PostgresDatabase, _ id: StaffMember.ID,
                                  _ body: (StaffMember, Int, PostgresConnection) throws -> T) throws -> T {
        do {
            return try database.transaction { connection in
                let owners = try connection.query("SELECT id FROM staff_members WHERE role = 'owner' ORDER BY id FOR UPDATE").count
                guard let member = try connection.first("SELECT \(StoredStaff.columns) FROM staff_members AS m WHERE m.id = $1 FOR UPDATE",
                                                         [.integer(id.rawValue)]).map({ try StoredStaff.member($0) }) else {
                    throw StaffStoreError.staffNotFound
                }
                return try body(member, owners, connection)
            }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }

    /// A read, with a stored value that cannot be decoded reported as the table's.
    private static func read<T>(_ database: PostgresDatabase, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try database.withConnection(body)
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }
}
