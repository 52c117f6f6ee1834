public import Foundation

/// A dated list of products an account keeps — what a Fake Store client calls a cart
/// (`/api/carts`, issue #10). It is a record, not the storefront's live cart: it holds no stock,
/// has no prices and never changes what the shopper sees in their cart on the web (see
/// `docs/ARCHITECTURE.md` §4 for why).
public struct SavedCart: Identifiable, Hashable, Sendable {
    public typealias ID = Tagged<SavedCart, Int64>

    /// A product and how many of it.
    public struct Line: Hashable, Sendable {
        public var productID: Product.ID
        /// 1…`Cart.maximumQuantityPerLine`.
        public var quantity: Int

        public init(productID: Product.ID, quantity: Int) {
            self.productID = productID
            self.quantity = quantity
        }
    }

    /// Store-assigned, never reused.
    public var id: ID
    /// The account it belongs to.
    public var userID: User.ID
    /// The date the client gave it (to the millisecond), or when it was made.
    public var date: Date
    /// In the order given; one line per product.
    public var lines: [Line]

    public init(id: ID, userID: User.ID, date: Date, lines: [Line]) {
        self.id = id
        self.userID = userID
        self.date = date
        self.lines = lines
    }

    /// The most lines a saved cart holds.
    public static let maximumLines = 100
}
