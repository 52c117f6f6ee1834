/// What the client sends to prove who the shopper is.
///
/// `POST /api/auth/login` (Fake Store) gives an access token only; the Shoppable API under
/// `/api/v1` (issue #10, point 2, not built yet) will add a refresh token. Apps keep credentials
/// in the Keychain and hand them back with ``ShopClient/setCredentials(_:)`` at launch.
public struct Credentials: Hashable, Sendable, Codable {
    /// Sent as `Authorization: Bearer <accessToken>`.
    public var accessToken: String
    /// Exchanged for new credentials when the access token is refused (coming with `/api/v1`).
    public var refreshToken: String?

    /// Credentials.
    /// - Parameters:
    ///   - accessToken: the bearer token.
    ///   - refreshToken: the refresh token, when the sign-in route gives one.
    public init(accessToken: String, refreshToken: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// The seam for refresh tokens: given the credentials the server just refused (401), returns
/// new ones, or nil when the shopper must sign in again.
///
/// Today no route issues refresh tokens, so `ShopClient` has none by default and a 401 is thrown
/// as `.serverError(status: 401, …)`. With `/api/v1` the client gets a refresher that calls
/// `POST /api/v1/auth/refresh`; an app can pass its own meanwhile.
public struct TokenRefresher: Sendable {
    /// Exchanges refused credentials for new ones (nil: signed out).
    public var refresh: @Sendable (_ refused: Credentials) async throws -> Credentials?

    /// A refresher from a closure.
    /// - Parameter refresh: see ``refresh``.
    public init(refresh: @escaping @Sendable (_ refused: Credentials) async throws -> Credentials?) {
        self.refresh = refresh
    }
}
