public import Foundation
public import ShopCore
public import ShopStore
public import ShopService

/// Everything the storefront needs from the outside world, passed explicitly into
/// `ShopApp.handle(_:_:)` (STYLE.md 4): stores, clock, randomness, logging and settings.
/// Tests build one over SQLite `:memory:` with a fixed clock; `shoppable serve` builds the live one.
public struct AppEnvironment: Sendable {
    /// The product catalog.
    public var catalog: CatalogStore
    /// Sessions, carts and favorites.
    public var sessions: SessionStore
    /// Accounts, emailed tokens, throttle counts and the email outbox.
    public var accounts: AccountStore
    /// Campaigns and their voucher codes (from the merchant's campaign file).
    public var campaigns: CampaignStore
    /// Orders, stock reservations and checkouts in progress.
    public var orders: OrderStore?
    /// Signed-in shoppers' address books.
    public var addresses: AddressStore?
    /// The API's Fake Store carts (saved carts); the cart routes answer 404 without it.
    public var savedCarts: SavedCartStore?
    /// The JSON API's access and refresh tokens (`/api/v1/auth/…`); those routes answer 404
    /// without it.
    public var apiTokens: APITokenStore?
    /// Staff accounts and back-office sessions (issue #16); `/admin` answers 404 without it.
    public var staff: StaffStore?
    /// The audit log (issue #16), read by the back office's audit page.
    public var audit: AuditStore?
    /// The dashboard's low-stock and outbox reads (issue #16, point 7).
    public var dashboard: DashboardStore?
    /// The back office's catalog checks and imports, each on its own thread with its progress
    /// (issue #16, point 4); the import page answers 404 without it.
    public var importJobs: ImportJobs?
    /// How long the import form's POST waits for its job before it answers with the job's page
    /// instead (which reloads itself until the job is done): a small file's result comes at once.
    public var importAnswerWait: TimeInterval = 2
    /// A text's QR code modules (libqrencode, wired by ShopWebLive), for the TOTP enrolment's
    /// picture; nil: the page shows the key to type instead.
    public var qrCode: (@Sendable (String) -> (size: Int, modules: [Bool])?)?
    /// How long an API access token works, in seconds (default 15 minutes; the refresh token
    /// lasts as long as its session).
    public var accessTokenLifetime: TimeInterval = APITokenService.defaultAccessTokenLifetime
    /// How orders can be shipped (the shop configuration file).
    public var shippingMethods: [ShippingMethod] = []
    /// What the order page tells the shopper about paying (bank transfer details), in the
    /// merchant's languages.
    public var paymentInstructions: LocalizedText = ""
    /// The merchant's translations of product option names ("Color" → "Renk"), applied where the
    /// names are shown (product pages, the API's products).
    public var optionNames = OptionNameGlossary()
    /// How long the review step holds the cart's stock, in seconds (default 15 minutes).
    public var reservationLifetime: TimeInterval = 15 * 60
    /// Password hashing, random tokens and digests.
    public var crypto: Crypto
    /// The shop's address as shoppers reach it, without a trailing slash, for links in emails
    /// (`--public-url`, e.g. `https://shop.example`).
    public var publicURL: String
    /// How often sign-ins, registrations and account emails may be attempted (the numbers live
    /// in `AccountThrottles`; tests may tune them).
    public var throttles: AccountThrottles
    /// A hash of no one's password, checked when a sign-in names an unknown email so that
    /// answering takes as long as for a real account.
    public let dummyPasswordHash: DummyPasswordHash
    /// The shop currency (`--currency`, default USD).
    public var currency: Currency
    /// The language of a shopper who has chosen none and whose browser asks for none the shop
    /// speaks (`serve --locale`, default English; `Language.forShopper`).
    public var defaultLanguage: Language = .english
    /// The shop's time zone, for dates shown to shoppers.
    public var timeZone: TimeZone
    /// The current time.
    public var now: @Sendable () -> Date
    /// Where diagnostics go (one line per call).
    public var log: @Sendable (String) -> Void
    /// Adds `Secure` to cookies (set when the public URL is https).
    public var secureCookies: Bool
    /// Whether shoppers reach the shop over https (its public URL says so): responses then carry
    /// `Strict-Transport-Security`.
    public var isServedOverHTTPS: Bool {
        // Asked on every response: compare the scheme's bytes, without lower-casing the URL.
        let scheme = publicURL.utf8.prefix(8)
        return scheme.count == 8 && zip(scheme, "https://".utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }
    /// The stylesheet, script and images shipped with the app.
    public var assets: Assets
    /// Folder of images imported from merchants' local files, served under `/media/`.
    public var mediaDirectory: URL?
    /// Checks the database answers; throws when it does not (for `/healthz`).
    public var healthCheck: @Sendable () throws -> Void
    /// Runs a page request's work with its store reads in one read transaction where the engine
    /// can (`SQLiteDatabase.readingTogether`: a shopper's page read its session, cart and
    /// favorites in three); by default each read is its own, as they are on PostgreSQL.
    public var readingTogether: @Sendable (() throws -> Void) throws -> Void = { body in try body() }
    /// Rendered catalog pages, valid while `catalog.version()` is unchanged.
    public var pageCache: PageCache
    /// Compressed bodies of answers with a strong `ETag` (assets, cached API reads), made once.
    public var compressedBodies = CompressedBodies()
    /// The campaign list, kept while `campaigns.version()` is unchanged.
    public var campaignCache = CampaignCache()
    /// The ends of live holds, kept per catalog version: what `sharedVersion(at:)` counts.
    public var holdEnds = SharedVersion()
    /// The best-rated products in stock, the pool of the cart's and the home page's
    /// recommendations: kept while `sharedVersion(at:)` (stock and holds included) is unchanged.
    var bestRatedInStock = CatalogMemo<[Product]>()
    /// The cart's rendered "You may also like" cards, by language and products, per shared version
    /// (`ShopApp.recommendationStrip`).
    var recommendationStrips = CatalogStatementMemo<RecommendationStripKey, String>(statementLimit: 256)
    /// Each category's 100 best-rated product ids, the candidates of a product page's related
    /// products (`ShopApp.relatedProducts`): kept while `catalog.version()` is unchanged.
    var relatedCandidates = CatalogMemo<[Category.ID: [Product.ID]]>()
    /// Web origins (`https://app.example`) whose pages may call the JSON API from a browser
    /// (CORS, `--cors-origin`); `*` allows any. Empty: no cross-origin access.
    public var corsAllowedOrigins: [String] = []

    /// Creates an environment.
    public init(catalog: CatalogStore, sessions: SessionStore, accounts: AccountStore,
                campaigns: CampaignStore, crypto: Crypto,
                publicURL: String = "http://127.0.0.1:8080", throttles: AccountThrottles = AccountThrottles(),
                currency: Currency = .usd,
                timeZone: TimeZone = TimeZone(identifier: "UTC")!, now: @escaping @Sendable () -> Date = Date.init,
                log: @escaping @Sendable (String) -> Void = { _ in }, secureCookies: Bool = false,
                assets: Assets = .bundled, mediaDirectory: URL? = nil,
                healthCheck: @escaping @Sendable () throws -> Void = {}, pageCache: PageCache = PageCache()) {
        self.catalog = catalog
        self.sessions = sessions
        self.accounts = accounts
        self.campaigns = campaigns
        self.crypto = crypto
        var trimmedURL = publicURL
        while trimmedURL.hasSuffix("/") { trimmedURL.removeLast() }
        self.publicURL = trimmedURL
        self.throttles = throttles
        self.dummyPasswordHash = DummyPasswordHash(crypto: crypto)
        self.currency = currency
        self.timeZone = timeZone
        self.now = now
        self.log = log
        self.secureCookies = secureCookies
        self.assets = assets
        self.mediaDirectory = mediaDirectory
        self.healthCheck = healthCheck
        self.pageCache = pageCache
    }

}

extension AppEnvironment {
    /// The version of what every visitor sees alike (cached pages and API reads, the
    /// recommendations' pool): the catalog's, moved on also when a live hold ends (`SharedVersion`).
    func sharedVersion(at now: Date) throws -> Int64 {
        try holdEnds.version(catalog: catalog, orders: orders, now: now)
    }

    /// The cart use cases on this environment's stores.
    public var carts: CartService {
        CartService(catalog: catalog, sessions: sessions, orders: orders, campaigns: campaigns, currency: currency, now: now,
                    holdEnds: holdEnds)
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
