public import Foundation
public import ShopCore
public import ShopStore

/// What is wrong with a new staff account, by field (`email`, `name`, `password`), each with the
/// account rules' messages.
/// Too many attempts: try again after this many seconds.
public struct StaffThrottled: Error, Hashable, Sendable {
    public var retryAfterSeconds: Int
}

public struct StaffFormErrors: Error, Hashable, Sendable {
    public var byField: [String: [AccountFieldError]]

    public init(byField: [String: [AccountFieldError]]) { self.byField = byField }
}

/// A back-office session just started: the raw tokens go to the browser (cookie, forms), the
/// store keeps their hashes.
public struct IssuedStaffSession: Hashable, Sendable {
    /// The cookie's value.
    public var token: String
    /// What the back office's forms carry.
    public var csrfToken: String
    public var session: StaffSession
    public var member: StaffMember
}

/// Staff accounts and back-office sign-in (issue #16), by the shoppers' rules: the same password
/// rules (`PasswordRules`), argon2id hashes, a dummy hash for unknown emails, and the sign-in
/// throttle counted in the store before the password is looked at — with keys of its own
/// (`AccountThrottles.staffSignIn`).
///
/// A session is a random token whose SHA-256 is the stored id; it lasts `sessionLifetime` from
/// sign-in and does not slide.
public struct StaffService: Sendable {
    public var staff: StaffStore
    /// The throttle counts (`AccountStore.countAttempt`).
    public var accounts: AccountStore
    public var crypto: Crypto
    public var now: @Sendable () -> Date
    public var dummyPasswordHash: DummyPasswordHash

    /// How long a back-office session lasts: 12 hours, a working day.
    public static let sessionLifetime: TimeInterval = 12 * 60 * 60
    public init(staff: StaffStore, accounts: AccountStore, crypto: Crypto, now: @escaping @Sendable () -> Date,
                dummyPasswordHash: DummyPasswordHash) {
        self.staff = staff
        self.accounts = accounts
        self.crypto = crypto
        self.now = now
        self.dummyPasswordHash = dummyPasswordHash
    }

    /// Creates a staff account.
    /// - Throws: `StaffFormErrors` for a bad email, name or password (every problem at once),
    ///   `StaffStoreError.emailTaken`, or a store or hashing error.
    public func create(email: String, name: String, role: StaffRole, password: String,
                       language: Language = .english) throws -> StaffMember {
        var problems: [String: [AccountFieldError]] = [:]
        var normalized = ""
        do {
            normalized = try EmailRules.normalize(email)
        } catch {
            problems["email"] = [error]
        }
        let trimmedName = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmedName.isEmpty {
            problems["name"] = [.nameMissing]
        } else if trimmedName.count > Registration.maximumNameLength {
            problems["name"] = [.nameTooLong(maximum: Registration.maximumNameLength)]
        }
        let passwordProblems = PasswordRules.problems(password, name: trimmedName)
        if !passwordProblems.isEmpty { problems["password"] = passwordProblems }
        guard problems.isEmpty else { throw StaffFormErrors(byField: problems) }
        return try staff.create(NewStaffMember(email: normalized, name: trimmedName, role: role,
                                               passwordHash: try crypto.hashPassword(password), createdAt: now(),
                                               language: language))
    }

    /// What a back-office sign-in attempt came to.
    public enum SignInAttempt: Equatable, Sendable {
        case throttled(retryAfterSeconds: Int)
        case refused
        case accepted(IssuedStaffSession)
    }

    /// Signs a staff member in: counts the attempt (per email and per client) before checking
    /// the password; an unknown email is checked against the dummy hash so that it takes as long.
    public func signIn(emailText: String, password: String, client: String, throttles: AccountThrottles) throws -> SignInAttempt {
        let now = now()
        let email = try? EmailRules.normalize(emailText)
        if let wait = try accounts.secondsToWait(throttles.staffSignIn(email: email, client: client), at: now) {
            return .throttled(retryAfterSeconds: wait)
        }
        guard let found = try email.flatMap({ try staff.credentials($0) }) else {
            _ = crypto.verifyPassword(password, dummyPasswordHash.value)
            return .refused
        }
        guard crypto.verifyPassword(password, found.passwordHash), let email else { return .refused }
        // A second factor: the session opens only the code's form until the code is given.
        let needsCode = try staff.secondFactor(found.member.id) != nil
        try accounts.forgiveAttempt(accountKey: AccountThrottles.staffSignInAccountKey(email),
                                    clientKey: AccountThrottles.staffSignInClientKey(client), at: now)
        let token = crypto.randomToken(), csrf = crypto.randomToken()
        let session = StaffSession(id: crypto.sha256Hex(token), staffID: found.member.id, csrfTokenHash: crypto.sha256Hex(csrf),
                                   createdAt: now, expiresAt: now.addingTimeInterval(Self.sessionLifetime), needsSecondFactor: needsCode)
        try staff.startSession(session)
        return .accepted(IssuedStaffSession(token: token, csrfToken: csrf, session: session, member: found.member))
    }

    /// The session and staff member a cookie's token names, when it has not ended.
    public func resume(token: String?) throws -> (session: StaffSession, member: StaffMember)? {
        guard let token, (32...128).contains(token.utf8.count) else { return nil }
        return try staff.session(crypto.sha256Hex(token), now())
    }

    /// `true` when `posted` is the CSRF token of `session`.
    public func isCSRFToken(_ posted: String, of session: StaffSession) -> Bool {
        crypto.constantTimeEquals(crypto.sha256Hex(posted), session.csrfTokenHash)
    }

    /// Ends the session.
    public func signOut(_ session: StaffSession) throws { try staff.endSession(session.id) }

    // MARK: Second factor (TOTP, RFC 6238)

    /// `true` when the wiring can do TOTP (HMAC-SHA1 and random bytes).
    public var offersSecondFactor: Bool { crypto.hmacSHA1 != nil && crypto.randomBytes != nil }

    /// A new secret for an enrolment: 20 random bytes (160 bits, RFC 4226's recommendation).
    public func newSecondFactorSecret() -> [UInt8]? { crypto.randomBytes?(20) }

    /// What a code came to.
    public enum CodeAttempt: Equatable, Sendable {
        case throttled(retryAfterSeconds: Int)
        /// Wrong, too old, or already used.
        case refused
        case accepted
    }

    /// The second step of a sign-in: the code of the account's authenticator, counted against
    /// the sign-in throttle before it is checked, each step usable once.
    public func completeSignIn(_ session: StaffSession, member: StaffMember, code: String, client: String,
                               throttles: AccountThrottles) throws -> CodeAttempt {
        let now = now()
        if let wait = try accounts.secondsToWait(throttles.staffSignIn(email: member.email, client: client), at: now) {
            return .throttled(retryAfterSeconds: wait)
        }
        guard let step = try matchingStep(code, member: member, now: now),
              try staff.useSecondFactorStep(member.id, step, session.id) else { return .refused }
        try accounts.forgiveAttempt(accountKey: AccountThrottles.staffSignInAccountKey(member.email),
                                    clientKey: AccountThrottles.staffSignInClientKey(client), at: now)
        return .accepted
    }

    /// Turns the second factor on with `secret` (Base32, from ``newSecondFactorSecret()``) once
    /// `code` shows the authenticator app has it; the code's step is then used up.
    /// - Returns: `false` when the code is not the secret's, or the second factor is on already
    ///   (nothing changes: it is turned off, with a code, first).
    public func enableSecondFactor(_ member: StaffMember, secret: String, code: String) throws -> Bool {
        guard try staff.secondFactor(member.id) == nil else { return false }
        guard let hmac = crypto.hmacSHA1, let bytes = Base32.decode(secret), bytes.count >= 16,
              let step = TOTP(hmacSHA1: hmac).matchingStep(code, secret: bytes, now: now()) else { return false }
        do {
            try staff.setSecondFactor(member.id, Base32.encode(bytes), now())
        } catch StaffStoreError.secondFactorOn {
            return false  // another tab turned it on meanwhile; that one's secret stays
        }
        _ = try staff.useSecondFactorStep(member.id, step, nil)
        return true
    }

    /// Turns the second factor off, given a current code (a stolen session alone cannot).
    /// - Returns: `false` for a wrong or used code.
    public func disableSecondFactor(_ member: StaffMember, code: String) throws -> Bool {
        guard let step = try matchingStep(code, member: member, now: now()),
              try staff.useSecondFactorStep(member.id, step, nil) else { return false }
        try staff.setSecondFactor(member.id, nil, now())
        return true
    }

    private func matchingStep(_ code: String, member: StaffMember, now: Date) throws -> Int64? {
        guard let hmac = crypto.hmacSHA1, let secret = try staff.secondFactor(member.id).flatMap(Base32.decode) else { return nil }
        return TOTP(hmacSHA1: hmac).matchingStep(code, secret: secret, now: now)
    }

    /// A staff member changes their own password: the current one first (as a sign-in checks
    /// it), the new one by `PasswordRules`. Their other sessions end; this one goes on.
    /// - Throws: `StaffFormErrors` (`current`: wrong; `password`: the rules' problems;
    ///   `confirmation`: not the same), or a store or hashing error.
    /// Wrong current passwords count against the sign-in's throttle (a session left open is not
    /// a way to guess the password).
    /// - Throws: also `StaffThrottled` when there were too many attempts.
    public func changePassword(of member: StaffMember, in session: StaffSession, current: String, new password: String,
                               confirmation: String, client: String, throttles: AccountThrottles) throws {
        let now = now()
        if let wait = try accounts.secondsToWait(throttles.staffSignIn(email: member.email, client: client), at: now) {
            throw StaffThrottled(retryAfterSeconds: wait)
        }
        guard let found = try staff.credentials(member.email), crypto.verifyPassword(current, found.passwordHash) else {
            throw StaffFormErrors(byField: ["current": [.passwordWrong]])
        }
        try accounts.forgiveAttempt(accountKey: nil, clientKey: AccountThrottles.staffSignInClientKey(client), at: now)
        var problems: [String: [AccountFieldError]] = [:]
        let passwordProblems = PasswordRules.problems(password, name: member.name)
        if !passwordProblems.isEmpty { problems["password"] = passwordProblems }
        if password != confirmation { problems["confirmation"] = [.passwordsDoNotMatch] }
        guard problems.isEmpty else { throw StaffFormErrors(byField: problems) }
        try staff.setPassword(member.id, try crypto.hashPassword(password), session.id, now)
    }
}
