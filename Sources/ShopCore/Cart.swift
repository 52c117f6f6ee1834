public import Foundation

/// A shopper's cart: line items of variants with quantities, in the order they were added.
///
/// Rules (issue #2):
/// - a line's quantity is a whole number in `1...min(available stock, Cart.maximumQuantityPerLine)`;
/// - adding a variant already in the cart increases its line;
/// - setting a quantity of 0 removes the line;
/// - negative, non-integer or over-stock quantities are rejected and the cart is left unchanged;
/// - sold-out variants cannot be added.
///
/// Prices are not stored in the cart: `priced(currency:lookup:)` prices lines from the current
/// catalog, in minor units.
///
/// ```swift
/// var cart = Cart()
/// try cart.add(chair.variants[0], of: chair.id, quantity: 2)
/// try cart.setQuantity(0, of: chair.variants[0])      // removes the line
/// ```
public struct Cart: Hashable, Sendable {
    /// The most of one variant a single line may hold.
    public static let maximumQuantityPerLine = 99

    /// Line items, oldest first.
    public private(set) var lines: [LineItem]
    /// The voucher code the shopper entered, if any (whether it applies is decided when pricing).
    public var voucherCode: VoucherCode?

    /// Creates a cart with `lines` (as loaded from storage; not re-validated).
    public init(lines: [LineItem] = [], voucherCode: VoucherCode? = nil) {
        self.lines = lines
        self.voucherCode = voucherCode
    }

    /// Lines the shopper has ticked: only these count toward subtotal, discount and total, and go
    /// on to checkout (issue #4).
    public var selectedLines: [LineItem] { lines.filter(\.isSelected) }

    /// Ticks or unticks one line; does nothing when the variant is not in the cart.
    public mutating func setSelected(_ isSelected: Bool, for variantID: Variant.ID) {
        guard let index = lines.firstIndex(where: { $0.variantID == variantID }) else { return }
        lines[index].isSelected = isSelected
    }

    /// Ticks ("select all") or unticks ("select none") every line.
    public mutating func setAllSelected(_ isSelected: Bool) {
        for index in lines.indices { lines[index].isSelected = isSelected }
    }

    /// Total number of items (sum of quantities), for the tab-bar badge.
    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }

    /// `true` when the cart has no lines.
    public var isEmpty: Bool { lines.isEmpty }

    /// The line for `variantID` with `chosen` values, if any.
    public func line(for variantID: Variant.ID, chosen: ChosenValues = .none) -> LineItem? {
        lines.first { $0.variantID == variantID && $0.chosen == chosen }
    }

    /// The largest quantity one line of `variant` may have now.
    public static func quantityLimit(for variant: Variant) -> Int {
        min(variant.inventory.availableQuantity ?? maximumQuantityPerLine, maximumQuantityPerLine)
    }

    /// Adds `quantity` of `variant` (with the values `chosen` for its open options), merging with
    /// the existing line for the same variant and chosen values. The stock limit counts every
    /// line of the variant (one stock pool, whatever was chosen).
    /// - Throws: `CartError.quantityNotPositive`, `.soldOut`, `.quantityExceedsStock(available:)`
    ///   or `.quantityExceedsMaximum(_:)`; the cart is unchanged when it throws.
    public mutating func add(_ variant: Variant, of productID: Product.ID, quantity: Int,
                             chosen: ChosenValues = .none) throws(CartError) {
        let limit = try Cart.lineLimit(adding: quantity, of: variant)
        let existing = quantityOfVariant(variant.id)
        let (wanted, overflow) = existing.addingReportingOverflow(quantity)
        guard !overflow, wanted <= limit else {
            throw Cart.addRefusal(adding: quantity, of: variant, alreadyInCart: existing)
        }
        if let index = lines.firstIndex(where: { $0.variantID == variant.id && $0.chosen == chosen }) {
            lines[index].quantity += quantity
            lines[index].isSelected = true  // adding more means the shopper wants it
        } else {
            lines.append(LineItem(productID: productID, variantID: variant.id, quantity: quantity, chosen: chosen))
        }
    }

    /// How many of `variantID` all lines hold together (lines differ by chosen values only).
    public func quantityOfVariant(_ variantID: Variant.ID) -> Int {
        lines.reduce(0) { $0 + ($1.variantID == variantID ? $1.quantity : 0) }
    }

    /// The checks of ``add(_:of:quantity:)`` that do not depend on the cart, for stores that add
    /// in one conditional write: the most the variant's line may hold after adding.
    /// - Throws: `CartError.quantityNotPositive`, `.soldOut`, or the refusal for adding
    ///   `quantity` to an empty line.
    public static func lineLimit(adding quantity: Int, of variant: Variant) throws(CartError) -> Int {
        guard quantity >= 1 else { throw .quantityNotPositive }
        guard !variant.inventory.isSoldOut else { throw .soldOut }
        let limit = quantityLimit(for: variant)
        guard quantity <= limit else { throw addRefusal(adding: quantity, of: variant, alreadyInCart: 0) }
        return limit
    }

    /// Why adding `quantity` to a line already holding `alreadyInCart` passes the line limit.
    public static func addRefusal(adding quantity: Int, of variant: Variant, alreadyInCart: Int) -> CartError {
        let (wanted, overflow) = alreadyInCart.addingReportingOverflow(quantity)
        do {
            try check(overflow ? Int.max : wanted, against: variant, alreadyInCart: alreadyInCart)
        } catch {
            return error
        }
        return .quantityExceedsMaximum(maximumQuantityPerLine)  // not reached when the sum is over the limit
    }

    /// Sets the quantity of `variant`'s line; 0 removes it.
    /// - Throws: `CartError.quantityNegative`, `.lineNotFound`, `.quantityExceedsStock(available:)`
    ///   or `.quantityExceedsMaximum(_:)`; the cart is unchanged when it throws.
    /// The variant's other lines (other chosen values) count against its stock.
    public mutating func setQuantity(_ quantity: Int, of variant: Variant, chosen: ChosenValues = .none) throws(CartError) {
        guard quantity >= 0 else { throw .quantityNegative }
        guard let index = lines.firstIndex(where: { $0.variantID == variant.id && $0.chosen == chosen }) else {
            throw .lineNotFound
        }
        if quantity == 0 {
            lines.remove(at: index)
            return
        }
        let others = quantityOfVariant(variant.id) - lines[index].quantity
        try Cart.check(others + quantity, against: variant, alreadyInCart: others)
        lines[index].quantity = quantity
    }

    /// Removes the line for `variantID` with `chosen` values; does nothing when there is none.
    public mutating func remove(_ variantID: Variant.ID, chosen: ChosenValues = .none) {
        lines.removeAll { $0.variantID == variantID && $0.chosen == chosen }
    }

    /// Removes every line.
    public mutating func removeAll() { lines.removeAll() }

    private static func check(_ quantity: Int, against variant: Variant, alreadyInCart: Int) throws(CartError) {
        // The smaller limit speaks: with 100 in stock and 99 in the cart, adding 3 passes the
        // line's maximum first, and "at most 99" is what the shopper can act on.
        if let available = variant.inventory.availableQuantity, available <= maximumQuantityPerLine,
           quantity > available {
            if available == 0 { throw .soldOut }
            throw .quantityExceedsStock(available: available, inCart: alreadyInCart)
        }
        if quantity > maximumQuantityPerLine { throw .quantityExceedsMaximum(maximumQuantityPerLine) }
    }
}

/// One line of a cart: a variant of a product and how many.
public struct LineItem: Hashable, Sendable {
    /// The product the variant belongs to.
    public var productID: Product.ID
    /// The variant being bought.
    public var variantID: Variant.ID
    /// How many, ≥ 1.
    public var quantity: Int
    /// Ticked in the cart: counts toward the totals and goes on to checkout. New lines are ticked.
    public var isSelected: Bool
    /// The values picked for the variant's open options (``ChosenValues/none`` for most
    /// variants). Part of the line's identity: one variant with `Size=M` and with `Size=L` is two
    /// lines sharing the variant's one stock pool.
    public var chosen: ChosenValues

    /// Creates a line item.
    public init(productID: Product.ID, variantID: Variant.ID, quantity: Int, isSelected: Bool = true,
                chosen: ChosenValues = .none) {
        self.productID = productID
        self.variantID = variantID
        self.quantity = quantity
        self.isSelected = isSelected
        self.chosen = chosen
    }
}

/// Quantities typed by people (form fields, query strings).
public enum CartQuantity {
    /// Parses a whole, non-negative quantity such as `"3"` (surrounding spaces ignored).
    /// - Throws: `CartError.quantityNegative` for `"-1"`, `CartError.quantityNotWhole` for `"1.5"`,
    ///   `CartError.quantityNotANumber` for `""` or `"abc"`, and
    ///   `CartError.quantityExceedsMaximum` for a whole number too large to hold
    ///   (`"9999999999999999999999"`: it is too many, not "not a whole number").
    public static func parse(_ text: String) throws(CartError) -> Int {
        let trimmed = text.trimmedOfWhiteSpace  // not Foundation's: 1.4 % of an add to cart
        if let value = Int(trimmed) {
            guard value >= 0 else { throw .quantityNegative }
            return value
        }
        let digits = trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        if !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            throw .quantityExceedsMaximum(Cart.maximumQuantityPerLine)
        }
        if let number = DecimalNumber(trimmed), !trimmed.contains(",") {
            throw number.negative ? .quantityNegative : .quantityNotWhole
        }
        throw .quantityNotANumber
    }
}

/// Why a cart change was refused. The cart is always left as it was.
public enum CartError: Error, Equatable, Sendable, LocalizedError {
    /// The quantity is below zero.
    case quantityNegative
    /// The quantity has a fractional part (`1.5`).
    case quantityNotWhole
    /// The quantity is not a number.
    case quantityNotANumber
    /// Adding needs at least one item.
    case quantityNotPositive
    /// The variant has no stock left.
    case soldOut
    /// Only `available` can be bought; `inCart` of them are already in the cart.
    case quantityExceedsStock(available: Int, inCart: Int)
    /// A line may hold at most this many.
    case quantityExceedsMaximum(Int)
    /// The cart has no line for that variant.
    case lineNotFound
    /// The product or variant does not exist or is not for sale.
    case variantNotFound
    /// The product has options and none of its variants was chosen.
    case variantNotChosen
    /// The variant leaves this option open (WooCommerce "any") and no value was picked for it.
    case valueNotChosen(option: String)
    /// The value picked for an open option is not one of its allowed values.
    case valueNotAllowed(option: String, value: String)

    /// English text for logs and the CLI; the storefront localizes by case instead.
    public var errorDescription: String? {
        switch self {
        case .quantityNegative: "Quantity cannot be negative."
        case .quantityNotWhole: "Quantity must be a whole number."
        case .quantityNotANumber: "Quantity must be a number."
        case .quantityNotPositive: "Quantity must be at least 1."
        case .soldOut: "This item is sold out."
        case let .quantityExceedsStock(available, inCart):
            inCart > 0 ? "Only \(available) available, and \(inCart) already in your cart."
                : "Only \(available) available."
        case let .quantityExceedsMaximum(maximum): "At most \(maximum) of one item per order."
        case .lineNotFound: "That item is not in your cart."
        case .variantNotFound: "That product is not available."
        case .variantNotChosen: "Please choose an option."
        case let .valueNotChosen(option): "Please choose a \(option)."
        case let .valueNotAllowed(option, value): "“\(value)” is not a \(option) you can choose."
        }
    }
}
