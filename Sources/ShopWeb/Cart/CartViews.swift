import HTML
import ShopCore

extension Views {
    static func cart(_ page: CartPage, l10n: Localizer) -> Node {
        fragment {
            h1(.class("page-title")) { l10n(.cartTitle) }
            if page.lines.isEmpty {
                div(.class("empty-state")) {
                    span(.class("empty-icon")) { Icon.cart.node }
                    h2 { l10n(.cartEmptyTitle) }
                    p { l10n(.cartEmptyText) }
                    a(.class("button button-primary"), .href(SiteRoute.catalog(.categories).path)) { l10n(.cartContinueShopping) }
                }
            } else {
                // The lines (with their select links) in one column, the summary beside them on a
                // wide screen and after them on a phone (where `cart-total-bar` keeps the total in view).
                div(.class("cart-main")) {
                div(.class("select-row")) {
                    form(.method("post"), .action(SiteRoute.cart(.selectAll).path)) {
                        Personalization.csrfField
                        input(.type("hidden"), .name("selected"), .value("1"))
                        button(.type("submit"), .class("link-button")) { l10n(.cartSelectAll) }
                    }
                    form(.method("post"), .action(SiteRoute.cart(.selectAll).path)) {
                        Personalization.csrfField
                        input(.type("hidden"), .name("selected"), .value("0"))
                        button(.type("submit"), .class("link-button")) { l10n(.cartSelectNone) }
                    }
                }
                ul(.class("cart-lines")) {
                    for line in page.lines {
                        li(.class(line.isSelected ? "cart-line" : "cart-line cart-line-unselected"),
                           .data("variant-id", String(line.variantID))) {
                            // One form per line: the select box belongs to the quantity form (`form=`), so
                            // without JavaScript one "Update" button sends both; with it, ticking or
                            // changing the quantity sends the form by itself.
                            label(.class("select-box")) {
                                input(.type("checkbox"), .name("selected"), .value("1"), .checked(line.isSelected),
                                      .attribute("form", line.formID))
                                span(.class("visually-hidden")) { "\(l10n(.cartSelect)): \(line.title)" }
                            }
                            a(.class("cart-line-media"), .href(line.productHref)) {
                                if let image = line.image {
                                    ProductPicture(image: image, alt: line.imageAlt, sizes: "80px", boxWidth: 160, boxHeight: 160)
                                }
                            }
                            div(.class("cart-line-body")) {
                                a(.class("cart-line-title"), .href(line.productHref)) { line.title }
                                if !line.variantTitle.isEmpty { p(.class("muted small")) { line.variantTitle } }
                                p(.class("muted small")) { line.unitPriceText }
                                if let stock = line.stockText { p(.class("stock stock-low small")) { stock } }
                                if let error = line.error { p(.class("form-error"), .role("alert")) { error } }
                            }
                            div(.class("cart-line-actions")) {
                                    form(.class("quantity-form"), .id(line.formID), .method("post"),
                                         .action(SiteRoute.cart(.updateLine(.init(rawValue: line.variantID))).path)) {
                                        Personalization.csrfField
                                        // Says the select box is part of this form: an unticked box sends nothing.
                                        input(.type("hidden"), .name("select_shown"), .value("1"))
                                        if !line.chosenText.isEmpty { input(.type("hidden"), .name("chosen"), .value(line.chosenText)) }
                                        label(.class("stepper")) {
                                            span(.class("visually-hidden")) { l10n(.cartQuantity) }
                                            input(.type("number"), .name("quantity"), .value(String(line.quantity)), .min(0),
                                                   .max(line.maxQuantity), .inputmode("numeric"), .class("quantity-input"))
                                        }
                                        button(.type("submit"), .class("button button-small js-hide")) { l10n(.cartUpdate) }
                                    }
                                    form(.method("post"), .action(SiteRoute.cart(.removeLine(.init(rawValue: line.variantID))).path)) {
                                        Personalization.csrfField
                                        if !line.chosenText.isEmpty { input(.type("hidden"), .name("chosen"), .value(line.chosenText)) }
                                        button(.type("submit"), .class("icon-button"), .aria("label", "\(l10n(.cartRemove)): \(line.title)")) { Icon.trash.node }
                                    }
                            }
                            div(.class("cart-line-total")) {
                                p(.class("amount")) { line.lineTotal }
                                if let discount = line.discountText { p(.class("line-discount amount")) { discount } }
                            }
                        }
                    }
                }
                }
                // On a phone: the total and the way on, one slim bar above the tab bar (sticky until the
                // summary after it scrolls in; hidden on wide screens, where the summary is beside the lines).
                div(.class("cart-total-bar")) {
                    p(.class("cart-total-bar-text")) {
                        span(.class("muted small")) { l10n(.cartTotal) }
                        strong(.class("amount")) { page.total }
                        if let saved = page.savedAmount { span(.class("line-discount small")) { l10n(.cartTotalSaved, ["amount": saved]) } }
                    }
                    if !page.nothingSelected {
                        a(.class("button button-primary"), .href(SiteRoute.checkout(.start).path)) { l10n(.checkoutButton) }
                    }
                }
                aside(.class("cart-summary"), .aria("label", l10n(.cartTotal))) {
                    voucherForm(page.voucher, l10n: l10n)
                    if page.nothingSelected { p(.class("form-error")) { l10n(.cartNothingSelected) } }
                    div(.class("summary-row")) {
                        span { "\(l10n(.cartSubtotal)) · \(page.itemCountText)" }
                        span(.class("amount"), .data("subtotal", "")) { page.subtotal }
                    }
                    if let label = page.discountLabel, let discount = page.discount {
                        div(.class("summary-row summary-discount")) {
                            span { label }
                            span(.class("amount"), .data("discount", "")) { discount }
                        }
                    }
                    div(.class("summary-row summary-total")) {
                        span { l10n(.cartTotal) }
                        strong(.class("amount"), .data("total", "")) { page.total }
                    }
                    p(.class("muted small")) { l10n(.cartShippingNote) }
                    if !page.nothingSelected {
                        a(.class("button button-primary button-wide checkout-button"), .href(SiteRoute.checkout(.start).path)) {
                            l10n(.checkoutButton)
                        }
                    }
                }
                if let recommendations = page.recommendations {
                    section(.class("related"), .aria("label", l10n(.relatedTitle))) {
                        h2 { l10n(.relatedTitle) }
                        div(.class("related-strip")) { Node.raw(unsafe: recommendations) }
                    }
                }
            }
        }
    }

    static func voucherForm(_ voucher: CartPage.Voucher, l10n: Localizer) -> Node {
        switch voucher {
        case let .applied(code, title):
            return div(.class("voucher-applied")) {
                p(.role("status")) { l10n(.cartVoucherApplied, ["code": code, "title": title]) }
                form(.method("post"), .action(SiteRoute.cart(.voucherRemove).path)) {
                    Personalization.csrfField
                    button(.type("submit"), .class("link-button nowrap")) { l10n(.cartVoucherRemove) }
                }
            }
        case .empty, .rejected:
            var code = ""
            var message: String?
            if case let .rejected(rejected, text) = voucher { code = rejected; message = text }
            let codeForm = HTML.form(.class("voucher-form"), .method("post"), .action(SiteRoute.cart(.voucher).path)) {
                Personalization.csrfField
                label(.class("visually-hidden"), .for("voucher")) { l10n(.cartVoucherLabel) }
                div(.class("voucher-row")) {
                    input(.type("text"), .name("code"), .id("voucher"), .value(code), .placeholder(l10n(.cartVoucherLabel)),
                          .autocomplete("off"), .attribute("autocapitalize", "characters"))
                    button(.type("submit"), .class("button button-small")) { l10n(.cartVoucherApply) }
                }
                // A rejected code stays in the cart: it applies again as soon as the cart qualifies.
                if let message { p(.class("form-error"), .role("alert")) { message } }
            }
            guard message != nil else { return codeForm }
            // …unless the shopper takes it off (a fresh tester found no way to).
            return div(.class("voucher-rejected")) {
                codeForm
                HTML.form(.method("post"), .action(SiteRoute.cart(.voucherRemove).path)) {
                    Personalization.csrfField
                    button(.type("submit"), .class("link-button")) { l10n(.cartVoucherRemove) }
                }
            }
        }
    }
}
