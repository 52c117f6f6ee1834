import Foundation
import HTML
import ShopCore
import ShopService

/// What the review step shows.
struct ReviewModel: Sendable {
    struct Line: Sendable { var title: String; var detail: String; var total: String; var discount: String? }
    var lines: [Line]
    var subtotal: String
    var discountLabel: String?
    var discount: String?
    var shippingLabel: String
    var shipping: String
    var total: String
    var addressLines: [String]
    var email: String
    var heldUntilText: String
    var heldUntilISO: String
    var idempotencyKey: String
    var notice: String?
    /// Why the cart's voucher code gives nothing now (its minimum no longer met, ended…), as
    /// the cart page says it; nil when there is no code or it applies.
    var voucherProblem: String?
}

/// The running total on the address and shipping steps: what the goods cost after the voucher,
/// before shipping (chosen on the shipping step, where each method shows its cost).
struct RunningTotalModel: Sendable {
    var itemCountText: String
    var subtotal: String
    var discountLabel: String?
    var discount: String?
    /// "Chosen at the next step" on the address step; nil on the shipping step.
    var shippingNote: String?
    var total: String
}

extension ModelBuilder {
    func runningTotal(_ quote: CartQuote, onAddressStep: Bool) -> RunningTotalModel {
        let l10n = localizer
        let code: String? = if case let .applied(campaign) = quote.voucher { campaign.voucherCode?.normalized } else { nil }
        return RunningTotalModel(
            itemCountText: l10n.count(quote.selectedItemCount, .cartItemCount),
            subtotal: l10n.money(quote.subtotal),
            discountLabel: code.map { l10n(.cartDiscount, ["code": $0]) },
            discount: code == nil || quote.discount.isZero ? nil : "−" + l10n.money(quote.discount),
            shippingNote: onAddressStep ? l10n(.checkoutShippingNextStep) : nil,
            total: l10n.money(quote.total))
    }

    /// The review's hold note, one sentence: "We hold these items for you for 15 minutes, until
    /// 3:00 PM." — the end in the shop's time zone, as the shopper's locale writes a time. The
    /// sentence is counted by the hour it shows, for Spanish's article: "hasta la 1:00", "hasta
    /// las 15:00".
    func holdNote(minutes: Int, until: Date, timeZone: TimeZone) -> String {
        localizer.count(localizer.language.clockHour(until, timeZone: timeZone), .checkoutHeld,
                        ["minutes": localizer.count(minutes, .checkoutHoldMinutes),
                         "time": localizer.time(until, timeZone: timeZone)])
    }

    /// - Parameter holdMinutes: how long the review holds the stock ("for 15 minutes, until …").
    func review(_ quote: CheckoutQuote, heldUntil: Date, holdMinutes: Int, idempotencyKey: String, email: String,
                notice: String?, voucher: VoucherStatus, timeZone: TimeZone) -> ReviewModel {
        let l10n = localizer
        let order = quote.order
        let code = order.voucherCode
        return ReviewModel(
            lines: order.lines.map { line in
                .init(title: line.title,
                      detail: [line.variantTitle, l10n.number(line.quantity) + " × " + l10n.money(line.unitPrice)].filter { !$0.isEmpty }
                        .joined(separator: " · "),
                      total: l10n.money(line.total), discount: line.discount.isZero ? nil : "−" + l10n.money(line.discount))
            },
            subtotal: l10n.money(order.subtotal),
            discountLabel: code.map { l10n(.cartDiscount, ["code": $0]) },
            discount: code == nil ? nil : "−" + l10n.money(order.discount),
            shippingLabel: l10n(.checkoutShippingLine, ["method": order.shippingMethodName]),
            shipping: order.shippingCost.isZero ? l10n(.checkoutFree) : l10n.money(order.shippingCost),
            total: l10n.money(order.total), addressLines: quote.address.lines(in: l10n.language), email: email,
            heldUntilText: holdNote(minutes: holdMinutes, until: heldUntil, timeZone: timeZone),
            heldUntilISO: ISO8601DateFormatter().string(from: heldUntil), idempotencyKey: idempotencyKey, notice: notice,
            voucherProblem: {
                guard case let .rejected(code, problem) = voucher else { return nil }
                return message(for: problem, code: code.normalized, timeZone: timeZone)
            }())
    }
}

extension Views {
    static func checkoutSteps(_ current: Int, l10n: Localizer) -> Node {
        let steps = [(l10n(.checkoutStepAddress), SiteRoute.checkout(.address).path),
                     (l10n(.checkoutStepShipping), SiteRoute.checkout(.shipping).path),
                     (l10n(.checkoutStepReview), SiteRoute.checkout(.review).path)]
        return ol(.class("checkout-steps")) {
            for (index, step) in steps.enumerated() {
                li(.class(index == current ? "step step-current" : index < current ? "step step-done" : "step")) {
                    if index < current { a(.href(step.1)) { step.0 } } else { step.0 }
                }
            }
        }
    }

    static func addressFields(_ form: AccountForm, l10n: Localizer, asksContactEmail: Bool = true) -> Node {
        fragment {
            div(.class("field-pair")) {
                FormField(label: l10n(.fieldFirstName), name: "first_name", id: "first_name", value: form.value("first_name"),
                          errors: form.errors("first_name"), autocomplete: "given-name")
                FormField(label: l10n(.fieldLastName), name: "last_name", id: "last_name", value: form.value("last_name"),
                          errors: form.errors("last_name"), autocomplete: "family-name")
            }
            FormField(label: l10n(.fieldPhone), name: "phone", id: "phone", type: "tel", value: form.value("phone"),
                      errors: form.errors("phone"), autocomplete: "tel")
            FormField(label: l10n(.fieldLine1), name: "line1", id: "line1", value: form.value("line1"),
                      errors: form.errors("line1"), autocomplete: "address-line1")
            FormField(label: l10n(.fieldLine2), name: "line2", id: "line2", value: form.value("line2"),
                      errors: form.errors("line2"), autocomplete: "address-line2", required: false)
            div(.class("field-pair")) {
                FormField(label: l10n(.fieldPostalCode), name: "postal_code", id: "postal_code", value: form.value("postal_code"),
                          errors: form.errors("postal_code"), autocomplete: "postal-code")
                FormField(label: l10n(.fieldCity), name: "city", id: "city", value: form.value("city"),
                          errors: form.errors("city"), autocomplete: "address-level2")
            }
            FormField(label: l10n(.fieldRegion), name: "region", id: "region", value: form.value("region"),
                      errors: form.errors("region"), autocomplete: "address-level1", required: false)
            div(.class(form.errors("country").isEmpty ? "field" : "field field-invalid")) {
                label(.for("country")) { l10n(.fieldCountry) }
                select(.name("country"), .id("country"), .autocomplete("country")) {
                    for country in Countries.all(in: l10n.language) {
                        option(.value(country.code), .selected(country.code == form.value("country"))) { country.name }
                    }
                }
                if !form.errors("country").isEmpty {
                    ul(.class("field-errors")) { for error in form.errors("country") { li { error } } }
                }
            }
            if asksContactEmail {
                FormField(label: l10n(.fieldEmailOptional), name: "address_email", id: "address_email", type: "email",
                          value: form.value("address_email"), errors: form.errors("address_email"), autocomplete: "email", required: false)
            }
        }
    }

    static func runningTotal(_ model: RunningTotalModel, l10n: Localizer) -> Node {
        div(.class("form-card running-total"), .aria("label", l10n(.checkoutTotalSoFar)), .role("group")) {
            div(.class("summary-row")) {
                span { "\(l10n(.cartSubtotal)) · \(model.itemCountText)" }
                span(.class("amount")) { model.subtotal }
            }
            if let label = model.discountLabel, let discount = model.discount {
                div(.class("summary-row summary-discount")) { span { label }; span(.class("amount")) { discount } }
            }
            if let note = model.shippingNote {
                div(.class("summary-row")) { span { l10n(.checkoutStepShipping) }; span(.class("muted")) { note } }
            }
            div(.class("summary-row summary-total")) {
                span { l10n(.checkoutTotalSoFar) }
                strong(.class("amount"), .data("total", "")) { model.total }
            }
        }
    }

    static func checkoutAddress(_ form: AccountForm, saved: [Address], chosen: Int64?, isGuest: Bool,
                                total: RunningTotalModel, l10n: Localizer) -> Node {
        section(.class("auth stack")) {
            h1(.class("page-title")) { l10n(.checkoutTitle) }
            checkoutSteps(0, l10n: l10n)
            runningTotal(total, l10n: l10n)
            if !saved.isEmpty {
                HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.checkout(.addressSubmit).path)) {
                    Personalization.csrfField
                    fieldset(.class("address-choices")) {
                        for address in saved {
                            label(.class("address-choice")) {
                                input(.type("radio"), .name("address_id"), .value(String(address.id?.rawValue ?? 0)),
                                      .checked(address.id?.rawValue == chosen))
                                span {
                                    strong { address.fullName }
                                    span(.class("muted small")) { " " + address.lines(in: l10n.language).dropFirst().joined(separator: ", ") }
                                }
                            }
                        }
                    }
                    button(.type("submit"), .class("button button-primary")) { l10n(.checkoutUseAddress) }
                }
                h2 { l10n(.checkoutNewAddress) }
            }
            HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.checkout(.addressSubmit).path), .boolean("novalidate")) {
                Personalization.csrfField
                if isGuest {
                    FormField(label: l10n(.checkoutGuestEmail), name: "email", id: "email", type: "email", value: form.value("email"),
                              errors: form.errors("email"), autocomplete: "email")
                }
                addressFields(form, l10n: l10n, asksContactEmail: !isGuest)
                if !isGuest {
                    label(.class("checkbox")) {
                        input(.type("checkbox"), .name("save_address"), .value("1"), .checked(true))
                        l10n(.checkoutSaveAddress)
                    }
                }
                button(.type("submit"), .class("button button-primary")) { l10n(.checkoutContinue) }
            }
        }
    }

    static func checkoutShipping(_ choices: [(id: String, name: String, cost: String)], chosen: String?, address: Address,
                                 error: String?, total: RunningTotalModel, l10n: Localizer) -> Node {
        section(.class("auth stack")) {
            h1(.class("page-title")) { l10n(.checkoutTitle) }
            checkoutSteps(1, l10n: l10n)
            runningTotal(total, l10n: l10n)
            p(.class("muted")) { "\(l10n(.orderShipTo)): " + address.lines(in: l10n.language).joined(separator: ", ") }
            if let error { p(.class("form-alert"), .role("alert")) { error } }
            HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.checkout(.shippingSubmit).path)) {
                Personalization.csrfField
                fieldset(.class("address-choices")) {
                    for choice in choices {
                        label(.class("address-choice")) {
                            input(.type("radio"), .name("method"), .value(choice.id), .checked(choice.id == chosen))
                            span(.class("shipping-name")) { choice.name }
                            strong(.class("amount")) { choice.cost }
                        }
                    }
                }
                if !choices.isEmpty { button(.type("submit"), .class("button button-primary")) { l10n(.checkoutContinue) } }
            }
        }
    }

    static func checkoutReview(_ model: ReviewModel, l10n: Localizer) -> Node {
        section(.class("auth stack")) {
            h1(.class("page-title")) { l10n(.checkoutTitle) }
            checkoutSteps(2, l10n: l10n)
            if let notice = model.notice { p(.class("form-alert"), .role("alert")) { notice } }
            // The sentence says the shop's clock; `app.js` counts down beside it (the countdown is
            // hidden from screen readers: it changes every second and repeats the sentence).
            p(.class("held"), .data("held-until", model.heldUntilISO)) {
                span(.class("held-text")) { model.heldUntilText }
                " "
                span(.class("held-countdown amount"), .aria("hidden", "true"), .data("held-countdown", "")) {}
            }
            // Shown by `app.js` when the countdown reaches 0:00 (a reload holds the items again).
            p(.class("form-alert"), .role("status"), .data("held-ended", ""), .boolean("hidden")) { l10n(.checkoutHoldEnded) }
            div(.class("form-card")) {
                ul(.class("review-lines")) {
                    for line in model.lines {
                        li {
                            span(.class("review-item")) {
                                strong { line.title }
                                span(.class("muted small line-detail")) { " " + line.detail }
                            }
                            // The amount and its discount stacked, each kept whole.
                            span(.class("review-amount")) {
                                span(.class("amount")) { line.total }
                                if let discount = line.discount { span(.class("line-discount amount")) { discount } }
                            }
                        }
                    }
                }
                a(.class("small"), .href(SiteRoute.cart(.show).path)) { l10n(.checkoutEdit) }
            }
            div(.class("form-card")) {
                div(.class("summary-row")) { span { l10n(.cartSubtotal) }; span(.class("amount")) { model.subtotal } }
                if let label = model.discountLabel, let discount = model.discount {
                    div(.class("summary-row summary-discount")) { span { label }; span(.class("amount")) { discount } }
                }
                if let problem = model.voucherProblem { p(.class("muted small"), .role("status")) { problem } }
                div(.class("summary-row")) { span { model.shippingLabel }; span(.class("amount")) { model.shipping } }
                div(.class("summary-row summary-total")) {
                    span { l10n(.cartTotal) }
                    strong(.class("amount"), .data("total", "")) { model.total }
                }
            }
            div(.class("form-card")) {
                p(.class("muted small")) { l10n(.orderShipTo) }
                for line in model.addressLines { p { line } }
                p(.class("muted small")) { model.email }
                a(.class("small"), .href(SiteRoute.checkout(.address).path)) { l10n(.checkoutEdit) }
            }
            HTML.form(.method("post"), .action(SiteRoute.checkout(.place).path), .class("place-form")) {
                Personalization.csrfField
                input(.type("hidden"), .name("idempotency_key"), .value(model.idempotencyKey))
                button(.type("submit"), .class("button button-primary button-wide"), .data("single-submit", "")) { l10n(.checkoutPlace) }
            }
        }
    }

}
