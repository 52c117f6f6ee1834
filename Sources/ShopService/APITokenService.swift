public import Foundation
public import ShopCore
public import ShopStore

/// The JSON API's tokens as handed to a client: a short-lived access token for
/// `Authorization: Bearer`, and a long-lived refresh token that buys the next pair once.
public struct APITokens: Hashable, Sendable {
    /// The bearer token (raw; the store keeps its SHA-256).
    public var accessToken: String
    /// The refresh token (raw; the store keeps its SHA-256).
    public var refreshToken: String
    /// When the access token stops working.
    public var accessExpiresAt: Date
    /// The session the tokens act for.
    public var session: Session

    /// Creates the value.
    public init(accessToken: String, refreshToken: String, accessExpiresAt: Date, session: Session) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessExpiresAt = accessExpiresAt
        self.session = session
    }
}

/// Why a refresh token bought nothing.
public enum APITokenError: Error, Hashable, Sendable {
    /// Unknown, from an ended session, or forgotten.
    case refreshTokenNotValid
    /// Spent before: the session it belonged to has been ended (reuse detection).
    case refreshTokenReused
}

/// Access and refresh tokens of the JSON API (`/api/v1/auth/…`) — the one home of their policy.
///
/// - A sign-in makes a session exactly as the web's does (``SessionService/signIn(_:replacing:remember:)``:
///   a fresh id, the guest's cart and favorites merged) and a first pair for it.
/// - An access token works for ``accessTokenLifetime`` (default 15 minutes), whatever the
///   session does meanwhile; the session slides as on the web (30 days of use), and a refresh
///   token works as long as its session lives.
/// - Each refresh spends its token and gives a new pair (rotation); presenting a spent token again
///   ends the whole session — every access and refresh token of it (reuse detection).
/// - Tokens are 256 random bits (`Crypto.randomToken`), stored only as SHA-256. They end with
///   their session: sign-out, sign-out everywhere, a password change.
public struct APITokenService: Sendable {
    /// The pairs.
    public var tokens: APITokenStore
    /// Sessions: signing in, resuming, sliding expiry.
    public var sessions: SessionService
    /// How long an access token works.
    public var accessTokenLifetime: TimeInterval

    /// Default ``accessTokenLifetime``: 15 minutes.
    public static let defaultAccessTokenLifetime: TimeInterval = 15 * 60
    /// How long a spent refresh token is remembered, so that its reuse ends the session: 14 days
    /// (later it is merely unknown).
    public static let spentTokenMemory: TimeInterval = 60 * 60 * 24 * 14

    /// Creates the service.
    public init(tokens: APITokenStore, sessions: SessionService, accessTokenLifetime: TimeInterval = defaultAccessTokenLifetime) {
        self.tokens = tokens
        self.sessions = sessions
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// `true` for text shaped like this service's tokens (`Crypto.randomToken`: 43–128 URL-safe
    /// characters) — never a session token (32 hex digits), so a bearer token is looked up in one place.
    public static func isWellFormed(token: String) -> Bool {
        (40...128).contains(token.utf8.count)
            && token.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 95 }
    }

    /// Signs `userID` in with a new session (persistent, as the API's clients keep their tokens)
    /// — merging `guest`'s cart and favorites like the web's sign-in — and issues its first pair.
    /// - Returns: the tokens and the merged lines that had to be capped.
    /// - Throws: a store error.
    public func signIn(_ userID: User.ID, replacing guest: Session?) throws -> (tokens: APITokens, cappedLines: [Cart.CappedLine]) {
        let signedIn = try sessions.signIn(userID, replacing: guest?.userID == nil ? guest : nil, remember: true)
        let (pair, issued) = newPair(for: signedIn.issued.session)
        try tokens.issue(pair)
        return (issued, signedIn.cappedLines)
    }

    /// Spends `refreshToken` and gives the next pair of its session; the session's expiry slides.
    /// - Throws: ``APITokenError/refreshTokenNotValid``; ``APITokenError/refreshTokenReused``
    ///   after ending the session; or a store error.
    public func refresh(_ refreshToken: String) throws -> APITokens {
        guard Self.isWellFormed(token: refreshToken) else { throw APITokenError.refreshTokenNotValid }
        let now = sessions.now()
        let placeholder = Session.ID(rawValue: "")
        let (pair, issued) = newPair(for: Session(id: placeholder, csrfTokenHash: "", createdAt: now, lastSeenAt: now, expiresAt: now))
        switch try tokens.rotate(sessions.crypto.sha256Hex(refreshToken), pair, now, now.addingTimeInterval(-Self.spentTokenMemory)) {
        case .unknown: throw APITokenError.refreshTokenNotValid
        case .reused: throw APITokenError.refreshTokenReused
        case let .rotated(session):
            guard session.expiresAt > now else {
                try sessions.sessions.delete(session.id)
                throw APITokenError.refreshTokenNotValid
            }
            let resumed = try sessions.resume(session)
            return APITokens(accessToken: issued.accessToken, refreshToken: issued.refreshToken,
                             accessExpiresAt: issued.accessExpiresAt, session: resumed)
        }
    }

    /// The live session an access token acts for, or nil (unknown, expired, or its session ended).
    /// Use slides the session's expiry as a cookie's use does.
    /// - Throws: a store error.
    public func session(accessToken: String) throws -> Session? {
        guard Self.isWellFormed(token: accessToken),
              let found = try tokens.session(sessions.crypto.sha256Hex(accessToken)) else { return nil }
        let now = sessions.now()
        guard found.accessExpiresAt > now else { return nil }
        guard found.session.expiresAt > now else {
            try sessions.sessions.delete(found.session.id)
            return nil
        }
        return try sessions.resume(found.session)
    }

    private func newPair(for session: Session) -> (APITokenPair, APITokens) {
        let crypto = sessions.crypto
        let access = crypto.randomToken(), refresh = crypto.randomToken()
        let now = sessions.now()
        let expires = now.addingTimeInterval(accessTokenLifetime)
        return (APITokenPair(sessionID: session.id, accessTokenHash: crypto.sha256Hex(access), accessExpiresAt: expires,
                             refreshTokenHash: crypto.sha256Hex(refresh), createdAt: now),
                APITokens(accessToken: access, refreshToken: refresh, accessExpiresAt: expires, session: session))
    }
}
