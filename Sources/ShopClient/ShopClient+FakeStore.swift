public import Foundation
public import ShopAPI

/// The Fake Store compatible routes under `/api` (issue #10, point 1): one named method per
/// route, each printing its request from `APIRoute.router`. Routes added to `APIRoute` later are
/// reachable at once through ``ShopClient/send(_:as:)`` and ``ShopClient/send(_:body:as:)``.
///
/// Writes to products and users need an operator's token (users: the account's own token, too);
/// carts need their owner's (see `docs/API.md`). `POST`s are never retried, `PUT` and `DELETE` are.
extension ShopClient {
    // MARK: - Products
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

    /// `POST /api/products` (operator): creates a product; a new category name creates the category.
    /// - Parameter product: needs `title` and `price`.
    /// - Returns: the product made (the server answers 201 with `Location`).
    /// - Throws: ``NetworkError``; 400 for a bad field, 401/403 without an operator's token.
    public func createProduct(_ product: FakeStoreProductInput) async throws(NetworkError) -> FakeStoreProduct {
        try await send(.fakeStore(.createProduct), body: product)
    }

    /// `PUT /api/products/{id}` (operator): replaces the Fake Store fields.
    /// - Parameters:
    ///   - id: the product's id.
    ///   - product: needs `title` and `price`; fields left out are cleared.
    /// - Returns: the product as it now is.
    /// - Throws: ``NetworkError``; 404 for an unknown id.
    public func replaceProduct(id: Int64, with product: FakeStoreProductInput) async throws(NetworkError) -> FakeStoreProduct {
        try await send(.fakeStore(.replaceProduct(FakeStoreID(id))), body: product)
    }

    /// `PATCH /api/products/{id}` (operator): changes the fields sent.
    /// - Parameters:
    ///   - id: the product's id.
    ///   - changes: the fields to change (nil ones stay).
    /// - Returns: the product as it now is.
    /// - Throws: ``NetworkError``; 404 for an unknown id.
    public func updateProduct(id: Int64, with changes: FakeStoreProductInput) async throws(NetworkError) -> FakeStoreProduct {
        try await send(.fakeStore(.updateProduct(FakeStoreID(id))), body: changes)
    }

    /// `DELETE /api/products/{id}` (operator): unpublishes the product.
    /// - Parameter id: the product's id.
    /// - Returns: the product as it was.
    /// - Throws: ``NetworkError``; 404 for an unknown id.
    @discardableResult
    public func deleteProduct(id: Int64) async throws(NetworkError) -> FakeStoreProduct {
        try await send(.fakeStore(.deleteProduct(FakeStoreID(id))))
    }

    // MARK: - Users

    /// `GET /api/users`: every account for an operator, the caller's own for a shopper.
    /// - Parameters:
    ///   - limit: at most this many (nil or ≤ 0: all).
    ///   - sort: by id, ascending (default) or descending.
    /// - Returns: the users (never with a password).
    /// - Throws: ``NetworkError``; 401 without a token.
    public func users(limit: Int? = nil, sort: FakeStoreListQuery.Sort? = nil) async throws(NetworkError) -> [FakeStoreUser] {
        try await send(.fakeStore(.users(FakeStoreListQuery(limit: limit, sort: sort))))
    }

    /// `GET /api/users/{id}`: the caller's own account, or any for an operator.
    /// - Parameter id: the account's id.
    /// - Returns: the user.
    /// - Throws: ``NetworkError``; 404 for an unknown id or another shopper's.
    public func user(id: Int64) async throws(NetworkError) -> FakeStoreUser {
        try await send(.fakeStore(.user(FakeStoreID(id))))
    }

    /// `POST /api/users`: registers an account (the web's rules); it can sign in at once.
    /// - Parameter user: needs `email`, `password` and a name (or `username`).
    /// - Returns: the account made.
    /// - Throws: ``NetworkError``; 400 naming the field at fault, 409 `email_taken`/`username_taken`.
    public func createUser(_ user: FakeStoreUserInput) async throws(NetworkError) -> FakeStoreUser {
        try await send(.fakeStore(.createUser), body: user)
    }

    /// `PUT /api/users/{id}` (own token or operator): replaces the account's fields.
    /// - Parameters:
    ///   - id: the account's id.
    ///   - user: the new fields.
    /// - Returns: the user as it now is.
    /// - Throws: ``NetworkError``.
    public func replaceUser(id: Int64, with user: FakeStoreUserInput) async throws(NetworkError) -> FakeStoreUser {
        try await send(.fakeStore(.replaceUser(FakeStoreID(id))), body: user)
    }

    /// `PATCH /api/users/{id}` (own token or operator): changes the fields sent.
    /// - Parameters:
    ///   - id: the account's id.
    ///   - changes: the fields to change.
    /// - Returns: the user as it now is.
    /// - Throws: ``NetworkError``.
    public func updateUser(id: Int64, with changes: FakeStoreUserInput) async throws(NetworkError) -> FakeStoreUser {
        try await send(.fakeStore(.updateUser(FakeStoreID(id))), body: changes)
    }

    /// `DELETE /api/users/{id}` (own token or operator): deletes the account and signs it out everywhere.
    /// - Parameter id: the account's id.
    /// - Returns: the user as it was.
    /// - Throws: ``NetworkError``.
    @discardableResult
    public func deleteUser(id: Int64) async throws(NetworkError) -> FakeStoreUser {
        try await send(.fakeStore(.deleteUser(FakeStoreID(id))))
    }

    // MARK: - Carts (saved, dated product lists; not the live `/api/v1` cart)

    /// `GET /api/carts`: the caller's carts (every cart for an operator).
    /// - Parameters:
    ///   - limit: at most this many (nil or ≤ 0: all).
    ///   - sort: by id, ascending (default) or descending.
    ///   - startDate: carts dated on or after this.
    ///   - endDate: carts dated before this.
    /// - Returns: the carts.
    /// - Throws: ``NetworkError``; 401 without a token.
    public func carts(limit: Int? = nil, sort: FakeStoreListQuery.Sort? = nil, startDate: Date? = nil,
                      endDate: Date? = nil) async throws(NetworkError) -> [FakeStoreCart] {
        try await send(.fakeStore(.carts(Self.cartQuery(limit, sort, startDate, endDate))))
    }

    /// `GET /api/carts/user/{userId}`: one account's carts (that account's token or an operator's).
    /// - Parameters:
    ///   - userID: the account's id.
    ///   - limit: at most this many (nil or ≤ 0: all).
    ///   - sort: by id, ascending (default) or descending.
    ///   - startDate: carts dated on or after this.
    ///   - endDate: carts dated before this.
    /// - Returns: the carts.
    /// - Throws: ``NetworkError``.
    public func carts(ofUser userID: Int64, limit: Int? = nil, sort: FakeStoreListQuery.Sort? = nil, startDate: Date? = nil,
                      endDate: Date? = nil) async throws(NetworkError) -> [FakeStoreCart] {
        try await send(.fakeStore(.userCarts(FakeStoreID(userID), Self.cartQuery(limit, sort, startDate, endDate))))
    }

    /// `GET /api/carts/{id}`: one cart (its owner's token or an operator's).
    /// - Parameter id: the cart's id.
    /// - Returns: the cart.
    /// - Throws: ``NetworkError``; 404 for an unknown id or another shopper's cart.
    public func cart(id: Int64) async throws(NetworkError) -> FakeStoreCart {
        try await send(.fakeStore(.cart(FakeStoreID(id))))
    }

    /// `POST /api/carts`: files a cart (for the caller unless an operator names `userId`).
    /// - Parameter cart: `products`, and optionally `userId` and `date` (default now).
    /// - Returns: the cart made.
    /// - Throws: ``NetworkError``.
    public func createCart(_ cart: FakeStoreCartInput) async throws(NetworkError) -> FakeStoreCart {
        try await send(.fakeStore(.createCart), body: cart)
    }

    /// `PUT /api/carts/{id}`: replaces user, date and products.
    /// - Parameters:
    ///   - id: the cart's id.
    ///   - cart: needs `products`; a date left out becomes now.
    /// - Returns: the cart as it now is.
    /// - Throws: ``NetworkError``.
    public func replaceCart(id: Int64, with cart: FakeStoreCartInput) async throws(NetworkError) -> FakeStoreCart {
        try await send(.fakeStore(.replaceCart(FakeStoreID(id))), body: cart)
    }

    /// `PATCH /api/carts/{id}`: replaces the fields sent.
    /// - Parameters:
    ///   - id: the cart's id.
    ///   - changes: the fields to replace.
    /// - Returns: the cart as it now is.
    /// - Throws: ``NetworkError``.
    public func updateCart(id: Int64, with changes: FakeStoreCartInput) async throws(NetworkError) -> FakeStoreCart {
        try await send(.fakeStore(.updateCart(FakeStoreID(id))), body: changes)
    }

    /// `DELETE /api/carts/{id}`: deletes the cart.
    /// - Parameter id: the cart's id.
    /// - Returns: the cart as it was.
    /// - Throws: ``NetworkError``.
    @discardableResult
    public func deleteCart(id: Int64) async throws(NetworkError) -> FakeStoreCart {
        try await send(.fakeStore(.deleteCart(FakeStoreID(id))))
    }

    /// The query of the cart lists, dates written as Fake Store writes them.
    private static func cartQuery(_ limit: Int?, _ sort: FakeStoreListQuery.Sort?, _ start: Date?,
                                  _ end: Date?) -> FakeStoreCartQuery {
        FakeStoreCartQuery(FakeStoreListQuery(limit: limit, sort: sort), startDate: start.map(FakeStoreDate.format),
                           endDate: end.map(FakeStoreDate.format))
    }

    // MARK: - Sign-in and images

    /// `POST /api/auth/login`: signs in and keeps the token, so later calls send
    /// `Authorization: Bearer <token>`. Never retried (a `POST`). Sent while holding a guest
    /// token (``ShopClient/V1/startGuestSession()``), it merges the guest's cart and favorites
    /// into the account's.
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
