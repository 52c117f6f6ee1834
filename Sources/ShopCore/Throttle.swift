public import Foundation

/// At most `limit` attempts per key (an account, a client address) within any `window`: the
/// shape of every throttle of the account pages (`AccountThrottles`).
///
/// Nothing is locked for longer than `window` after the last counted attempt, so an attacker
/// cannot lock a real shopper out for good.
public struct RateLimit: Sendable, Hashable {
    /// Attempts allowed within the window.
    public var limit: Int
    /// The window, in seconds.
    public var window: TimeInterval

    /// Creates a limit.
    public init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// When the next attempt is allowed, or nil when one is allowed now: once `limit` attempts
    /// are within the window, the next waits until the oldest of the last `limit` leaves it.
    /// - Parameters:
    ///   - attempts: times of recent attempts for one key (any order; older ones are ignored).
    ///   - now: the current time.
    public func retryAfter(attempts: [Date], now: Date) -> Date? {
        let recent = attempts.filter { now.timeIntervalSince($0) < window }.sorted()
        guard recent.count >= limit else { return nil }
        return recent[recent.count - limit].addingTimeInterval(window)
    }
}

/// One counter an attempt is checked against and, when every counter allows it, counted under
/// (`AccountStore.countAttempt`).
public struct ThrottleCheck: Sendable, Hashable {
    /// What is counted, for whom: `"sign-in:email:ana@example.com"`, `"reset:ip:203.0.113.9"`.
    public var key: String
    /// How many attempts the key allows.
    public var limit: RateLimit

    /// Creates a check.
    public init(key: String, limit: RateLimit) {
        self.key = key
        self.limit = limit
    }
}

/// Every throttle of the account pages — the numbers in one place. `docs/SECURITY.md §3`
/// lists what each one protects and the test that proves it holds under concurrent requests.
///
/// Counting and checking are one step in the store (`AccountStore.countAttempt`), so 60
/// simultaneous attempts against a limit of 5 get exactly 5 through. Keys name the account by its
/// normalized email (or id) and the client by the address `RequestContext.clientAddress` gives.
public struct AccountThrottles: Sendable, Hashable {
    /// Sign-in attempts, per account email and per client address: 5 per 15 minutes. A
    /// successful sign-in clears its account's count and gives the client its attempt back.
    public var signIn = RateLimit(limit: 5, window: 15 * 60)
    /// Registration attempts per client address: 10 per 15 minutes (registration tells whether an
    /// email has an account, so it must not become an enumeration oracle).
    public var registration = RateLimit(limit: 10, window: 15 * 60)
    /// "Someone tried to register with your email" notices per account: 3 per hour.
    public var registrationNotice = RateLimit(limit: 3, window: 60 * 60)
    /// Password-reset requests per email address (known or not): 3 per hour.
    public var passwordResetPerAccount = RateLimit(limit: 3, window: 60 * 60)
    /// Password-reset requests per client address: 10 per hour.
    public var passwordResetPerClient = RateLimit(limit: 10, window: 60 * 60)
    /// Verification emails sent again, per account: 3 per hour.
    public var verificationPerAccount = RateLimit(limit: 3, window: 60 * 60)
    /// Verification emails sent again, per client address: 10 per hour.
    public var verificationPerClient = RateLimit(limit: 10, window: 60 * 60)
    /// API guest sessions (`POST /api/v1/sessions/guest`) per client address: 30 per hour. Each
    /// stores a session row for 30 days, so an unlimited route would let one client fill the
    /// sessions table; an app asks once per install.
    public var guestSessionPerClient = RateLimit(limit: 30, window: 60 * 60)

    /// The defaults above.
    public init() {}

    /// The longest window: an attempt older than this counts nowhere and can be forgotten.
    public var longestWindow: TimeInterval {
        [signIn, registration, registrationNotice, passwordResetPerAccount, passwordResetPerClient,
         verificationPerAccount, verificationPerClient, guestSessionPerClient].map(\.window).max() ?? 0
    }

    /// A sign-in: per client, and per account when the email is well-formed.
    public func signIn(email: String?, client: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: Self.signInClientKey(client), limit: signIn)]
            + (email.map { [ThrottleCheck(key: Self.signInAccountKey($0), limit: signIn)] } ?? [])
    }

    /// A back-office sign-in (issue #16), by the same limit as shoppers' but counted apart: a
    /// staff member's email may also be a shopper's.
    public func staffSignIn(email: String?, client: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: Self.staffSignInClientKey(client), limit: signIn)]
            + (email.map { [ThrottleCheck(key: Self.staffSignInAccountKey($0), limit: signIn)] } ?? [])
    }

    /// The key counting back-office sign-ins to the staff account with this (normalized) email.
    public static func staffSignInAccountKey(_ email: String) -> String { "staff-sign-in:email:\(email)" }

    /// The key counting back-office sign-ins from this client address.
    public static func staffSignInClientKey(_ client: String) -> String { "staff-sign-in:ip:\(client)" }

    /// A registration, per client.
    public func registration(client: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: "register:ip:\(client)", limit: registration)]
    }

    /// A notice to the owner of an email someone tried to register with.
    public func registrationNotice(email: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: "register-notice:email:\(email)", limit: registrationNotice)]
    }

    /// A password-reset request, per client and per email (whether or not it has an account).
    public func passwordReset(email: String, client: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: "reset:ip:\(client)", limit: passwordResetPerClient),
         ThrottleCheck(key: "reset:email:\(email)", limit: passwordResetPerAccount)]
    }

    /// Sending the verification email again, per client and per account.
    public func verificationEmail(user: User.ID, client: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: "verify:ip:\(client)", limit: verificationPerClient),
         ThrottleCheck(key: "verify:user:\(user.rawValue)", limit: verificationPerAccount)]
    }

    /// A new API guest session, per client.
    public func guestSession(client: String) -> [ThrottleCheck] {
        [ThrottleCheck(key: "guest-session:ip:\(client)", limit: guestSessionPerClient)]
    }

    /// The key counting sign-ins to the account with this (normalized) email.
    public static func signInAccountKey(_ email: String) -> String { "sign-in:email:\(email)" }

    /// The key counting sign-ins from this client address.
    public static func signInClientKey(_ client: String) -> String { "sign-in:ip:\(client)" }
}
