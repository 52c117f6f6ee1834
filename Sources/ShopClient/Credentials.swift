/// What the client sends to prove who the shopper is.
///
/// `POST /api/auth/login` (Fake Store) gives an access token only; `POST /api/v1/auth/tokens`
/// (``ShopClient/signIn(email:password:)``) gives a short-lived access token and a refresh token.
/// Apps keep credentials in the Keychain and hand them back with
/// ``ShopClient/setCredentials(_:)`` at launch (and after each refresh: the refresh token rotates).
public struct Credentials: Hashable, Sendable, Codable {
    /// Sent as `Authorization: Bearer <accessToken>`.
    public var accessToken: String
    /// Exchanged once for new credentials when the access token is refused (`POST /api/v1/auth/refresh`).
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
/// Without one, `ShopClient` uses ``shopAPI(_:)``: credentials with a refresh token are renewed
/// through `POST /api/v1/auth/refresh`; credentials without one (Fake Store) are not, and the 401
/// is thrown as `.serverError(status: 401, …)`.
public struct TokenRefresher: Sendable {
    /// Exchanges refused credentials for new ones (nil: signed out).
    public var refresh: @Sendable (_ refused: Credentials) async throws -> Credentials?

    /// A refresher from a closure.
    /// - Parameter refresh: see ``refresh``.
    public init(refresh: @escaping @Sendable (_ refused: Credentials) async throws -> Credentials?) {
        self.refresh = refresh
    }
}
