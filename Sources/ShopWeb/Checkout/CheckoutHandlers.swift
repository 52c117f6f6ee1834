import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopService
import ShopStore

/// Checkout: address → shipping → review → place order (issue #5).
extension ShopApp {
    /// Everything a checkout step needs, or the response that sends the shopper elsewhere.
    struct CheckoutContext {
        var service: CheckoutService
        var shopper: Shopper
        var state: CheckoutState
        var user: User?
        /// The cart, quoted once for this request.
        var cart: CartQuote
    }

    static func loadCheckout(_ context: inout RequestContext) throws -> Result<CheckoutContext, RedirectNeeded> {
        guard let service = context.environment.checkout else {
            return .failure(RedirectNeeded(response: context.errorPage(.notFound)))
        }
        if try context.shopper() == nil, context.sessionEnded {
            // Signed out elsewhere or expired mid-checkout: the account's cart is still there.
            // Sign in, then come back to this step.
            context.setFlash(Flash(kind: .error, text: context.l10n(.checkoutSessionEnded)))
            return .failure(RedirectNeeded(response: .redirect(to: SiteRoute.account(.signIn(next: currentStepPath(context))).path)))
        }
        let cart = try context.cartQuote()
        guard let shopper = try context.shopper(), !cart.selectedLines.isEmpty else {
            // An empty cart says so itself (back to the review after placing the order): the
            // message is for lines left unticked.
            if !cart.lines.isEmpty {
                context.setFlash(Flash(kind: .error, text: context.l10n(.checkoutNothingSelected)))
            }
            return .failure(RedirectNeeded(response: .redirect(to: SiteRoute.cart(.show).path)))
        }
        return .success(CheckoutContext(service: service, shopper: shopper, state: try service.state(of: shopper),
                                        user: try context.currentUser(), cart: cart))
    }

    /// The page of the checkout step being served (a form's POST returns to its own page).
    static func currentStepPath(_ context: RequestContext) -> String {
        let step: SiteRoute.CheckoutRoute = switch context.route {
        case .checkout(.address)?, .checkout(.addressSubmit)?: .address
        case .checkout(.shipping)?, .checkout(.shippingSubmit)?: .shipping
        case .checkout(.review)?, .checkout(.place)?: .review
        default: .start
        }
        return SiteRoute.checkout(step).path
    }

    /// The address the checkout will ship to, if chosen and valid.
    static func checkoutAddress(_ checkout: CheckoutContext, _ context: RequestContext) throws -> Address? {
        try checkout.service.address(of: checkout.state, userID: checkout.user?.id)
    }

    static func checkoutStart(_ context: inout RequestContext) throws -> Response {
        let checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        if try checkoutAddress(checkout, context) == nil || (checkout.user == nil && checkout.state.email == nil) {
            return .redirect(to: SiteRoute.checkout(.address).path)
        }
        if checkout.state.shippingMethodID == nil { return .redirect(to: SiteRoute.checkout(.shipping).path) }
        return .redirect(to: SiteRoute.checkout(.review).path)
    }

    static func checkoutAddressPage(_ context: inout RequestContext, _ form: AccountForm? = nil,
                                    status: HTTPStatus = .ok) throws -> Response {
        let checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        let saved = try checkout.user.flatMap { try context.environment.addresses?.list($0.id) }?.sorted(by: Address.bookOrder) ?? []
        var values = form ?? AccountForm()
        if form == nil {
            values.values = checkout.state.addressFields ?? ["country": "US"]
            values.values["email"] = checkout.state.email ?? ""
        }
        let chosen = checkout.state.savedAddressID ?? saved.first(where: \.isDefault)?.id?.rawValue
        return try page(&context, PageContent(
            title: context.l10n(.checkoutTitle), tab: .cart,
            node: Views.checkoutAddress(values, saved: saved, chosen: chosen, isGuest: checkout.user == nil,
                                        total: context.models.runningTotal(checkout.cart, onAddressStep: true), l10n: context.l10n)),
            status: status)
    }

    static func checkoutAddressSubmit(_ context: inout RequestContext) throws -> Response {
        var checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        let request = context.request
        if let user = checkout.user, let raw = request.formValue("address_id"), let id = Int64(raw) {
            guard try context.environment.addresses?.address(user.id, Address.ID(rawValue: id)) != nil else {
                return context.errorPage(.notFound)
            }
            checkout.state.savedAddressID = id
            checkout.state.addressFields = nil
        } else {
            var form: AccountForm?
            var email: String?
            if checkout.user == nil {
                do { email = try EmailRules.normalize(request.formValue("email") ?? "") } catch {
                    form = AccountForm(errors: ["email": [context.l10n.message(for: error)]])
                }
            }
            switch AddressFormValues.validate(request, id: nil, l10n: context.l10n) {
            case let .success(address):
                if let form { return try checkoutAddressPage(&context, merged(form, request), status: .unprocessableContent) }
                checkout.state.addressFields = AddressFormValues.values(of: address)
                checkout.state.savedAddressID = nil
                checkout.state.saveAddress = checkout.user != nil && request.formValue("save_address") == "1"
                if let email { checkout.state.email = email }
            case let .failure(invalid):
                var combined = invalid.form
                for (key, value) in form?.errors ?? [:] { combined.errors[key] = value }
                combined.values["email"] = request.formValue("email") ?? ""
                return try checkoutAddressPage(&context, combined, status: .unprocessableContent)
            }
        }
        checkout.state.reviewedCharges = nil
        try checkout.service.save(checkout.state, for: checkout.shopper)
        return .redirect(to: SiteRoute.checkout(.shipping).path)
    }

    private static func merged(_ form: AccountForm, _ request: Request) -> AccountForm {
        var form = form
        for field in AddressField.allCases { form.values[field.rawValue] = request.formValue(field.rawValue) ?? "" }
        form.values["email"] = request.formValue("email") ?? ""
        return form
    }

    /// Shipping methods for the checkout's address, with what each costs for this cart.
    static func shippingOptions(_ checkout: CheckoutContext, address: Address) -> [(method: ShippingMethod, cost: Money)] {
        checkout.service.shippingOptions(to: address, goodsTotal: checkout.cart.total)
    }

    static func checkoutShippingPage(_ context: inout RequestContext, error: String? = nil) throws -> Response {
        let checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        guard let address = try checkoutAddress(checkout, context) else { return .redirect(to: SiteRoute.checkout(.address).path) }
        let options = shippingOptions(checkout, address: address)
        let l10n = context.l10n
        let choices = options.map { method, cost in
            (id: method.id.rawValue, name: method.name.text(in: l10n.language), cost: cost.isZero ? l10n(.checkoutFree) : l10n.money(cost))
        }
        return try page(&context, PageContent(
            title: l10n(.checkoutTitle), tab: .cart,
            node: Views.checkoutShipping(choices, chosen: checkout.state.shippingMethodID ?? options.first?.0.id.rawValue,
                                         address: address, error: error ?? (options.isEmpty ? l10n(.checkoutNoShipping) : nil),
                                         total: context.models.runningTotal(checkout.cart, onAddressStep: false), l10n: l10n)),
            status: error == nil ? .ok : .unprocessableContent)
    }

    static func checkoutShippingSubmit(_ context: inout RequestContext) throws -> Response {
        var checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        guard let address = try checkoutAddress(checkout, context) else { return .redirect(to: SiteRoute.checkout(.address).path) }
        let chosen = context.request.formValue("method") ?? ""
        guard shippingOptions(checkout, address: address).contains(where: { $0.method.id.rawValue == chosen }) else {
            return try checkoutShippingPage(&context, error: context.l10n(.checkoutChooseShipping))
        }
        checkout.state.shippingMethodID = chosen
        checkout.state.reviewedCharges = nil
        try checkout.service.save(checkout.state, for: checkout.shopper)
        return .redirect(to: SiteRoute.checkout(.review).path)
    }

    static func checkoutReview(_ context: inout RequestContext, notice: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        var checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        guard let quote = try checkout.service.quote(checkout.cart, checkout.state, userID: checkout.user?.id,
                                                          language: context.l10n.language) else {
            return .redirect(to: SiteRoute.checkout(.start).path)
        }
        // Reaching the review holds the stock for this shopper.
        switch try checkout.service.review(quote, &checkout.state, for: checkout.shopper) {
        case let .holdTrimmed(trims):
            return try holdTrimmed(&context, trims, quote.order.lines)
        case let .insufficientStock(available):
            return try soldOut(&context, quote.order.lines, available)
        case let .held(until):
            let model = context.models.review(quote, heldUntil: until,
                                              holdMinutes: Int((context.environment.reservationLifetime / 60).rounded()),
                                              idempotencyKey: checkout.state.idempotencyKey,
                                              email: checkout.user?.email ?? checkout.state.email ?? "",
                                              notice: notice, voucher: checkout.cart.voucher,
                                              timeZone: context.environment.timeZone)
            return try page(&context, PageContent(title: context.l10n(.checkoutTitle), tab: .cart,
                                                  node: Views.checkoutReview(model, l10n: context.l10n)), status: status)
        }
    }

    static func soldOut(_ context: inout RequestContext, _ lines: [OrderLine], _ available: [Variant.ID: Int]) throws -> Response {
        let l10n = context.l10n
        let messages = lines.compactMap { line -> String? in
            guard let id = line.variantID, let count = available[id] else { return nil }
            return count == 0 ? l10n(.checkoutSoldOutLineNone, ["title": line.title])
                : l10n.count(count, .checkoutSoldOutLine, ["title": line.title, "available": l10n.number(count), "quantity": l10n.number(line.quantity)])
        }
        return try page(&context, PageContent(
            title: l10n(.checkoutSoldOutTitle), tab: .cart,
            node: Views.message(title: l10n(.checkoutSoldOutTitle), text: messages.joined(separator: " "),
                                action: (l10n(.checkoutBackToCart), SiteRoute.cart(.show).path), l10n: l10n)),
            status: .conflict)
    }

    /// When the operator lowered the stock below what was held and this shopper's hold was
    /// trimmed (issue #8), the page that tells them so, once, at their next checkout step.
    static func holdTrimmed(_ context: inout RequestContext, _ trims: [ReservationTrim],
                            _ lines: [OrderLine]) throws -> Response {
        let l10n = context.l10n
        let messages = trims.compactMap { trim -> String? in
            guard let line = lines.first(where: { $0.variantID == trim.variantID }) else { return nil }
            return trim.kept == 0 ? l10n(.checkoutHoldTrimmedLineNone, ["title": line.title])
                : l10n(.checkoutHoldTrimmedLine, ["title": line.title, "kept": l10n.number(trim.kept), "held": l10n.number(trim.held)])
        }
        return try page(&context, PageContent(
            title: l10n(.checkoutHoldTrimmedTitle), tab: .cart,
            node: Views.message(title: l10n(.checkoutHoldTrimmedTitle), text: messages.joined(separator: " "),
                                action: (l10n(.checkoutBackToCart), SiteRoute.cart(.show).path), l10n: l10n)),
            status: .conflict)
    }

    static func checkoutPlace(_ context: inout RequestContext) throws -> Response {
        // A page this answers (the order changed, sold out) is the review's, whose links go there.
        context.shownPath = SiteRoute.checkout(.review).path
        // A replayed or double-clicked POST after the order was placed: back to that order, found
        // by the form's key from the moment the order committed (`CheckoutService.placedOrder`).
        if let shopper = try context.shopper(), let key = context.request.formValue("idempotency_key"),
           let placed = try context.environment.checkout?.placedOrder(for: shopper, idempotencyKey: key,
                                                                      user: try context.currentUser()) {
            return .redirect(to: SiteRoute.orders(.order(number: placed.order.number, token: placed.guestToken)).path)
        }
        let checkout: CheckoutContext
        switch try loadCheckout(&context) {
        case let .success(found): checkout = found
        case let .failure(redirect): return redirect.response
        }
        let key = context.request.formValue("idempotency_key") ?? ""
        guard !key.isEmpty, key == checkout.state.idempotencyKey else { return try checkoutReview(&context) }
        guard let quote = try checkout.service.quote(checkout.cart, checkout.state, userID: checkout.user?.id,
                                                          language: context.l10n.language) else {
            return .redirect(to: SiteRoute.checkout(.start).path)
        }
        let l10n = context.l10n
        let placement = try checkout.service.place(
            quote, voucherCode: try context.cart().voucherCode, state: checkout.state, for: checkout.shopper,
            user: checkout.user, email: checkout.user?.email ?? checkout.state.email ?? "",
            // Queued in the order's own transaction (a crash loses no email); the store fills in the number.
            confirmation: { request, token in confirmationEmail(request, token: token, context) })
        switch placement {
        case let .placed(order, guestToken), let .alreadyPlaced(order, guestToken):
            let path = SiteRoute.orders(.order(number: order.number, token: guestToken)).path
            var finished = checkout.state
            finished.placedOrderPath = path
            try checkout.service.save(finished, for: checkout.shopper)
            context.invalidateCart()
            context.setFlash(Flash(kind: .success, text: l10n(.orderPlacedTitle, ["number": order.number])))
            return .redirect(to: path)
        case let .holdTrimmed(trims):
            return try holdTrimmed(&context, trims, quote.order.lines)
        case let .insufficientStock(available):
            return try soldOut(&context, quote.order.lines, available)
        case .confirmationNeeded:
            // Anything the shopper is charged changed since the review — items, prices, the
            // voucher, shipping, the total: show the order as it is now and ask again.
            context.invalidateCart()
            return try checkoutReview(&context, notice: l10n(.checkoutChangedText), status: .conflict)
        }
    }

    static func confirmationEmail(_ request: OrderRequest, token: String?, _ context: RequestContext) -> OutboxDraft {
        let l10n = context.l10n
        let order = request.confirmed
        let number = OutboxDraft.orderNumberPlaceholder
        let lines = order.lines.map { "\(l10n.number($0.quantity)) × \($0.title)\($0.variantTitle.isEmpty ? "" : " (\($0.variantTitle))") — \(l10n.money($0.total))" }
            .joined(separator: "\n")
        let link = context.environment.publicURL + "/orders/" + number + (token.map { "?token=\($0)" } ?? "")
        var totals = [l10n(.cartSubtotal) + ": " + l10n.money(order.subtotal)]
        if let code = order.voucherCode, !order.discount.isZero {
            totals.append(l10n(.cartDiscount, ["code": code]) + ": −" + l10n.money(order.discount))
        }
        totals.append(l10n(.checkoutShippingLine, ["method": order.shippingMethodName]) + ": "
                      + (order.shippingCost.isZero ? l10n(.checkoutFree) : l10n.money(order.shippingCost)))
        totals.append(l10n(.cartTotal) + ": " + l10n.money(order.total))
        let greeting = (try? context.environment.accounts.user(request.userID ?? User.ID(rawValue: -1)))??.firstName
            ?? request.shippingAddress.firstName
        return OutboxDraft(
            toAddress: request.email, toName: request.shippingAddress.fullName,
            subject: l10n(.orderEmailSubject, ["shop": l10n(.shopName), "number": number]),
            textBody: l10n(.orderEmailBody, ["name": greeting, "number": number,
                                             "total": l10n.money(order.total),
                                             "lines": lines + "\n\n" + totals.joined(separator: "\n"),
                                             "address": request.shippingAddress.lines(in: l10n.language).joined(separator: "\n"),
                                             "payment": context.environment.paymentInstructions.text(in: l10n.language),
                                             "link": link]),
            createdAt: context.now)
    }
}

/// Reading and showing the address form.
enum AddressFormValues {
    struct Invalid: Error { var form: AccountForm }

    static func values(of address: Address) -> [String: String] {
        [AddressField.firstName.rawValue: address.firstName, AddressField.lastName.rawValue: address.lastName,
         AddressField.phone.rawValue: address.phone, AddressField.email.rawValue: address.email ?? "",
         AddressField.line1.rawValue: address.line1, AddressField.line2.rawValue: address.line2,
         AddressField.city.rawValue: address.city, AddressField.postalCode.rawValue: address.postalCode,
         AddressField.region.rawValue: address.region ?? "", AddressField.countryCode.rawValue: address.countryCode,
         "default": address.isDefault ? "1" : ""]
    }

    static func validate(_ request: Request, id: Address.ID?, l10n: Localizer) -> Result<Address, Invalid> {
        var typed: [AddressField: String] = [:]
        for field in AddressField.allCases { typed[field] = request.formValue(field.rawValue) ?? "" }
        do {
            return .success(try AddressRules.validate(typed, isDefault: request.formValue("default") == "1", id: id))
        } catch {
            var form = AccountForm()
            for field in AddressField.allCases { form.values[field.rawValue] = typed[field] ?? "" }
            form.values["default"] = request.formValue("default") == "1" ? "1" : ""
            for (field, problems) in error.byField {
                form.errors[field.rawValue] = problems.map(l10n.message(for:))
            }
            return .failure(Invalid(form: form))
        }
    }
}
