extension Cart {
    /// A line whose quantity was lowered when a guest's cart was merged into an account's at
    /// sign-in (issue #3), and why: the two carts together asked for more than the line's limit
    /// (`Cart.quantityLimit(for:)` — the per-line maximum and, for tracked variants without
    /// backorder, the stock). The store merges inside its sign-in transaction (issue #9) and
    /// reports these so the page can tell the shopper.
    public struct CappedLine: Hashable, Sendable {
        /// The line's product.
        public var productID: Product.ID
        /// The variant.
        public var variantID: Variant.ID
        /// The quantity both carts asked for together.
        public var requested: Int
        /// The quantity kept (the variant's limit).
        public var kept: Int

        /// Creates the value.
        public init(productID: Product.ID, variantID: Variant.ID, requested: Int, kept: Int) {
            self.productID = productID
            self.variantID = variantID
            self.requested = requested
            self.kept = kept
        }
    }
}
