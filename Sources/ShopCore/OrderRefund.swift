/// A refund of some units of one order line (issue #16: partial refunds).
public struct LineRefund: Hashable, Sendable {
    /// The line's position, from 1, as the order page and `shoppable orders show` number them.
    public var line: Int
    public var quantity: Int

    public init(line: Int, quantity: Int) {
        self.line = line
        self.quantity = quantity
    }
}

/// What a refund of lines gives back, line by line, decided from the order as it is.
public struct RefundPlan: Hashable, Sendable {
    public struct Line: Hashable, Sendable {
        /// From 1.
        public var line: Int
        public var quantity: Int
        public var amount: Money
        public var variantID: Variant.ID?
    }

    public var lines: [Line]
    public var total: Money
}

/// Why a refund of lines was refused (nothing changed).
public enum RefundError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No line with a quantity above zero was asked for.
    case nothingToRefund
    /// The order has no line at this position.
    case unknownLine(Int)
    /// A line was named twice.
    case repeatedLine(Int)
    /// More units than the line has left to refund.
    case quantityNotAvailable(line: Int, remaining: Int)

    /// For operators (the CLI); the back office says it in the staff member's language.
    public var description: String {
        switch self {
        case .nothingToRefund: "nothing to refund: name at least one line and a quantity above 0"
        case let .unknownLine(line): "the order has no line \(line)"
        case let .repeatedLine(line): "line \(line) is named twice"
        case let .quantityNotAvailable(line, remaining): "line \(line) has \(remaining) unit\(remaining == 1 ? "" : "s") left to refund"
        }
    }
}

extension OrderLine {
    /// What the first `units` units of this line come to, rounded down to the minor unit: the
    /// line's total (after its discount share) shared evenly, so that refunding every unit, in
    /// any number of steps, gives back exactly the line's total.
    public func amount(ofFirst units: Int) -> Money {
        guard quantity > 0 else { return Money(minorUnits: 0, currency: total.currency) }
        return Money(minorUnits: total.minorUnits * Int64(units) / Int64(quantity), currency: total.currency)
    }

    /// What has been refunded of this line so far.
    public var refunded: Money { amount(ofFirst: refundedQuantity) }
}

extension Order {
    /// The refund of `refunds` from this order as it is now: each line's units beyond those
    /// refunded already, at `OrderLine.amount(ofFirst:)` (the difference of two cumulative
    /// amounts, so the rounding never gives back more than the line cost). Shipping is not
    /// refunded by a refund of lines.
    /// - Throws: `RefundError`.
    public func refundPlan(_ refunds: [LineRefund]) throws(RefundError) -> RefundPlan {
        var seen = Set<Int>(), planned: [RefundPlan.Line] = []
        for refund in refunds {
            guard seen.insert(refund.line).inserted else { throw .repeatedLine(refund.line) }
            guard lines.indices.contains(refund.line - 1) else { throw .unknownLine(refund.line) }
            let line = lines[refund.line - 1]
            let remaining = line.quantity - line.refundedQuantity
            guard refund.quantity >= 0, refund.quantity <= remaining else {
                throw .quantityNotAvailable(line: refund.line, remaining: remaining)
            }
            guard refund.quantity > 0 else { continue }
            let amount = line.amount(ofFirst: line.refundedQuantity + refund.quantity).minorUnits - line.refunded.minorUnits
            planned.append(RefundPlan.Line(line: refund.line, quantity: refund.quantity,
                                           amount: Money(minorUnits: amount, currency: total.currency), variantID: line.variantID))
        }
        guard !planned.isEmpty else { throw .nothingToRefund }
        return RefundPlan(lines: planned,
                          total: Money(minorUnits: planned.reduce(0) { $0 + $1.amount.minorUnits }, currency: total.currency))
    }

    /// Whether a unit is left to send: an order every unit of which was refunded has nothing to
    /// fulfil (a fresh tester shipped one, whose units were back on sale).
    public var hasUnitsToShip: Bool { lines.contains { $0.refundedQuantity < $0.quantity } }

    /// Whether `action` may be taken on the order as it is: its status allows it
    /// (`OrderStatus.transition`), and a fulfilment has something to send (``hasUnitsToShip``).
    public func allows(_ action: OrderAction) -> Bool {
        (try? status.transition(action)) != nil && (action != .fulfil || hasUnitsToShip)
    }

    /// The units of the order's lines refunded so far: every refund adds at least one, so a
    /// refund asked of the order as someone saw it can tell whether another came since
    /// (`OrderActionRequest.refundedUnitsSeen`).
    public var refundedUnits: Int { lines.reduce(0) { $0 + $1.refundedQuantity } }

    /// Everything refunded of the order's lines so far.
    public var refundedTotal: Money {
        Money(minorUnits: lines.reduce(0) { $0 + $1.refunded.minorUnits }, currency: total.currency)
    }

    /// What a cancel of the paid order owes the shopper: what was paid less what its lines'
    /// refunds gave back already (the one home of the rule: the store records it, the email
    /// promises it).
    public var refundDueOnCancel: Money {
        Money(minorUnits: max(total.minorUnits - refundedTotal.minorUnits, 0), currency: total.currency)
    }
}
