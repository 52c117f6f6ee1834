public import Foundation
public import ShopCore
public import ShopStore

/// What the visitor's session cookie must become after a ``SessionService`` call — a plain
/// value; the front door writes it in its own terms (the storefront as an `HTTPServer.Cookie`
/// with its attributes).
public enum SessionCookie: Hashable, Sendable {
    /// Set the cookie to `value`; `maxAge` in seconds, nil for a cookie that ends with the browser.
    case set(value: String, maxAge: Int?)
    /// Delete the cookie.
    case delete
}

/// A session just made: the value the store keeps (hashes only) and the raw secrets the
/// visitor's cookies carry.
public struct IssuedSession: Hashable, Sendable {
    /// The session as stored.
    public var session: Session
    /// The session cookie's value; the store knows only its SHA-256 (`session.id`).
    public var token: String
    /// The CSRF token the session's forms carry; the store knows only its SHA-256.
    public var csrfToken: String

    /// Creates the value.
    public init(session: Session, token: String, csrfToken: String) {
        self.session = session
        self.token = token
        self.csrfToken = csrfToken
    }

    /// The session cookie that carries it: persistent sessions for ``SessionService/persistentLifetime``,
    /// the others until the browser closes.
    public var cookie: SessionCookie {
        .set(value: token, maxAge: session.isPersistent ? Int(SessionService.persistentLifetime) : nil)
    }
}

/// A guest session started by a visitor's first cart change
/// (``SessionService/startGuestSession(csrfToken:csrfCookie:cart:)``).
public struct GuestStart: Hashable, Sendable {
    /// The session: new, or the one a simultaneous request of the visitor made a moment ago.
    public var issued: IssuedSession
    /// Whether the cart changes were written with the session; `false` for a joined session,
    /// whose cart the changes are still to be applied to, as any shopper's.
    public var wroteCart: Bool

    /// Creates the value.
    public init(issued: IssuedSession, wroteCart: Bool) {
        self.issued = issued
        self.wroteCart = wroteCart
    }
}

/// What a request's session cookie leads to (``SessionService/resume(token:)``).
public enum SessionResumption: Hashable, Sendable {
    /// No cookie, or not a token this shop issues: a visitor without a session.
    case none
    /// The cookie names a session that has ended (expired, signed out elsewhere, purged).
    /// `cookie` is `.delete` when it had expired (its row is deleted now); nil when the store no
    /// longer knows it — a request still in flight from before a sign-in must not delete the
    /// cookie of the session that replaced it.
    case ended(cookie: SessionCookie?)
    /// A live session; `cookie` is set when its expiry slid and the cookie must say so too.
    case active(Session, cookie: SessionCookie?)

    /// The live session, if any.
    public var session: Session? {
        if case let .active(session, _) = self { session } else { nil }
    }

    /// What the session cookie must become (nil: leave it).
    public var cookie: SessionCookie? {
        switch self {
        case .none: nil
        case let .ended(cookie), let .active(_, cookie): cookie
        }
    }
}

/// A sign-in done: the new session and what merging the guest's cart capped.
public struct SignedIn: Hashable, Sendable {
    /// The new session (a fresh id and CSRF token: no session fixation).
    public var issued: IssuedSession
    /// Lines of the merged cart kept below what the guest and the account asked for together.
    public var cappedLines: [Cart.CappedLine]

    /// Creates the value.
    public init(issued: IssuedSession, cappedLines: [Cart.CappedLine]) {
        self.issued = issued
        self.cappedLines = cappedLines
    }
}

/// Sessions — the one home of their policy: the cookie token's format, lifetimes, sliding
/// expiry, guest sessions shared by simultaneous first requests, sign-in without fixation and
/// with the guest's cart and favorites merged in one store transaction, sign-out, purging.
///
/// It receives only the clients it needs (the session store, secrets and the clock); front
/// doors keep request state and turn ``SessionCookie`` values into their cookies.
///
/// ```swift
/// let service = SessionService(sessions: store, crypto: crypto, now: Date.init)
/// let resumed = try service.resume(token: request.cookies["shoppable_session"])
/// if let cookie = resumed.cookie { response.write(cookie) }
/// ```
public final class SessionService: Sendable {
    /// Sessions, carts and favorites.
    public let sessions: SessionStore
    /// Tokens and SHA-256.
    public let crypto: Crypto
    /// The current time.
    public let now: @Sendable () -> Date

    /// How long a persistent session (guests, "remember me") lasts without use: 30 days.
    public static let persistentLifetime: TimeInterval = 60 * 60 * 24 * 30
    /// How long a browser-session sign-in lasts on the server without use: 12 hours.
    public static let browserSessionLifetime: TimeInterval = 60 * 60 * 12
    /// Use slides the expiry forward, written at most once this often (one write an hour, not
    /// one per request).
    public static let expiryRefreshInterval: TimeInterval = 60 * 60
    /// How long after a guest session is created a request with the same CSRF cookie may join
    /// it (the window of simultaneous first requests; docs/SECURITY.md §3).
    public static let guestSessionJoinWindow: TimeInterval = 30

    /// Creates the service from its clients.
    public init(sessions: SessionStore, crypto: Crypto, now: @escaping @Sendable () -> Date) {
        self.sessions = sessions
        self.crypto = crypto
        self.now = now
    }

    /// `true` for a token this shop issues: 32 lower-case hex digits. Others are not looked up.
    public static func isWellFormed(token: String) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The store's id of the session whose cookie holds `token`: its SHA-256 (issue #8: a copy
    /// of the database yields no live session).
    public func sessionID(forToken token: String) -> Session.ID {
        Session.ID(rawValue: crypto.sha256Hex(token))
    }

    /// The session a cookie names, and what the cookie must become. An expired session is
    /// deleted; a live one's expiry slides forward (written at most once an hour), and a
    /// persistent session's cookie is renewed with it.
    /// - Parameter token: the session cookie's value, if the request has one.
    /// - Throws: a store error.
    public func resume(token: String?) throws -> SessionResumption {
        guard let token, Self.isWellFormed(token: token) else { return .none }
        guard let found = try sessions.find(sessionID(forToken: token)) else { return .ended(cookie: nil) }
        let now = self.now()
        guard found.expiresAt > now else {
            try sessions.delete(found.id)
            return .ended(cookie: .delete)
        }
        let (slid, moved) = try slide(found)
        return .active(slid, cookie: moved && slid.isPersistent ? .set(value: token, maxAge: Int(Self.persistentLifetime)) : nil)
    }

    /// Records use of a live session found by other means than its cookie (the API's access and
    /// refresh tokens): its expiry slides forward as ``resume(token:)`` slides it.
    /// - Returns: the session as it now is.
    /// - Throws: a store error.
    public func resume(_ session: Session) throws -> Session { try slide(session).session }

    /// Slides a live session's expiry, written at most once an hour; `moved` tells whether it did.
    private func slide(_ session: Session) throws -> (session: Session, moved: Bool) {
        var found = session
        let now = self.now()
        guard now.timeIntervalSince(found.lastSeenAt) > Self.expiryRefreshInterval else { return (found, false) }
        found.lastSeenAt = now
        found.expiresAt = now.addingTimeInterval(Self.lifetime(persistent: found.isPersistent))
        try sessions.touch(found.id, found.lastSeenAt, found.expiresAt)
        return (found, true)
    }

    /// A new session with fresh random secrets (or the given token), as the store keeps it
    /// (hashes only) and as the visitor's cookies will hold it (raw). Not stored.
    /// - Parameters:
    ///   - userID: the account signing in, or nil for a guest.
    ///   - csrfToken: the token its forms will carry.
    ///   - persistent: a cookie that outlives the browser (30 days) or not (12 hours on the server).
    ///   - token: the cookie's token; nil for a new random one.
    public func issue(userID: User.ID?, csrfToken: String, persistent: Bool, token: String? = nil) -> IssuedSession {
        let token = token ?? crypto.sessionToken()
        let now = self.now()
        let session = Session(id: sessionID(forToken: token), userID: userID, csrfTokenHash: crypto.sha256Hex(csrfToken),
                              createdAt: now, lastSeenAt: now,
                              expiresAt: now.addingTimeInterval(Self.lifetime(persistent: persistent)), isPersistent: persistent)
        return IssuedSession(session: session, token: token, csrfToken: csrfToken)
    }

    /// Starts a guest session for a visitor who has none, keeping their pre-session CSRF token
    /// so forms already on their screen stay valid.
    ///
    /// When the visitor's CSRF cookie holds that token, the session token is derived from it
    /// (`Crypto.guestSessionToken`), so requests the visitor sends at once (a double tap, quick
    /// adds before the first answer) create or join one session. A request joins an existing
    /// session only while it is a guest session younger than ``guestSessionJoinWindow``; later a
    /// new random session is made, so a planted CSRF cookie cannot open someone's session.
    /// - Parameters:
    ///   - csrfToken: the visitor's pre-session CSRF token.
    ///   - csrfCookie: the CSRF cookie the request carries, if any.
    /// - Returns: the stored (or joined) session; its ``IssuedSession/cookie`` is the cookie to set.
    /// - Throws: a store error.
    public func startGuestSession(csrfToken: String, csrfCookie: String?) throws -> IssuedSession {
        try startGuestSession(csrfToken: csrfToken, csrfCookie: csrfCookie, cart: []).issued
    }

    /// ``startGuestSession(csrfToken:csrfCookie:)`` for a visitor's first cart change: a new
    /// session is stored with `changes` as its cart, in one transaction
    /// (`SessionStore.createWithCart`); a joined session is answered with the changes unwritten.
    /// - Throws: a store error, `CartLineLimitExceeded` among them (nothing written then).
    public func startGuestSession(csrfToken: String, csrfCookie: String?, cart changes: [CartChange]) throws -> GuestStart {
        let derived = csrfCookie == csrfToken ? crypto.guestSessionToken?(csrfToken) : nil
        let issued = issue(userID: nil, csrfToken: csrfToken, persistent: true, token: derived)
        do {
            try store(issued.session, cart: changes)
            return GuestStart(issued: issued, wroteCart: true)
        } catch SessionStoreError.sessionAlreadyExists {
            // A simultaneous request of this visitor created it a moment ago: join it.
            if let joined = try sessions.find(issued.session.id), joined.userID == nil,
               now().timeIntervalSince(joined.createdAt) <= Self.guestSessionJoinWindow {
                return GuestStart(issued: IssuedSession(session: joined, token: issued.token, csrfToken: csrfToken),
                                  wroteCart: changes.isEmpty)
            }
            let fresh = issue(userID: nil, csrfToken: csrfToken, persistent: true)
            try store(fresh.session, cart: changes)
            return GuestStart(issued: fresh, wroteCart: true)
        }
    }

    private func store(_ session: Session, cart changes: [CartChange]) throws {
        if changes.isEmpty {
            try sessions.create(session)
        } else {
            try sessions.createWithCart(session, changes)
        }
    }

    /// Signs the visitor in to `userID` with a new session (a fresh id and CSRF token: no session
    /// fixation). The current session's cart and favorites merge into the account's inside the
    /// store's sign-in transaction (`SessionStore.signIn`), so a change another device makes to
    /// the account's cart at the same moment is kept; the current session is deleted.
    /// - Parameters:
    ///   - userID: the account.
    ///   - current: the session the visitor had, if any.
    ///   - remember: a persistent cookie (30 days) rather than one that ends with the browser.
    /// - Returns: the new session and the merged lines that had to be capped.
    /// - Throws: `AccountStoreError.userNotFound`, or a store error.
    public func signIn(_ userID: User.ID, replacing current: Session?, remember: Bool) throws -> SignedIn {
        let issued = issue(userID: userID, csrfToken: crypto.randomToken(), persistent: remember)
        let capped = try sessions.signIn(SignIn(guestSession: current?.id, newSession: issued.session))
        return SignedIn(issued: issued, cappedLines: capped)
    }

    /// Ends the session — and, `everywhere`, every session of its account.
    /// - Returns: the cookie to write (deleted).
    /// - Throws: a store error.
    @discardableResult
    public func signOut(_ session: Session?, everywhere: Bool) throws -> SessionCookie {
        if let session {
            if everywhere, let userID = session.userID { try sessions.deleteAll(userID, nil) }
            try sessions.delete(session.id)
        }
        return .delete
    }

    /// Deletes the sessions that have expired (with their guest carts and favorites).
    /// - Returns: how many.
    public func purgeExpired() throws -> Int {
        try sessions.purgeExpired(now())
    }

    private static func lifetime(persistent: Bool) -> TimeInterval {
        persistent ? persistentLifetime : browserSessionLifetime
    }
}
