public import Foundation
public import ShopCore

/// An account to create: the normalized email, the trimmed name and the password hash
/// (argon2id encoded string — never the password).
public struct NewAccount: Hashable, Sendable {
    public var email: String
    public var name: String
    public var passwordHash: String
    public var createdAt: Date
    /// The account's role (`.shopper` unless an operator makes another operator).
    public var role: User.Role
    /// Username, phone and address, already checked (`UsernameRules`, `ProfileRules`).
    public var profile: AccountProfile
    /// Who made the account when not its holder (an operator at the command line): the creation
    /// is then an entry of the audit log (`AccountAudit.creation`). Nil: the shopper registered.
    public var createdBy: AuditActor?

    /// Creates the value.
    public init(email: String, name: String, passwordHash: String, createdAt: Date, role: User.Role = .shopper,
                profile: AccountProfile = AccountProfile()) {
        self.profile = profile
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.role = role
    }
}

/// What a single-use emailed link is for.
public enum TokenPurpose: String, Hashable, Sendable, CaseIterable {
    /// Confirms the email address (24 h).
    case emailVerification = "email_verification"
    /// Lets the shopper choose a new password (1 h).
    case passwordReset = "password_reset"
}

/// A single-use token to store. Only its SHA-256 is kept: the raw token exists in the email alone.
public struct TokenDraft: Hashable, Sendable {
    public var purpose: TokenPurpose
    /// Lower-case hex SHA-256 of the raw token.
    public var tokenHash: String
    public var expiresAt: Date

    /// Creates the value.
    public init(purpose: TokenPurpose, tokenHash: String, expiresAt: Date) {
        self.purpose = purpose
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}

/// An email to send, queued in the outbox in the same transaction as the change that caused it;
/// a background worker delivers it (DESIGN.md §3).
public struct OutboxDraft: Hashable, Sendable {
    public var toAddress: String
    public var toName: String
    public var subject: String
    public var textBody: String
    public var htmlBody: String?
    public var createdAt: Date

    /// Creates the value.
    public init(toAddress: String, toName: String, subject: String, textBody: String, htmlBody: String? = nil,
                createdAt: Date) {
        self.toAddress = toAddress
        self.toName = toName
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.createdAt = createdAt
    }
}

/// A queued email with its delivery state.
public struct OutboxMessage: Hashable, Sendable, Identifiable {
    public typealias ID = Tagged<OutboxMessage, Int64>
    public var id: ID
    public var draft: OutboxDraft
    /// Delivery attempts so far.
    public var attempts: Int
    /// Not to be tried before this time.
    public var nextAttemptAt: Date

    /// Creates the value.
    public init(id: ID, draft: OutboxDraft, attempts: Int, nextAttemptAt: Date) {
        self.id = id
        self.draft = draft
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
    }
}

extension OutboxMessage {
    /// The `outbox` columns ``init(row:)`` reads, the same on every engine.
    public static let columns = "id, to_address, to_name, subject, text_body, html_body, created_at, attempts, next_attempt_at"

    /// A message from a row whose first columns are ``columns``.
    public init(row: some StoredRow) throws {
        self.init(id: ID(try row.int64(0)),
                  draft: OutboxDraft(toAddress: try row.string(1), toName: try row.string(2), subject: try row.string(3),
                                     textBody: try row.string(4), htmlBody: try row.optionalString(5),
                                     createdAt: StoredTime.date(unixSeconds: try row.int64(6))),
                  attempts: Int(try row.int64(7)), nextAttemptAt: StoredTime.date(unixSeconds: try row.int64(8)))
    }
}

/// Why an account operation was refused.
public enum AccountStoreError: Error, Hashable, Sendable {
    /// Another account has this email (compared normalized).
    case emailTaken
    /// No account with this id.
    case userNotFound
    /// Another account has this username (compared without case).
    case usernameTaken
    /// The account is the shop's only operator: a shop always keeps one (nothing changed).
    case lastOperator
}

/// Changes to one account, written in one transaction; nil leaves a field as it is. Every value
/// is already checked and normalized by the caller (`AccountService`).
public struct AccountUpdate: Sendable {
    /// A new normalized email. When it differs from the stored one the account becomes
    /// unverified and `verification` (if any) is stored and queued in the same transaction.
    public var email: String?
    public var name: String?
    /// `.some(nil)` removes the username.
    public var username: String??
    public var phone: String?
    public var address: AccountProfile.Address?
    /// A new password hash: every session of the account but `keepingSession` ends.
    public var passwordHash: String?
    /// The session that stays signed in after a password change (the one making it).
    public var keepingSession: Session.ID?
    /// The verification token and email for a changed email.
    public var verification: (token: TokenDraft, email: OutboxDraft)?
    /// For a changed email: the email telling the address the account leaves (queued only when
    /// the email does change).
    public var formerAddressNotice: OutboxDraft?
    /// The language the shopper chose (the storefront's picker, or the one they registered in).
    public var locale: Language?
    /// Who makes the change when it is not the account's own holder (an operator through the
    /// API), and when: the change is then an entry of the audit log (`AccountAudit`).
    public var auditedAs: (actor: AuditActor, at: Date)?

    /// Creates an update that changes nothing yet.
    public init(email: String? = nil, name: String? = nil, username: String?? = nil, phone: String? = nil,
                address: AccountProfile.Address? = nil, passwordHash: String? = nil, keepingSession: Session.ID? = nil,
                verification: (token: TokenDraft, email: OutboxDraft)? = nil, formerAddressNotice: OutboxDraft? = nil,
                locale: Language? = nil) {
        self.locale = locale
        self.formerAddressNotice = formerAddressNotice
        self.email = email
        self.name = name
        self.username = username
        self.phone = phone
        self.address = address
        self.passwordHash = passwordHash
        self.keepingSession = keepingSession
        self.verification = verification
    }
}

/// Accounts, their single-use tokens, throttle counts and the email outbox.
public struct AccountStore: Sendable {
    /// Creates an account, stores its email-verification token and queues the verification
    /// email, in one transaction. - Throws: `AccountStoreError.emailTaken`.
    public var register: @Sendable (NewAccount, TokenDraft, OutboxDraft) throws -> User
    /// Creates an account directly (operators: `shoppable users create`), verified or not.
    /// - Throws: `AccountStoreError.emailTaken`.
    public var createUser: @Sendable (NewAccount, _ verified: Bool) throws -> User
    /// The account with this id.
    public var user: @Sendable (User.ID) throws -> User?
    /// The account with this normalized email and its password hash (for sign-in).
    public var credentials: @Sendable (_ email: String) throws -> (user: User, passwordHash: String)?
    /// Every account, oldest first.
    public var users: @Sendable () throws -> [User]
    /// The account with this username (compared without case).
    public var userNamed: @Sendable (_ username: String) throws -> User?
    /// Changes an account in one transaction: only the fields given are written, by one
    /// `UPDATE`, so simultaneous updates of different fields all land.
    /// - Throws: `.userNotFound`, `.emailTaken`, `.usernameTaken` (nothing changed).
    public var updateUser: @Sendable (User.ID, AccountUpdate) throws -> User
    /// Deletes an account and everything only it owns (sessions, cart, favorites, address book,
    /// tokens, API carts); its orders stay, no longer linked to an account. Returns the account
    /// as it was, nil when there was none.
    /// - Throws: `.lastOperator` when it is the only operator left — decided by the delete
    ///   itself (a conditional write), so two operators deleting each other at once leave one.
    /// The deletion is an entry of the audit log when `audit` names who made it (an operator
    /// deleting someone else's account).
    public var deleteUser: @Sendable (User.ID, _ audit: (actor: AuditActor, at: Date)?) throws -> User?
    /// Stores a new token for the account (earlier unused tokens of the same purpose stop
    /// working) and queues its email, in one transaction — with the audit entry, when a staff
    /// member sent it (nil: the customer asked). - Throws: `.userNotFound`.
    public var issueToken: @Sendable (User.ID, TokenDraft, OutboxDraft, AuditEntry?) throws -> Void
    /// Uses an email-verification token: marks the account verified and the token used, in one
    /// transaction. Nil when the token is unknown, used, expired or for another purpose.
    public var verifyEmail: @Sendable (_ tokenHash: String, _ now: Date) throws -> User?
    /// The account a password-reset token belongs to, without using it (to show the form);
    /// nil when unknown, used or expired.
    public var passwordResetUser: @Sendable (_ tokenHash: String, _ now: Date) throws -> User?
    /// Uses a password-reset token: sets the new hash, marks the token used and deletes every
    /// session of the account, in one transaction. Nil when the token is not valid.
    public var resetPassword: @Sendable (_ tokenHash: String, _ newPasswordHash: String, _ now: Date) throws -> User?
    /// Sets a new password hash and deletes the account's other sessions (all but `keeping`).
    public var changePassword: @Sendable (User.ID, _ newPasswordHash: String, _ keeping: Session.ID?) throws -> Void
    /// Replaces the password hash with one of the same password made with today's settings
    /// (after a sign-in, when `Crypto.passwordNeedsRehash`), only while the stored hash is still
    /// `old` — a password changed meanwhile is kept. Sessions are untouched. Returns whether it
    /// replaced it.
    public var rehashPassword: @Sendable (User.ID, _ old: String, _ new: String) throws -> Bool
    /// Counts an attempt (a sign-in, a registration, an email asked for) under every check's key
    /// when each key is still under its limit, and counts nothing otherwise — the check and the
    /// count are ONE step, so concurrent attempts cannot all pass a check made before any of
    /// them was counted. Returns nil when counted, else when every key allows an attempt again
    /// (`RateLimit.retryAfter`, the latest over the refusing keys).
    public var countAttempt: @Sendable (_ checks: [ThrottleCheck], _ at: Date) throws -> Date?
    /// Forgets every attempt counted under `key` (a successful sign-in clears its account's).
    public var clearAttempts: @Sendable (_ key: String) throws -> Void
    /// Forgets one attempt counted under `key` at `at` (to the second), if there is one: a
    /// successful sign-in gives its client address the attempt back.
    public var uncountAttempt: @Sendable (_ key: String, _ at: Date) throws -> Void
    /// Forgets attempts counted before the date (they are outside every window); returns how many.
    public var purgeAttempts: @Sendable (_ before: Date) throws -> Int
    /// Queues an email on its own.
    public var enqueue: @Sendable (OutboxDraft) throws -> Void
    /// Messages due for delivery (`nextAttemptAt` ≤ now, not sent), oldest first.
    public var dueMessages: @Sendable (_ now: Date, _ limit: Int) throws -> [OutboxMessage]
    /// Takes up to `limit` messages due now (oldest first) for delivery, in one transaction:
    /// each one's next attempt moves to `until`, so no other worker — another app server's
    /// included (issue #15) — takes it meanwhile; `markSent` or `markFailed` then settle it. A
    /// worker that stops between taking and settling leaves its messages to be taken again
    /// after `until`. Two workers taking at once never get the same message.
    public var claimDueMessages: @Sendable (_ now: Date, _ limit: Int, _ until: Date) throws -> [OutboxMessage]
    /// Marks a message delivered.
    public var markSent: @Sendable (OutboxMessage.ID, _ at: Date) throws -> Void
    /// Records a failed attempt and when to try again.
    public var markFailed: @Sendable (OutboxMessage.ID, _ error: String, _ retryAt: Date) throws -> Void

    /// Creates a store from its operations.
    public init(
        register: @escaping @Sendable (NewAccount, TokenDraft, OutboxDraft) throws -> User,
        createUser: @escaping @Sendable (NewAccount, Bool) throws -> User,
        user: @escaping @Sendable (User.ID) throws -> User?,
        credentials: @escaping @Sendable (String) throws -> (user: User, passwordHash: String)?,
        users: @escaping @Sendable () throws -> [User],
        userNamed: @escaping @Sendable (String) throws -> User?,
        updateUser: @escaping @Sendable (User.ID, AccountUpdate) throws -> User,
        deleteUser: @escaping @Sendable (User.ID, _ audit: (actor: AuditActor, at: Date)?) throws -> User?,
        issueToken: @escaping @Sendable (User.ID, TokenDraft, OutboxDraft, AuditEntry?) throws -> Void,
        verifyEmail: @escaping @Sendable (String, Date) throws -> User?,
        passwordResetUser: @escaping @Sendable (String, Date) throws -> User?,
        resetPassword: @escaping @Sendable (String, String, Date) throws -> User?,
        changePassword: @escaping @Sendable (User.ID, String, Session.ID?) throws -> Void,
        rehashPassword: @escaping @Sendable (User.ID, String, String) throws -> Bool,
        countAttempt: @escaping @Sendable ([ThrottleCheck], Date) throws -> Date?,
        clearAttempts: @escaping @Sendable (String) throws -> Void,
        uncountAttempt: @escaping @Sendable (String, Date) throws -> Void,
        purgeAttempts: @escaping @Sendable (Date) throws -> Int,
        enqueue: @escaping @Sendable (OutboxDraft) throws -> Void,
        dueMessages: @escaping @Sendable (Date, Int) throws -> [OutboxMessage],
        claimDueMessages: @escaping @Sendable (Date, Int, Date) throws -> [OutboxMessage],
        markSent: @escaping @Sendable (OutboxMessage.ID, Date) throws -> Void,
        markFailed: @escaping @Sendable (OutboxMessage.ID, String, Date) throws -> Void
    ) {
        self.register = register
        self.createUser = createUser
        self.user = user
        self.credentials = credentials
        self.users = users
        self.userNamed = userNamed
        self.updateUser = updateUser
        self.deleteUser = deleteUser
        self.issueToken = issueToken
        self.verifyEmail = verifyEmail
        self.passwordResetUser = passwordResetUser
        self.resetPassword = resetPassword
        self.changePassword = changePassword
        self.rehashPassword = rehashPassword
        self.countAttempt = countAttempt
        self.clearAttempts = clearAttempts
        self.uncountAttempt = uncountAttempt
        self.purgeAttempts = purgeAttempts
        self.enqueue = enqueue
        self.dueMessages = dueMessages
        self.claimDueMessages = claimDueMessages
        self.markSent = markSent
        self.markFailed = markFailed
    }
}
