public import Foundation
public import ShopCore
public import ShopStore

/// The shopper's emails about their order's steps (issue #16): paid, on its way (carrier and
/// tracking number), cancelled (by the shop for want of payment, or by staff, with the refund of
/// a paid order). Written in the order's language, for whoever applies the step — the back
/// office, `shoppable orders`, the unpaid sweep — and queued with the step
/// (`OrderActionRequest.notification`).
public enum OrderEmails {
    /// The email about `action` applied to `order` as read before the step; nil for a step that
    /// emails nobody (delivered).
    /// - Parameters:
    ///   - fulfilment: the carrier and tracking number of a `.fulfil`.
    ///   - publicURL: the shop's address, without a trailing slash, for the order's link.
    ///   - unpaidInTime: a cancel by the shop because the payment did not come (the email says so).
    ///   - refund: `.refund`'s plan (`Order.refundPlan`), the lines and amounts the email lists.
    public static func step(_ action: OrderAction, order: Order, fulfilment: Fulfilment?, refund: RefundPlan? = nil,
                            publicURL: String, unpaidInTime: Bool = false, now: Date) -> OutboxDraft? {
        guard let transition = try? order.status.transition(action), transition.emailsShopper else { return nil }
        let l10n = Localizer(language: order.language)
        let number = order.number
        // A guest's order page needs the token of their confirmation email, which the shop does not
        // keep (only its hash): they are pointed to that email.
        let link = order.userID == nil ? l10n(.orderEmailLinkGuest)
            : l10n(.orderEmailLinkAccount, ["link": publicURL + SiteRoute.orders(.order(number: number, token: nil)).path])
        let name = order.shippingAddress.firstName
        let subject: String, body: String
        switch action {
        case .markPaid:
            subject = l10n(.orderPaidEmailSubject, ["number": number])
            body = l10n(.orderPaidEmailBody, ["name": name, "number": number, "total": l10n.money(order.total), "link": link])
        case .fulfil:
            guard let fulfilment else { return nil }
            subject = l10n(.orderShippedEmailSubject, ["number": number])
            body = l10n(.orderShippedEmailBody, ["name": name, "number": number, "carrier": fulfilment.carrier,
                                                 "tracking": fulfilment.trackingNumber, "link": link])
        case .cancel:
            subject = l10n(.orderCancelledEmailSubject, ["number": number])
            // A paid order promises what is still owed: all of it, the rest after line refunds, or
            // nothing more when they gave everything back (a fresh tester's email promised the
            // whole payment again after a partial refund).
            let due = order.refundDueOnCancel
            let reason = !transition.recordsRefund ? (unpaidInTime ? l10n(.orderCancelledUnpaid) : "")
                : due == order.total ? l10n(.orderCancelledRefund, ["amount": l10n.money(due)])
                : due.minorUnits > 0 ? l10n(.orderCancelledRefundRest, ["amount": l10n.money(due), "refunded": l10n.money(order.refundedTotal)])
                : l10n(.orderCancelledRefundedAlready)
            body = l10n(.orderCancelledEmailBody, ["name": name, "number": number, "refund": reason, "link": link])
        case .refund:
            guard let refund else { return nil }
            subject = l10n(.orderRefundEmailSubject, ["number": number])
            let lines = refund.lines.map { planned in
                "\(l10n.number(planned.quantity)) × \(order.lines[planned.line - 1].title) — \(l10n.money(planned.amount))"
            }.joined(separator: "\n")
            body = l10n(.orderRefundEmailBody, ["name": name, "amount": l10n.money(refund.total), "lines": lines, "link": link])
        case .markDelivered:
            return nil
        }
        return OutboxDraft(toAddress: order.email, toName: order.shippingAddress.fullName, subject: subject, textBody: body,
                           createdAt: now)
    }
}
