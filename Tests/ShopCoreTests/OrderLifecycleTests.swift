import Testing
@testable import ShopCore

/// Issue #16: the order's life as a table — every status against every action, legal or not.
@Suite("Order lifecycle")
struct OrderLifecycleTests {
    /// What an action does from a status: nil for a refusal; otherwise the status after it and
    /// whether stock goes back and a refund is recorded.
    struct Row: CustomTestStringConvertible, Sendable {
        var from: OrderStatus
        var action: OrderAction
        var to: OrderStatus?
        var returnsStock = false
        var recordsRefund = false
        var testDescription: String { "\(from.rawValue) + \(action.rawValue) → \(to?.rawValue ?? "refused")" }
    }

    static let table: [Row] = [
        Row(from: .awaitingPayment, action: .markPaid, to: .paid),
        Row(from: .awaitingPayment, action: .fulfil, to: nil),  // not before it is paid
        Row(from: .awaitingPayment, action: .markDelivered, to: nil),
        Row(from: .awaitingPayment, action: .cancel, to: .cancelled, returnsStock: true),  // nothing was paid: no refund
        Row(from: .awaitingPayment, action: .refund, to: nil),  // nothing to refund
        Row(from: .paid, action: .markPaid, to: nil),
        Row(from: .paid, action: .fulfil, to: .fulfilled),
        Row(from: .paid, action: .markDelivered, to: nil),  // fulfilled first
        Row(from: .paid, action: .cancel, to: .cancelled, returnsStock: true, recordsRefund: true),
        Row(from: .paid, action: .refund, to: .paid, returnsStock: true, recordsRefund: true),  // still on the shelf
        Row(from: .fulfilled, action: .markPaid, to: nil),
        Row(from: .fulfilled, action: .fulfil, to: nil),
        Row(from: .fulfilled, action: .markDelivered, to: .delivered),
        Row(from: .fulfilled, action: .cancel, to: nil),  // it has left: a refund, not a cancel
        Row(from: .fulfilled, action: .refund, to: .fulfilled, recordsRefund: true),
        Row(from: .delivered, action: .markPaid, to: nil),
        Row(from: .delivered, action: .fulfil, to: nil),
        Row(from: .delivered, action: .markDelivered, to: nil),
        Row(from: .delivered, action: .cancel, to: nil),
        Row(from: .delivered, action: .refund, to: .delivered, recordsRefund: true),
        Row(from: .cancelled, action: .markPaid, to: nil),
        Row(from: .cancelled, action: .fulfil, to: nil),
        Row(from: .cancelled, action: .markDelivered, to: nil),
        Row(from: .cancelled, action: .cancel, to: nil),  // stock goes back once: a second cancel is refused
        Row(from: .cancelled, action: .refund, to: nil),
    ]

    @Test func theTableCoversEveryStatusAndAction() {
        let pairs = Set(Self.table.map { "\($0.from.rawValue) \($0.action.rawValue)" })
        #expect(pairs.count == OrderStatus.allCases.count * OrderAction.allCases.count)
        #expect(pairs.count == Self.table.count)
    }

    @Test(arguments: table)
    func eachActionIsAllowedOrRefusedAsTheTableSays(row: Row) throws {
        guard let to = row.to else {
            let refused = #expect(throws: OrderTransitionRefused.self) { try row.from.transition(row.action) }
            #expect(refused == OrderTransitionRefused(from: row.from, action: row.action))
            #expect(!row.from.allowedActions.contains(row.action))
            return
        }
        let transition = try row.from.transition(row.action)
        #expect(transition == OrderTransition(from: row.from, action: row.action, to: to, returnsStock: row.returnsStock,
                                              recordsRefund: row.recordsRefund,
                                              emailsShopper: row.action != .markDelivered))
        #expect(row.from.allowedActions.contains(row.action))
    }

    @Test func onlyACancelledOrderIsFinal() {
        #expect(OrderStatus.cancelled.isFinal)
        #expect(OrderStatus.allCases.filter(\.isFinal) == [.cancelled])
        #expect(OrderStatus.delivered.allowedActions == [.refund])
        #expect(OrderStatus.awaitingPayment.allowedActions == [.markPaid, .cancel])
    }

    @Test(arguments: [
        (OrderStatus.cancelled, OrderAction.cancel, "an order that is cancelled cannot be cancelled (nothing more can be done with it)"),
        (.fulfilled, .cancel, "an order that is fulfilled cannot be cancelled (it can be: mark-delivered, refund)"),
        (.awaitingPayment, .fulfil, "an order that is awaiting payment cannot be fulfilled (it can be: mark-paid, cancel)"),
    ])
    func aRefusalSaysWhatCanBeDoneInstead(from: OrderStatus, action: OrderAction, message: String) {
        #expect(OrderTransitionRefused(from: from, action: action).description == message)
    }

    @Test func aRefusalNamesOnlyTheActionsTheToolOffers() {
        let refused = OrderTransitionRefused(from: .fulfilled, action: .cancel)
        #expect(refused.description(offering: [.markPaid, .fulfil, .markDelivered, .cancel])
                == "an order that is fulfilled cannot be cancelled (it can be: mark-delivered)")
        #expect(OrderTransitionRefused(from: .delivered, action: .cancel).description(offering: [.cancel])
                == "an order that is delivered cannot be cancelled (nothing more can be done with it)")
    }

    @Test(arguments: [
        ("", "1Z999", FulfilmentError(field: .carrier, problem: .empty)),
        ("  UPS ", " \t", FulfilmentError(field: .trackingNumber, problem: .empty)),
        (String(repeating: "x", count: 101), "1Z999", FulfilmentError(field: .carrier, problem: .tooLong)),
        ("UPS", "1Z\u{7}999", FulfilmentError(field: .trackingNumber, problem: .controlCharacter)),
        ("UPS", "\u{202E}abc", FulfilmentError(field: .trackingNumber, problem: .controlCharacter)),
        ("U\u{200B}PS", "1Z999", FulfilmentError(field: .carrier, problem: .controlCharacter)),
    ])
    func aFulfilmentNeedsACarrierAndATrackingNumber(carrier: String, tracking: String, error: FulfilmentError) {
        #expect(throws: error) { try Fulfilment(carrier: carrier, trackingNumber: tracking) }
    }

    @Test func aFulfilmentIsTrimmed() throws {
        let fulfilment = try Fulfilment(carrier: "  Yurtiçi Kargo ", trackingNumber: "\t123 456 789\n")
        #expect(fulfilment.carrier == "Yurtiçi Kargo")
        #expect(fulfilment.trackingNumber == "123 456 789")
        #expect(try Fulfilment(carrier: String(repeating: "ş", count: 100), trackingNumber: "1").carrier.count == 100)
    }
}
