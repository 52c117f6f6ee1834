public import Foundation

/// Why an entered voucher code gives no discount. The web layer turns each case into a message
/// for the shopper (issue #4, item 7); `errorDescription` is English for logs and the CLI.
public enum VoucherProblem: Error, Hashable, Sendable, LocalizedError {
    /// No campaign has this code.
    case unknown
    /// The campaign starts at `startsAt` (inclusive), later than now.
    case notStarted(startsAt: Date)
    /// The campaign ended at `endedAt` (its exclusive end), at or before now.
    case expired(endedAt: Date)
    /// The selected subtotal before discount is below `minimum`; `missing` more (in minor units
    /// of the shop currency) would meet it.
    case minimumNotMet(minimum: Money, missing: Money)
    /// No selected line is covered by the campaign's target (or nothing is selected).
    case notApplicable
    /// The code may be used only so many times per account, and this shopper is not signed in.
    case signInRequired
    /// This account has used the code as many times as allowed.
    case usageLimitReached(limit: Int)

    /// English text, e.g. "Add 5.00 USD more to use this code (minimum 50.00 USD)."
    public var errorDescription: String? {
        switch self {
        case .unknown: "This code is not valid."
        case let .notStarted(startsAt): "This code can be used from \(startsAt.formatted(.iso8601))."
        case let .expired(endedAt): "This code expired at \(endedAt.formatted(.iso8601))."
        case let .minimumNotMet(minimum, missing): "Add \(missing) more to use this code (minimum \(minimum))."
        case .notApplicable: "This code does not apply to any selected item."
        case .signInRequired: "Sign in to use this code."
        case let .usageLimitReached(limit):
            "This code can be used \(limit == 1 ? "once" : "\(limit) times") per account, and you have used it."
        }
    }
}

/// What became of the voucher code in the cart, re-decided on every pricing.
public enum VoucherStatus: Hashable, Sendable {
    /// No code was entered.
    case none
    /// The code's campaign applies; its discount is in the totals.
    case applied(Campaign)
    /// The code was entered but gives no discount now, for the reason given. The code stays in
    /// the cart, so it applies again as soon as the cart qualifies.
    case rejected(code: VoucherCode, VoucherProblem)
}

/// The pricing engine: a pure function from cart lines, the entered voucher code, its campaign
/// and the time to the cart totals (issue #4, item 7; worked examples in `docs/pricing.md`).
///
/// Rules:
/// - Only selected lines count toward subtotal, discount and total.
/// - A line amount is `unitPrice × quantity`; the unit price is what the shopper pays (a sale
///   price is the price, the compare-at price plays no part).
/// - The voucher is decided in this order: no code → `.none`; no campaign for the code (or a
///   campaign with another code) → `.unknown`; `now < startsAt` → `.notStarted`;
///   `now ≥ endsAt` → `.expired`; no selected line covered by the target → `.notApplicable`;
///   selected subtotal (before discount) below the minimum → `.minimumNotMet`. Otherwise the
///   campaign applies. A rejected code gives no discount at all.
/// - A percentage `p` is taken off each qualifying line amount (never per unit) and rounded
///   half-up to the minor unit once per line: `(amount × p + 50) / 100` in `Int64` minor units.
/// - A fixed amount is capped at the sum of the qualifying line amounts, then allocated across
///   them in proportion to their amounts by the largest-remainder method (ties go to the earlier
///   line), so the shares add up exactly to the discount.
/// - No line, subtotal or total goes below zero.
/// - All arithmetic is `Int64` minor units through `Money`'s checked operations.
///
/// ```swift
/// let quote = try CartPricing.price(items, voucherCode: cart.voucherCode,
///                                   campaign: cart.voucherCode.flatMap(campaigns.byCode),
///                                   now: env.now(), currency: .usd)
/// quote.total          // what the shopper pays for the selected lines
/// ```
public enum CartPricing {
    /// Prices the cart's items and decides the voucher: the one pricing pass.
    /// - Parameters:
    ///   - items: the cart's lines in cart order, selected or not, as the catalog holds them now.
    ///   - voucherCode: the code the shopper entered (`Cart.voucherCode`), or nil.
    ///   - campaign: the campaign found for `voucherCode`; nil when the code is unknown or none
    ///     was entered.
    ///   - now: the instant to evaluate the campaign's `[startsAt, endsAt)` window at.
    ///   - currency: the shop currency; every price, the fixed discount and the minimum subtotal
    ///     must be in it.
    ///   - accountUses: how many orders of the signed-in shopper's account already used this code,
    ///     or nil for a guest; only campaigns with `usageLimitPerAccount` look at it.
    /// - Returns: every line priced, and subtotal, discount and total over the selected lines.
    /// - Throws: `MoneyError.currencyMismatch` when a price, the fixed discount or the minimum is
    ///   in another currency (campaigns are validated on import, so this is a wiring error);
    ///   `MoneyError.overflow` when an amount does not fit in `Int64` minor units.
    public static func price(_ items: [CartQuote.Item], voucherCode: VoucherCode?, campaign: Campaign?,
                             now: Date, currency: Currency, accountUses: Int? = 0) throws(MoneyError) -> CartQuote {
        var amounts: [Money] = []
        amounts.reserveCapacity(items.count)
        var subtotal = Money.zero(currency)
        for item in items {
            guard item.variant.price.currency == currency else {
                throw .currencyMismatch(currency, item.variant.price.currency)
            }
            let amount = try item.variant.price.multiplied(by: item.quantity)
            amounts.append(amount)
            if item.isSelected { subtotal = try subtotal.adding(amount) }
        }

        var discounts = Array(repeating: Money.zero(currency), count: items.count)
        let voucher = try decideVoucher(voucherCode, campaign: campaign, items: items, subtotal: subtotal, now: now,
                                        accountUses: accountUses)
        if case let .applied(campaign) = voucher {
            let qualifying = items.indices.filter { items[$0].isSelected && campaign.target.covers(items[$0]) }
            let shares = try campaign.discount.shares(of: qualifying.map { amounts[$0] }, currency: currency)
            for (index, share) in zip(qualifying, shares) { discounts[index] = share }
        }

        var lines: [CartQuote.Line] = []
        lines.reserveCapacity(items.count)
        var discount = Money.zero(currency)
        for (index, item) in items.enumerated() {
            lines.append(CartQuote.Line(item: item, amount: amounts[index], discount: discounts[index],
                                        total: try amounts[index].subtracting(discounts[index])))
            discount = try discount.adding(discounts[index])
        }
        return CartQuote(lines: lines, subtotal: subtotal, discount: discount,
                         total: try subtotal.subtracting(discount), voucher: voucher)
    }

    /// Decides the voucher (see the order of checks on `CartPricing`).
    static func decideVoucher(_ code: VoucherCode?, campaign: Campaign?, items: [CartQuote.Item],
                              subtotal: Money, now: Date, accountUses: Int? = 0) throws(MoneyError) -> VoucherStatus {
        guard let code else { return .none }
        // A paused code is answered as one that does not exist (as shops answer a deactivated
        // discount): the shopper learns nothing of the merchant's plans for it.
        guard let campaign, campaign.voucherCode == code, !campaign.isPaused else { return .rejected(code: code, .unknown) }
        if now < campaign.startsAt { return .rejected(code: code, .notStarted(startsAt: campaign.startsAt)) }
        if now >= campaign.endsAt { return .rejected(code: code, .expired(endedAt: campaign.endsAt)) }
        if let limit = campaign.usageLimitPerAccount {
            guard let accountUses else { return .rejected(code: code, .signInRequired) }
            if accountUses >= limit { return .rejected(code: code, .usageLimitReached(limit: limit)) }
        }
        guard items.contains(where: { $0.isSelected && campaign.target.covers($0) }) else {
            return .rejected(code: code, .notApplicable)
        }
        if let minimum = campaign.minimumSubtotal {
            guard minimum.currency == subtotal.currency else {
                throw .currencyMismatch(subtotal.currency, minimum.currency)
            }
            if subtotal.minorUnits < minimum.minorUnits {
                return .rejected(code: code, .minimumNotMet(minimum: minimum, missing: try minimum.subtracting(subtotal)))
            }
        }
        return .applied(campaign)
    }
}

extension DiscountTarget {
    /// `true` when a product with these handles is covered: every product for `.wholeCart`, the
    /// products whose category handle equals `handle` for `.category`, the listed product handles
    /// for `.products`. Handles are compared exactly (they are already normalized, lower case).
    public func covers(productHandle: String, categoryHandle: String?) -> Bool {
        switch self {
        case .wholeCart: true
        case let .category(handle): categoryHandle == handle
        case let .products(handles): handles.contains(productHandle)
        }
    }

    /// `true` when the item's product is covered (selection is not considered here).
    public func covers(_ item: CartQuote.Item) -> Bool {
        covers(productHandle: item.product.handle, categoryHandle: item.categoryHandle)
    }
}

extension Discount {
    /// How much this discount takes off one amount on its own, e.g. a campaign price on a product
    /// card: `amount − amountOff(amount)`. A percentage is rounded half-up once; a fixed amount is
    /// capped at `amount`. Never negative, never more than `amount`.
    /// - Parameter amount: a non-negative amount in minor units.
    /// - Throws: `MoneyError.currencyMismatch` for a fixed amount in another currency;
    ///   `MoneyError.overflow` when `amount × percentage` does not fit in `Int64`.
    public func amountOff(_ amount: Money) throws(MoneyError) -> Money {
        try shares(of: [amount], currency: amount.currency)[0]
    }

    /// This discount spread over qualifying line `amounts` (same order): a percentage per line,
    /// or a fixed amount (capped at their sum) allocated by largest remainder.
    func shares(of amounts: [Money], currency: Currency) throws(MoneyError) -> [Money] {
        switch self {
        case let .percentage(percent):
            var shares: [Money] = []
            shares.reserveCapacity(amounts.count)
            for amount in amounts { shares.append(try CartPricing.percentage(percent, of: amount)) }
            return shares
        case let .fixedAmount(fixed):
            guard fixed.currency == currency else { throw .currencyMismatch(currency, fixed.currency) }
            let base = try Money.sum(amounts.map { CartPricing.nonNegative($0) }, currency: currency)
            let capped = Money(minorUnits: min(max(fixed.minorUnits, 0), base.minorUnits), currency: currency)
            return CartPricing.allocate(capped, proportionalTo: amounts)
        }
    }
}
