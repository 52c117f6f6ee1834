import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopTestSupport

/// The stores of one SQLite database — a private `:memory:` one, or a temporary file when
/// threads must really race on several connections — with a fixed clock and the services over
/// them, as the front doors build them.
final class ServiceShop {
    let database: SQLiteDatabase
    let catalog: CatalogStore
    let sessions: SessionStore
    let accounts: AccountStore
    let campaigns: CampaignStore
    let orders: OrderStore
    let addresses: AddressStore
    let clock = TestClock(Date(timeIntervalSince1970: 1_780_000_000))
    var crypto = Crypto.testing
    private let path: TemporaryDatabasePath?

    /// - Parameter file: a migrated temporary file with `poolSize` connections, instead of `:memory:`.
    init(_ drafts: [ProductDraft] = [], file: Bool = false, poolSize: Int = 1) throws {
        path = file ? TemporaryDatabasePath() : nil
        database = try SQLiteDatabase.open(path: path?.path ?? ":memory:", poolSize: file ? poolSize : 1)
        catalog = .sqlite(database)
        sessions = .sqlite(database)
        accounts = .sqlite(database)
        campaigns = .sqlite(database)
        orders = .sqlite(database)
        addresses = .sqlite(database)
        if !drafts.isEmpty { _ = try catalog.upsert(drafts) }
    }

    deinit {
        database.close()
        path?.remove()
    }

    var sessionService: SessionService {
        let clock = clock
        return SessionService(sessions: sessions, crypto: crypto, now: { clock.now })
    }

    var accountService: AccountService {
        let clock = clock
        return AccountService(accounts: accounts, crypto: crypto, now: { clock.now },
                              dummyPasswordHash: DummyPasswordHash(crypto: crypto))
    }

    /// The live holds' ends kept per catalog version, as the storefront keeps them.
    let holdEnds = SharedVersion()

    /// The cart use cases as the storefront runs them: holds are read only while one is live
    /// (`holdEnds`).
    var cartService: CartService {
        let clock = clock
        return CartService(catalog: catalog, sessions: sessions, orders: orders, campaigns: campaigns, currency: .usd,
                           now: { clock.now }, holdEnds: holdEnds)
    }

    /// Standard shipping: $4.99, free from $100 of goods.
    static let standard = ShippingMethod(id: "standard", name: "Standard", price: .usd(4_99), freeAbove: .usd(100_00))

    var checkoutService: CheckoutService {
        CheckoutService(carts: cartService, orders: orders, addresses: addresses, shippingMethods: [Self.standard],
                        reservationLifetime: 15 * 60, crypto: crypto)
    }

    /// The published product with `handle`.
    func product(_ handle: String) throws -> Product {
        guard let product = try catalog.productByHandle(handle) else { throw MissingProduct(handle: handle) }
        return product
    }

    struct MissingProduct: Error { var handle: String }

    /// A cart line of `quantity` of the product's first variant.
    func line(_ handle: String, _ quantity: Int) throws -> LineItem {
        let product = try product(handle)
        return LineItem(productID: product.id, variantID: product.variants[0].id, quantity: quantity)
    }

    /// A verified account.
    func account(_ email: String = "ana@example.com", password: String = ServiceShop.password) throws -> User {
        try accounts.createUser(NewAccount(email: email, name: "Ana Lima", passwordHash: try crypto.hashPassword(password),
                                           createdAt: clock.now), true)
    }

    /// A stored guest session (as a first cart change makes it).
    func guestSession(csrf: String = ServiceShop.csrfCookie) throws -> IssuedSession {
        try sessionService.startGuestSession(csrfToken: csrf, csrfCookie: csrf)
    }

    /// A password the rules accept.
    static let password = "quiet lantern 73"
    /// A pre-session CSRF cookie.
    static let csrfCookie = "c5rf-c00kie-of-a-visitor-0123456789abcdef"
}
