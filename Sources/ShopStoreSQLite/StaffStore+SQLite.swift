public import ShopStore
import Foundation
import ShopCore
import SQLite

extension StaffStore {
    /// Staff accounts and back-office sessions in a SQLite database (migration 28).
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> StaffStore {
        StaffStore(
            create: { new in
                try database.write { connection in
                    try connection.prepare("""
                        INSERT INTO staff_members (email, name, role, password_hash, language, created_at)
                        VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING
                        """).run([.text(new.email), .text(new.name), .text(new.role.rawValue), .text(new.passwordHash),
                                  .text(new.language.rawValue), .integer(StoredTime.unixSeconds(new.createdAt))])
                    guard connection.changes == 1 else { throw StaffStoreError.emailTaken }
                    let member = StaffMember(id: StaffMember.ID(connection.lastInsertRowID), email: new.email, name: new.name,
                                             role: new.role, createdAt: StoredTime.date(unixSeconds: StoredTime.unixSeconds(new.createdAt)),
                                             language: new.language)
                    try SQLAudit.insert([StoredStaff.creationAudit(member, by: new.createdBy)], connection)
                    return member
                }
            },
            credentials: { email in
                try read(database) { connection in
                    try connection.prepare("SELECT \(StoredStaff.columns), m.password_hash FROM staff_members AS m WHERE m.email = ?")
                        .first([.text(email)]).map { (member: try StoredStaff.member($0), passwordHash: try $0.string(6)) }
                }
            },
            members: {
                try read(database) { connection in
                    try connection.prepare("SELECT \(StoredStaff.columns) FROM staff_members AS m ORDER BY m.email").query()
                        .map { try StoredStaff.member($0) }
                }
            },
            startSession: { session in
                try database.withConnection { connection in
                    do {
                        try connection.prepare("""
                            INSERT INTO staff_sessions (id, staff_id, csrf_token_hash, created_at, expires_at, needs_second_factor)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """).run([.text(session.id), .integer(session.staffID.rawValue), .text(session.csrfTokenHash),
                                      .integer(StoredTime.unixSeconds(session.createdAt)),
                                      .integer(StoredTime.unixSeconds(session.expiresAt)), .integer(session.needsSecondFactor ? 1 : 0)])
                    } catch let error as SQLiteError where error.isForeignKeyViolation {
                        throw StaffStoreError.staffNotFound
                    }
                }
            },
            session: { id, now in
                try read(database) { connection in
                    try connection.prepare("""
                        SELECT \(StoredStaff.columns), \(StoredStaff.sessionColumns)
                        FROM staff_sessions AS s JOIN staff_members AS m ON m.id = s.staff_id
                        WHERE s.id = ? AND s.expires_at > ?
                        """).first([.text(id), .integer(StoredTime.unixSeconds(now))])
                        .map { (session: try StoredStaff.session($0, at: 6), member: try StoredStaff.member($0)) }
                }
            },
            endSession: { id in
                try database.withConnection { connection in
                    try connection.prepare("DELETE FROM staff_sessions WHERE id = ?").run([.text(id)])
                }
            },
            purgeExpiredSessions: { now in
                try database.withConnection { connection in
                    try connection.prepare("DELETE FROM staff_sessions WHERE expires_at <= ?").run([.integer(StoredTime.unixSeconds(now))])
                    return connection.changes
                }
            },
            setRole: { id, role, actor, now in
                try change(database, id) { member, owners, connection in
                    try SQLAudit.insert([try StoredStaff.change(member, to: role, owners: owners, actor: actor, now: now)], connection)
                    try connection.prepare("UPDATE staff_members SET role = ? WHERE id = ?").run([.text(role.rawValue), .integer(id.rawValue)])
                    var changed = member
                    changed.role = role
                    return changed
                }
            },
            remove: { id, actor, now in
                try change(database, id) { member, owners, connection in
                    try SQLAudit.insert([try StoredStaff.change(member, to: nil, owners: owners, actor: actor, now: now)], connection)
                    // Its sessions go with it (ON DELETE CASCADE).
                    try connection.prepare("DELETE FROM staff_members WHERE id = ?").run([.integer(id.rawValue)])
                }
            },
            setPassword: { id, hash, keeping, now in
                try change(database, id) { member, _, connection in
                    try connection.prepare("UPDATE staff_members SET password_hash = ? WHERE id = ?").run([.text(hash), .integer(id.rawValue)])
                    try connection.prepare("DELETE FROM staff_sessions WHERE staff_id = ? AND id <> ?").run([.integer(id.rawValue), .text(keeping)])
                    try SQLAudit.insert([StoredStaff.passwordAudit(member, now: now)], connection)
                }
            },
            secondFactor: { id in
                try read(database) { connection in
                    try connection.prepare("SELECT totp_secret FROM staff_members WHERE id = ?").first([.integer(id.rawValue)])?.optionalString(0)
                }
            },
            setSecondFactor: { id, secret, now in
                try change(database, id) { member, _, connection in
                    try connection.prepare("""
                        UPDATE staff_members SET totp_secret = ?, totp_last_step = NULL WHERE id = ? AND (? IS NULL OR totp_secret IS NULL)
                        """).run([secret.map { .text($0) } ?? .null, .integer(id.rawValue), secret.map { .text($0) } ?? .null])
                    guard connection.changes == 1 else { throw StaffStoreError.secondFactorOn }
                    try SQLAudit.insert([StoredStaff.secondFactorAudit(member, on: secret != nil, now: now)], connection)
                }
            },
            useSecondFactorStep: { id, step, sessionID in
                try database.write { connection in
                    try connection.prepare("""
                        UPDATE staff_members SET totp_last_step = ?
                        WHERE id = ? AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < ?)
                        """).run([.integer(step), .integer(id.rawValue), .integer(step)])
                    guard connection.changes == 1 else { return false }
                    if let sessionID {
                        try connection.prepare("UPDATE staff_sessions SET needs_second_factor = 0 WHERE id = ? AND staff_id = ?")
                            .run([.text(sessionID), .integer(id.rawValue)])
                    }
                    return true
                }
            }
        )
    }

    /// A change of one account in a write transaction (SQLite's one writer keeps the owner count
    /// true until it commits), given the account and how many owners there are.
    private static func change<T>(_ database: SQLiteDatabase, _ id: StaffMember.ID,
                                  _ body: (StaffMember, Int, Connection) throws -> T) throws -> T {
        try database.write { connection in
            guard let member = try connection.prepare("SELECT \(StoredStaff.columns) FROM staff_members AS m WHERE m.id = ?")
                .first([.integer(id.rawValue)]).map({ try StoredStaff.member($0) }) else { throw StaffStoreError.staffNotFound }
            let owners = try connection.prepare("SELECT count(*) FROM staff_members WHERE role = 'owner'").first()?.int(0) ?? 0
            return try body(member, owners, connection)
        }
    }

    /// A read, with a stored value that cannot be decoded reported as the table's.
    private static func read<T>(_ database: SQLiteDatabase, _ body: (Connection) throws -> T) throws -> T {
        do {
            return try database.withConnection(body)
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw SQLiteStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }
}
