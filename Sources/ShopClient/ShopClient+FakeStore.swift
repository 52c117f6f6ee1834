public import Foundation
public import ShopAPI

/// The Fake Store compatible routes under `/api` (issue #10, point 1) that the server answers
/// today. Routes added to `APIRoute` later are reachable at once through
/// ``ShopClient/send(_:as:)`` and ``ShopClient/send(_:body:as:)``.
extension ShopClient {
    /// `GET /api/products`: published products by id.
    /// - Parameters:
    ///   - limit: at most this many (nil or ≤ 0: all).
    ///   - sort: by id, ascending (default) or descending.
    /// - Returns: the products.
    /// - Throws: ``NetworkError``.
    public func products(limit: Int? = nil, sort: FakeStoreListQuery.Sort? = nil) async throws(NetworkError) -> [FakeStoreProduct] {
        try await send(.fakeStore(.products(FakeStoreListQuery(limit: limit, sort: sort))))
    }

    /// `GET /api/products/{id}`: one product.
    /// - Parameter id: the product's id.
    /// - Returns: the product.
    /// - Throws: ``NetworkError``; `.serverError(status: 404, code: "not_found", …)` for an unknown id.
    public func product(id: Int64) async throws(NetworkError) -> FakeStoreProduct {
        try await send(.fakeStore(.product(FakeStoreID(id))))
    }

    /// `GET /api/products/categories`: the category names.
    /// - Returns: the names.
    /// - Throws: ``NetworkError``.
    public func categories() async throws(NetworkError) -> [String] {
        try await send(.fakeStore(.categories))
    }

    /// `GET /api/products/category/{name}`: the products of the category with exactly this name
    /// (an unknown name gives `[]`).
    /// - Parameters:
    ///   - name: the category's name, as ``categories()`` gives it.
    ///   - limit: at most this many (nil or ≤ 0: all).
    ///   - sort: by id, ascending (default) or descending.
    /// - Returns: the products.
    /// - Throws: ``NetworkError``.
    public func products(inCategory name: String, limit: Int? = nil,
                         sort: FakeStoreListQuery.Sort? = nil) async throws(NetworkError) -> [FakeStoreProduct] {
        try await send(.fakeStore(.category(name: name, FakeStoreListQuery(limit: limit, sort: sort))))
    }

    /// `POST /api/auth/login`: signs in and keeps the token, so later calls send
    /// `Authorization: Bearer <token>`. Never retried (a `POST`).
    /// - Parameters:
    ///   - username: the account's email.
    ///   - password: its password.
    /// - Returns: the credentials now in use (save them in the Keychain).
    /// - Throws: ``NetworkError``; `.serverError(status: 401, code: "invalid_credentials", …)`
    ///   for a wrong email or password, `429` `too_many_attempts` when throttled.
    @discardableResult
    public func login(username: String, password: String) async throws(NetworkError) -> Credentials {
        let token: FakeStoreToken = try await send(.fakeStore(.login), body: FakeStoreLogin(username: username, password: password))
        let credentials = Credentials(accessToken: token.token)
        setCredentials(credentials)
        return credentials
    }

    /// Forgets the credentials on this device. (The server-side sign-out route comes with `/api/v1`.)
    public func signOut() { setCredentials(nil) }

    /// The bytes of a product's main image, through ``images``.
    /// - Parameter product: a product with an absolute `image` URL.
    /// - Returns: the image's bytes.
    /// - Throws: ``NetworkError/invalidURL`` when the product has no image URL; else as ``ImageCache/data(for:)``.
    public func image(of product: FakeStoreProduct) async throws(NetworkError) -> Data {
        guard let url = URL(string: product.image), url.scheme != nil else { throw .invalidURL }
        return try await images.data(for: url)
    }
}
