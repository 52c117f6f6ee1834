import HTML
import ShopCore

/// What an account form shows: the values typed so far and the problems by field.
struct AccountForm: Sendable {
    var values: [String: String] = [:]
    var errors: [String: [String]] = [:]
    /// A message for the whole form ("Email or password is wrong.").
    var alert: String?

    func value(_ name: String) -> String { values[name] ?? "" }
    func errors(_ name: String) -> [String] { errors[name] ?? [] }
}

extension Views {
    static func register(_ form: AccountForm, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.registerTitle) }
            p(.class("muted")) { l10n(.registerIntro) }
            HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.account(.registerSubmit).path), .boolean("novalidate")) {
                Personalization.csrfField
                if let alert = form.alert { p(.class("form-alert"), .role("alert")) { alert } }
                FormField(label: l10n(.fieldName), name: "name", id: "name", value: form.value("name"),
                          errors: form.errors("name"), autocomplete: "name")
                FormField(label: l10n(.fieldEmail), name: "email", id: "email", type: "email", value: form.value("email"),
                          errors: form.errors("email"), autocomplete: "email")
                FormField(label: l10n(.fieldPassword), name: "password", id: "password", type: "password",
                          errors: form.errors("password"), autocomplete: "new-password", hint: l10n(.passwordHint))
                FormField(label: l10n(.fieldPasswordConfirmation), name: "password_confirmation", id: "password_confirmation",
                          type: "password", errors: form.errors("password_confirmation"), autocomplete: "new-password")
                button(.type("submit"), .class("button button-primary")) { l10n(.registerSubmit) }
            }
            div(.class("form-links")) { a(.href(SiteRoute.account(.signIn(next: nil)).path)) { l10n(.registerHaveAccount) } }
        }
    }

    static func signIn(_ form: AccountForm, next: String?, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.signInTitle) }
            HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.account(.signInSubmit).path), .boolean("novalidate")) {
                Personalization.csrfField
                if let next { input(.type("hidden"), .name("next"), .value(next)) }
                if let alert = form.alert { p(.class("form-alert"), .role("alert")) { alert } }
                FormField(label: l10n(.fieldEmail), name: "email", id: "email", type: "email", value: form.value("email"),
                          errors: form.errors("email"), autocomplete: "username")
                FormField(label: l10n(.fieldPassword), name: "password", id: "password", type: "password",
                          errors: form.errors("password"), autocomplete: "current-password")
                label(.class("checkbox")) {
                    input(.type("checkbox"), .name("remember"), .value("1"), .checked(form.value("remember") == "1"))
                    l10n(.fieldRemember)
                }
                button(.type("submit"), .class("button button-primary")) { l10n(.signInSubmit) }
            }
            div(.class("form-links")) {
                a(.href(SiteRoute.account(.forgotPassword).path)) { l10n(.signInForgot) }
                a(.href(SiteRoute.account(.register).path)) { l10n(.signInNoAccount) }
            }
        }
    }

    static func forgotPassword(_ form: AccountForm, sentTo: String?, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.forgotTitle) }
            if let sentTo {
                div(.class("form-card")) { p(.role("status")) { l10n(.forgotSent, ["email": sentTo]) } }
            } else {
                p(.class("muted")) { l10n(.forgotIntro) }
                HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.account(.forgotPasswordSubmit).path), .boolean("novalidate")) {
                    Personalization.csrfField
                    if let alert = form.alert { p(.class("form-alert"), .role("alert")) { alert } }
                    FormField(label: l10n(.fieldEmail), name: "email", id: "email", type: "email", value: form.value("email"),
                              errors: form.errors("email"), autocomplete: "email")
                    button(.type("submit"), .class("button button-primary")) { l10n(.forgotSubmit) }
                }
            }
        }
    }

    static func resetPassword(_ form: AccountForm, token: String, l10n: Localizer) -> Node {
        section(.class("auth")) {
            h1(.class("page-title")) { l10n(.resetTitle) }
            HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.account(.resetPasswordSubmit).path), .boolean("novalidate")) {
                Personalization.csrfField
                input(.type("hidden"), .name("token"), .value(token))
                FormField(label: l10n(.fieldNewPassword), name: "password", id: "password", type: "password",
                          errors: form.errors("password"), autocomplete: "new-password", hint: l10n(.passwordHint))
                FormField(label: l10n(.fieldPasswordConfirmation), name: "password_confirmation", id: "password_confirmation",
                          type: "password", errors: form.errors("password_confirmation"), autocomplete: "new-password")
                button(.type("submit"), .class("button button-primary")) { l10n(.resetSubmit) }
            }
        }
    }

    /// A short message page (email confirmed, link expired).
    static func message(title: String, text: String, action: (label: String, href: String)?, l10n: Localizer) -> Node {
        div(.class("empty-state")) {
            h1 { title }
            p { text }
            if let action { a(.class("button button-primary"), .href(action.href)) { action.label } }
        }
    }

    static func account(_ user: User, form: AccountForm, l10n: Localizer) -> Node {
        section(.class("auth stack")) {
            h1(.class("page-title")) { l10n(.accountTitle) }
            div(.class("form-card account-card")) {
                dl {
                    dt { l10n(.fieldName) }
                    dd { user.name }
                    dt { l10n(.fieldEmail) }
                    dd {
                        user.email
                        " "
                        if user.isVerified {
                            span(.class("status-pill status-ok")) { l10n(.accountVerified) }
                        } else {
                            span(.class("status-pill status-warn")) { l10n(.accountUnverified) }
                        }
                    }
                }
                // Here too, not only in the banner (which the shopper may have closed).
                if !user.isVerified {
                    HTML.form(.method("post"), .action(SiteRoute.account(.verifyResend).path)) {
                        Personalization.csrfField
                        button(.type("submit"), .class("link-button")) { l10n(.verifyResend) }
                    }
                }
            }
            HTML.form(.class("form-card"), .method("post"), .action(SiteRoute.account(.changePassword).path), .boolean("novalidate")) {
                h2 { l10n(.accountChangePassword) }
                Personalization.csrfField
                FormField(label: l10n(.fieldCurrentPassword), name: "current_password", id: "current_password", type: "password",
                          errors: form.errors("current_password"), autocomplete: "current-password")
                FormField(label: l10n(.fieldNewPassword), name: "password", id: "password", type: "password",
                          errors: form.errors("password"), autocomplete: "new-password", hint: l10n(.passwordHint))
                FormField(label: l10n(.fieldPasswordConfirmation), name: "password_confirmation", id: "password_confirmation",
                          type: "password", errors: form.errors("password_confirmation"), autocomplete: "new-password")
                button(.type("submit"), .class("button")) { l10n(.accountChangePassword) }
            }
            div(.class("form-card")) {
                a(.class("button"), .href(SiteRoute.orders(.list).path)) { l10n(.ordersTitle) }
                a(.class("button"), .href(SiteRoute.account(.addresses).path)) { l10n(.addressesTitle) }
            }
            div(.class("form-card")) {
                HTML.form(.method("post"), .action(SiteRoute.account(.signOut).path)) {
                    Personalization.csrfField
                    button(.type("submit"), .class("button button-primary")) { l10n(.signOutSubmit) }
                }
                HTML.form(.method("post"), .action(SiteRoute.account(.signOutEverywhere).path)) {
                    Personalization.csrfField
                    button(.type("submit"), .class("button button-danger")) { l10n(.signOutEverywhereSubmit) }
                    p(.class("field-hint")) { l10n(.signOutEverywhereHint) }
                }
            }
        }
    }

}
