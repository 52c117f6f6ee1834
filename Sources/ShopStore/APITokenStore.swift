public import Foundation
public import ShopCore

/// One access + refresh token pair of the JSON API (`POST /api/v1/auth/tokens`), as stored: both
/// secrets only as their SHA-256, tied to the signed-in session they speak for. The session is
/// what signing out, signing out everywhere and a password change end; its pairs go with it.
public struct APITokenPair: Hashable, Sendable {
    /// The session (signed in) the tokens act for.
    public var sessionID: Session.ID
    /// SHA-256 (hex) of the access token.
    public var accessTokenHash: String
    /// When the access token stops working (it is short-lived; the session's expiry is not
    /// looked at for this).
    public var accessExpiresAt: Date
    /// SHA-256 (hex) of the refresh token.
    public var refreshTokenHash: String
    /// When the pair was issued.
    public var createdAt: Date

    /// Creates the value.
    public init(sessionID: Session.ID, accessTokenHash: String, accessExpiresAt: Date, refreshTokenHash: String,
                createdAt: Date) {
        self.sessionID = sessionID
        self.accessTokenHash = accessTokenHash
        self.accessExpiresAt = accessExpiresAt
        self.refreshTokenHash = refreshTokenHash
        self.createdAt = createdAt
    }
}

/// What presenting a refresh token came to (``APITokenStore/rotate``).
public enum APITokenRotation: Hashable, Sendable {
    /// The token was live: it is spent now and `next` is stored for the same session.
    case rotated(Session)
    /// The token had been spent before — a copy is in someone else's hands: the whole session
    /// (every pair of it) has been ended.
    case reused
    /// No such token (never issued, its session ended, or spent long ago and forgotten).
    case unknown
}

/// The JSON API's access and refresh tokens (table `api_tokens`, migration 15).
public struct APITokenStore: Sendable {
    /// Stores a new pair. Throws `SessionStoreError.sessionNotFound` for an unknown session.
    public var issue: @Sendable (APITokenPair) throws -> Void
    /// The session and the access token's expiry for an access token's hash, or nil.
    public var session: @Sendable (_ accessTokenHash: String) throws -> (session: Session, accessExpiresAt: Date)?
    /// Spends the refresh token whose hash is given and stores `next` for its session, in one
    /// transaction; the spend is a conditional update, so of two simultaneous uses of one token
    /// only one rotates — the other is reuse. Reuse deletes the session (its pairs cascade).
    /// Spent tokens older than `forgetSpentBefore` are forgotten at the same time.
    /// - Parameters:
    ///   - refreshTokenHash: the presented token's hash.
    ///   - next: the new pair (its `sessionID` is replaced by the spent pair's).
    ///   - now: when it is spent.
    ///   - forgetSpentBefore: spent tokens of the session spent before this are deleted.
    public var rotate: @Sendable (_ refreshTokenHash: String, _ next: APITokenPair, _ now: Date,
                                  _ forgetSpentBefore: Date) throws -> APITokenRotation

    /// Creates a store from its operations.
    public init(issue: @escaping @Sendable (APITokenPair) throws -> Void,
                session: @escaping @Sendable (String) throws -> (session: Session, accessExpiresAt: Date)?,
                rotate: @escaping @Sendable (String, APITokenPair, Date, Date) throws -> APITokenRotation) {
        self.issue = issue
        self.session = session
        self.rotate = rotate
    }
}
