public import Foundation
public import ShopCore
public import ShopStore

/// Why a saved-cart operation was refused (beyond `AccessError`).
public enum SavedCartError: Error, Hashable, Sendable {
    /// No such cart — or another shopper's, so ids tell a stranger nothing.
    case notFound
    /// A field breaks a rule; `field` names it as the API spells it (`products[1].quantity`).
    case invalid(field: String, message: String)
}

/// Saved carts — the Fake Store carts of `/api/carts` (issue #10): dated product lists, each
/// belonging to one account. Shoppers read and write their own (another's is `.notFound`);
/// operators every one, and may file a cart for any account.
///
/// Lines follow the cart's rules: a quantity is a whole number in
/// `1...Cart.maximumQuantityPerLine`, the product must exist and be published, a product appears
/// once, at most `SavedCart.maximumLines` lines. A saved cart holds no stock and has no prices: it
/// is a record of what a client put together, not the storefront cart.
///
/// ```swift
/// let carts = SavedCartService(carts: store, catalog: catalog, now: Date.init)
/// let cart = try carts.create(.init(lines: [SavedCart.Line(productID: chair.id, quantity: 2)]), by: shopper)
/// ```
public struct SavedCartService: Sendable {
    public var carts: SavedCartStore
    public var catalog: CatalogStore
    public var now: @Sendable () -> Date

    public init(carts: SavedCartStore, catalog: CatalogStore, now: @escaping @Sendable () -> Date) {
        self.carts = carts
        self.catalog = catalog
        self.now = now
    }

    /// A cart's fields as a client writes them (nil where left out; the owner is the caller when
    /// left out on create): the store's change, checked here before it is written.
    public typealias Fields = SavedCartChange

    /// Every cart `viewer` may see (an operator's: all; a shopper's: their own), by id.
    /// - Parameter filter: dates, order and limit (its `userID` is decided here).
    public func carts(_ filter: SavedCartQuery, visibleTo viewer: User) throws -> [SavedCart] {
        var query = filter
        query.userID = viewer.isOperator ? nil : viewer.id
        return try carts.carts(query)
    }

    /// One account's carts. - Throws: `.notFound` when `viewer` may not see that account's.
    public func carts(ofUser userID: User.ID, _ filter: SavedCartQuery, visibleTo viewer: User) throws -> [SavedCart] {
        guard viewer.isOperator || viewer.id == userID else { throw SavedCartError.notFound }
        var query = filter
        query.userID = userID
        return try carts.carts(query)
    }

    /// One cart. - Throws: `.notFound` for an unknown id and for another shopper's cart.
    public func cart(_ id: SavedCart.ID, visibleTo viewer: User) throws -> SavedCart {
        guard let cart = try carts.cart(id), viewer.isOperator || cart.userID == viewer.id else { throw SavedCartError.notFound }
        return cart
    }

    /// Files a new cart, dated `fields.date` or now.
    /// - Throws: `AccessError.operatorOnly` when a shopper names another owner, `.invalid`, or a store error.
    public func create(_ fields: Fields, by account: User) throws -> SavedCart {
        let owner = try owner(fields.userID, by: account)
        let lines = try checked(fields.lines ?? [])
        return try write { try carts.insert(owner, fields.date ?? now(), lines) }
    }

    /// Changes a cart in one store transaction.
    /// - Parameters:
    ///   - replacing: `true` (PUT): `products` is required and a date left out becomes now;
    ///     `false` (PATCH): only the fields given change (`products`, when given, replaces every line).
    /// - Throws: `.notFound` (unknown, or another shopper's), `AccessError`, `.invalid`, or a store error.
    public func update(_ id: SavedCart.ID, _ fields: Fields, replacing: Bool, by account: User) throws -> SavedCart {
        if replacing, fields.lines == nil { throw SavedCartError.invalid(field: "products", message: "PUT needs “products”.") }
        var change = SavedCartChange(date: fields.date ?? (replacing ? now() : nil))
        if let userID = fields.userID { change.userID = try owner(userID, by: account) }
        if let lines = fields.lines { change.lines = try checked(lines) }
        guard let changed = try write({ try carts.change(id, account.isOperator ? nil : account.id, change) }) else {
            throw SavedCartError.notFound
        }
        return changed
    }

    /// Deletes a cart; returns it as it was.
    /// - Throws: `.notFound` (unknown, or another shopper's), or a store error.
    public func delete(_ id: SavedCart.ID, by account: User) throws -> SavedCart {
        guard let deleted = try carts.delete(id, account.isOperator ? nil : account.id) else { throw SavedCartError.notFound }
        return deleted
    }

    // MARK: Rules

    /// The owner a write names: the caller's own account, or any for an operator.
    private func owner(_ userID: User.ID?, by account: User) throws -> User.ID {
        guard let userID, userID != account.id else { return account.id }
        try account.requireOperator()
        return userID
    }

    /// The lines checked: quantities, published products, no product twice, not too many.
    private func checked(_ lines: [SavedCart.Line]) throws -> [SavedCart.Line] {
        guard lines.count <= SavedCart.maximumLines else {
            throw SavedCartError.invalid(field: "products", message: "A cart holds at most \(SavedCart.maximumLines) products.")
        }
        var seen: Set<Product.ID> = []
        for (index, line) in lines.enumerated() {
            guard line.productID.rawValue > 0 else {
                throw SavedCartError.invalid(field: "products[\(index)].productId",
                                             message: "“\(line.productID.rawValue)” is not a product id.")
            }
            guard seen.insert(line.productID).inserted else {
                throw SavedCartError.invalid(field: "products[\(index)].productId",
                                             message: "Product \(line.productID.rawValue) is in the cart twice; send it once with its quantity.")
            }
            guard (1...Cart.maximumQuantityPerLine).contains(line.quantity) else {
                throw SavedCartError.invalid(field: "products[\(index)].quantity",
                                             message: "A quantity is a whole number from 1 to \(Cart.maximumQuantityPerLine).")
            }
        }
        let ids = lines.map(\.productID)
        let found = try catalog.productsByID(ids)
        for (index, id) in ids.enumerated() where found[id]?.isPublished != true {
            throw SavedCartError.invalid(field: "products[\(index)].productId", message: "There is no product \(id.rawValue).")
        }
        return lines
    }

    /// Runs a store write, its refusals as `SavedCartError`.
    private func write<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let SavedCartStoreError.productUnavailable(id) {
            throw SavedCartError.invalid(field: "products", message: "There is no product \(id.rawValue).")
        } catch SavedCartStoreError.userNotFound {
            throw SavedCartError.invalid(field: "userId", message: "There is no such user.")
        }
    }
}
