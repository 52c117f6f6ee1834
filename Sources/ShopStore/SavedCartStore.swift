public import Foundation
public import ShopCore

/// Which saved carts to list.
public struct SavedCartQuery: Hashable, Sendable {
    /// One account's carts, or nil for every account's.
    public var userID: User.ID?
    /// Dated on or after this.
    public var start: Date?
    /// Dated before this (exclusive).
    public var end: Date?
    /// By id, highest first.
    public var descending: Bool
    /// At most this many, or nil for all.
    public var limit: Int?

    public init(userID: User.ID? = nil, start: Date? = nil, end: Date? = nil, descending: Bool = false, limit: Int? = nil) {
        self.userID = userID
        self.start = start
        self.end = end
        self.descending = descending
        self.limit = limit
    }
}

/// Changes to a saved cart; nil leaves a field as it is. `lines` replaces every line.
public struct SavedCartChange: Hashable, Sendable {
    public var userID: User.ID?
    public var date: Date?
    public var lines: [SavedCart.Line]?

    public init(userID: User.ID? = nil, date: Date? = nil, lines: [SavedCart.Line]? = nil) {
        self.userID = userID
        self.date = date
        self.lines = lines
    }
}

/// Why a saved-cart write was refused.
public enum SavedCartStoreError: Error, Hashable, Sendable {
    /// A line names a product that does not exist or is not published (at the time of the write).
    case productUnavailable(Product.ID)
    /// The owner named does not exist.
    case userNotFound
}

/// Saved carts (the Fake Store carts of the API). Every write is one transaction; a change
/// writes only the fields it names, and only while the cart still belongs to the owner the
/// caller checked (`ownedBy`), so simultaneous changes of different fields all land and a cart
/// moved meanwhile is not written.
public struct SavedCartStore: Sendable {
    /// The carts the query selects, by id.
    public var carts: @Sendable (SavedCartQuery) throws -> [SavedCart]
    /// One cart.
    public var cart: @Sendable (SavedCart.ID) throws -> SavedCart?
    /// Stores a new cart. - Throws: `SavedCartStoreError` (nothing stored).
    public var insert: @Sendable (_ userID: User.ID, _ date: Date, _ lines: [SavedCart.Line]) throws -> SavedCart
    /// Changes a cart when it exists and (when `ownedBy` is given) belongs to that account; nil
    /// otherwise. - Throws: `SavedCartStoreError` (nothing changed).
    public var change: @Sendable (SavedCart.ID, _ ownedBy: User.ID?, SavedCartChange) throws -> SavedCart?
    /// Deletes a cart under the same condition; returns it as it was, or nil.
    public var delete: @Sendable (SavedCart.ID, _ ownedBy: User.ID?) throws -> SavedCart?

    public init(carts: @escaping @Sendable (SavedCartQuery) throws -> [SavedCart],
                cart: @escaping @Sendable (SavedCart.ID) throws -> SavedCart?,
                insert: @escaping @Sendable (User.ID, Date, [SavedCart.Line]) throws -> SavedCart,
                change: @escaping @Sendable (SavedCart.ID, User.ID?, SavedCartChange) throws -> SavedCart?,
                delete: @escaping @Sendable (SavedCart.ID, User.ID?) throws -> SavedCart?) {
        self.carts = carts
        self.cart = cart
        self.insert = insert
        self.change = change
        self.delete = delete
    }
}
