extension Cart {
    /// A line whose quantity was lowered while merging, and why.
    public struct CappedLine: Hashable, Sendable {
        /// The variant.
        public var variantID: Variant.ID
        /// The quantity both carts asked for together.
        public var requested: Int
        /// The quantity kept (the variant's limit).
        public var kept: Int
    }

    /// The account's cart (`self`) with a guest cart merged in, as at sign-in (issue #3):
    /// the same variant becomes one line with the quantities added, capped at what can be bought
    /// (`Cart.quantityLimit(for:)`); the guest's other lines follow the account's, in their order.
    /// Lines whose variant no longer exists or is sold out are dropped.
    /// - Parameters:
    ///   - guest: the cart built before signing in.
    ///   - variant: the current variant for a line, or nil when it is gone or not for sale.
    /// - Returns: the merged cart and the lines that had to be capped (to tell the shopper).
    public func merging(_ guest: Cart, variant: (LineItem) -> Variant?) -> (cart: Cart, capped: [CappedLine]) {
        var merged: [LineItem] = []
        var capped: [CappedLine] = []
        var indexByVariant: [Variant.ID: Int] = [:]
        for line in lines + guest.lines {
            guard let current = variant(line) else { continue }
            let limit = Cart.quantityLimit(for: current)
            guard limit > 0 else { continue }
            if let index = indexByVariant[line.variantID] {
                let requested = merged[index].quantity + line.quantity
                merged[index].quantity = min(requested, limit)
                if requested > limit {
                    capped.removeAll { $0.variantID == line.variantID }
                    capped.append(CappedLine(variantID: line.variantID, requested: requested, kept: limit))
                }
            } else {
                var kept = line
                kept.quantity = min(line.quantity, limit)
                if line.quantity > limit {
                    capped.append(CappedLine(variantID: line.variantID, requested: line.quantity, kept: limit))
                }
                indexByVariant[line.variantID] = merged.count
                merged.append(kept)
            }
        }
        // The code typed most recently (as a guest) wins; else the account keeps its own.
        return (Cart(lines: merged, voucherCode: guest.voucherCode ?? voucherCode), capped)
    }
}
