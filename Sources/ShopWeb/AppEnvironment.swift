public import Foundation
public import ShopCore
public import ShopStore

/// Everything the storefront needs from the outside world, passed explicitly into
/// `ShopApp.handle(_:_:)` (STYLE.md 4): stores, clock, randomness, logging and settings.
/// Tests build one with in-memory stores and a fixed clock; `shoppable serve` builds the live one.
public struct AppEnvironment: Sendable {
    /// The product catalog.
    public var catalog: CatalogStore
    /// Sessions and carts.
    public var sessions: SessionStore
    /// The shop currency (`--currency`, default USD).
    public var currency: Currency
    /// The shop's time zone, for dates shown to shoppers.
    public var timeZone: TimeZone
    /// The current time.
    public var now: @Sendable () -> Date
    /// A new random session token: 32 lower-case hex digits (128 bits).
    public var makeSessionToken: @Sendable () -> String
    /// Where diagnostics go (one line per call).
    public var log: @Sendable (String) -> Void
    /// Adds `Secure` to cookies (set when the public URL is https).
    public var secureCookies: Bool
    /// The stylesheet, script and images shipped with the app.
    public var assets: Assets
    /// Folder of images imported from merchants' local files, served under `/media/`.
    public var mediaDirectory: URL?
    /// Checks the database answers; throws when it does not (for `/healthz`).
    public var healthCheck: @Sendable () throws -> Void
    /// Rendered catalog pages, valid while `catalog.version()` is unchanged.
    public var pageCache: PageCache

    /// Creates an environment.
    public init(catalog: CatalogStore, sessions: SessionStore, currency: Currency = .usd,
                timeZone: TimeZone = TimeZone(identifier: "UTC")!, now: @escaping @Sendable () -> Date = Date.init,
                makeSessionToken: @escaping @Sendable () -> String = AppEnvironment.randomToken,
                log: @escaping @Sendable (String) -> Void = { _ in }, secureCookies: Bool = false,
                assets: Assets = .bundled, mediaDirectory: URL? = nil,
                healthCheck: @escaping @Sendable () throws -> Void = {}, pageCache: PageCache = PageCache()) {
        self.catalog = catalog
        self.sessions = sessions
        self.currency = currency
        self.timeZone = timeZone
        self.now = now
        self.makeSessionToken = makeSessionToken
        self.log = log
        self.secureCookies = secureCookies
        self.assets = assets
        self.mediaDirectory = mediaDirectory
        self.healthCheck = healthCheck
        self.pageCache = pageCache
    }

    /// 128 random bits from the system's cryptographic generator, as 32 hex digits.
    public static let randomToken: @Sendable () -> String = {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
