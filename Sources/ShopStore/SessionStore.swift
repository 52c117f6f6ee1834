public import Foundation
public import ShopCore

/// A visitor's server-side session, identified by a random 128-bit token kept in a cookie.
public struct Session: Hashable, Sendable {
    /// The token: 32 lower-case hex digits (128 random bits).
    public typealias ID = Tagged<Session, String>

    /// The token.
    public var id: ID
    /// When it was created.
    public var createdAt: Date
    /// When it was last used.
    public var lastSeenAt: Date

    /// Creates a session value.
    public init(id: ID, createdAt: Date, lastSeenAt: Date) {
        self.id = id
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// Sessions and the cart that belongs to each.
public struct SessionStore: Sendable {
    /// Stores a new session.
    public var create: @Sendable (Session) throws -> Void
    /// The session with this id, or nil when unknown.
    public var find: @Sendable (Session.ID) throws -> Session?
    /// Records use of the session at the given time.
    public var touch: @Sendable (Session.ID, Date) throws -> Void
    /// The session's cart (empty when it has none).
    public var loadCart: @Sendable (Session.ID) throws -> Cart
    /// Replaces the session's cart, in one transaction.
    public var saveCart: @Sendable (Session.ID, Cart) throws -> Void

    /// Creates a store from its operations.
    public init(
        create: @escaping @Sendable (Session) throws -> Void,
        find: @escaping @Sendable (Session.ID) throws -> Session?,
        touch: @escaping @Sendable (Session.ID, Date) throws -> Void,
        loadCart: @escaping @Sendable (Session.ID) throws -> Cart,
        saveCart: @escaping @Sendable (Session.ID, Cart) throws -> Void
    ) {
        self.create = create
        self.find = find
        self.touch = touch
        self.loadCart = loadCart
        self.saveCart = saveCart
    }
}
