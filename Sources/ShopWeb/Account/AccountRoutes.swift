import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// Accounts, sign-in and the address book.
    public enum AccountRoute: Hashable, Sendable {
        /// `GET /account` — name, email, password change, sign out everywhere (signed in only).
        case show
        /// `GET /account/register` and `POST` (name, email, password, password_confirmation).
        case register, registerSubmit
        /// `GET /account/sign-in?next=/path` and `POST` (email, password, remember, next).
        case signIn(next: String?)
        case signInSubmit
        /// `POST /account/sign-out` and `POST /account/sign-out-everywhere`.
        case signOut, signOutEverywhere
        /// `GET /account/verify?token=…` — the emailed confirmation link.
        case verifyEmail(token: String)
        /// `POST /account/verify/resend`.
        case verifyResend
        /// `POST /account/verify/dismiss` (return_to) — hides the "confirm your email" banner.
        case verifyBannerDismiss
        /// `POST /account/language` (lang, return_to) — the signed-in picker: remembers the
        /// language in the cookie and on the account (a GET `?lang=` sets only the cookie).
        case language
        /// `GET /account/password/forgot` and `POST` (email).
        case forgotPassword, forgotPasswordSubmit
        /// `GET /account/password/reset?token=…` and `POST` (token, password, password_confirmation).
        case resetPassword(token: String)
        case resetPasswordSubmit
        /// `POST /account/password` (current_password, password, password_confirmation).
        case changePassword
        /// `GET /account/addresses`, `GET /account/addresses/new`, `POST /account/addresses`.
        case addresses, addressNew, addressCreate
        /// `GET|POST /account/addresses/{id}` (edit).
        case addressEdit(Address.ID), addressUpdate(Address.ID)
        /// `GET|POST /account/addresses/{id}/delete` (confirm, delete).
        case addressDeleteConfirm(Address.ID), addressDelete(Address.ID)
    }

    /// The declarations of ``AccountRoute``, tried in this order.
    static let accountRoutes: [Declaration] = [
        fixed("GET", "/account", [.requiresSignIn], .account(.show)),
        fixed("GET", "/account/register", [], .account(.register)),
        fixed("POST", "/account/register", [], .account(.registerSubmit)),
        Declaration("GET", "/account/sign-in", [],
                    make: { .account(.signIn(next: $0.queryValue("next"))) },
                    match: { if case let .account(.signIn(next)) = $0 { Parameters(query: ["next": next]) } else { nil } }),
        fixed("POST", "/account/sign-in", [], .account(.signInSubmit)),
        fixed("POST", "/account/sign-out", [], .account(.signOut)),
        fixed("POST", "/account/sign-out-everywhere", [], .account(.signOutEverywhere)),  // signed out: nothing to do, home
        Declaration("GET", "/account/verify", [],
                    make: { .account(.verifyEmail(token: $0.queryValue("token") ?? "")) },
                    match: { if case let .account(.verifyEmail(token)) = $0 { Parameters(query: ["token": token]) } else { nil } }),
        fixed("POST", "/account/verify/resend", [], .account(.verifyResend)),
        fixed("POST", "/account/verify/dismiss", [], .account(.verifyBannerDismiss)),
        fixed("POST", "/account/language", [], .account(.language)),
        fixed("GET", "/account/password/forgot", [], .account(.forgotPassword)),
        fixed("POST", "/account/password/forgot", [], .account(.forgotPasswordSubmit)),
        Declaration("GET", "/account/password/reset", [],
                    make: { .account(.resetPassword(token: $0.queryValue("token") ?? "")) },
                    match: { if case let .account(.resetPassword(token)) = $0 { Parameters(query: ["token": token]) } else { nil } }),
        fixed("POST", "/account/password/reset", [], .account(.resetPasswordSubmit)),
        fixed("POST", "/account/password", [.requiresSignIn], .account(.changePassword)),
        fixed("GET", "/account/addresses", [.requiresSignIn], .account(.addresses)),
        fixed("GET", "/account/addresses/new", [.requiresSignIn], .account(.addressNew)),
        fixed("POST", "/account/addresses", [.requiresSignIn], .account(.addressCreate)),
        numbered("GET", "/account/addresses/{id}", [.requiresSignIn], make: { .account(.addressEdit(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressEdit(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/account/addresses/{id}", [.requiresSignIn], make: { .account(.addressUpdate(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressUpdate(id)) = $0 { id.rawValue } else { nil } }),
        numbered("GET", "/account/addresses/{id}/delete", [.requiresSignIn],
                 make: { .account(.addressDeleteConfirm(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressDeleteConfirm(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/account/addresses/{id}/delete", [.requiresSignIn],
                 make: { .account(.addressDelete(Address.ID(rawValue: $0))) },
                 id: { if case let .account(.addressDelete(id)) = $0 { id.rawValue } else { nil } }),
    ]
}
