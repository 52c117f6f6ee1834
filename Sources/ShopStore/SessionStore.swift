public import Foundation
public import ShopCore

/// A visitor's server-side session, identified by a random 128-bit token kept in a cookie.
///
/// A guest session holds the guest's cart and favorites; a signed-in session points at the
/// account, whose cart and favorites follow the shopper to any browser.
///
/// Stores keep secrets only as hashes (issue #8): the id is the SHA-256 of the cookie's token,
/// and the CSRF token is kept as its SHA-256 too, so a copy of the database yields no live
/// session and no form token. The raw values exist only in the visitor's cookies and pages.
public struct Session: Hashable, Sendable {
    /// The SHA-256 (64 lower-case hex digits) of the cookie's token (32 hex digits, 128 random
    /// bits) — the web layer hashes the cookie to find the session.
    public typealias ID = Tagged<Session, String>

    /// The hash of the cookie's token.
    public var id: ID
    /// The signed-in account, or nil for a guest.
    public var userID: User.ID?
    /// The SHA-256 (hex) of the CSRF token every state-changing form of this session must carry.
    public var csrfTokenHash: String
    /// When it was created.
    public var createdAt: Date
    /// When it was last used.
    public var lastSeenAt: Date
    /// When it stops being valid unless used again (sliding expiry).
    public var expiresAt: Date
    /// `true` when the cookie outlives the browser (guests, and "remember me"); `false` for a
    /// browser-session cookie.
    public var isPersistent: Bool

    /// Creates a session value.
    public init(id: ID, userID: User.ID? = nil, csrfTokenHash: String, createdAt: Date, lastSeenAt: Date,
                expiresAt: Date, isPersistent: Bool = true) {
        self.id = id
        self.userID = userID
        self.csrfTokenHash = csrfTokenHash
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.isPersistent = isPersistent
    }

    /// Whose cart and favorites this session shows.
    public var shopper: Shopper { userID.map(Shopper.account) ?? .guest(id) }
}

/// Who a cart or a favorites list belongs to: a guest's session, or an account.
public enum Shopper: Hashable, Sendable {
    /// A visitor who has not signed in, by session.
    case guest(Session.ID)
    /// A signed-in shopper's account (the same on every browser).
    case account(User.ID)
}

/// A sign-in for the store to write in one transaction (see ``SessionStore/signIn``).
public struct SignIn: Sendable {
    /// The guest session being replaced (its cart and favorites move to the account), if any.
    public var guestSession: Session.ID?
    /// The new session (fresh id: no session fixation) with `userID` set.
    public var newSession: Session

    /// Creates a sign-in.
    public init(guestSession: Session.ID?, newSession: Session) {
        self.guestSession = guestSession
        self.newSession = newSession
    }
}

/// Sessions, and the carts and favorites of guests and accounts.
public struct SessionStore: Sendable {
    /// Stores a new session.
    public var create: @Sendable (Session) throws -> Void
    /// Stores a new session together with its first cart changes (a new visitor's first add to
    /// cart), in one transaction: the session and every change, or nothing. The session is new,
    /// so no other request can change its cart meanwhile; engines write it in as few steps as
    /// they can (PostgreSQL: one statement for a single add).
    /// - Throws: what `create` and `changeCart` throw — `sessionAlreadyExists` (a simultaneous
    ///   request of the visitor made it) and `CartLineLimitExceeded` among them — with nothing
    ///   written.
    public var createWithCart: @Sendable (Session, [CartChange]) throws -> Void
    /// The session with this id, or nil when unknown (expired ones are returned too: the caller
    /// compares `expiresAt` with its clock).
    public var find: @Sendable (Session.ID) throws -> Session?
    /// Records use of the session: new `lastSeenAt` and `expiresAt`.
    public var touch: @Sendable (Session.ID, _ lastSeenAt: Date, _ expiresAt: Date) throws -> Void
    /// Gives the session a new CSRF token (its hash): when the visitor's browser no longer holds
    /// the old one (a session from before hashed tokens, a cleared cookie). Unknown id: nothing.
    public var renewCSRFToken: @Sendable (Session.ID, _ tokenHash: String) throws -> Void
    /// Deletes the session (sign-out) with its guest cart and favorites.
    public var delete: @Sendable (Session.ID) throws -> Void
    /// Deletes every session of an account except `keeping` ("sign out everywhere", password change).
    public var deleteAll: @Sendable (_ userID: User.ID, _ keeping: Session.ID?) throws -> Void
    /// Deletes sessions that expired before the date, with their guest carts; returns how many.
    public var purgeExpired: @Sendable (_ before: Date) throws -> Int
    /// Signs in, in one transaction: creates `newSession`, merges the guest session's cart and
    /// favorites into the account's and deletes the guest session. The merge happens in the
    /// database, inside that transaction (issue #9), so a change another device makes to the
    /// account's cart at the same moment is never overwritten:
    /// - a guest line for a variant the account has adds its quantity to the account's line,
    ///   capped at the line's limit (`Cart.maximumQuantityPerLine` and, for a tracked variant
    ///   without backorder, its stock); the account's line keeps its place and selection;
    /// - the guest's other lines follow the account's, in their order, with their selection,
    ///   capped the same way; lines whose variant is gone or sold out are left out;
    /// - the guest's voucher code (typed most recently) replaces the account's; without one the
    ///   account keeps its own;
    /// - favorites become the union, each product keeping its earlier date.
    /// - Returns: the lines that were capped, in the guest cart's order, to tell the shopper.
    public var signIn: @Sendable (SignIn) throws -> [Cart.CappedLine]
    /// The shopper's cart (empty when they have none).
    public var loadCart: @Sendable (Shopper) throws -> Cart
    /// Replaces the shopper's whole cart, in one transaction (imports of a cart; tests).
    /// Storefront changes use ``changeCart`` instead: replacing a cart loses what another
    /// request changed since it was loaded.
    public var saveCart: @Sendable (Shopper, Cart) throws -> Void
    /// Applies `changes` to the shopper's cart line by line, in one transaction: each change is
    /// one conditional statement on that line in the database, so simultaneous requests that
    /// change other lines, or add to the same line, never lose each other's work.
    /// - Throws: `CartLineLimitExceeded` when an `.add` would pass its limit (nothing of the call
    ///   is written then), `SessionStoreError.sessionNotFound` / `AccountStoreError.userNotFound`
    ///   for an unknown shopper.
    public var changeCart: @Sendable (Shopper, [CartChange]) throws -> Void
    /// The shopper's favorite products, most recently added first.
    public var favorites: @Sendable (Shopper) throws -> [Product.ID]
    /// Adds (`true`) or removes (`false`) a favorite; adding one already there does nothing.
    public var setFavorite: @Sendable (Shopper, Product.ID, _ isFavorite: Bool, _ at: Date) throws -> Void

    /// Creates a store from its operations.
    public init(
        create: @escaping @Sendable (Session) throws -> Void,
        createWithCart: @escaping @Sendable (Session, [CartChange]) throws -> Void,
        find: @escaping @Sendable (Session.ID) throws -> Session?,
        touch: @escaping @Sendable (Session.ID, Date, Date) throws -> Void,
        renewCSRFToken: @escaping @Sendable (Session.ID, String) throws -> Void,
        delete: @escaping @Sendable (Session.ID) throws -> Void,
        deleteAll: @escaping @Sendable (User.ID, Session.ID?) throws -> Void,
        purgeExpired: @escaping @Sendable (Date) throws -> Int,
        signIn: @escaping @Sendable (SignIn) throws -> [Cart.CappedLine],
        loadCart: @escaping @Sendable (Shopper) throws -> Cart,
        saveCart: @escaping @Sendable (Shopper, Cart) throws -> Void,
        changeCart: @escaping @Sendable (Shopper, [CartChange]) throws -> Void,
        favorites: @escaping @Sendable (Shopper) throws -> [Product.ID],
        setFavorite: @escaping @Sendable (Shopper, Product.ID, Bool, Date) throws -> Void
    ) {
        self.create = create
        self.createWithCart = createWithCart
        self.find = find
        self.touch = touch
        self.renewCSRFToken = renewCSRFToken
        self.delete = delete
        self.deleteAll = deleteAll
        self.purgeExpired = purgeExpired
        self.signIn = signIn
        self.loadCart = loadCart
        self.saveCart = saveCart
        self.changeCart = changeCart
        self.favorites = favorites
        self.setFavorite = setFavorite
    }
}

/// One change to a shopper's cart (see ``SessionStore/changeCart``). A line is its variant and
/// the values chosen for the variant's open options (`ChosenValues`, ``ChosenValues/none`` for
/// most variants).
public enum CartChange: Hashable, Sendable {
    /// Adds `quantity` (≥ 1) to the line of the variant with `chosen` values — creating it,
    /// ticked, after the others when there is none — only if ALL the shopper's lines of the
    /// variant (whatever was chosen: one stock pool) then hold at most `limit` together (from
    /// `Cart.lineLimit(adding:of:)`); adding ticks the line. A variant that no longer exists is
    /// left out, as `saveCart` does.
    case add(productID: Product.ID, variantID: Variant.ID, quantity: Int, limit: Int, chosen: ChosenValues = .none)
    /// Sets the line's quantity (≥ 1) — with a `limit`, only if the shopper's lines of the
    /// variant then hold at most `limit` together (else `CartLineLimitExceeded` with what they
    /// hold now); nothing when the line is gone.
    case setQuantity(Variant.ID, Int, chosen: ChosenValues = .none, limit: Int? = nil)
    /// Removes the line, if any.
    case remove(Variant.ID, chosen: ChosenValues = .none)
    /// Ticks or unticks the variant's line with `chosen` values, every line of the variant
    /// (`chosen` nil), or every line (variant nil). Two lines of one variant (an open option
    /// chosen twice) are ticked one by one (a fresh tester's untick of "M" unticked "S" too).
    case setSelected(Variant.ID?, Bool, chosen: ChosenValues? = nil)
    /// Sets (or, nil, clears) the voucher code.
    case setVoucher(VoucherCode?)
}

/// An add that would take its line past the limit; nothing of that `changeCart` call was written.
public struct CartLineLimitExceeded: Error, Equatable, Sendable {
    /// How many the shopper's lines of the variant hold now together.
    public var inCart: Int
    public init(inCart: Int) { self.inCart = inCart }

    /// Why an `.add` wrote nothing (every engine's conditional upsert), given what the shopper's
    /// lines of the variant hold now (nil: none): the limit — or, when nothing is held and the
    /// quantity fits, the variant is gone, and the add is left out as `saveCart` leaves it out.
    public static func check(refusedAdd quantity: Int, limit: Int, inCart: Int?) throws(CartLineLimitExceeded) {
        if let inCart { throw CartLineLimitExceeded(inCart: inCart) }
        if quantity > limit { throw CartLineLimitExceeded(inCart: 0) }
    }

    /// Why a `.setQuantity` with a limit wrote nothing: the limit when the line exists (the
    /// variant's lines hold `inCart`); nothing when the line is gone.
    public static func check(refusedQuantityWithLineThere lineExists: Bool, inCart: Int?) throws(CartLineLimitExceeded) {
        if lineExists, let inCart { throw CartLineLimitExceeded(inCart: inCart) }
    }
}
