public import Foundation

/// A `Campaign` property, named as in Swift; a campaign-file reader maps it to its own key when
/// it words a message.
public enum CampaignField: String, Hashable, Sendable {
    /// `Campaign.discount`.
    case discount
    /// `Campaign.startsAt`.
    case startsAt
    /// `Campaign.endsAt`.
    case endsAt
    /// `Campaign.target`.
    case target
    /// `Campaign.minimumSubtotal`.
    case minimumSubtotal
    /// `Campaign.usageLimitPerAccount`.
    case usageLimitPerAccount
}

/// Why a campaign (or its discount) is not valid for the shop. Readers of merchant files call
/// `Campaign.validate(currency:)` and reject the whole file on the first error, naming the
/// campaign and `field` (issue #4, item 6).
public enum CampaignValidationError: Error, Hashable, Sendable, LocalizedError {
    /// A percentage must satisfy 0 < p ≤ 100 (issue #4: "percentage off (0 < p ≤ 100)").
    case percentageOutOfRange(Int)
    /// A fixed amount off must be more than zero.
    case fixedAmountNotPositive(Money)
    /// An amount is in `found`, not the shop currency `expected`.
    case currencyMismatch(field: CampaignField, expected: Currency, found: Currency)
    /// A minimum subtotal cannot be negative.
    case minimumSubtotalNegative(Money)
    /// The window `[startsAt, endsAt)` must not be empty: `startsAt < endsAt`.
    case endsNotAfterStart(startsAt: Date, endsAt: Date)
    /// A usage limit per account must be at least 1 (leave it out for no limit).
    case usageLimitNotPositive(Int)
    /// A category target needs a handle; a products target needs at least one product handle.
    case emptyTarget

    /// The campaign property at fault.
    public var field: CampaignField {
        switch self {
        case .percentageOutOfRange, .fixedAmountNotPositive: .discount
        case let .currencyMismatch(field, _, _): field
        case .minimumSubtotalNegative: .minimumSubtotal
        case .endsNotAfterStart: .endsAt
        case .usageLimitNotPositive: .usageLimitPerAccount
        case .emptyTarget: .target
        }
    }

    /// English text naming the field, e.g.
    /// "discount: a percentage must be more than 0 and at most 100, not 150".
    public var errorDescription: String? {
        let problem = switch self {
        case let .percentageOutOfRange(percent): "a percentage must be more than 0 and at most 100, not \(percent)"
        case let .fixedAmountNotPositive(amount): "a fixed amount off must be more than zero, not \(amount)"
        case let .currencyMismatch(_, expected, found): "the amount is in \(found.code), but the shop sells in \(expected.code)"
        case let .minimumSubtotalNegative(amount): "a minimum subtotal cannot be negative (\(amount))"
        case let .endsNotAfterStart(startsAt, endsAt):
            "the end (\(endsAt.formatted(.iso8601))) must be after the start (\(startsAt.formatted(.iso8601)))"
        case let .usageLimitNotPositive(limit): "a usage limit must be at least 1, not \(limit) (leave it out for no limit)"
        case .emptyTarget: "the target names no category or no products"
        }
        return "\(field.rawValue): \(problem)"
    }
}

extension Discount {
    /// Returns the discount unchanged when it is valid in a shop selling in `currency`.
    /// - Throws: `CampaignValidationError.percentageOutOfRange` unless 0 < p ≤ 100;
    ///   `.fixedAmountNotPositive` for a fixed amount ≤ 0; `.currencyMismatch(field: .discount, …)`
    ///   for a fixed amount in another currency.
    public func validated(currency: Currency) throws(CampaignValidationError) -> Discount {
        switch self {
        case let .percentage(percent):
            guard percent > 0, percent <= 100 else { throw .percentageOutOfRange(percent) }
        case let .fixedAmount(amount):
            guard amount.currency == currency else {
                throw .currencyMismatch(field: .discount, expected: currency, found: amount.currency)
            }
            guard amount.minorUnits > 0 else { throw .fixedAmountNotPositive(amount) }
        }
        return self
    }
}

extension Campaign {
    /// Checks the rules the pricing engine relies on, in this order: the discount
    /// (`Discount.validated(currency:)`), `startsAt < endsAt`, the minimum subtotal (shop currency,
    /// not negative), the usage limit (≥ 1) and the target (not empty).
    /// - Parameter currency: the shop currency.
    /// - Throws: the first `CampaignValidationError` found.
    public func validate(currency: Currency) throws(CampaignValidationError) {
        _ = try discount.validated(currency: currency)
        guard startsAt < endsAt else { throw .endsNotAfterStart(startsAt: startsAt, endsAt: endsAt) }
        if let minimumSubtotal {
            guard minimumSubtotal.currency == currency else {
                throw .currencyMismatch(field: .minimumSubtotal, expected: currency, found: minimumSubtotal.currency)
            }
            guard minimumSubtotal.minorUnits >= 0 else { throw .minimumSubtotalNegative(minimumSubtotal) }
        }
        if let usageLimitPerAccount, usageLimitPerAccount < 1 { throw .usageLimitNotPositive(usageLimitPerAccount) }
        switch target {
        case .wholeCart: break
        case let .category(handle): if handle.isEmpty { throw .emptyTarget }
        case let .products(handles): if handles.isEmpty || handles.contains(where: \.isEmpty) { throw .emptyTarget }
        }
    }
}
