import Foundation
import HTML
import ShopCore
import ShopStore

extension Views {
    static func addressBook(_ addresses: [Address], l10n: Localizer) -> Node {
        let groups = Dictionary(grouping: addresses, by: \.initial)
        return section(.class("auth stack")) {
            div(.class("section-head")) {
                h1(.class("page-title")) { l10n(.addressesTitle) }
                a(.class("button button-small button-primary"), .href(SiteRoute.account(.addressNew).path)) { l10n(.addressAdd) }
            }
            if addresses.isEmpty { div(.class("empty-state")) { p { l10n(.addressesEmpty) } } }
            for letter in groups.keys.sorted() {
                section(.class("address-group"), .aria("label", letter)) {
                    h2(.class("address-letter")) { letter }
                    ul(.class("address-list")) {
                        for address in groups[letter]!.sorted(by: Address.bookOrder) {
                            li(.class("address-card")) {
                                div {
                                    strong { address.fullName }
                                    if address.isDefault { span(.class("status-pill status-ok")) { l10n(.addressDefault) } }
                                    p(.class("muted small")) { address.lines.dropFirst().joined(separator: ", ") }
                                    p(.class("muted small")) { address.phone }
                                }
                                div(.class("address-actions")) {
                                    if let id = address.id {
                                        a(.class("button button-small"), .href(SiteRoute.account(.addressEdit(id)).path)) { l10n(.addressEdit) }
                                        a(.class("button button-small button-danger"), .href(SiteRoute.account(.addressDeleteConfirm(id)).path)) {
                                            l10n(.addressDelete)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    static func addressForm(_ form: AccountForm, action: String, title: String, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { title }
            HTML.form(.class("form-card"), .method("post"), .action(action), .boolean("novalidate")) {
                Personalization.csrfField
                addressFields(form, l10n: l10n)
                label(.class("checkbox")) {
                    input(.type("checkbox"), .name("default"), .value("1"), .checked(form.value("default") == "1"))
                    l10n(.addressMakeDefault)
                }
                button(.type("submit"), .class("button button-primary")) { l10n(.addressSave) }
            }
        }
    }

    static func addressDeleteConfirmation(_ address: Address, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.addressDeleteTitle) }
            div(.class("form-card")) {
                for line in address.lines { p { line } }
                HTML.form(.method("post"), .action(address.id.map { SiteRoute.account(.addressDelete($0)).path } ?? "/")) {
                    Personalization.csrfField
                    button(.type("submit"), .class("button button-danger")) { l10n(.addressDeleteConfirm) }
                }
                a(.class("button"), .href(SiteRoute.account(.addresses).path)) { l10n(.addressDeleteCancel) }
            }
        }
    }
}
