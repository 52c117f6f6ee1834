public import ShopAPI
public import ShopClient

/// Every call the view models make to the shop, as replaceable closures.
///
/// The app uses ``live(_:)`` (each closure calls a ``ShopClient``); a test starts from
/// ``failing`` — every operation throws ``Unimplemented`` naming itself — and overrides only the
/// calls the screen under test should make, so an unexpected call fails the test instead of
/// reaching a network.
///
/// ```swift
/// var shop = ShopOperations.failing
/// shop.categories = { [V1Category(id: 1, handle: "lamps", name: "Lamps", productCount: 3)] }
/// let model = CategoriesModel(shop: shop)
/// ```
public struct ShopOperations: Sendable {
    // MARK: Session
    /// The credentials requests carry now (a guest token or a signed-in account's), if any.
    public var credentials: @Sendable () -> Credentials?
    /// Replaces the credentials (nil forgets them on this device).
    public var setCredentials: @Sendable (Credentials?) -> Void
    /// Registers what to do when the client renews the credentials by itself (a refreshed
    /// token pair; nil when the refresh failed and the shopper is signed out).
    public var onCredentialsRenewed: @Sendable (@escaping @Sendable (Credentials?) -> Void) -> Void
    /// Sets the `Accept-Language` the requests carry (the app's language; nil for none), so the
    /// server's messages come in it.
    public var setAcceptLanguage: @Sendable (String?) -> Void
    /// A cheap request that succeeds whenever the shop is reachable (the connectivity probe).
    public var probe: @Sendable () async throws -> Void

    // MARK: Catalog
    public var categories: @Sendable () async throws -> [V1Category]
    public var products: @Sendable (V1ProductQuery) async throws -> V1ProductPage
    public var product: @Sendable (_ handle: String) async throws -> V1Product
    /// The home page's row: featured products, or (`true`) the caller's recommendations.
    public var featured: @Sendable (_ recommendations: Bool) async throws -> V1Featured
    public var campaigns: @Sendable () async throws -> [V1Campaign]
    public var campaign: @Sendable (_ handle: String) async throws -> V1Campaign

    // MARK: Cart (a guest session is started by the model when there are no credentials)
    public var startGuestSession: @Sendable () async throws -> V1GuestToken
    public var cart: @Sendable () async throws -> V1Cart
    public var addLine: @Sendable (V1AddLine) async throws -> V1Cart
    public var updateLine: @Sendable (_ line: CartModel.LineKey, _ quantity: Int?, _ selected: Bool?) async throws -> V1Cart
    public var removeLine: @Sendable (_ line: CartModel.LineKey) async throws -> V1Cart
    public var setVoucher: @Sendable (_ code: String) async throws -> V1Cart
    public var removeVoucher: @Sendable () async throws -> V1Cart

    // MARK: Favorites
    public var favorites: @Sendable () async throws -> [V1ProductSummary]
    public var addFavorite: @Sendable (_ productID: Int64) async throws -> [V1ProductSummary]
    public var removeFavorite: @Sendable (_ productID: Int64) async throws -> [V1ProductSummary]

    // MARK: Checkout and orders
    public var checkout: @Sendable () async throws -> V1Checkout
    public var setAddress: @Sendable (V1CheckoutAddress) async throws -> V1Checkout
    public var setShipping: @Sendable (_ method: String) async throws -> V1Checkout
    public var review: @Sendable () async throws -> V1Checkout
    public var placeOrder: @Sendable (_ idempotencyKey: String) async throws -> V1Order
    public var orders: @Sendable () async throws -> [V1Order]
    public var order: @Sendable (_ number: String, _ guestToken: String?) async throws -> V1Order

    // MARK: Account
    public var register: @Sendable (_ email: String, _ password: String, _ name: String) async throws -> V1Account
    public var account: @Sendable () async throws -> V1Account
    public var resendVerificationEmail: @Sendable () async throws -> V1Accepted
    public var confirmEmail: @Sendable (_ token: String) async throws -> V1Account
    public var requestPasswordReset: @Sendable (_ email: String) async throws -> V1Accepted
    public var resetPassword: @Sendable (_ token: String, _ newPassword: String) async throws -> Void
    public var signIn: @Sendable (_ email: String, _ password: String) async throws -> Credentials
    public var signOut: @Sendable (_ everywhere: Bool) async throws -> Void

    // MARK: Address book
    public var addresses: @Sendable () async throws -> [V1SavedAddress]
    public var addAddress: @Sendable (V1Address, _ isDefault: Bool) async throws -> V1SavedAddress
    public var updateAddress: @Sendable (_ id: Int64, V1Address, _ isDefault: Bool) async throws -> V1SavedAddress
    public var deleteAddress: @Sendable (_ id: Int64) async throws -> Void
}

/// The error of a ``ShopOperations/failing`` operation a test did not override.
public struct Unimplemented: Error, CustomStringConvertible, Sendable {
    /// The operation's name, e.g. `"cart"`.
    public let operation: String
    public var description: String { "ShopOperations.\(operation) was called but not overridden by the test" }
}

extension ShopOperations {
    /// Every operation through `client` (`client.v1`).
    /// - Parameter client: the shop's client, shared by every screen.
    public static func live(_ client: ShopClient) -> ShopOperations {
        let v1 = client.v1
        return ShopOperations(
            credentials: { client.credentials },
            setCredentials: { client.setCredentials($0) },
            onCredentialsRenewed: { client.onCredentialsRenewed($0) },
            setAcceptLanguage: { client.setAcceptLanguage($0) },
            probe: { _ = try await v1.categories() },
            categories: { try await v1.categories() },
            products: { try await v1.products(query: $0) },
            product: { try await v1.product(handle: $0) },
            featured: { try await v1.featured(recommendations: $0) },
            campaigns: { try await client.v1.campaigns() },
            campaign: { try await client.v1.campaign(handle: $0) },
            startGuestSession: { try await v1.startGuestSession() },
            cart: { try await v1.cart() },
            addLine: { try await v1.addLine($0) },
            updateLine: { try await v1.updateLine(variantID: $0.variantID, quantity: $1, selected: $2,
                                                  chosenValues: $0.chosenValues) },
            removeLine: { try await v1.removeLine(variantID: $0.variantID, chosenValues: $0.chosenValues) },
            setVoucher: { try await v1.setVoucher(code: $0) },
            removeVoucher: { try await v1.removeVoucher() },
            favorites: { try await v1.favorites() },
            addFavorite: { try await v1.addFavorite(productID: $0) },
            removeFavorite: { try await v1.removeFavorite(productID: $0) },
            checkout: { try await v1.checkout() },
            setAddress: { try await v1.setAddress($0) },
            setShipping: { try await v1.setShipping(method: $0) },
            review: { try await v1.review() },
            placeOrder: { try await v1.placeOrder(idempotencyKey: $0) },
            orders: { try await v1.orders() },
            order: { try await v1.order(number: $0, guestToken: $1) },
            register: { try await client.v1.register(email: $0, password: $1, name: $2) },
            account: { try await client.v1.account() },
            resendVerificationEmail: { try await client.v1.resendVerificationEmail() },
            confirmEmail: { try await client.v1.confirmEmail(token: $0) },
            requestPasswordReset: { try await client.v1.requestPasswordReset(email: $0) },
            resetPassword: { try await client.v1.resetPassword(token: $0, newPassword: $1) },
            signIn: { try await client.v1.signIn(email: $0, password: $1) },
            signOut: { try await client.v1.signOut(everywhere: $0) },
            addresses: { try await client.v1.addresses() },
            addAddress: { try await client.v1.addAddress($0, isDefault: $1) },
            updateAddress: { try await client.v1.updateAddress(id: $0, $1, isDefault: $2) },
            deleteAddress: { try await client.v1.deleteAddress(id: $0) }
        )
    }

    /// Every operation throws ``Unimplemented`` (as `NetworkError.unknown`); no credentials;
    /// setting credentials or the language does nothing.
    /// Tests override what the screen under test may call.
    public static var failing: ShopOperations {
        @Sendable func fail(_ name: String) -> NetworkError { .unknown(Unimplemented(operation: name)) }
        return ShopOperations(
            credentials: { nil },
            setCredentials: { _ in },
            onCredentialsRenewed: { _ in },
            setAcceptLanguage: { _ in },
            probe: { throw fail("probe") },
            categories: { throw fail("categories") },
            products: { _ in throw fail("products") },
            product: { _ in throw fail("product") },
            featured: { _ in throw fail("featured") },
            campaigns: { throw fail("campaigns") },
            campaign: { _ in throw fail("campaign") },
            startGuestSession: { throw fail("startGuestSession") },
            cart: { throw fail("cart") },
            addLine: { _ in throw fail("addLine") },
            updateLine: { _, _, _ in throw fail("updateLine") },
            removeLine: { _ in throw fail("removeLine") },
            setVoucher: { _ in throw fail("setVoucher") },
            removeVoucher: { throw fail("removeVoucher") },
            favorites: { throw fail("favorites") },
            addFavorite: { _ in throw fail("addFavorite") },
            removeFavorite: { _ in throw fail("removeFavorite") },
            checkout: { throw fail("checkout") },
            setAddress: { _ in throw fail("setAddress") },
            setShipping: { _ in throw fail("setShipping") },
            review: { throw fail("review") },
            placeOrder: { _ in throw fail("placeOrder") },
            orders: { throw fail("orders") },
            order: { _, _ in throw fail("order") },
            register: { _, _, _ in throw fail("register") },
            account: { throw fail("account") },
            resendVerificationEmail: { throw fail("resendVerificationEmail") },
            confirmEmail: { _ in throw fail("confirmEmail") },
            requestPasswordReset: { _ in throw fail("requestPasswordReset") },
            resetPassword: { _, _ in throw fail("resetPassword") },
            signIn: { _, _ in throw fail("signIn") },
            signOut: { _ in throw fail("signOut") },
            addresses: { throw fail("addresses") },
            addAddress: { _, _ in throw fail("addAddress") },
            updateAddress: { _, _, _ in throw fail("updateAddress") },
            deleteAddress: { _ in throw fail("deleteAddress") }
        )
    }
}
