/// A change the back office applies to many products at once (issue #16, point 4: "bulk
/// price/stock changes"), to every variant of each. One home for the rule, so the page and any
/// later caller (an API, a CLI) change prices the same way.
public enum BulkChange: Hashable, Sendable {
    /// Every variant's price becomes this amount.
    case setPrice(Money)
    /// Every variant's price changes by this many percent (−99…+1000), rounded half-up to the
    /// minor unit once: `(price × (100 + percent) + 50) / 100`. "Was" prices stay.
    case adjustPrice(percent: Int)
    /// Every variant's stock becomes this count, tracked from now on (backorders as they were).
    case setStock(Int)

    /// The percentages ``adjustPrice(percent:)`` takes.
    public static let percentRange = -99...1000

    /// Why a bulk change cannot be applied.
    public enum Problem: Error, Hashable, Sendable {
        case percentOutOfRange(Int)
        case negativePrice
        case negativeStock
        case overflow
        /// The product's lowest price is not the one the list showed: it changed since, perhaps
        /// by this very change sent twice.
        case changedSinceShown
    }

    /// Whether applying the change twice gives another result than applying it once: a
    /// percentage does (10 % twice is 21 %), a price or a stock set does not. Such a change is
    /// applied only to a product still as the list showed it (``applied(to:shownLowestPriceMinor:)``).
    public var compounds: Bool {
        if case .adjustPrice = self { true } else { false }
    }

    /// ``applied(to:)``, refused with ``Problem/changedSinceShown`` when the change compounds
    /// and `draft`'s lowest price is not `shownLowestPriceMinor` (nil: nothing was shown to
    /// compare with) — a form sent twice (a double click, a resend after a timeout) applies once.
    public func applied(to draft: ProductDraft, shownLowestPriceMinor: Int64?) throws(Problem) -> ProductDraft {
        if compounds, let shown = shownLowestPriceMinor,
           draft.variants.map(\.price.minorUnits).min() != shown {
            throw .changedSinceShown
        }
        return try applied(to: draft)
    }

    /// `draft` with the change applied to each variant.
    public func applied(to draft: ProductDraft) throws(Problem) -> ProductDraft {
        var next = draft
        for index in next.variants.indices {
            switch self {
            case let .setPrice(price):
                guard price.minorUnits >= 0 else { throw .negativePrice }
                guard price.minorUnits <= VariantDraft.maximumPriceMinorUnits else { throw .overflow }
                next.variants[index].price = price
            case let .adjustPrice(percent):
                guard Self.percentRange.contains(percent) else { throw .percentOutOfRange(percent) }
                let price = next.variants[index].price
                let (product, overflow) = price.minorUnits.multipliedReportingOverflow(by: Int64(100 + percent))
                guard !overflow, product <= Int64.max - 50 else { throw .overflow }
                guard (product + 50) / 100 <= VariantDraft.maximumPriceMinorUnits else { throw .overflow }
                next.variants[index].price = Money(minorUnits: (product + 50) / 100, currency: price.currency)
            case let .setStock(quantity):
                guard quantity >= 0 else { throw .negativeStock }
                guard quantity <= VariantDraft.maximumStock else { throw .overflow }
                let backorder = if case let .tracked(_, allows) = next.variants[index].inventory { allows } else { false }
                next.variants[index].inventory = .tracked(quantity: quantity, allowsBackorder: backorder)
            }
        }
        return next
    }
}
