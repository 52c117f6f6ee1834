/// What staff — in the back office, through `shoppable orders …`, or the shop itself for unpaid
/// orders past their time — do to a placed order (issue #16). Each is legal from some statuses
/// only: `OrderStatus.transition(_:)` decides, and every store applies that decision inside the
/// transaction that changes the order. `docs/ORDERS.md` draws the machine.
public enum OrderAction: String, Hashable, Sendable, CaseIterable {
    /// The bank transfer arrived.
    case markPaid = "mark-paid"
    /// Handed to the carrier, with its name and the tracking number (`Fulfilment`).
    case fulfil
    /// The carrier reports it delivered.
    case markDelivered = "mark-delivered"
    /// Called off before it left: stock goes back; a payment received is refunded in full.
    case cancel
    /// Some lines refunded (a partial refund); the status stays.
    case refund
}

/// One legal step of an order's life, and what must happen with it — in the same transaction as
/// the status change.
public struct OrderTransition: Hashable, Sendable {
    public var from: OrderStatus
    public var action: OrderAction
    /// The status after it; `from` for a partial refund.
    public var to: OrderStatus
    /// The items of the lines concerned go back to stock: every line's on a cancel; the refunded
    /// lines' while nothing has left the shop (a paid order not yet fulfilled). Goods with the
    /// carrier or the shopper are restocked by hand when they come back.
    public var returnsStock: Bool
    /// A refund is recorded: the whole payment on a cancel of a paid order, the lines' share on
    /// a partial refund.
    public var recordsRefund: Bool
    /// The shopper is emailed (paid, fulfilled with the tracking number, cancelled, refunded).
    public var emailsShopper: Bool
}

/// An action the order's status does not allow; nothing was changed.
public struct OrderTransitionRefused: Error, Hashable, Sendable, CustomStringConvertible {
    public var from: OrderStatus
    public var action: OrderAction

    public init(from: OrderStatus, action: OrderAction) {
        self.from = from
        self.action = action
    }

    /// For operators (the CLI); the back office says it in the staff member's language.
    public var description: String { description(offering: OrderAction.allCases) }

    /// The message naming only the `offered` actions the order allows (a tool that cannot
    /// refund lines does not suggest it).
    public func description(offering offered: [OrderAction]) -> String {
        let allowed = from.allowedActions.filter(offered.contains).map(\.rawValue)
        return "an order that is \(from.phrase) cannot be \(action.pastParticiple)"
            + (allowed.isEmpty ? " (nothing more can be done with it)" : " (it can be: \(allowed.joined(separator: ", ")))")
    }
}

extension OrderStatus {
    /// What `action` does from this status.
    /// - Throws: `OrderTransitionRefused` when the status does not allow it.
    public func transition(_ action: OrderAction) throws(OrderTransitionRefused) -> OrderTransition {
        let to: OrderStatus
        switch (self, action) {
        case (.awaitingPayment, .markPaid): to = .paid
        case (.paid, .fulfil): to = .fulfilled
        case (.fulfilled, .markDelivered): to = .delivered
        case (.awaitingPayment, .cancel), (.paid, .cancel): to = .cancelled
        case (.paid, .refund), (.fulfilled, .refund), (.delivered, .refund): to = self
        default: throw OrderTransitionRefused(from: self, action: action)
        }
        return OrderTransition(
            from: self, action: action, to: to,
            returnsStock: action == .cancel || (action == .refund && self == .paid),
            recordsRefund: action == .refund || (action == .cancel && self == .paid),
            // Delivered: the shopper knows already (they hold the parcel).
            emailsShopper: action != .markDelivered)
    }

    /// The actions this status allows, in `OrderAction` order (the back office's buttons).
    public var allowedActions: [OrderAction] {
        OrderAction.allCases.filter { (try? transition($0)) != nil }
    }

    /// Nothing more can happen to it.
    public var isFinal: Bool { allowedActions.isEmpty }

    /// "awaiting payment", "paid", …: for operators' messages.
    var phrase: String { self == .awaitingPayment ? "awaiting payment" : rawValue }
}

extension OrderAction {
    /// "marked paid", "fulfilled", …: for operators' messages.
    var pastParticiple: String {
        switch self {
        case .markPaid: "marked paid"
        case .fulfil: "fulfilled"
        case .markDelivered: "marked delivered"
        case .cancel: "cancelled"
        case .refund: "refunded"
        }
    }
}

/// How a fulfilled order travels: shown to the shopper on their order page and in the email.
public struct Fulfilment: Hashable, Sendable {
    /// The most characters of either field.
    public static let maximumLength = 100

    public var carrier: String
    public var trackingNumber: String

    /// Both trimmed; neither empty, longer than ``maximumLength`` or holding a control or
    /// format character (an invisible direction override, a zero-width joiner).
    /// - Throws: `FulfilmentError` naming the field.
    public init(carrier: String, trackingNumber: String) throws(FulfilmentError) {
        self.carrier = try Self.checked(carrier, .carrier)
        self.trackingNumber = try Self.checked(trackingNumber, .trackingNumber)
    }

    /// A stored fulfilment, checked when it was stored.
    public init(storedCarrier carrier: String, trackingNumber: String) {
        self.carrier = carrier
        self.trackingNumber = trackingNumber
    }

    private static func checked(_ text: String, _ field: FulfilmentError.Field) throws(FulfilmentError) -> String {
        let trimmed = text.trimmedOfWhiteSpace
        guard !trimmed.isEmpty else { throw FulfilmentError(field: field, problem: .empty) }
        guard trimmed.count <= maximumLength else { throw FulfilmentError(field: field, problem: .tooLong) }
        // Control characters, and invisible format characters (a right-to-left override would
        // show the shopper a reversed tracking number).
        guard !trimmed.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory) }) else {
            throw FulfilmentError(field: field, problem: .controlCharacter)
        }
        return trimmed
    }
}

/// Why a carrier or tracking number was refused.
public struct FulfilmentError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Field: String, Hashable, Sendable { case carrier, trackingNumber = "tracking number" }
    public enum Problem: Hashable, Sendable { case empty, tooLong, controlCharacter }
    public var field: Field
    public var problem: Problem

    public var description: String {
        switch problem {
        case .empty: "the \(field.rawValue) is empty"
        case .tooLong: "the \(field.rawValue) is longer than \(Fulfilment.maximumLength) characters"
        case .controlCharacter: "the \(field.rawValue) holds a control or invisible formatting character"
        }
    }
}
