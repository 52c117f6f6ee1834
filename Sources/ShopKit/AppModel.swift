public import Foundation
public import Observation
import ShopAPI
import ShopClient
public import ShopCore

/// The app as a whole: the session, onboarding, the language, the network, the tab badges, and
/// the shared ``CartModel`` and ``FavoritesModel`` every screen observes.
///
/// Screens' models are made with ``shop`` (the operations with session keeping wired in) and
/// ``connectivity``, so a sign-in on the sign-in screen is saved and reloads the cart, and an
/// offline error anywhere turns ``network`` offline.
///
/// ```swift
/// @main struct ShopApp: App {
///     @State var app = AppModel(shop: .live(ShopClient(environment: .myShop)),
///                               sessions: KeychainSessionStore())     // the app's own, over Security
///     var body: some Scene {
///         WindowGroup {
///             RootView(app: app)
///                 .task { await app.start() }
///                 .task { await app.connectivity.run() }
///         }
///     }
/// }
/// ```
@MainActor
@Observable
public final class AppModel {
    /// Who the requests speak for.
    public enum Session: Hashable, Sendable {
        /// No credentials yet: browsing only (the first add to cart or heart starts a guest session).
        case none
        /// A guest token: a cart and favorites, no orders history.
        case guest
        /// A signed-in account.
        case signedIn
    }

    /// Who the requests speak for now.
    public private(set) var session: Session
    /// Whether to show onboarding: until ``finishOnboarding()`` (skip or done), once per install.
    public private(set) var showsOnboarding: Bool
    /// The app's language: the server's messages and the formatted amounts follow it.
    public private(set) var language: Language
    /// The app's connectivity: ``network``, the probe, the reads waiting to be retried.
    public let connectivity: Connectivity
    /// The one cart.
    public let cart: CartModel
    /// The one set of favorites.
    public let favorites: FavoritesModel
    /// The app's navigation: the selected tab and each tab's screens.
    public let coordinator = Coordinator()
    /// The shop's operations for every screen's model: the given ones, with the session kept —
    /// a guest session started, a sign-in or a sign-out is saved in the ``SessionStore`` and
    /// updates ``session``.
    @ObservationIgnored public private(set) var shop: ShopOperations
    @ObservationIgnored private let settings: any KeyValueStore
    @ObservationIgnored private let sessions: any SessionStore

    static let onboardingKey = "onboarding.seen"
    static let languageKey = "language"

    /// The app model.
    /// - Parameters:
    ///   - shop: the shop's operations (`.live(client)` in the app).
    ///   - settings: where onboarding and the language are remembered (default `UserDefaults`).
    ///   - sessions: where the session is kept (the Keychain in a real app; see ``SessionStore``).
    ///   - language: the language to use; nil: the one chosen before, else the first of the
    ///     device's preferred languages the shop speaks, else English.
    ///   - connectivity: the connectivity to use; nil: one probing through `shop.probe`.
    public init(shop: ShopOperations, settings: any KeyValueStore = UserDefaultsStore(),
                sessions: any SessionStore = MemorySessionStore(), language: Language? = nil,
                connectivity: Connectivity? = nil) {
        self.settings = settings
        self.sessions = sessions
        let language = language
            ?? settings.string(forKey: Self.languageKey).flatMap(Language.init(rawValue:))
            ?? Language.accepted(Locale.preferredLanguages.joined(separator: ","))
            ?? .english
        self.language = language
        showsOnboarding = settings.string(forKey: Self.onboardingKey) == nil
        let saved = sessions.load()
        if let saved { shop.setCredentials(saved.credentials) }
        session = switch saved?.kind {
        case .guest?: .guest
        case .account?: .signedIn
        case nil: shop.credentials() == nil ? .none : .guest
        }
        shop.setAcceptLanguage(language.rawValue)
        let connectivity = connectivity ?? Connectivity(probe: shop.probe)
        self.connectivity = connectivity
        let link = SessionLink()
        // A refreshed token pair is saved at once: the refresh token rotates, and the next launch
        // must not send the spent one.
        shop.onCredentialsRenewed { credentials in
            if let credentials {
                sessions.save(SavedSession(kind: sessions.load()?.kind ?? .account, credentials: credentials))
            } else {
                sessions.save(nil)
                Task { await link.sessionChanged(.none) }
            }
        }
        let keeping = Self.keepingSession(shop, sessions: sessions, link: link)
        self.shop = keeping
        let locale = Locale(identifier: language.localeIdentifier)
        cart = CartModel(shop: keeping, connectivity: connectivity, locale: locale)
        favorites = FavoritesModel(shop: keeping, connectivity: connectivity, locale: locale)
        link.app = self
    }

    // MARK: - Outputs

    /// Online or offline (``Connectivity/status``).
    public var network: NetworkStatus { connectivity.status }
    /// The locale amounts, numbers and dates are written in: the ``language``'s.
    public var locale: Locale { Locale(identifier: language.localeIdentifier) }
    /// The cart tab's badge (items in the cart).
    public var cartBadge: Int { cart.badge }
    /// The favorites tab's badge (how many favorites).
    public var favoritesBadge: Int { favorites.count }
    /// The badge of `tab`'s item, nil for none (zero shows no badge).
    public func badge(for tab: Tab) -> Int? {
        let count = switch tab {
        case .cart: cartBadge
        case .favorites: favoritesBadge
        default: 0
        }
        return count > 0 ? count : nil
    }

    /// `true` when signed in to an account (orders, address book, checkout without a guest email).
    public var isSignedIn: Bool { session == .signedIn }

    // MARK: - Inputs

    /// Loads what every screen shares: the cart and the favorites (call at launch).
    public func start() async {
        await cart.load()
        await favorites.load()
    }

    /// Onboarding was finished or skipped: it is not shown again, on this launch or any later one.
    public func finishOnboarding() {
        settings.set("1", forKey: Self.onboardingKey)
        showsOnboarding = false
    }

    /// Changes the app's language: remembered, sent as `Accept-Language` from now on, amounts
    /// rewritten, and the cart and favorites asked again (their messages come in the new language).
    /// - Parameter language: the new language.
    public func setLanguage(_ language: Language) async {
        guard language != self.language else { return }
        self.language = language
        settings.set(language.rawValue, forKey: Self.languageKey)
        shop.setAcceptLanguage(language.rawValue)
        cart.locale = locale
        favorites.locale = locale
        await start()
    }

    /// Saves the credentials the client holds now. Renewed token pairs are saved as they come
    /// (`ShopOperations.onCredentialsRenewed`); this is for an app that wants to be sure when it
    /// goes to the background.
    public func saveSession() {
        guard let credentials = shop.credentials() else { return }
        let kind: SavedSession.Kind = session == .signedIn ? .account : .guest
        sessions.save(SavedSession(kind: kind, credentials: credentials))
    }

    /// Signs out (`POST /api/v1/auth/sign-out`): the session is forgotten on this device even when
    /// the server cannot be told, and the cart and favorites start over.
    /// - Parameter everywhere: end every session of the account, not just this one.
    public func signOut(everywhere: Bool = false) async {
        try? await shop.signOut(everywhere)
    }

    // MARK: - Session keeping

    /// Called by the wrapped operations when the session changed.
    func sessionChanged(_ session: Session) async {
        self.session = session
        if session == .none {
            cart.reset()
            favorites.reset()
            await start()
        } else if session == .signedIn {
            // Signing in merges the guest's cart and favorites into the account's.
            await start()
        }
    }

    /// `shop` with the session-changing operations saving the session and telling the app.
    private static func keepingSession(_ shop: ShopOperations, sessions: any SessionStore,
                                       link: SessionLink) -> ShopOperations {
        var keeping = shop
        // Not reloading the cart here: a guest session starts inside the cart's own queued add.
        keeping.startGuestSession = {
            let guest = try await shop.startGuestSession()
            let credentials = shop.credentials() ?? Credentials(accessToken: guest.token)
            sessions.save(SavedSession(kind: .guest, credentials: credentials))
            await link.sessionChanged(.guest)
            return guest
        }
        keeping.signIn = { email, password in
            let credentials = try await shop.signIn(email, password)
            sessions.save(SavedSession(kind: .account, credentials: credentials))
            await link.sessionChanged(.signedIn)
            return credentials
        }
        // A guest token the shop no longer knows (guest sessions end after 30 days unused) is
        // forgotten: the shopper is back to browsing, and the next add starts a new guest session.
        // (An account's expired token is renewed by the client, or ends through onCredentialsRenewed.)
        @Sendable func forgetIfExpired(_ error: any Error) {
            guard NetworkError(error).status == 401, sessions.load()?.kind != .account, shop.credentials() != nil else { return }
            shop.setCredentials(nil)
            sessions.save(nil)
            Task { await link.sessionChanged(.none) }
        }
        keeping.cart = {
            do { return try await shop.cart() } catch {
                forgetIfExpired(error)
                throw error
            }
        }
        keeping.favorites = {
            do { return try await shop.favorites() } catch {
                forgetIfExpired(error)
                throw error
            }
        }
        keeping.signOut = { everywhere in
            var failure: (any Error)?
            do { try await shop.signOut(everywhere) } catch { failure = error }
            shop.setCredentials(nil)
            sessions.save(nil)
            await link.sessionChanged(.none)
            if let failure { throw failure }
        }
        return keeping
    }
}

/// The app model as the session-keeping operations reach it (set once the model exists).
@MainActor
private final class SessionLink {
    weak var app: AppModel?

    func sessionChanged(_ session: AppModel.Session) async { await app?.sessionChanged(session) }
}
