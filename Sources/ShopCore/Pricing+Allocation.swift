import Foundation

// The two rounding steps of the pricing engine, in integer minor units only (docs/pricing.md).

extension CartPricing {
    /// `percent` % of `amount`, rounded half-up to the minor unit once:
    /// `(amount × percent + 50) / 100`. The percentage is clamped to `0...100` and a negative
    /// amount counts as zero, so the result is always in `0...amount`.
    ///
    /// 10 % of 0.05 → 0.01 (half-up at exactly .5); 10 % of 0.04 → 0.00; 15 % of 65.00 → 9.75.
    /// - Throws: `MoneyError.overflow` when `amount × percent` does not fit in `Int64`.
    static func percentage(_ percent: Int, of amount: Money) throws(MoneyError) -> Money {
        let base = nonNegative(amount).minorUnits
        let rate = Int64(min(max(percent, 0), 100))
        let (scaled, overflow) = base.multipliedReportingOverflow(by: rate)
        guard !overflow else { throw .overflow }
        let (rounded, overflow2) = scaled.addingReportingOverflow(50)
        guard !overflow2 else { throw .overflow }
        return Money(minorUnits: rounded / 100, currency: amount.currency)
    }

    /// Splits `total` across `weights` in proportion to them by the largest-remainder method:
    /// each share is first `⌊total × weight / Σweights⌋`; the minor units left over go, one each,
    /// to the shares with the largest remainders, ties to the earlier weight. The shares add up
    /// exactly to `total`.
    ///
    /// 22.00 over 10.00 / 13.00 / 10.00 → 6.67 / 8.67 / 6.66 (all three remainders are equal, so
    /// the two left-over cents go to the first two lines).
    ///
    /// Negative weights count as zero. `total` is expected in `0...Σweights` (the caller caps it),
    /// which keeps every share within its weight; when all weights are zero every share is zero.
    /// Products are computed full width (128 bits), so nothing overflows.
    static func allocate(_ total: Money, proportionalTo weights: [Money]) -> [Money] {
        let currency = total.currency
        let parts = weights.map { nonNegative($0).minorUnits }
        var sum: Int64 = 0
        for part in parts {
            let (next, overflow) = sum.addingReportingOverflow(part)
            sum = overflow ? .max : next  // the caller has summed them with checks already
        }
        let amount = max(total.minorUnits, 0)
        guard sum > 0, amount > 0 else { return parts.map { _ in Money.zero(currency) } }

        var shares: [Int64] = []
        var remainders: [Int64] = []
        shares.reserveCapacity(parts.count)
        remainders.reserveCapacity(parts.count)
        var allocated: Int64 = 0
        for part in parts {
            // amount × part / sum, exact: part ≤ sum, so the quotient ≤ amount fits in Int64.
            let product = amount.multipliedFullWidth(by: part)
            let (quotient, remainder) = sum.dividingFullWidth(product)
            shares.append(quotient)
            remainders.append(remainder)
            allocated += quotient
        }
        // Fewer left-over units than shares with a non-zero remainder: Σremainder / sum < count.
        let leftover = amount - allocated
        if leftover > 0 {
            let order = parts.indices.sorted { a, b in
                remainders[a] != remainders[b] ? remainders[a] > remainders[b] : a < b
            }
            for index in order.prefix(Int(leftover)) { shares[index] += 1 }
        }
        return shares.map { Money(minorUnits: $0, currency: currency) }
    }

    /// `amount`, or zero in its currency when it is negative.
    static func nonNegative(_ amount: Money) -> Money {
        amount.minorUnits < 0 ? Money.zero(amount.currency) : amount
    }
}
