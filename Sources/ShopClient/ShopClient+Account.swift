public import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
public import ShopAPI

/// The account, token, campaign and address-book routes of `/api/v1` as named calls on
/// ``ShopClient/v1``.
///
/// ```swift
/// let client = ShopClient(environment: .development)
/// try await client.v1.signIn(email: "ana@example.com", password: "Blue9sky!")
/// let me = try await client.v1.account()            // refreshed by itself when the access token expires
/// let home = try await client.v1.addAddress(V1Address(firstName: "Ana", lastName: "Lima", phone: "+1 555 0100",
///                                                     line1: "1 Main St", city: "Springfield", postalCode: "12345",
///                                                     country: "US"), isDefault: true)
/// ```
extension ShopClient.V1 {
    // MARK: - Account

    /// `POST /api/v1/account`: registers an account with the web's rules. It is not signed in:
    /// call ``signIn(email:password:)`` next.
    /// - Returns: the new account (unverified; its verification email is on its way).
    /// - Throws: ``NetworkError`` — `.serverError(400, "invalid_field", …)`, `409 email_taken`, `429`.
    @discardableResult
    public func register(email: String, password: String, name: String) async throws(NetworkError) -> V1Account {
        try await client.send(.v1(.register), body: V1Registration(email: email, password: password, name: name))
    }

    /// `GET /api/v1/account`: the signed-in account.
    public func account() async throws(NetworkError) -> V1Account {
        try await client.send(.v1(.account))
    }

    /// `POST /api/v1/account/verification`: sends the verification email again.
    @discardableResult
    public func resendVerificationEmail() async throws(NetworkError) -> V1Accepted {
        try await client.send(.v1(.resendVerification))
    }

    /// `POST /api/v1/account/verification/confirm`: confirms the email with the emailed link's token.
    /// - Returns: the account, verified.
    @discardableResult
    public func confirmEmail(token: String) async throws(NetworkError) -> V1Account {
        try await client.send(.v1(.confirmVerification), body: V1TokenBody(token: token))
    }

    /// `POST /api/v1/account/password-reset`: emails a reset link if `email` has an account (the
    /// answer is the same either way).
    @discardableResult
    public func requestPasswordReset(email: String) async throws(NetworkError) -> V1Accepted {
        try await client.send(.v1(.requestPasswordReset), body: V1PasswordResetRequest(email: email))
    }

    /// `POST /api/v1/account/password-reset/confirm`: sets a new password with the emailed token.
    /// Every session of the account ends, this client's too: its credentials are cleared.
    public func resetPassword(token: String, newPassword: String) async throws(NetworkError) {
        try await client.sendExpectingNoContent(.v1(.confirmPasswordReset), body: V1PasswordReset(token: token, password: newPassword))
        client.setCredentials(nil)
    }

    // MARK: - Tokens

    /// `POST /api/v1/auth/tokens`: signs in and keeps the access and refresh tokens. When the
    /// client holds a guest token, its cart and favorites merge into the account's.
    /// - Returns: the stored credentials (save them in the Keychain; they rotate on refresh).
    /// - Throws: ``NetworkError`` — `.serverError(401, "invalid_credentials", …)`, `429` with the wait.
    @discardableResult
    public func signIn(email: String, password: String) async throws(NetworkError) -> Credentials {
        let pair: V1TokenPair = try await client.send(.v1(.signIn), body: V1SignIn(email: email, password: password))
        let credentials = Credentials(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
        client.setCredentials(credentials)
        return credentials
    }

    /// `POST /api/v1/auth/sign-out`: ends this session on the shop (every session of the account
    /// with `everywhere`), then forgets the credentials. (`ShopClient.signOut()` only forgets them.)
    public func signOut(everywhere: Bool = false) async throws(NetworkError) {
        do {
            try await client.sendExpectingNoContent(.v1(.signOut(everywhere: everywhere)), body: Optional<Data>.none)
        } catch let .serverError(status, _, _) where status == 401 {
            // Already ended on the shop.
        }
        client.setCredentials(nil)
    }

    // MARK: - Campaigns

    /// `GET /api/v1/campaigns`: the running campaigns.
    public func campaigns() async throws(NetworkError) -> [V1Campaign] {
        try await client.send(.v1(.campaigns), as: V1Campaigns.self).campaigns
    }

    /// `GET /api/v1/campaigns/{handle}`: one running campaign with its products.
    public func campaign(handle: String) async throws(NetworkError) -> V1Campaign {
        try await client.send(.v1(.campaign(handle: handle)))
    }

    // MARK: - Address book

    /// `GET /api/v1/addresses`: the signed-in account's addresses, by name.
    public func addresses() async throws(NetworkError) -> [V1SavedAddress] {
        try await client.send(.v1(.addresses), as: V1AddressBook.self).addresses
    }

    /// `POST /api/v1/addresses`.
    /// - Throws: ``NetworkError`` — `.serverError(400, "invalid_address", …)` naming the first field at fault.
    @discardableResult
    public func addAddress(_ address: V1Address, isDefault: Bool = false) async throws(NetworkError) -> V1SavedAddress {
        try await client.send(.v1(.addAddress), body: V1AddressInput(address: address, isDefault: isDefault))
    }

    /// `PUT /api/v1/addresses/{id}`.
    @discardableResult
    public func updateAddress(id: Int64, _ address: V1Address, isDefault: Bool = false) async throws(NetworkError) -> V1SavedAddress {
        try await client.send(.v1(.updateAddress(FakeStoreID(id))), body: V1AddressInput(address: address, isDefault: isDefault))
    }

    /// `DELETE /api/v1/addresses/{id}`.
    public func deleteAddress(id: Int64) async throws(NetworkError) {
        try await client.sendExpectingNoContent(.v1(.deleteAddress(FakeStoreID(id))), body: Optional<Data>.none)
    }
}

extension ShopClient {
    /// Sends `route` (with `body` as JSON, when given) for an answer without a body (204).
    func sendExpectingNoContent(_ route: APIRoute, body: (some Encodable)?) async throws(NetworkError) {
        var encoded: Data?
        if let body {
            do { encoded = try JSONEncoder().encode(body) } catch { throw .unknown(error) }
        }
        _ = try await exchange(route, body: encoded)
    }
}

extension TokenRefresher {
    /// Renews credentials through `POST /api/v1/auth/refresh` on `client`'s shop (sent once,
    /// without retries: a refresh token is spent by its first use). A refusal (401: unknown,
    /// ended or reused token) gives nil — signed out; credentials without a refresh token too.
    /// - Parameter client: the client whose shop and transport to use.
    public static func shopAPI(_ client: ShopClient) -> TokenRefresher {
        TokenRefresher { [weak client] refused in
            guard let client, let refreshToken = refused.refreshToken else { return nil }
            let body = try JSONEncoder().encode(V1RefreshRequest(refreshToken: refreshToken))
            let request = try client.urlRequest(for: .v1(.refreshTokens), body: body, credentials: nil)
            let (data, response) = try await client.transport.send(request)
            if response.statusCode == 401 { return nil }
            guard (200..<300).contains(response.statusCode) else { throw ShopClient.serverError(data, response) }
            let pair = try ShopClient.decode(V1TokenPair.self, from: data)
            return Credentials(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
        }
    }
}
