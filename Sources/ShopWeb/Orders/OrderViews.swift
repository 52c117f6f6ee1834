import Foundation
import HTML
import ShopCore
import ShopStore

extension Views {
    static func orders(_ orders: [Order], l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("auth stack")) {
            h1(.class("page-title")) { l10n(.ordersTitle) }
            if orders.isEmpty { div(.class("empty-state")) { p { l10n(.ordersEmpty) } } }
            ul(.class("address-list")) {
                for order in orders {
                    li(.class("address-card")) {
                        a(.href(SiteRoute.orders(.order(number: order.number, token: nil)).path)) { strong { order.number } }
                        span(.class("muted small")) { l10n.date(order.placedAt, timeZone: timeZone) }
                        span { l10n.money(order.total) }
                        span(.class("status-pill \(statusClass(order.status))")) { statusText(order.status, l10n) }
                    }
                }
            }
            // A guest's orders stay the guest's, even under the same email (a tester looked for
            // one here after making an account): their email's link is the way to them.
            p(.class("muted small")) { l10n(.ordersGuestHint) }
        }
    }

    static func statusText(_ status: OrderStatus, _ l10n: Localizer) -> String {
        switch status {
        case .awaitingPayment: l10n(.checkoutAwaitingPayment)
        case .paid: l10n(.orderStatusPaid)
        case .fulfilled: l10n(.orderStatusShipped)
        case .delivered: l10n(.orderStatusDelivered)
        case .cancelled: l10n(.orderStatusCancelled)
        }
    }

    /// Waiting on someone (payment, the carrier) in the warning colour; paid, on its way or
    /// delivered in the good one; cancelled plain.
    static func statusClass(_ status: OrderStatus) -> String {
        switch status {
        case .awaitingPayment: "status-warn"
        case .paid, .fulfilled, .delivered: "status-ok"
        case .cancelled: "status-muted"
        }
    }

    static func order(_ order: Order, refunded: Money, payment: String, isGuestLink: Bool, l10n: Localizer,
                      timeZone: TimeZone) -> Node {
        section(.class("auth stack")) {
            h1(.class("page-title")) { l10n(.orderTitle, ["number": order.number]) }
            p {
                span(.class("status-pill \(statusClass(order.status))")) { statusText(order.status, l10n) }
                " "
                span(.class("muted small")) { l10n.date(order.placedAt, timeZone: timeZone) }
            }
            if let fulfilment = order.fulfilment {
                // Issue #16: once fulfilled, who carries it and the number to follow it by.
                div(.class("form-card shipment-card")) {
                    h2 { l10n(.orderShippedWith, ["carrier": fulfilment.carrier]) }
                    p { l10n(.orderTrackingNumber, ["number": fulfilment.trackingNumber]) }
                }
            }
            if order.status == .awaitingPayment && !payment.isEmpty {
                div(.class("form-card payment-card")) {
                    h2 { l10n(.orderPaymentTitle) }
                    for line in payment.split(separator: "\n", omittingEmptySubsequences: false) { p { String(line) } }
                }
            }
            orderSummary(order, refunded: refunded, l10n: l10n)
            div(.class("form-card")) {
                p(.class("muted small")) { l10n(.orderShipTo) }
                for line in order.shippingAddress.lines(in: l10n.language) { p { line } }
            }
            if isGuestLink { p(.class("muted small")) { l10n(.orderLinkSaved) } }
        }
    }

    /// The order's lines and totals in a card: the shopper's order page and the back office's.
    /// Refunds show on the lines they were made on and as a row under the total.
    /// - Parameter refunded: everything refunded, a cancel's refund included
    ///   (`Order.refundedInAll(history:)`).
    static func orderSummary(_ order: Order, refunded: Money, l10n: Localizer) -> Node {
        div(.class("form-card")) {
            ul(.class("review-lines")) {
                for line in order.lines {
                    li {
                        span(.class("review-item")) {
                            strong { line.title }
                            span(.class("muted small line-detail")) {
                                " " + [line.variantTitle, line.sku ?? "", l10n.number(line.quantity) + " × " + l10n.money(line.unitPrice)]
                                    .filter { !$0.isEmpty }.joined(separator: " · ")
                            }
                            if line.refundedQuantity > 0 {
                                span(.class("small line-refunded")) { " · " + l10n.count(line.refundedQuantity, .orderRefundedUnits) }
                            }
                        }
                        span(.class("review-amount")) { span(.class("amount")) { l10n.money(line.total) } }
                    }
                }
            }
            // Each amount keeps its width (`.amount`); the label wraps instead (a tester's
            // "−143,60 US$" stuck out of the card at 390 px).
            div(.class("summary-row")) { span { l10n(.cartSubtotal) }; span(.class("amount")) { l10n.money(order.subtotal) } }
            if let code = order.voucherCode {
                div(.class("summary-row summary-discount")) {
                    span { l10n(.cartDiscount, ["code": code]) }
                    span(.class("amount")) { "−" + l10n.money(order.discount) }
                }
            }
            div(.class("summary-row")) {
                span { l10n(.checkoutShippingLine, ["method": order.shippingMethodName]) }
                span(.class("amount")) { order.shippingCost.isZero ? l10n(.checkoutFree) : l10n.money(order.shippingCost) }
            }
            div(.class("summary-row summary-total")) { span { l10n(.cartTotal) }; strong(.class("amount")) { l10n.money(order.total) } }
            if !refunded.isZero {
                div(.class("summary-row summary-refunded")) {
                    span { l10n(.orderRefunded) }
                    span(.class("amount")) { "−" + l10n.money(refunded) }
                }
            }
        }
    }
}
