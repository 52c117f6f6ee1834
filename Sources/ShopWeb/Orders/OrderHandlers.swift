import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopService
import ShopStore

/// A signed-in shopper's orders and one order's page (guests see theirs with the emailed token).
extension ShopApp {
    static func ordersPage(_ context: inout RequestContext) throws -> Response {
        guard let store = context.environment.orders else { return context.errorPage(.notFound) }
        let user: User
        switch try requireUser(&context, next: SiteRoute.orders(.list).path) {
        case let .success(found): user = found
        case let .failure(redirect): return redirect.response
        }
        let orders = try store.orders(user.id)
        return try page(&context, PageContent(title: context.l10n(.ordersTitle), tab: .account,
                                              node: Views.orders(orders, l10n: context.l10n, timeZone: context.environment.timeZone)))
    }

    /// An order: to its account's owner, or to anyone holding the guest link's token.
    static func orderPage(_ context: inout RequestContext, number: String, token: String?) throws -> Response {
        guard let store = context.environment.orders else { return context.errorPage(.notFound) }
        // An account holder's order link (the confirmation email's) opened signed out, say on
        // another device: sign in first, then the order — whether or not the number exists, so
        // the answer tells a stranger nothing about it.
        if token?.isEmpty ?? true, try context.currentUser() == nil {
            if case let .failure(redirect) = try requireUser(&context, next: SiteRoute.orders(.order(number: number, token: nil)).path) {
                return redirect.response
            }
        }
        guard let order = try store.order(number) else { return context.errorPage(.notFound) }
        var allowed = false
        if let userID = order.userID, try context.currentUser()?.id == userID { allowed = true }
        if !allowed, let token, !token.isEmpty,
           let guest = try store.guestOrder(context.environment.crypto.sha256Hex(token)), guest.number == order.number {
            allowed = true
        }
        guard allowed else { return context.errorPage(.notFound) }
        return try page(&context, PageContent(
            title: context.l10n(.orderTitle, ["number": order.number]), tab: .account,
            node: Views.order(order, refunded: order.refundedInAll(history: try store.history(order.id)),
                              payment: context.environment.paymentInstructions.text(in: context.l10n.language), isGuestLink: token != nil,
                              l10n: context.l10n, timeZone: context.environment.timeZone)))
    }
}
