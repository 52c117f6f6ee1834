public import ShopStore
import Foundation
import Postgres
import ShopCore

extension AccountStore {
    /// Accounts, tokens, throttle counts and the outbox in PostgreSQL (`PostgresSchema`
    /// migration 3), with the behaviour of `AccountStore.sqlite` — the contract suite runs on
    /// both. Every write is one `READ COMMITTED` transaction, run again (at most 3 times) on a
    /// serialization failure or deadlock; where SQLite relies on its single writer, this store
    /// decides in the database:
    ///
    /// - Emails and usernames are unique indexes on `lower(… COLLATE "C")` (`folded`): ASCII
    ///   letters without case, as SQLite's `NOCASE`, in any locale. Two registrations of one address
    ///   at once give one account and one `emailTaken` (the insert waits for the other one, and
    ///   its violation, in a savepoint, is named by the same checks as before it); an update that
    ///   races another to an address or username is refused the same way. Any other unique
    ///   violation is the database's own error.
    /// - `countAttempt` takes a transaction-level advisory lock per key (in key order), so the
    ///   count it reads and the attempt it adds are one step for that key across servers.
    /// - `deleteUser` locks the operators' rows first, so two operators deleting each other at
    ///   once cannot both go.
    /// - Tokens are spent by a conditional `UPDATE … WHERE used_at IS NULL … RETURNING`: of two
    ///   simultaneous uses one wins.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> AccountStore {
        AccountStore(
            register: { account, token, message in
                try database.transaction { connection in
                    let user = try insertUser(account, verified: false, connection)
                    try insertToken(token, for: user.id, connection)
                    try enqueue(message, connection)
                    return user
                }
            },
            createUser: { account, verified in
                try database.transaction { connection in try insertUser(account, verified: verified, connection) }
            },
            user: { id in
                try database.withConnection { connection in try findUser(id.rawValue, connection) }
            },
            credentials: { email in
                try database.withConnection { connection in
                    try connection.first("SELECT \(userColumns), password_hash FROM users WHERE \(folded("email")) = \(folded("$1"))", [.text(email)])
                        .map { row in (user: try user(from: row), passwordHash: try row.string(userColumnCount)) }
                }
            },
            users: {
                try database.withConnection { connection in
                    try connection.query("SELECT \(userColumns) FROM users ORDER BY created_at, id").map(user(from:))
                }
            },
            userNamed: { username in
                try database.withConnection { connection in
                    try connection.first("SELECT \(userColumns) FROM users WHERE \(folded("username")) = \(folded("$1"))", [.text(username)])
                        .map(user(from:))
                }
            },
            updateUser: { id, update in
                try database.transaction { connection in try updateUser(id, update, connection) }
            },
            deleteUser: { id, audit in
                try database.transaction { connection in
                    // Operators are locked in one order by every deletion, so of two deleting each
                    // other the second sees the first gone when its turn comes.
                    try connection.query("SELECT id FROM users WHERE role = 'operator' ORDER BY id FOR UPDATE")
                    guard let user = try findUser(id.rawValue, connection) else { return nil }
                    // Sessions and tokens cascade.
                    let deleted = try connection.run("""
                        DELETE FROM users WHERE id = $1
                           AND (role <> 'operator' OR EXISTS (SELECT 1 FROM users WHERE role = 'operator' AND id <> $1))
                        """, [.integer(id.rawValue)])
                    guard deleted == 1 else {
                        // Deleted by another transaction since it was read (READ COMMITTED: this
                        // read sees that commit); otherwise the last operator stays.
                        guard try findUser(id.rawValue, connection) != nil else { return nil }
                        throw AccountStoreError.lastOperator
                    }
                    if let audit { try PGAudit.insert([AccountAudit.deletion(of: user, actor: audit.actor, now: audit.at)], connection) }
                    return user
                }
            },
            issueToken: { userID, token, message, audit in
                try database.transaction { connection in
                    guard try connection.first("SELECT 1 FROM users WHERE id = $1", [.integer(userID.rawValue)]) != nil else {
                        throw AccountStoreError.userNotFound
                    }
                    try insertToken(token, for: userID, connection)
                    try enqueue(message, connection)
                    if let audit { try PGAudit.insert([audit], connection) }
                }
            },
            verifyEmail: { tokenHash, now in
                try database.transaction { connection in
                    guard let userID = try useToken(tokenHash, .emailVerification, now: now, connection) else { return nil }
                    try connection.run("UPDATE users SET email_verified_at = coalesce(email_verified_at, $1) WHERE id = $2",
                                       [.integer(StoredTime.unixSeconds(now)), .integer(userID)])
                    return try findUser(userID, connection)
                }
            },
            passwordResetUser: { tokenHash, now in
                try database.withConnection { connection in
                    try connection.first("""
                        SELECT \(userColumns.split(separator: ", ").map { "users.\($0)" }.joined(separator: ", "))
                        FROM account_tokens JOIN users ON users.id = account_tokens.user_id
                        WHERE account_tokens.token_hash = $1 AND account_tokens.purpose = $2
                          AND account_tokens.used_at IS NULL AND account_tokens.expires_at > $3
                        """, [.text(tokenHash), .text(TokenPurpose.passwordReset.rawValue),
                              .integer(StoredTime.unixSeconds(now))]).map(user(from:))
                }
            },
            resetPassword: { tokenHash, newPasswordHash, now in
                try database.transaction { connection in
                    guard let userID = try useToken(tokenHash, .passwordReset, now: now, connection) else { return nil }
                    try connection.run("UPDATE users SET password_hash = $1 WHERE id = $2", [.text(newPasswordHash), .integer(userID)])
                    try SessionStore.deleteSessions(of: User.ID(userID), keeping: nil, connection)
                    return try findUser(userID, connection)
                }
            },
            changePassword: { userID, newPasswordHash, keeping in
                try database.transaction { connection in
                    // The plan's rules: other sessions end, reset links stop working.
                    let plan = AccountUpdate(passwordHash: newPasswordHash, keepingSession: keeping).plan(changesEmail: false)
                    guard try connection.run("UPDATE users SET password_hash = $1 WHERE id = $2",
                                             [.text(newPasswordHash), .integer(userID.rawValue)]) == 1 else {
                        throw AccountStoreError.userNotFound
                    }
                    try SessionStore.deleteSessions(of: userID, keeping: plan.keepingSession, connection)
                    for purpose in plan.revokedTokens { try revokeTokens(purpose, of: userID, connection) }
                }
            },
            rehashPassword: { userID, old, new in
                try database.transaction { connection in
                    try connection.run("UPDATE users SET password_hash = $1 WHERE id = $2 AND password_hash = $3",
                                       [.text(new), .integer(userID.rawValue), .text(old)]) == 1
                }
            },
            countAttempt: { checks, at in
                try database.transaction { connection in
                    // One lock per key, taken in key order (no deadlock between two attempts sharing
                    // keys), held to the commit: no other attempt on these keys counts in between.
                    for key in Set(checks.map(\.key)).sorted() {
                        try connection.query("SELECT pg_advisory_xact_lock($1::int, hashtext($2))",
                                             [.integer(throttleLockKey), .text(key)])
                    }
                    let retry = try ThrottleRules.retryAfter(checks, at: at) { key, since in
                        try connection.query("SELECT at FROM throttle_events WHERE key = $1 AND at >= $2",
                                             [.text(key), .integer(StoredTime.unixSeconds(since))])
                            .map { StoredTime.date(unixSeconds: try $0.int64(0)) }
                    }
                    guard retry == nil else { return retry }
                    for check in checks {
                        try connection.run("INSERT INTO throttle_events (key, at) VALUES ($1, $2)",
                                           [.text(check.key), .integer(StoredTime.unixSeconds(at))])
                    }
                    return nil
                }
            },
            clearAttempts: { key in
                try database.transaction { connection in
                    _ = try connection.run("DELETE FROM throttle_events WHERE key = $1", [.text(key)])
                }
            },
            uncountAttempt: { key, at in
                try database.transaction { connection in
                    _ = try connection.run("""
                        DELETE FROM throttle_events
                        WHERE id = (SELECT id FROM throttle_events WHERE key = $1 AND at = $2 LIMIT 1)
                        """, [.text(key), .integer(StoredTime.unixSeconds(at))])
                }
            },
            purgeAttempts: { before in
                try database.transaction { connection in
                    try connection.run("DELETE FROM throttle_events WHERE at < $1", [.integer(StoredTime.unixSeconds(before))])
                }
            },
            enqueue: { message in
                try database.transaction { connection in try enqueue(message, connection) }
            },
            dueMessages: { now, limit in
                try database.withConnection { connection in
                    try connection.query("""
                        SELECT \(OutboxMessage.columns) FROM outbox
                        WHERE sent_at IS NULL AND next_attempt_at <= $1 ORDER BY id LIMIT $2
                        """, [.integer(StoredTime.unixSeconds(now)), PostgresValue(max(limit, 0))]).map { try OutboxMessage(row: $0) }
                }
            },
            claimDueMessages: { now, limit, until in
                // SKIP LOCKED: a worker skips the rows another is taking at this moment instead of
                // waiting for them (and then taking them again).
                try database.transaction { connection in
                    try connection.query("""
                        UPDATE outbox SET next_attempt_at = $1
                        WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $2
                                     ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
                        RETURNING \(OutboxMessage.columns)
                        """, [.integer(StoredTime.unixSeconds(until)), .integer(StoredTime.unixSeconds(now)),
                              PostgresValue(max(limit, 0))]).map { try OutboxMessage(row: $0) }.sorted { $0.id.rawValue < $1.id.rawValue }
                }
            },
            markSent: { id, date in
                try database.transaction { connection in
                    _ = try connection.run("UPDATE outbox SET sent_at = $1 WHERE id = $2",
                                           [.integer(StoredTime.unixSeconds(date)), .integer(id.rawValue)])
                }
            },
            markFailed: { id, error, retryAt in
                try database.transaction { connection in
                    _ = try connection.run("UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 WHERE id = $3",
                                           [.text(error), .integer(StoredTime.unixSeconds(retryAt)), .integer(id.rawValue)])
                }
            }
        )
    }

    /// `pg_advisory_xact_lock`'s first key for throttle counts: "Thrt" in ASCII.
    private static let throttleLockKey: Int64 = 0x5468_7274

    /// The `users` columns `user(from:)` reads, in order.
    private static let userColumns = """
        id, email, name, email_verified_at, created_at, role, username, phone, address_city, address_street, \
        address_number, address_zipcode, address_lat, address_long, locale
        """
    /// How many columns `userColumns` names (a column selected after them has this index).
    private static let userColumnCount = 15

    private static func findUser(_ id: Int64, _ connection: PostgresConnection) throws -> User? {
        try connection.first("SELECT \(userColumns) FROM users WHERE id = $1", [.integer(id)]).map(user(from:))
    }

    private static func user(from row: PostgresRow) throws -> User {
        let id = try row.int64(0)
        guard let role = User.Role(rawValue: try row.string(5)) else {
            throw PostgresStoreError.corruptValue(table: "users", column: "role", rowID: id)
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

    /// Inserts an account.
    /// - Throws: `AccountStoreError.emailTaken` or `.usernameTaken` (email first, as on SQLite);
    ///   the database's own unique violation for any other conflict (an id after a copy, say).
    /// Inserts the account, with its audit entry when someone else made it (`NewAccount.createdBy`).
    private static func insertUser(_ account: NewAccount, verified: Bool, _ connection: PostgresConnection) throws -> User {
        let user = try insertUserRow(account, verified: verified, connection)
        if let actor = account.createdBy {
            try PGAudit.insert([AccountAudit.creation(of: user, actor: actor, now: account.createdAt)], connection)
        }
        return user
    }

    private static func insertUserRow(_ account: NewAccount, verified: Bool, _ connection: PostgresConnection) throws -> User {
        let createdAt = StoredTime.unixSeconds(account.createdAt)
        let profile = account.profile, address = profile.address
        let insert = """
            INSERT INTO users (email, name, password_hash, email_verified_at, created_at, role, username, phone,
                               address_city, address_street, address_number, address_zipcode, address_lat, address_long)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            """
        let values: [PostgresValue] = [
            .text(account.email), .text(account.name), .text(account.passwordHash),
            verified ? .integer(createdAt) : .null, .integer(createdAt), .text(account.role.rawValue),
            PostgresValue(profile.username), .text(profile.phone), .text(address.city), .text(address.street),
            PostgresValue(address.number), .text(address.zipcode), .text(address.latitude), .text(address.longitude),
        ]
        let inserted: PostgresRow
        do {
            // In a savepoint (a nested transaction), so the transaction goes on after a violation.
            // (A single-row INSERT … RETURNING that succeeds returns its row.)
            inserted = try connection.transaction { try connection.first(insert + " RETURNING id", values)! }
        } catch let error as PostgresError {
            // A unique index refused the row: name the one a person can act on (email first, as
            // on SQLite), else it is the database's own error (an id after a careless copy, say).
            guard error.sqlState == .uniqueViolation else { throw error }
            if try isTaken("email", account.email, except: nil, connection) { throw AccountStoreError.emailTaken }
            if let username = profile.username, try isTaken("username", username, except: nil, connection) {
                throw AccountStoreError.usernameTaken
            }
            throw error
        }
        return User(id: User.ID(try inserted.int64(0)), email: account.email, name: account.name,
                    emailVerifiedAt: verified ? StoredTime.date(unixSeconds: createdAt) : nil,
                    createdAt: StoredTime.date(unixSeconds: createdAt), role: account.role, profile: profile)
    }

    /// How emails and usernames are compared: ASCII letters without case, nothing else folded — as
    /// SQLite's `NOCASE` — whatever the database's locale (`lower()` under the "C" collation; the
    /// unique indexes `users_email` and `users_username` are on this same expression).
    static func folded(_ expression: String) -> String { "lower(\(expression) COLLATE \"C\")" }

    /// `true` when an account other than `except` has this email or username (without case).
    private static func isTaken(_ column: String, _ value: String, except: User.ID?, _ connection: PostgresConnection) throws -> Bool {
        try connection.first("SELECT 1 FROM users WHERE \(folded(column)) = \(folded("$1")) AND id IS DISTINCT FROM $2::bigint",
                             [.text(value), PostgresValue(except?.rawValue)]) != nil
    }

    /// Writes the fields an update names with one `UPDATE` (inside the caller's transaction).
    private static func updateUser(_ id: User.ID, _ update: AccountUpdate, _ connection: PostgresConnection) throws -> User {
        // The row lock makes concurrent updates of one account take turns.
        // (An email that differs only in case is the same address, as on SQLite.)
        guard let current = try connection.first("SELECT \(folded("email")) = \(folded("$2")) FROM users WHERE id = $1 FOR UPDATE",
                                                  [.integer(id.rawValue), .text(update.email ?? "")]) else {
            throw AccountStoreError.userNotFound
        }
        // The account as it was, for the audit (the row is locked above).
        let before = update.auditedAs == nil ? nil : try findUser(id.rawValue, connection)
        if let email = update.email, try isTaken("email", email, except: id, connection) { throw AccountStoreError.emailTaken }
        if case let .some(.some(username)) = update.username, try isTaken("username", username, except: id, connection) {
            throw AccountStoreError.usernameTaken
        }
        let plan = update.plan(changesEmail: try update.email != nil && !current.bool(0))
        let assignments = plan.assignments.enumerated().map { "\($1.column) = $\($0 + 1)" }
        let values = plan.assignments.map { PostgresValue($0.value) }
        if !assignments.isEmpty {
            // In a savepoint (a nested transaction): when another transaction took the address or
            // name after the checks above, the violation rolls back to it and the same checks
            // (email first) name it — no index name is read from the error.
            do {
                try connection.transaction {
                    try connection.run("UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = $\(values.count + 1)",
                                       values + [.integer(id.rawValue)])
                }
            } catch let error as PostgresError {
                guard error.sqlState == .uniqueViolation else { throw error }
                if let email = update.email, try isTaken("email", email, except: id, connection) {
                    throw AccountStoreError.emailTaken
                }
                if case let .some(.some(username)) = update.username, try isTaken("username", username, except: id, connection) {
                    throw AccountStoreError.usernameTaken
                }
                throw error
            }
        }
        if plan.endsSessions { try SessionStore.deleteSessions(of: id, keeping: plan.keepingSession, connection) }
        for purpose in plan.revokedTokens { try revokeTokens(purpose, of: id, connection) }
        if let verification = plan.verification {
            try insertToken(verification.token, for: id, connection)
            try enqueue(verification.email, connection)
        }
        if let notice = plan.formerAddressNotice { try enqueue(notice, connection) }
        guard let user = try findUser(id.rawValue, connection) else { throw AccountStoreError.userNotFound }
        if let audit = update.auditedAs, let before,
           let entry = AccountAudit.update(before: before, after: user, passwordChanged: plan.endsSessions, actor: audit.actor,
                                           now: audit.at) {
            try PGAudit.insert([entry], connection)
        }
        return user
    }

    /// Stores a token after deleting the account's earlier unused tokens of the same purpose.
    private static func insertToken(_ token: TokenDraft, for userID: User.ID, _ connection: PostgresConnection) throws {
        try revokeTokens(token.purpose, of: userID, connection)
        try connection.run("INSERT INTO account_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, $4)",
                           [.integer(userID.rawValue), .text(token.purpose.rawValue), .text(token.tokenHash),
                            .integer(StoredTime.unixSeconds(token.expiresAt))])
    }

    /// Deletes the account's unused tokens of `purpose`: their links stop working.
    private static func revokeTokens(_ purpose: TokenPurpose, of userID: User.ID, _ connection: PostgresConnection) throws {
        try connection.run("DELETE FROM account_tokens WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL",
                           [.integer(userID.rawValue), .text(purpose.rawValue)])
    }

    /// Marks a valid token (unused, unexpired, of this purpose) used; returns its account's id,
    /// or nil when there is no such token.
    private static func useToken(_ tokenHash: String, _ purpose: TokenPurpose, now: Date,
                                 _ connection: PostgresConnection) throws -> Int64? {
        try connection.first("""
            UPDATE account_tokens SET used_at = $1
            WHERE token_hash = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $1
            RETURNING user_id
            """, [.integer(StoredTime.unixSeconds(now)), .text(tokenHash), .text(purpose.rawValue)])?.int64(0)
    }

    /// Queues a message, due at once.
    static func enqueue(_ message: OutboxDraft, _ connection: PostgresConnection) throws {
        let createdAt = StoredTime.unixSeconds(message.createdAt)
        try connection.run("""
            INSERT INTO outbox (to_address, to_name, subject, text_body, html_body, created_at, next_attempt_at)
            VALUES ($1, $2, $3, $4, $5, $6, $6)
            """, [.text(message.toAddress), .text(message.toName), .text(message.subject), .text(message.textBody),
                  PostgresValue(message.htmlBody), .integer(createdAt)])
    }
}

extension PostgresValue {
    /// A value of an `AccountUpdatePlan`.
    init(_ value: AccountUpdatePlan.Value) {
        switch value {
        case let .text(text): self = .text(text)
        case let .integer(integer): self = .integer(integer)
        case .null: self = .null
        }
    }
}
