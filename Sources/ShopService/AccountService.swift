public import Foundation
public import ShopCore
public import ShopStore

/// Why an account operation was refused (the front door maps each case to its page).
public enum AccountServiceError: Error, Hashable, Sendable {
    /// Another account has this email.
    case emailTaken
    /// The emailed link is unknown, already used, expired or for something else.
    case linkNotValid
    /// The account is gone (deleted while its session lived), or is another shopper's.
    case accountNotFound
    /// Another account has this username (compared without case).
    case usernameTaken
    /// The account is the shop's only operator, which a shop always keeps.
    case lastOperator
}

/// Every problem of a new-password form (reset or change), by field.
public struct PasswordFormErrors: Error, Hashable, Sendable {
    /// A field of the form; the raw value is the form field's name.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case currentPassword = "current_password"
        case password
        case passwordConfirmation = "password_confirmation"
    }

    /// Problems by field; fields without problems are absent.
    public var byField: [Field: [AccountFieldError]]

    /// Creates the error.
    public init(byField: [Field: [AccountFieldError]]) { self.byField = byField }
}

/// Accounts: registration, sign-in credentials, email verification, password reset and change
/// — the rules for tokens (256 random bits, stored as SHA-256 only, single use, expiring),
/// passwords (`PasswordRules`, argon2id, rehashed on sign-in when the settings grew) and what a
/// password change ends (every other session).
///
/// Emails are composed by the front door (they are localized there) and handed in as closures
/// given the raw token; the service queues them in the store's transaction. Throttles stay with
/// the front door, which counts an attempt before calling.
///
/// ```swift
/// let accounts = AccountService(accounts: store, crypto: crypto, now: Date.init, dummyPasswordHash: DummyPasswordHash(crypto: crypto))
/// guard let user = try accounts.authenticate(email: email, password: password) else { return wrongPassword }
/// ```
public struct AccountService: Sendable {
    /// Accounts, tokens and the outbox.
    public var accounts: AccountStore
    /// Password hashing, tokens and SHA-256.
    public var crypto: Crypto
    /// The current time.
    public var now: @Sendable () -> Date
    /// A hash of no one's password, checked when a sign-in names an unknown email so that the
    /// answer takes as long as for a real account (made once, on first use: hashing is slow).
    public var dummyPasswordHash: DummyPasswordHash

    /// How long an emailed confirmation link works: 24 hours.
    public static let verificationLifetime: TimeInterval = 60 * 60 * 24
    /// How long a password-reset link works: 1 hour.
    public static let resetLifetime: TimeInterval = 60 * 60

    /// Creates the service from its clients.
    public init(accounts: AccountStore, crypto: Crypto, now: @escaping @Sendable () -> Date, dummyPasswordHash: DummyPasswordHash) {
        self.accounts = accounts
        self.crypto = crypto
        self.now = now
        self.dummyPasswordHash = dummyPasswordHash
    }

    // MARK: Registration and sign-in

    /// Creates the account, its email-verification token and the queued verification email, in
    /// one store transaction.
    /// - Parameters:
    ///   - registration: the checked form (`Registration.validate`).
    ///   - verificationEmail: the email carrying the raw token's link.
    /// - Returns: the new account.
    /// - Throws: `AccountServiceError.emailTaken`, or a store or hashing error.
    public func register(_ registration: Registration, verificationEmail: (_ token: String) -> OutboxDraft) throws -> User {
        let token = crypto.randomToken()
        do {
            return try accounts.register(
                NewAccount(email: registration.email, name: registration.name,
                           passwordHash: try crypto.hashPassword(registration.password), createdAt: now()),
                tokenDraft(.emailVerification, token: token), verificationEmail(token))
        } catch AccountStoreError.emailTaken {
            throw AccountServiceError.emailTaken
        }
    }

    /// How long after an account is made a registration with its email and password is taken
    /// for the same one sent again (a double click on a page without JavaScript, a retried
    /// request): 1 minute.
    public static let repeatedRegistrationWindow: TimeInterval = 60

    /// The account `registration` made a moment ago, when this is the same registration sent
    /// again: the email's account was made within ``repeatedRegistrationWindow`` and has this
    /// password. The caller then answers as it did the first time (signed in) instead of "this
    /// email has an account" — and does not warn the owner that someone tried to register with
    /// their email (a fresh tester's double click mailed a new customer a warning about
    /// themselves). Nil otherwise.
    /// - Throws: a store error.
    public func repeatedRegistration(_ registration: Registration) throws -> User? {
        try repeatedRegistration(email: registration.email, password: registration.password)
    }

    /// ``repeatedRegistration(_:)`` for a normalized email and a password as typed.
    public func repeatedRegistration(email: String, password: String) throws -> User? {
        guard let stored = try accounts.credentials(email),
              now().timeIntervalSince(stored.user.createdAt) < Self.repeatedRegistrationWindow,
              crypto.verifyPassword(password, stored.passwordHash) else { return nil }
        return stored.user
    }

    /// The account whose email and password these are, or nil. An unknown email is checked
    /// against a dummy hash, so the answer takes as long either way; a hash made with weaker
    /// settings than today's is replaced with a new one of the same password.
    /// - Parameters:
    ///   - email: the normalized email (nil when what was typed is not an email).
    ///   - password: the password as typed.
    /// - Throws: a store error.
    public func authenticate(email: String?, password: String) throws -> User? {
        guard let credentials = try email.flatMap({ try accounts.credentials($0) }) else {
            _ = crypto.verifyPassword(password, dummyPasswordHash.value)
            return nil
        }
        guard crypto.verifyPassword(password, credentials.passwordHash) else { return nil }
        if crypto.passwordNeedsRehash(credentials.passwordHash), let rehashed = try? crypto.hashPassword(password) {
            _ = try accounts.rehashPassword(credentials.user.id, credentials.passwordHash, rehashed)
        }
        return credentials.user
    }

    /// What a sign-in attempt came to.
    public enum SignInAttempt: Equatable, Sendable {
        /// Too many attempts for this email or address: try again after this many seconds.
        case throttled(retryAfterSeconds: Int)
        /// Unknown email or wrong password (the attempt stays counted).
        case refused
        /// The credentials are right: the account's count is cleared, the address gets its
        /// attempt back.
        case accepted(User)
    }

    /// A sign-in attempt as every front door makes it (the form and `POST /api/auth/login`): the
    /// attempt is counted against the email (a username is first turned into its account's
    /// email, ``signInEmail(_:)``, so both names share one count) and the client address before
    /// the password is looked at — in one store step with the check, so simultaneous guesses cannot all slip under the
    /// limit — then the credentials are checked (``authenticate(email:password:)``).
    /// - Parameters:
    ///   - emailText: what was typed as the email (or, through the API, a username).
    ///   - password: the password as typed.
    ///   - client: the client address, as the throttles count it.
    ///   - throttles: the limits.
    public func signIn(emailText: String, password: String, client: String,
                       throttles: AccountThrottles) throws -> SignInAttempt {
        let now = now()
        let email = try signInEmail(emailText)
        if let wait = try accounts.secondsToWait(throttles.signIn(email: email, client: client), at: now) {
            return .throttled(retryAfterSeconds: wait)
        }
        guard let user = try authenticate(email: email, password: password), let email else { return .refused }
        try accounts.forgiveAttempt(accountKey: AccountThrottles.signInAccountKey(email),
                                    clientKey: AccountThrottles.signInClientKey(client), at: now)
        return .accepted(user)
    }

    // MARK: Who sees which account

    /// The accounts `viewer` may see: every account for an operator, else only its own.
    /// - Throws: a store error.
    public func users(visibleTo viewer: User) throws -> [User] {
        viewer.isOperator ? try accounts.users() : [try accounts.user(viewer.id) ?? viewer]
    }

    /// The account with this id when `viewer` may see it (its own, or any for an operator).
    /// - Throws: `AccountServiceError.accountNotFound` for an unknown id *and* for another
    ///   shopper's account, so ids tell a stranger nothing; or a store error.
    public func user(_ id: User.ID, visibleTo viewer: User) throws -> User {
        guard viewer.isOperator || viewer.id == id, let user = try accounts.user(id) else {
            throw AccountServiceError.accountNotFound
        }
        return user
    }

    // MARK: Email verification

    /// Sends the verification email again with a new link (earlier links stop working); nothing
    /// for an account already verified.
    /// - Parameters:
    ///   - user: the account.
    ///   - sender: the staff member who sent it, recorded in the audit log with the email; nil
    ///     when the customer asked.
    ///   - email: the email carrying the raw token's link.
    /// - Returns: whether an email was queued.
    /// - Throws: `AccountStoreError.userNotFound`, or a store error.
    @discardableResult
    public func resendVerification(to user: User, by sender: AuditActor? = nil,
                                   email: (_ token: String) -> OutboxDraft) throws -> Bool {
        guard !user.isVerified else { return false }
        let token = crypto.randomToken()
        let message = email(token)
        try accounts.issueToken(user.id, tokenDraft(.emailVerification, token: token), message,
                                sender.map { emailAudit(message, to: user, action: "send-verification-email", by: $0) })
        return true
    }

    /// The audit entry of an email a staff member sent a customer: to whom, and its subject
    /// (never its link).
    private func emailAudit(_ message: OutboxDraft, to user: User, action: String, by sender: AuditActor) -> AuditEntry {
        AuditEntry(at: now(), actor: sender, subject: "customer", subjectID: user.email, action: action,
                   changes: [AuditChange(field: "email", before: nil, after: message.subject)])
    }

    /// Uses an emailed verification link's token.
    /// - Returns: the account, now verified.
    /// - Throws: `AccountServiceError.linkNotValid`, or a store error.
    public func verifyEmail(token: String) throws -> User {
        guard !token.isEmpty, let user = try accounts.verifyEmail(crypto.sha256Hex(token), now()) else {
            throw AccountServiceError.linkNotValid
        }
        return user
    }

    // MARK: Password reset and change

    /// Emails a password-reset link when `email` has an account, and does nothing otherwise —
    /// the caller answers the same either way.
    /// - Parameters:
    ///   - email: the normalized email.
    ///   - sender: the staff member who started it, recorded in the audit log; nil when the
    ///     customer asked.
    ///   - message: the email for the account, carrying the raw token's link.
    /// - Throws: a store error.
    public func requestPasswordReset(email: String, by sender: AuditActor? = nil,
                                     message: (_ user: User, _ token: String) -> OutboxDraft) throws {
        guard let user = try accounts.credentials(email)?.user else { return }
        let token = crypto.randomToken()
        let draft = message(user, token)
        try accounts.issueToken(user.id, tokenDraft(.passwordReset, token: token), draft,
                                sender.map { emailAudit(draft, to: user, action: "send-password-reset", by: $0) })
    }

    /// The account a password-reset link is for, without using it (to show the form).
    /// - Throws: `AccountServiceError.linkNotValid`, or a store error.
    public func passwordResetUser(token: String) throws -> User {
        guard !token.isEmpty, let user = try accounts.passwordResetUser(crypto.sha256Hex(token), now()) else {
            throw AccountServiceError.linkNotValid
        }
        return user
    }

    /// Sets a new password through a reset link, using the link and ending every session of the
    /// account in one store transaction.
    /// - Returns: the account (the caller signs the visitor in afresh).
    /// - Throws: `AccountServiceError.linkNotValid`, `PasswordFormErrors` (nothing changed), or a
    ///   store or hashing error.
    public func resetPassword(token: String, password: String, confirmation: String) throws -> User {
        let user = try passwordResetUser(token: token)
        try Self.check(newPassword: password, confirmation: confirmation, name: user.name, problems: [:])
        guard let updated = try accounts.resetPassword(crypto.sha256Hex(token), try crypto.hashPassword(password), now()) else {
            throw AccountServiceError.linkNotValid
        }
        return updated
    }

    /// Changes a signed-in shopper's password after checking the current one, and signs out
    /// every other session of the account.
    /// - Parameters:
    ///   - user: the signed-in account.
    ///   - keeping: the session making the change (it stays signed in).
    /// - Throws: `PasswordFormErrors` (nothing changed), `AccountServiceError.accountNotFound`,
    ///   or a store or hashing error.
    public func changePassword(of user: User, keeping: Session.ID, currentPassword: String, newPassword: String,
                               confirmation: String) throws {
        guard let credentials = try accounts.credentials(user.email) else { throw AccountServiceError.accountNotFound }
        let current: [PasswordFormErrors.Field: [AccountFieldError]] =
            crypto.verifyPassword(currentPassword, credentials.passwordHash) ? [:] : [.currentPassword: [.passwordWrong]]
        try Self.check(newPassword: newPassword, confirmation: confirmation, name: user.name, problems: current)
        try accounts.changePassword(user.id, try crypto.hashPassword(newPassword), keeping)
    }

    // MARK: Rules

    /// Throws every problem of a new password (`PasswordRules`, the confirmation) with `problems`
    /// already found, or nothing when there are none.
    private static func check(newPassword: String, confirmation: String, name: String,
                              problems: [PasswordFormErrors.Field: [AccountFieldError]]) throws(PasswordFormErrors) {
        var problems = problems
        let rules = PasswordRules.problems(newPassword, name: name)
        if !rules.isEmpty { problems[.password] = rules }
        if newPassword != confirmation { problems[.passwordConfirmation] = [.passwordsDoNotMatch] }
        guard problems.isEmpty else { throw PasswordFormErrors(byField: problems) }
    }

    /// A single-use token for the store: only its SHA-256, with its purpose's expiry.
    func tokenDraft(_ purpose: TokenPurpose, token: String) -> TokenDraft {
        let lifetime = switch purpose {
        case .emailVerification: Self.verificationLifetime
        case .passwordReset: Self.resetLifetime
        }
        return TokenDraft(purpose: purpose, tokenHash: crypto.sha256Hex(token), expiresAt: now().addingTimeInterval(lifetime))
    }
}
