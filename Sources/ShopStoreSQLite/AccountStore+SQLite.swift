public import ShopStore
import Foundation
import ShopCore
import SQLite

extension AccountStore {
    /// Accounts, tokens, throttle counts and the outbox in a SQLite database (schema:
    /// `ShopSchema` migrations 3, 8 and 12, migrated beforehand). Every write is one transaction
    /// (`BEGIN IMMEDIATE`, through the process's `WriterGate`), so `register`, `issueToken`,
    /// `verifyEmail`, `resetPassword` and `changePassword` are all or nothing.
    ///
    /// - Times are kept to the whole second (`StoredTime`); a token is valid while `now` (to
    ///   the second) is before its `expiresAt`.
    /// - Emails are unique under `COLLATE NOCASE` (ASCII letters compared without case; the app
    ///   passes normalized lower-case addresses), and `credentials` looks them up the same way.
    /// - Ids start at 1 and are never reused; `users()` is ordered by `createdAt`, then id.
    /// - Issuing a token deletes the account's earlier unused tokens of that purpose.
    /// - `countAttempt` decides by `ThrottleRules` inside one write transaction; `purgeAttempts(before)`
    ///   keeps attempts at or after `before`.
    /// - `markSent`/`markFailed` of an unknown message do nothing.
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> AccountStore {
        AccountStore(
            register: { account, token, message in
                try database.write { connection in
                    let user = try insertUser(account, verified: false, connection)
                    try insertToken(token, for: user.id, connection)
                    try enqueue(message, connection)
                    return user
                }
            },
            createUser: { account, verified in
                try database.write { connection in try insertUser(account, verified: verified, connection) }
            },
            user: { id in
                try database.withConnection { connection in
                    try connection.prepare("SELECT \(userColumns) FROM users WHERE id = ?")
                        .first([.integer(id.rawValue)]).map(user(from:))
                }
            },
            credentials: { email in
                try database.withConnection { connection in
                    try connection.prepare("SELECT \(userColumns), password_hash FROM users WHERE email = ?")
                        .first([.text(email)]).map { row in (user: try user(from: row), passwordHash: try row.string(userColumnCount)) }
                }
            },
            users: {
                try database.withConnection { connection in
                    try connection.prepare("SELECT \(userColumns) FROM users ORDER BY created_at, id").query().map(user(from:))
                }
            },
            userNamed: { username in
                try database.withConnection { connection in
                    try connection.prepare("SELECT \(userColumns) FROM users WHERE username = ?")
                        .first([.text(username)]).map(user(from:))
                }
            },
            updateUser: { id, update in
                try database.write { connection in try updateUser(id, update, connection) }
            },
            deleteUser: { id, audit in
                try database.write { connection in
                    guard let user = try connection.prepare("SELECT \(userColumns) FROM users WHERE id = ?")
                        .first([.integer(id.rawValue)]).map(user(from:)) else { return nil }
                    // Sessions, cart lines, favorites, addresses, tokens, holds, checkouts and API
                    // carts cascade; orders keep their snapshot with user_id set to NULL.
                    // A shop keeps an operator: the delete itself checks for another one, so
                    // two operators deleting each other at once cannot both go.
                    try connection.prepare("""
                        DELETE FROM users WHERE id = ?1
                           AND (role <> 'operator' OR EXISTS (SELECT 1 FROM users WHERE role = 'operator' AND id <> ?1))
                        """).run([.integer(id.rawValue)])
                    guard connection.changes == 1 else { throw AccountStoreError.lastOperator }
                    if let audit { try SQLAudit.insert([AccountAudit.deletion(of: user, actor: audit.actor, now: audit.at)], connection) }
                    return user
                }
            },
            issueToken: { userID, token, message, audit in
                try database.write { connection in
                    guard try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(userID.rawValue)]) != nil else {
                        throw AccountStoreError.userNotFound
                    }
                    try insertToken(token, for: userID, connection)
                    try enqueue(message, connection)
                    if let audit { try SQLAudit.insert([audit], connection) }
                }
            },
            verifyEmail: { tokenHash, now in
                try database.write { connection in
                    guard let userID = try useToken(tokenHash, .emailVerification, now: now, connection) else { return nil }
                    try connection.prepare("""
                        UPDATE users SET email_verified_at = coalesce(email_verified_at, ?) WHERE id = ?
                        """).run([.integer(StoredTime.unixSeconds(now)), .integer(userID)])
                    return try connection.prepare("SELECT \(userColumns) FROM users WHERE id = ?")
                        .first([.integer(userID)]).map(user(from:))
                }
            },
            passwordResetUser: { tokenHash, now in
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT \(userColumns.split(separator: ", ").map { "users.\($0)" }.joined(separator: ", "))
                        FROM account_tokens JOIN users ON users.id = account_tokens.user_id
                        WHERE account_tokens.token_hash = ? AND account_tokens.purpose = ?
                          AND account_tokens.used_at IS NULL AND account_tokens.expires_at > ?
                        """).first([.text(tokenHash), .text(TokenPurpose.passwordReset.rawValue),
                                    .integer(StoredTime.unixSeconds(now))]).map(user(from:))
                }
            },
            resetPassword: { tokenHash, newPasswordHash, now in
                try database.write { connection in
                    guard let userID = try useToken(tokenHash, .passwordReset, now: now, connection) else { return nil }
                    try connection.prepare("UPDATE users SET password_hash = ? WHERE id = ?")
                        .run([.text(newPasswordHash), .integer(userID)])
                    try SessionStore.deleteSessions(of: User.ID(userID), keeping: nil, connection)
                    return try connection.prepare("SELECT \(userColumns) FROM users WHERE id = ?")
                        .first([.integer(userID)]).map(user(from:))
                }
            },
            changePassword: { userID, newPasswordHash, keeping in
                try database.write { connection in
                    // The plan's rules: other sessions end, reset links stop working.
                    let plan = AccountUpdate(passwordHash: newPasswordHash, keepingSession: keeping).plan(changesEmail: false)
                    try connection.prepare("UPDATE users SET password_hash = ? WHERE id = ?")
                        .run([.text(newPasswordHash), .integer(userID.rawValue)])
                    guard connection.changes == 1 else { throw AccountStoreError.userNotFound }
                    try SessionStore.deleteSessions(of: userID, keeping: plan.keepingSession, connection)
                    for purpose in plan.revokedTokens { try revokeTokens(purpose, of: userID, connection) }
                }
            },
            rehashPassword: { userID, old, new in
                try database.write { connection in
                    try connection.prepare("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?")
                        .run([.text(new), .integer(userID.rawValue), .text(old)])
                    return connection.changes == 1
                }
            },
            countAttempt: { checks, at in
                try database.write { connection in
                    // BEGIN IMMEDIATE: no other writer runs between the count read here and the
                    // insert, so the check and the count are one step.
                    let counted = try connection.prepare("SELECT at FROM throttle_events WHERE key = ? AND at >= ?")
                    let retry = try ThrottleRules.retryAfter(checks, at: at) { key, since in
                        try counted.query([.text(key), .integer(StoredTime.unixSeconds(since))])
                            .map { StoredTime.date(unixSeconds: try $0.int64(0)) }
                    }
                    guard retry == nil else { return retry }
                    let insert = try connection.prepare("INSERT INTO throttle_events (key, at) VALUES (?, ?)")
                    for check in checks { try insert.run([.text(check.key), .integer(StoredTime.unixSeconds(at))]) }
                    return nil
                }
            },
            clearAttempts: { key in
                try database.write { connection in
                    try connection.prepare("DELETE FROM throttle_events WHERE key = ?").run([.text(key)])
                }
            },
            uncountAttempt: { key, at in
                try database.write { connection in
                    try connection.prepare("""
                        DELETE FROM throttle_events
                        WHERE rowid = (SELECT rowid FROM throttle_events WHERE key = ?1 AND at = ?2 LIMIT 1)
                        """).run([.text(key), .integer(StoredTime.unixSeconds(at))])
                }
            },
            purgeAttempts: { before in
                try database.write { connection in
                    try connection.prepare("DELETE FROM throttle_events WHERE at < ?")
                        .run([.integer(StoredTime.unixSeconds(before))])
                    return connection.changes
                }
            },
            enqueue: { message in
                try database.write { connection in try enqueue(message, connection) }
            },
            dueMessages: { now, limit in
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT \(OutboxMessage.columns) FROM outbox
                        WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?
                        """).query([.integer(StoredTime.unixSeconds(now)), SQLValue(max(limit, 0))]).map { try OutboxMessage(row: $0) }
                }
            },
            claimDueMessages: { now, limit, until in
                // One writer at a time (BEGIN IMMEDIATE): the select and the update see the same rows.
                try database.write { connection in
                    try connection.prepare("""
                        UPDATE outbox SET next_attempt_at = ?
                        WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?)
                        RETURNING \(OutboxMessage.columns)
                        """).query([.integer(StoredTime.unixSeconds(until)), .integer(StoredTime.unixSeconds(now)),
                                    SQLValue(max(limit, 0))]).map { try OutboxMessage(row: $0) }.sorted { $0.id.rawValue < $1.id.rawValue }
                }
            },
            markSent: { id, date in
                try database.write { connection in
                    try connection.prepare("UPDATE outbox SET sent_at = ? WHERE id = ?")
                        .run([.integer(StoredTime.unixSeconds(date)), .integer(id.rawValue)])
                }
            },
            markFailed: { id, error, retryAt in
                try database.write { connection in
                    try connection.prepare("""
                        UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?
                        """).run([.text(error), .integer(StoredTime.unixSeconds(retryAt)), .integer(id.rawValue)])
                }
            }
        )
    }

    /// The `users` columns `user(from:)` reads, in order.
    private static let userColumns = """
        id, email, name, email_verified_at, created_at, role, username, phone, address_city, address_street, \
        address_number, address_zipcode, address_lat, address_long, locale
        """
    /// How many columns `userColumns` names (a column selected after them has this index).
    private static let userColumnCount = 15

    private static func user(from row: Row) throws -> User {
        let id = try row.int64(0)
        guard let role = User.Role(rawValue: try row.string(5)) else {
            throw SQLiteStoreError.corruptValue(table: "users", column: "role", rowID: id)
        }
        let address = AccountProfile.Address(city: try row.string(8), street: try row.string(9), number: try row.int(10),
                                             zipcode: try row.string(11), latitude: try row.string(12),
                                             longitude: try row.string(13))
        return User(id: User.ID(id), email: try row.string(1), name: try row.string(2),
                    emailVerifiedAt: try row.optionalInt64(3).map(StoredTime.date(unixSeconds:)),
                    createdAt: StoredTime.date(unixSeconds: try row.int64(4)), role: role,
                    profile: AccountProfile(username: try row.optionalString(6), phone: try row.string(7), address: address),
                    locale: try row.optionalString(14).flatMap(Language.init(rawValue:)))
    }

    /// Inserts an account. - Throws: `AccountStoreError.emailTaken` or `.usernameTaken`.
    /// Inserts the account, with its audit entry when someone else made it (`NewAccount.createdBy`).
    private static func insertUser(_ account: NewAccount, verified: Bool, _ connection: Connection) throws -> User {
        let user = try insertUserRow(account, verified: verified, connection)
        if let actor = account.createdBy {
            try SQLAudit.insert([AccountAudit.creation(of: user, actor: actor, now: account.createdAt)], connection)
        }
        return user
    }

    private static func insertUserRow(_ account: NewAccount, verified: Bool, _ connection: Connection) throws -> User {
        let createdAt = StoredTime.unixSeconds(account.createdAt)
        let profile = account.profile, address = profile.address
        try connection.prepare("""
            INSERT INTO users (email, name, password_hash, email_verified_at, created_at, role, username, phone,
                               address_city, address_street, address_number, address_zipcode, address_lat, address_long)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """).run([.text(account.email), .text(account.name), .text(account.passwordHash),
                      verified ? .integer(createdAt) : .null, .integer(createdAt), .text(account.role.rawValue),
                      SQLValue(profile.username), .text(profile.phone), .text(address.city), .text(address.street),
                      SQLValue(address.number), .text(address.zipcode), .text(address.latitude), .text(address.longitude)])
        guard connection.changes == 1 else {
            throw try isTaken("email", account.email, except: nil, connection) ? AccountStoreError.emailTaken
                : AccountStoreError.usernameTaken
        }
        return User(id: User.ID(connection.lastInsertRowID), email: account.email, name: account.name,
                    emailVerifiedAt: verified ? StoredTime.date(unixSeconds: createdAt) : nil,
                    createdAt: StoredTime.date(unixSeconds: createdAt), role: account.role, profile: profile)
    }

    /// `true` when an account other than `except` has this email or username (without case).
    private static func isTaken(_ column: String, _ value: String, except: User.ID?, _ connection: Connection) throws -> Bool {
        try connection.prepare("SELECT 1 FROM users WHERE \(column) = ? AND id IS NOT ?")
            .first([.text(value), SQLValue(except?.rawValue)]) != nil
    }

    /// Writes the fields an update names with one `UPDATE` (inside the caller's transaction).
    private static func updateUser(_ id: User.ID, _ update: AccountUpdate, _ connection: Connection) throws -> User {
        guard try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(id.rawValue)]) != nil else {
            throw AccountStoreError.userNotFound
        }
        // The account as it was, for the audit only (the write lock is held).
        let before = update.auditedAs == nil ? nil : try connection.prepare("SELECT \(userColumns) FROM users WHERE id = ?")
            .first([.integer(id.rawValue)]).map(user(from:))
        // The write lock is held (BEGIN IMMEDIATE): nobody can take the email or name between
        // this check and the UPDATE below.
        if let email = update.email, try isTaken("email", email, except: id, connection) { throw AccountStoreError.emailTaken }
        if case let .some(.some(username)) = update.username, try isTaken("username", username, except: id, connection) {
            throw AccountStoreError.usernameTaken
        }
        // The same address (NOCASE) is no change: it stays verified.
        let changesEmail = try update.email.map { email in
            try connection.prepare("SELECT 1 FROM users WHERE id = ? AND email = ?")
                .first([.integer(id.rawValue), .text(email)]) == nil
        } ?? false
        let plan = update.plan(changesEmail: changesEmail)
        if !plan.assignments.isEmpty {
            let columns = plan.assignments.map { "\($0.column) = ?" }.joined(separator: ", ")
            try connection.prepare("UPDATE users SET \(columns) WHERE id = ?")
                .run(plan.assignments.map { SQLValue($0.value) } + [.integer(id.rawValue)])
        }
        if plan.endsSessions { try SessionStore.deleteSessions(of: id, keeping: plan.keepingSession, connection) }
        for purpose in plan.revokedTokens { try revokeTokens(purpose, of: id, connection) }
        if let verification = plan.verification {
            try insertToken(verification.token, for: id, connection)
            try enqueue(verification.email, connection)
        }
        if let notice = plan.formerAddressNotice { try enqueue(notice, connection) }
        guard let user = try connection.prepare("SELECT \(userColumns) FROM users WHERE id = ?")
            .first([.integer(id.rawValue)]).map(user(from:)) else { throw AccountStoreError.userNotFound }
        if let audit = update.auditedAs, let before,
           let entry = AccountAudit.update(before: before, after: user, passwordChanged: plan.endsSessions, actor: audit.actor,
                                           now: audit.at) {
            try SQLAudit.insert([entry], connection)
        }
        return user
    }

    /// Stores a token after deleting the account's earlier unused tokens of the same purpose.
    private static func insertToken(_ token: TokenDraft, for userID: User.ID, _ connection: Connection) throws {
        try revokeTokens(token.purpose, of: userID, connection)
        try connection.prepare("""
            INSERT INTO account_tokens (user_id, purpose, token_hash, expires_at) VALUES (?, ?, ?, ?)
            """).run([.integer(userID.rawValue), .text(token.purpose.rawValue), .text(token.tokenHash),
                      .integer(StoredTime.unixSeconds(token.expiresAt))])
    }

    /// Deletes the account's unused tokens of `purpose`: their links stop working.
    private static func revokeTokens(_ purpose: TokenPurpose, of userID: User.ID, _ connection: Connection) throws {
        try connection.prepare("DELETE FROM account_tokens WHERE user_id = ? AND purpose = ? AND used_at IS NULL")
            .run([.integer(userID.rawValue), .text(purpose.rawValue)])
    }

    /// Marks a valid token (unused, unexpired, of this purpose) used; returns its account's id,
    /// or nil when there is no such token.
    private static func useToken(_ tokenHash: String, _ purpose: TokenPurpose, now: Date, _ connection: Connection) throws -> Int64? {
        let seconds = StoredTime.unixSeconds(now)
        return try connection.prepare("""
            UPDATE account_tokens SET used_at = ?1
            WHERE token_hash = ?2 AND purpose = ?3 AND used_at IS NULL AND expires_at > ?1
            RETURNING user_id
            """).first([.integer(seconds), .text(tokenHash), .text(purpose.rawValue)])?.int64(0)
    }

    /// Queues a message, due at once.
    static func enqueue(_ message: OutboxDraft, _ connection: Connection) throws {
        let createdAt = StoredTime.unixSeconds(message.createdAt)
        try connection.prepare("""
            INSERT INTO outbox (to_address, to_name, subject, text_body, html_body, created_at, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).run([.text(message.toAddress), .text(message.toName), .text(message.subject), .text(message.textBody),
                      SQLValue(message.htmlBody), .integer(createdAt), .integer(createdAt)])
    }
}

extension SQLValue {
    /// A value of an `AccountUpdatePlan`.
    init(_ value: AccountUpdatePlan.Value) {
        switch value {
        case let .text(text): self = .text(text)
        case let .integer(integer): self = .integer(integer)
        case .null: self = .null
        }
    }
}
