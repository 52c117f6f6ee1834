public import Foundation

/// A cart priced in one pass: every line with what it costs now and its share of the voucher
/// discount, the totals over the selected lines, and what became of the voucher code. All
/// amounts are in minor units of the shop currency; `subtotal − discount == total` and
/// `0 ≤ discount ≤ subtotal` always hold.
///
/// The cart page, every checkout step, the order placement and (next) the JSON API read their
/// numbers from this one value; `CartPricing.price(_:voucherCode:campaign:now:currency:accountUses:)`
/// makes it.
public struct CartQuote: Hashable, Sendable {
    /// One cart line to price: the product and variant as the catalog holds them now (the
    /// variant's inventory net of other shoppers' holds, when the caller knows them).
    public struct Item: Hashable, Sendable {
        public var product: Product
        public var variant: Variant
        /// The handle of `product.categoryID`'s category, matched by `DiscountTarget.category`;
        /// nil when the product has none (or no campaign targets a category).
        public var categoryHandle: String?
        /// How many, ≥ 1.
        public var quantity: Int
        /// Ticked in the cart: only ticked lines count toward the totals and go to checkout.
        public var isSelected: Bool
        /// The values picked for the variant's open options (WooCommerce "any").
        public var chosen: ChosenValues

        /// Creates an item. With `chosen` values, `variant` is filled with them
        /// (`Variant.filling(_:optionNames:)`): its title names what the shopper picked.
        public init(product: Product, variant: Variant, categoryHandle: String? = nil, quantity: Int,
                    isSelected: Bool = true, chosen: ChosenValues = .none) {
            self.product = product
            self.variant = variant.filling(chosen, optionNames: product.optionNames)
            self.chosen = chosen
            self.categoryHandle = categoryHandle
            self.quantity = quantity
            self.isSelected = isSelected
        }
    }

    /// One priced line.
    public struct Line: Hashable, Sendable {
        /// What was priced.
        public var item: Item
        /// `unitPrice × quantity`, before discount (shown even for unselected lines).
        public var amount: Money
        /// This line's share of the voucher discount, `0...amount`; zero for unselected lines.
        public var discount: Money
        /// `amount − discount`.
        public var total: Money

        public var product: Product { item.product }
        public var variant: Variant { item.variant }
        public var quantity: Int { item.quantity }
        public var isSelected: Bool { item.isSelected }
        /// What one costs now (`variant.price`: the sale price when there is one).
        public var unitPrice: Money { item.variant.price }
        /// The most this line may hold now (stock net of others' holds, and the per-line maximum).
        public var quantityLimit: Int { Cart.quantityLimit(for: item.variant) }
        /// Why the line cannot be bought as it stands — stock fell below its quantity since it was
        /// added (`.soldOut` or `.quantityExceedsStock`) — or nil.
        public var stockProblem: CartError? {
            guard item.quantity > quantityLimit else { return nil }
            return quantityLimit == 0 ? .soldOut : .quantityExceedsStock(available: quantityLimit, inCart: 0)
        }
    }

    /// Every line that can be bought, in cart order, selected or not.
    public var lines: [Line]
    /// Sum of the selected lines' amounts (before discount).
    public var subtotal: Money
    /// Sum of the lines' discounts (zero unless `voucher` is `.applied`).
    public var discount: Money
    /// `subtotal − discount`.
    public var total: Money
    /// What became of the entered voucher code.
    public var voucher: VoucherStatus
    /// Cart lines left out because their product or variant is gone or no longer for sale.
    public var unavailable: [LineItem]

    /// Creates a quote from its parts (the pricing engine makes them; tests may too).
    public init(lines: [Line], subtotal: Money, discount: Money, total: Money, voucher: VoucherStatus,
                unavailable: [LineItem] = []) {
        self.lines = lines
        self.unavailable = unavailable
        self.subtotal = subtotal
        self.discount = discount
        self.total = total
        self.voucher = voucher
    }

    /// An empty cart's quote: nothing to price, and no voucher decided (an entered code waits
    /// for lines, so it reads `.none`).
    public static func empty(_ currency: Currency) -> CartQuote {
        CartQuote(lines: [], subtotal: .zero(currency), discount: .zero(currency), total: .zero(currency), voucher: .none)
    }

    /// The ticked lines: what checkout orders.
    public var selectedLines: [Line] { lines.filter(\.isSelected) }
    /// Items in the cart that can be bought (the tab-bar badge).
    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
    /// Items on the ticked lines.
    public var selectedItemCount: Int { lines.reduce(0) { $0 + ($1.isSelected ? $1.quantity : 0) } }
    /// `true` when no line can be bought.
    public var isEmpty: Bool { lines.isEmpty }
    /// The campaign whose discount is in the totals, if any.
    public var appliedCampaign: Campaign? {
        if case let .applied(campaign) = voucher { campaign } else { nil }
    }
    /// The line of `variantID`, if any.
    public func line(for variantID: Variant.ID) -> Line? { lines.first { $0.variant.id == variantID } }
}
