public import Foundation
public import ShopCore
public import ShopStore
public import ShopService

/// Everything the storefront needs from the outside world, passed explicitly into
/// `ShopApp.handle(_:_:)` (STYLE.md 4): stores, clock, randomness, logging and settings.
/// Tests build one over SQLite `:memory:` with a fixed clock; `shoppable serve` builds the live one.
public struct AppEnvironment: Sendable {
    /// The values, kept behind one reference: a request's context copies the environment, and a
    /// copy of ~45 stores, closures and settings was 4–5 % of a first visit's CPU (retains and
    /// releases of each). Immutable once made; a setter (setup, tests) makes a new one.
    private final class Storage: Sendable {
        let values: Values
        /// The cart use cases over `values`' stores, made once rather than at every call (a
        /// `CartService` holds four stores of closures; a shopper's page asks several times).
        let carts: CartService
        /// Sessions as a use case, made once likewise (every page with a session cookie asks).
        let sessionService: SessionService
        init(_ values: Values) {
            self.values = values
            sessionService = SessionService(sessions: values.sessions, crypto: values.crypto, now: values.now)
            carts = CartService(catalog: values.catalog, sessions: values.sessions, orders: values.orders,
                                campaigns: values.campaigns, currency: values.currency, now: values.now,
                                holdEnds: values.holdEnds)
        }
    }

    /// The stored values (documented on their accessors below).
    private struct Values: Sendable {
        var catalog: CatalogStore
        var sessions: SessionStore
        var accounts: AccountStore
        var campaigns: CampaignStore
        var orders: OrderStore?
        var addresses: AddressStore?
        var savedCarts: SavedCartStore?
        var apiTokens: APITokenStore?
        var staff: StaffStore?
        var audit: AuditStore?
        var dashboard: DashboardStore?
        var importJobs: ImportJobs?
        var importAnswerWait: TimeInterval = 2
        var qrCode: (@Sendable (String) -> (size: Int, modules: [Bool])?)?
        var accessTokenLifetime: TimeInterval = APITokenService.defaultAccessTokenLifetime
        var shippingMethods: [ShippingMethod] = []
        var paymentInstructions: LocalizedText = ""
        var optionNames = OptionNameGlossary()
        var reservationLifetime: TimeInterval = 15 * 60
        var crypto: Crypto
        var publicURL: String {
            // Asked on every response; decided when the address is set.
            didSet { isServedOverHTTPS = Self.isHTTPS(publicURL) }
        }
        var isServedOverHTTPS = false

        /// Whether `url`'s scheme is https, in any case.
        static func isHTTPS(_ url: String) -> Bool {
            let scheme = url.utf8.prefix(8)
            return scheme.count == 8 && zip(scheme, "https://".utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
        var throttles: AccountThrottles
        var dummyPasswordHash: DummyPasswordHash
        var currency: Currency
        var defaultLanguage: Language = .english
        var timeZone: TimeZone
        var now: @Sendable () -> Date
        var log: @Sendable (String) -> Void
        var secureCookies: Bool
        var assets: Assets
        var mediaDirectory: URL?
        var healthCheck: @Sendable () throws -> Void
        var readingTogether: @Sendable (() throws -> Void) throws -> Void = { body in try body() }
        var pageCache: PageCache
        var compressedBodies = CompressedBodies()
        var campaignCache = CampaignCache()
        var holdEnds = SharedVersion()
        var bestRatedInStock = CatalogMemo<[Product]>()
        var recommendationStrips = CatalogStatementMemo<RecommendationStripKey, String>(statementLimit: 256)
        var relatedCandidates = CatalogMemo<[Category.ID: [Product.ID]]>()
        var corsAllowedOrigins: [String] = []
    }

    private var storage: Storage

    /// Changes one value: a new `Storage` (copies share theirs until one of them changes).
    private mutating func change(_ body: (inout Values) -> Void) {
        var values = storage.values
        body(&values)
        storage = Storage(values)
    }

    /// The cart use cases on this environment's stores.
    public var carts: CartService {
        _read { yield storage.carts }
    }

    /// Sessions as a use case, over this environment's store, secrets and clock.
    var sessionService: SessionService {
        _read { yield storage.sessionService }
    }

    /// The product catalog.
    public var catalog: CatalogStore { get { storage.values.catalog } set { change { $0.catalog = newValue } } }
    /// Sessions, carts and favorites.
    public var sessions: SessionStore { get { storage.values.sessions } set { change { $0.sessions = newValue } } }
    /// Accounts, emailed tokens, throttle counts and the email outbox.
    public var accounts: AccountStore { get { storage.values.accounts } set { change { $0.accounts = newValue } } }
    /// Campaigns and their voucher codes (from the merchant's campaign file).
    public var campaigns: CampaignStore { get { storage.values.campaigns } set { change { $0.campaigns = newValue } } }
    /// Orders, stock reservations and checkouts in progress.
    public var orders: OrderStore? { get { storage.values.orders } set { change { $0.orders = newValue } } }
    /// Signed-in shoppers' address books.
    public var addresses: AddressStore? { get { storage.values.addresses } set { change { $0.addresses = newValue } } }
    /// The API's Fake Store carts (saved carts); the cart routes answer 404 without it.
    public var savedCarts: SavedCartStore? { get { storage.values.savedCarts } set { change { $0.savedCarts = newValue } } }
    /// The JSON API's access and refresh tokens (`/api/v1/auth/…`); those routes answer 404
    /// without it.
    public var apiTokens: APITokenStore? { get { storage.values.apiTokens } set { change { $0.apiTokens = newValue } } }
    /// Staff accounts and back-office sessions (issue #16); `/admin` answers 404 without it.
    public var staff: StaffStore? { get { storage.values.staff } set { change { $0.staff = newValue } } }
    /// The audit log (issue #16), read by the back office's audit page.
    public var audit: AuditStore? { get { storage.values.audit } set { change { $0.audit = newValue } } }
    /// The dashboard's low-stock and outbox reads (issue #16, point 7).
    public var dashboard: DashboardStore? { get { storage.values.dashboard } set { change { $0.dashboard = newValue } } }
    /// The back office's catalog checks and imports, each on its own thread with its progress
    /// (issue #16, point 4); the import page answers 404 without it.
    public var importJobs: ImportJobs? { get { storage.values.importJobs } set { change { $0.importJobs = newValue } } }
    /// How long the import form's POST waits for its job before it answers with the job's page
    /// instead (which reloads itself until the job is done): a small file's result comes at once.
    public var importAnswerWait: TimeInterval { get { storage.values.importAnswerWait } set { change { $0.importAnswerWait = newValue } } }
    /// A text's QR code modules (libqrencode, wired by ShopWebLive), for the TOTP enrolment's
    /// picture; nil: the page shows the key to type instead.
    public var qrCode: (@Sendable (String) -> (size: Int, modules: [Bool])?)? { get { storage.values.qrCode } set { change { $0.qrCode = newValue } } }
    /// How long an API access token works, in seconds (default 15 minutes; the refresh token
    /// lasts as long as its session).
    public var accessTokenLifetime: TimeInterval { get { storage.values.accessTokenLifetime } set { change { $0.accessTokenLifetime = newValue } } }
    /// How orders can be shipped (the shop configuration file).
    public var shippingMethods: [ShippingMethod] { get { storage.values.shippingMethods } set { change { $0.shippingMethods = newValue } } }
    /// What the order page tells the shopper about paying (bank transfer details), in the
    /// merchant's languages.
    public var paymentInstructions: LocalizedText { get { storage.values.paymentInstructions } set { change { $0.paymentInstructions = newValue } } }
    /// The merchant's translations of product option names ("Color" → "Renk"), applied where the
    /// names are shown (product pages, the API's products).
    public var optionNames: OptionNameGlossary { get { storage.values.optionNames } set { change { $0.optionNames = newValue } } }
    /// How long the review step holds the cart's stock, in seconds (default 15 minutes).
    public var reservationLifetime: TimeInterval { get { storage.values.reservationLifetime } set { change { $0.reservationLifetime = newValue } } }
    /// Password hashing, random tokens and digests.
    public var crypto: Crypto { get { storage.values.crypto } set { change { $0.crypto = newValue } } }
    /// The shop's address as shoppers reach it, without a trailing slash, for links in emails
    /// (`--public-url`, e.g. `https://shop.example`).
    public var publicURL: String { get { storage.values.publicURL } set { change { $0.publicURL = newValue } } }
    /// How often sign-ins, registrations and account emails may be attempted (the numbers live
    /// in `AccountThrottles`; tests may tune them).
    public var throttles: AccountThrottles { get { storage.values.throttles } set { change { $0.throttles = newValue } } }
    /// A hash of no one's password, checked when a sign-in names an unknown email so that
    /// answering takes as long as for a real account.
    public var dummyPasswordHash: DummyPasswordHash { storage.values.dummyPasswordHash }
    /// The shop currency (`--currency`, default USD).
    public var currency: Currency { get { storage.values.currency } set { change { $0.currency = newValue } } }
    /// The language of a shopper who has chosen none and whose browser asks for none the shop
    /// speaks (`serve --locale`, default English; `Language.forShopper`).
    public var defaultLanguage: Language { get { storage.values.defaultLanguage } set { change { $0.defaultLanguage = newValue } } }
    /// The shop's time zone, for dates shown to shoppers.
    public var timeZone: TimeZone { get { storage.values.timeZone } set { change { $0.timeZone = newValue } } }
    /// The current time.
    public var now: @Sendable () -> Date { get { storage.values.now } set { change { $0.now = newValue } } }
    /// Where diagnostics go (one line per call).
    public var log: @Sendable (String) -> Void { get { storage.values.log } set { change { $0.log = newValue } } }
    /// Adds `Secure` to cookies (set when the public URL is https).
    public var secureCookies: Bool { get { storage.values.secureCookies } set { change { $0.secureCookies = newValue } } }
    /// Whether shoppers reach the shop over https (its public URL says so): responses then carry
    /// `Strict-Transport-Security`.
    public var isServedOverHTTPS: Bool { storage.values.isServedOverHTTPS }
    /// The stylesheet, script and images shipped with the app.
    public var assets: Assets { get { storage.values.assets } set { change { $0.assets = newValue } } }
    /// Folder of images imported from merchants' local files, served under `/media/`.
    public var mediaDirectory: URL? { get { storage.values.mediaDirectory } set { change { $0.mediaDirectory = newValue } } }
    /// Checks the database answers; throws when it does not (for `/healthz`).
    public var healthCheck: @Sendable () throws -> Void { get { storage.values.healthCheck } set { change { $0.healthCheck = newValue } } }
    /// Runs a page request's work with its store reads in one read transaction where the engine
    /// can (`SQLiteDatabase.readingTogether`: a shopper's page read its session, cart and
    /// favorites in three); by default each read is its own, as they are on PostgreSQL.
    public var readingTogether: @Sendable (() throws -> Void) throws -> Void { get { storage.values.readingTogether } set { change { $0.readingTogether = newValue } } }
    /// Rendered catalog pages, valid while `catalog.version()` is unchanged.
    public var pageCache: PageCache { get { storage.values.pageCache } set { change { $0.pageCache = newValue } } }
    /// Compressed bodies of answers with a strong `ETag` (assets, cached API reads), made once.
    public var compressedBodies: CompressedBodies { get { storage.values.compressedBodies } set { change { $0.compressedBodies = newValue } } }
    /// The campaign list, kept while `campaigns.version()` is unchanged.
    public var campaignCache: CampaignCache { get { storage.values.campaignCache } set { change { $0.campaignCache = newValue } } }
    /// The ends of live holds, kept per catalog version: what `sharedVersion(at:)` counts.
    public var holdEnds: SharedVersion { get { storage.values.holdEnds } set { change { $0.holdEnds = newValue } } }
    /// The best-rated products in stock, the pool of the cart's and the home page's
    /// recommendations: kept while `sharedVersion(at:)` (stock and holds included) is unchanged.
    var bestRatedInStock: CatalogMemo<[Product]> { get { storage.values.bestRatedInStock } set { change { $0.bestRatedInStock = newValue } } }
    /// The cart's rendered "You may also like" cards, by language and products, per shared version
    /// (`ShopApp.recommendationStrip`).
    var recommendationStrips: CatalogStatementMemo<RecommendationStripKey, String> { get { storage.values.recommendationStrips } set { change { $0.recommendationStrips = newValue } } }
    /// Each category's 100 best-rated product ids, the candidates of a product page's related
    /// products (`ShopApp.relatedProducts`): kept while `catalog.version()` is unchanged.
    var relatedCandidates: CatalogMemo<[Category.ID: [Product.ID]]> { get { storage.values.relatedCandidates } set { change { $0.relatedCandidates = newValue } } }
    /// Web origins (`https://app.example`) whose pages may call the JSON API from a browser
    /// (CORS, `--cors-origin`); `*` allows any. Empty: no cross-origin access.
    public var corsAllowedOrigins: [String] { get { storage.values.corsAllowedOrigins } set { change { $0.corsAllowedOrigins = newValue } } }

    /// Creates an environment.
    public init(catalog: CatalogStore, sessions: SessionStore, accounts: AccountStore,
                campaigns: CampaignStore, crypto: Crypto,
                publicURL: String = "http://127.0.0.1:8080", throttles: AccountThrottles = AccountThrottles(),
                currency: Currency = .usd,
                timeZone: TimeZone = TimeZone(identifier: "UTC")!, now: @escaping @Sendable () -> Date = Date.init,
                log: @escaping @Sendable (String) -> Void = { _ in }, secureCookies: Bool = false,
                assets: Assets = .bundled, mediaDirectory: URL? = nil,
                healthCheck: @escaping @Sendable () throws -> Void = {}, pageCache: PageCache = PageCache()) {
        var trimmedURL = publicURL
        while trimmedURL.hasSuffix("/") { trimmedURL.removeLast() }
        var values = Values(
            catalog: catalog, sessions: sessions, accounts: accounts, campaigns: campaigns,
            crypto: crypto, publicURL: trimmedURL, throttles: throttles,
            dummyPasswordHash: DummyPasswordHash(crypto: crypto), currency: currency, timeZone: timeZone,
            now: now, log: log, secureCookies: secureCookies, assets: assets, mediaDirectory: mediaDirectory,
            healthCheck: healthCheck, pageCache: pageCache)
        values.isServedOverHTTPS = Values.isHTTPS(trimmedURL)
        storage = Storage(values)
    }

}

extension AppEnvironment {
    /// The version of what every visitor sees alike (cached pages and API reads, the
    /// recommendations' pool): the catalog's, moved on also when a live hold ends (`SharedVersion`).
    func sharedVersion(at now: Date) throws -> Int64 {
        try holdEnds.version(catalog: catalog, orders: orders, now: now)
    }


    /// Staff sign-in and sessions, when the shop has a back office.
    public var staffService: StaffService? {
        staff.map { StaffService(staff: $0, accounts: accounts, crypto: crypto, now: now, dummyPasswordHash: dummyPasswordHash) }
    }

    /// The checkout use cases, when the shop takes orders.
    public var checkout: CheckoutService? {
        orders.map {
            CheckoutService(carts: carts, orders: $0, addresses: addresses, shippingMethods: shippingMethods,
                            reservationLifetime: reservationLifetime, crypto: crypto)
        }
    }
}

/// What a cart's rendered recommendations depend on besides the shared version.
struct RecommendationStripKey: Hashable, Sendable {
    var language: Language
    var products: [Product.ID]
}
