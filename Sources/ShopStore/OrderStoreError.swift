public import ShopCore

/// A request the order store refuses outright (a programming error of the caller, not a state
/// of the shop such as sold-out stock: those are `PlaceOrderResult` cases).
public enum OrderStoreError: Error, Hashable, Sendable {
    /// An order or reservation line asks for fewer than 1, or `setStock` got a negative count.
    case invalidQuantity
    /// An order line has no variant id (the store re-checks price and stock by variant).
    case lineWithoutVariant
    /// The draft's amounts are not all in one currency (an order has one).
    case mixedCurrencies
    /// An order has no lines.
    case emptyOrder
}

/// Why an address store refused a change.
public enum AddressStoreError: Error, Hashable, Sendable {
    /// `save` was given an id that is not one of this account's addresses.
    case addressNotFound
}

/// Rules every order store shares (SQLite; PostgreSQL next), so they behave the same.
public enum OrderRules {
    /// Characters of the order number's random part: Crockford's base32 alphabet (digits and
    /// upper-case letters without I, L, O, U; https://www.crockford.com/base32.html), so a
    /// number read over the phone is unambiguous.
    public static let numberAlphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A human-friendly order number: `1000 + sequence`, a dash and 4 random characters of
    /// `numberAlphabet` (`"1042-KX7M"`). Unique because `sequence` (the order id) is.
    public static func number(sequence: Int64) -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = String((0..<4).map { _ in numberAlphabet[Int(generator.next(upperBound: UInt64(32)))] })
        return "\(1000 + sequence)-\(letters)"
    }

    /// The stable text of a shopper used as the owner of idempotency keys:
    /// `"guest:<session id>"` or `"account:<user id>"`.
    public static func ownerKey(_ shopper: Shopper) -> String {
        switch shopper {
        case let .guest(id): "guest:\(id.rawValue)"
        case let .account(id): "account:\(id.rawValue)"
        }
    }

    /// What a reservation holds (`OrderStore.reserve`): each wanted variant is short — 0 when it
    /// is gone or its product unpublished, what is available otherwise — or held when stock
    /// minus others' holds covers it; variants whose stock is not limited need no hold.
    /// - Parameters:
    ///   - wanted: variant and quantity, as `quantities(of:)` gives them.
    ///   - stock: the variant's flags (nil when it does not exist).
    ///   - available: stock minus other shoppers' live holds, for a limited variant.
    /// - Returns: the short variants (empty: hold `held`) and the holds to write, in order.
    public static func holds(for wanted: [(Variant.ID, Int)],
                             stock: (Variant.ID) throws -> (isPublished: Bool, isLimited: Bool)?,
                             available: (Variant.ID) throws -> Int) rethrows
        -> (short: [Variant.ID: Int], held: [(Variant.ID, Int)]) {
        var short: [Variant.ID: Int] = [:]
        var held: [(Variant.ID, Int)] = []
        for (variantID, quantity) in wanted {
            guard let flags = try stock(variantID), flags.isPublished else {
                short[variantID] = 0
                continue
            }
            guard flags.isLimited else { continue }
            let free = try available(variantID)
            if free < quantity { short[variantID] = free } else { held.append((variantID, quantity)) }
        }
        return (short, held)
    }

    /// How much of each live hold on a variant stays when its stock is set to `stock`: holds keep
    /// theirs in the order they were taken while the stock lasts, so the latest are trimmed first,
    /// partly or wholly, and the holds left never exceed the stock (issue #8).
    /// - Parameters:
    ///   - quantities: each live hold's quantity, earliest taken first.
    ///   - stock: the new stock.
    /// - Returns: each hold's kept quantity, in the same order.
    public static func keptHolds(_ quantities: [Int], stock: Int) -> [Int] {
        var left = max(stock, 0)
        return quantities.map { quantity in
            let kept = min(quantity, left)
            left -= kept
            return kept
        }
    }

    /// "M / Red" from a variant's option values (empty without options).
    public static func variantTitle(_ optionValues: [String]) -> String {
        optionValues.joined(separator: " / ")
    }

    /// Checks a request's shape and returns the ordered quantity per variant (lines of the same
    /// variant added up), in first-appearance order.
    /// - Throws: `OrderStoreError.emptyOrder`, `.lineWithoutVariant`, `.invalidQuantity`,
    ///   `.mixedCurrencies` (every amount must be in the total's currency).
    public static func quantities(of request: OrderRequest) throws(OrderStoreError) -> [(Variant.ID, Int)] {
        let quote = request.confirmed
        guard !quote.lines.isEmpty else { throw .emptyOrder }
        let currency = quote.total.currency
        for money in [quote.subtotal, quote.discount, quote.shippingCost] where money.currency != currency {
            throw .mixedCurrencies
        }
        var order: [Variant.ID] = []
        var totals: [Variant.ID: Int] = [:]
        for line in quote.lines {
            guard let variantID = line.variantID else { throw .lineWithoutVariant }
            guard line.quantity >= 1 else { throw .invalidQuantity }
            for money in [line.unitPrice, line.discount, line.total] where money.currency != currency {
                throw .mixedCurrencies
            }
            if totals[variantID] == nil { order.append(variantID) }
            totals[variantID, default: 0] += line.quantity
        }
        return order.map { ($0, totals[$0]!) }
    }

    /// Reservation lines added up per variant, in first-appearance order.
    /// - Throws: `OrderStoreError.invalidQuantity` for a quantity below 1.
    public static func quantities(of lines: [StockRequest]) throws(OrderStoreError) -> [(Variant.ID, Int)] {
        var order: [Variant.ID] = []
        var totals: [Variant.ID: Int] = [:]
        for line in lines {
            guard line.quantity >= 1 else { throw .invalidQuantity }
            if totals[line.variantID] == nil { order.append(line.variantID) }
            totals[line.variantID, default: 0] += line.quantity
        }
        return order.map { ($0, totals[$0]!) }
    }
}
