public import Foundation
public import ShopCore

/// An order action asked of the store (issue #16): `OrderStore.apply`.
public struct OrderActionRequest: Hashable, Sendable {
    /// The order's number, e.g. `1042-KX7M`.
    public var number: String
    public var action: OrderAction
    /// The carrier and tracking number: required by `.fulfil`, ignored by the others.
    public var fulfilment: Fulfilment?
    /// Who asks: a staff member's email, `cli` for `shoppable orders …`, `shop` for the shop itself.
    public var actor: String
    /// The status the asker saw: when the order has moved on since (another staff member, the
    /// shop's own cancel), nothing is done (`OrderActionError.statusChanged`). Nil: any status
    /// the action is legal from.
    public var expecting: OrderStatus?
    /// The shopper's email about this step, queued in the step's transaction when the step is one
    /// that emails them (`OrderTransition.emailsShopper`) — written by the asker, who read the
    /// order (its language, the carrier), for the step it asks with ``expecting``.
    public var notification: OutboxDraft?
    /// `.refund`: the lines and units to refund.
    public var refundLines: [LineRefund] = []
    /// `.refund`: the total the asker was shown (`Order.refundPlan`); when the order's refunds
    /// changed meanwhile and it would come to another amount, nothing is done
    /// (`OrderActionError.refundChanged`).
    public var expectedRefundMinor: Int64?
    /// `.refund`: the units refunded already when the asker read the order
    /// (`Order.refundedUnits`). When a refund came since — another staff member's, or this very
    /// form sent again from a second tab, a resend or the back button — nothing is done
    /// (`OrderActionError.refundChanged`), even if this one would come to the same amount (a
    /// fresh tester refunded one mug three times by sending one form three times).
    public var refundedUnitsSeen: Int?

    /// The actor as the audit log records it: `cli` and `shop` are themselves, anyone else is a
    /// staff member in the back office.
    public var auditActor: AuditActor {
        switch actor {
        case AuditActor.cli.name: .cli
        case AuditActor.shop.name: .shop
        default: .staff(actor)
        }
    }

    public init(number: String, action: OrderAction, fulfilment: Fulfilment? = nil, actor: String,
                expecting: OrderStatus? = nil, notification: OutboxDraft? = nil) {
        self.notification = notification
        self.number = number
        self.action = action
        self.fulfilment = fulfilment
        self.actor = actor
        self.expecting = expecting
    }
}

/// One status change as recorded (`order_events`): the order's history.
extension Order {
    /// Everything recorded as refunded: each step's refund in `history` — the line refunds and
    /// a paid order's cancel, which owes what was paid less those (`refundDueOnCancel`) — or
    /// the lines' refunds when the history says less (an order from before steps were kept).
    public func refundedInAll(history: [OrderEvent]) -> Money {
        let recorded = history.reduce(Int64(0)) { $0 + $1.refundedMinor }
        return Money(minorUnits: max(recorded, refundedTotal.minorUnits), currency: total.currency)
    }
}

public struct OrderEvent: Hashable, Sendable {
    public var at: Date
    public var actor: String
    public var action: OrderAction
    public var from: OrderStatus
    public var to: OrderStatus
    /// What `.fulfil` recorded.
    public var fulfilment: Fulfilment?
    /// Items given back to stock.
    public var itemsReturned: Int
    /// The refund recorded, in minor units of the order's currency (0: none).
    public var refundedMinor: Int64

    public init(at: Date, actor: String, action: OrderAction, from: OrderStatus, to: OrderStatus,
                fulfilment: Fulfilment? = nil, itemsReturned: Int = 0, refundedMinor: Int64 = 0) {
        self.at = at
        self.actor = actor
        self.action = action
        self.from = from
        self.to = to
        self.fulfilment = fulfilment
        self.itemsReturned = itemsReturned
        self.refundedMinor = refundedMinor
    }
}

/// What an applied action did.
public struct OrderActionResult: Hashable, Sendable {
    /// The order after it.
    public var order: Order
    public var event: OrderEvent
}

/// Why an order action was not applied (nothing written); an illegal step is
/// `OrderTransitionRefused`.
public enum OrderActionError: Error, Hashable, Sendable {
    /// No order has this number.
    case orderNotFound(String)
    /// `.fulfil` without a carrier and tracking number.
    case fulfilmentMissing
    /// The order's refunds changed since the asker read it (another refund came first, or the
    /// same form was sent again): what this one would give back is not what they were shown.
    case refundChanged
    /// The order is no longer in the status the request expected; it is in this one.
    case statusChanged(OrderStatus)
    /// `.fulfil` of an order every unit of which was refunded (`Order.hasUnitsToShip`).
    case nothingToShip
}

/// The reads and writes of one order action, all inside ONE write transaction of the backend;
/// the rules are `OrderActions.apply`, a backend decides nothing.
public protocol OrderActionTransaction {
    /// The row of ``OrderActions/lockColumns`` of the order with this number, locked until the
    /// transaction ends (two staff members acting at once take turns: the second sees the
    /// first's status).
    func lockOrder(number: String) throws -> (any StoredRow)?
    /// Sets the status and, when given, the carrier and tracking number.
    func setStatus(_ order: Order.ID, _ status: OrderStatus, fulfilment: Fulfilment?) throws
    /// Gives back what the order took from stock (`order_stock`) and forgets it, so it is given
    /// back once; answers how many items. `only`: at most these units of these variants (a
    /// refund of lines), else everything (a cancel).
    func returnStock(of order: Order.ID, only: [Variant.ID: Int]?) throws -> Int
    /// Adds `quantity` to the refunded units of the order's line at `position` (from 0).
    func addRefunded(_ quantity: Int, toLine position: Int, of order: Order.ID) throws
    /// Appends the event to the order's history.
    func record(_ event: OrderEvent, of order: Order.ID) throws
    /// The order as it is now in this transaction.
    func order(_ id: Order.ID) throws -> Order
    /// Queues an email in the outbox.
    func queue(_ message: OutboxDraft) throws
    /// Appends entries to the audit log.
    func audit(_ entries: [AuditEntry]) throws
}

/// The rules of an order action, in one place for every backend (issue #16): a backend runs
/// `apply` inside its write transaction and rolls back when it throws.
public enum OrderActions {
    /// Applies `request` at `now` through `transaction`: locks the order, asks
    /// `OrderStatus.transition(_:)`, changes the status, gives stock back when the transition
    /// says so, and records the event (with the refund of a paid order's cancel: its total).
    /// - Throws: `OrderActionError`, `OrderTransitionRefused`, the backend's errors.
    public static func apply(_ request: OrderActionRequest, now: Date,
                             in transaction: some OrderActionTransaction) throws -> OrderActionResult {
        let fulfilment = request.action == .fulfil ? request.fulfilment : nil
        if request.action == .fulfil, fulfilment == nil { throw OrderActionError.fulfilmentMissing }
        guard let row = try transaction.lockOrder(number: request.number) else {
            throw OrderActionError.orderNotFound(request.number)
        }
        let locked = try lockedOrder(row)
        if let expected = request.expecting, expected != locked.status { throw OrderActionError.statusChanged(locked.status) }
        let transition = try locked.status.transition(request.action)
        if request.action == .fulfil, !(try transaction.order(locked.id).hasUnitsToShip) { throw OrderActionError.nothingToShip }
        try transaction.setStatus(locked.id, transition.to, fulfilment: fulfilment)
        var returned = 0, refundedMinor: Int64 = 0
        var refundedLines: [RefundPlan.Line] = []
        if request.action == .refund {
            // The plan is made again from the order as locked: units refunded already are not
            // refunded twice, whatever two staff members send at once.
            let current = try transaction.order(locked.id)
            if let seen = request.refundedUnitsSeen, seen != current.refundedUnits { throw OrderActionError.refundChanged }
            let plan = try current.refundPlan(request.refundLines)
            if let expected = request.expectedRefundMinor, expected != plan.total.minorUnits {
                throw OrderActionError.refundChanged
            }
            for line in plan.lines { try transaction.addRefunded(line.quantity, toLine: line.line - 1, of: locked.id) }
            refundedLines = plan.lines
            refundedMinor = plan.total.minorUnits
            if transition.returnsStock {
                let units = plan.lines.reduce(into: [Variant.ID: Int]()) { units, line in
                    if let variant = line.variantID { units[variant, default: 0] += line.quantity }
                }
                returned = try transaction.returnStock(of: locked.id, only: units)
            }
        } else {
            if transition.returnsStock { returned = try transaction.returnStock(of: locked.id, only: nil) }
            // A paid order's cancel owes what was paid less what its lines' refunds gave back.
            if transition.recordsRefund { refundedMinor = try transaction.order(locked.id).refundDueOnCancel.minorUnits }
        }
        let event = OrderEvent(at: StoredTime.date(unixSeconds: StoredTime.unixSeconds(now)), actor: request.actor,
                               action: request.action, from: locked.status, to: transition.to, fulfilment: fulfilment,
                               itemsReturned: returned, refundedMinor: refundedMinor)
        try transaction.record(event, of: locked.id)
        if transition.emailsShopper, let notification = request.notification { try transaction.queue(notification) }
        try transaction.audit([auditEntry(event, number: request.number, actor: request.auditActor, currency: locked.currency,
                                          refundedLines: refundedLines)])
        return OrderActionResult(order: try transaction.order(locked.id), event: event)
    }

    /// The columns `lockOrder` reads, of `orders`.
    public static let lockColumns = "id, status, total_minor, currency"

    /// The locked order's id, status, total and currency from a row of ``lockColumns``.
    static func lockedOrder(_ row: any StoredRow) throws -> (id: Order.ID, status: OrderStatus, totalMinor: Int64, currency: String) {
        let id = try row.int64(0)
        guard let status = OrderStatus(rawValue: try row.string(1)) else {
            throw StoredCatalog.CorruptValue(table: "orders", column: "status", rowID: id)
        }
        return (Order.ID(id), status, try row.int64(2), try row.string(3))
    }

    /// The audit log's entry of a step: the status, the carrier and tracking number it set, the
    /// items it gave back and the refund it recorded.
    static func auditEntry(_ event: OrderEvent, number: String, actor: AuditActor, currency: String,
                           refundedLines: [RefundPlan.Line] = []) -> AuditEntry {
        var changes = event.from == event.to ? []
            : [AuditChange(field: "status", before: event.from.rawValue, after: event.to.rawValue)]
        for line in refundedLines {
            changes.append(AuditChange(field: "line \(line.line) refunded", before: nil,
                                       after: "\(line.quantity) × (\(line.amount.minorUnits) \(currency) minor units)"))
        }
        if let fulfilment = event.fulfilment {
            changes.append(AuditChange(field: "carrier", before: nil, after: fulfilment.carrier))
            changes.append(AuditChange(field: "trackingNumber", before: nil, after: fulfilment.trackingNumber))
        }
        if event.itemsReturned > 0 {
            changes.append(AuditChange(field: "itemsReturnedToStock", before: nil, after: String(event.itemsReturned)))
        }
        if event.refundedMinor > 0 {
            changes.append(AuditChange(field: "refundOwed", before: nil, after: "\(event.refundedMinor) \(currency) minor units"))
        }
        return AuditEntry(at: event.at, actor: actor, subject: "order", subjectID: number, action: event.action.rawValue,
                          changes: changes)
    }

    /// The columns ``event(_:)`` reads, of `order_events`.
    public static let eventColumns = """
        at, actor, action, from_status, to_status, carrier, tracking_number, items_returned, refunded_minor
        """

    /// An event from a row of ``eventColumns``.
    public static func event(_ row: some StoredRow, id: Int64) throws -> OrderEvent {
        func status(_ index: Int) throws -> OrderStatus {
            guard let status = OrderStatus(rawValue: try row.string(index)) else {
                throw StoredCatalog.CorruptValue(table: "order_events", column: index == 3 ? "from_status" : "to_status", rowID: id)
            }
            return status
        }
        guard let action = OrderAction(rawValue: try row.string(2)) else {
            throw StoredCatalog.CorruptValue(table: "order_events", column: "action", rowID: id)
        }
        var fulfilment: Fulfilment?
        if let carrier = try row.optionalString(5), let tracking = try row.optionalString(6) {
            fulfilment = Fulfilment(storedCarrier: carrier, trackingNumber: tracking)
        }
        return OrderEvent(at: StoredTime.date(unixSeconds: try row.int64(0)), actor: try row.string(1), action: action,
                          from: try status(3), to: try status(4), fulfilment: fulfilment,
                          itemsReturned: Int(try row.int64(7)), refundedMinor: try row.int64(8))
    }

    /// The values ``eventColumns`` are inserted with, after the order's id.
    public static func values(_ event: OrderEvent, of order: Order.ID) -> [StoredValue] {
        [.integer(order.rawValue), .integer(StoredTime.unixSeconds(event.at)), .text(event.actor),
         .text(event.action.rawValue), .text(event.from.rawValue), .text(event.to.rawValue),
         event.fulfilment.map { .text($0.carrier) } ?? .null, event.fulfilment.map { .text($0.trackingNumber) } ?? .null,
         .integer(Int64(event.itemsReturned)), .integer(event.refundedMinor)]
    }
}

extension OrderStore {
    /// What one round of ``cancelUnpaid(placedBefore:now:limit:notification:)`` did.
    public struct UnpaidCancels: Sendable {
        /// The cancels applied, oldest order first.
        public var cancelled: [OrderActionResult] = []
        /// Orders whose cancel failed (a store error), by number: the round went on without them.
        public var failed: [(number: String, error: any Error)] = []
    }

    /// Cancels, as the shop (`actor` `shop`), up to `limit` orders still awaiting payment that were
    /// placed before `placedBefore` (issue #16: unpaid orders past their time, stock given back).
    /// An order paid meanwhile is left alone: each cancel expects `awaitingPayment`. Orders placed
    /// before migration 27 are never cancelled (`unpaidOrders`). One order that fails does not
    /// stop the others. `notification` writes each shopper's email about their cancel (queued
    /// with it).
    public func cancelUnpaid(placedBefore: Date, now: Date, limit: Int = 100,
                             notification: (Order) -> OutboxDraft? = { _ in nil }) throws -> UnpaidCancels {
        var round = UnpaidCancels()
        for number in try unpaidOrders(placedBefore, limit) {
            do {
                let email = try order(number).flatMap(notification)
                round.cancelled.append(try apply(OrderActionRequest(number: number, action: .cancel, actor: "shop",
                                                                    expecting: .awaitingPayment, notification: email), now))
            } catch OrderActionError.statusChanged {
                continue  // paid or cancelled by staff a moment ago
            } catch {
                round.failed.append((number, error))
            }
        }
        return round
    }
}
