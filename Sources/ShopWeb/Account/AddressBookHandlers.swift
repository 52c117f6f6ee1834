import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopStore

/// The address book of a signed-in shopper.
extension ShopApp {
    /// The signed-in shopper, or a redirect to sign in and come back to `next`.
    static func requireUser(_ context: inout RequestContext, next: String) throws -> Result<User, RedirectNeeded> {
        if let user = try context.currentUser() { return .success(user) }
        context.setFlash(Flash(kind: .error, text: context.l10n(.signInRequired)))
        return .failure(RedirectNeeded(response: .redirect(to: SiteRoute.account(.signIn(next: next)).path)))
    }

    struct RedirectNeeded: Error { var response: Response }

    static func addressBook(_ context: inout RequestContext) throws -> Response {
        guard let store = context.environment.addresses else { return context.errorPage(.notFound) }
        let user: User
        switch try requireUser(&context, next: SiteRoute.account(.addresses).path) {
        case let .success(found): user = found
        case let .failure(redirect): return redirect.response
        }
        let addresses = try store.list(user.id).sorted(by: Address.bookOrder)
        return try page(&context, PageContent(title: context.l10n(.addressesTitle), tab: .account,
                                              node: Views.addressBook(addresses, l10n: context.l10n)))
    }

    static func addressForm(_ context: inout RequestContext, id: Address.ID?) throws -> Response {
        guard let store = context.environment.addresses else { return context.errorPage(.notFound) }
        let user: User
        switch try requireUser(&context, next: SiteRoute.account(.addresses).path) {
        case let .success(found): user = found
        case let .failure(redirect): return redirect.response
        }
        var form = AccountForm()
        if let id {
            guard let address = try store.address(user.id, id) else { return context.errorPage(.notFound) }
            form.values = AddressFormValues.values(of: address)
        } else {
            form.values = ["country": "US", "default": (try store.list(user.id)).isEmpty ? "1" : ""]
        }
        return try page(&context, PageContent(
            title: context.l10n(id == nil ? .addressNewTitle : .addressEditTitle), tab: .account,
            node: Views.addressForm(form, action: id.map { SiteRoute.account(.addressUpdate($0)).path } ?? SiteRoute.account(.addressCreate).path,
                                    title: context.l10n(id == nil ? .addressNewTitle : .addressEditTitle), l10n: context.l10n)))
    }

    static func addressSave(_ context: inout RequestContext, id: Address.ID?) throws -> Response {
        guard let store = context.environment.addresses else { return context.errorPage(.notFound) }
        let user: User
        switch try requireUser(&context, next: SiteRoute.account(.addresses).path) {
        case let .success(found): user = found
        case let .failure(redirect): return redirect.response
        }
        if let id, try store.address(user.id, id) == nil { return context.errorPage(.notFound) }
        switch AddressFormValues.validate(context.request, id: id, l10n: context.l10n) {
        case let .success(address):
            _ = try store.save(user.id, address)
            context.setFlash(Flash(kind: .success, text: context.l10n(.addressSaved)))
            return .redirect(to: SiteRoute.account(.addresses).path)
        case let .failure(form):
            return try page(&context, PageContent(
                title: context.l10n(id == nil ? .addressNewTitle : .addressEditTitle), tab: .account,
                node: Views.addressForm(form.form, action: id.map { SiteRoute.account(.addressUpdate($0)).path } ?? SiteRoute.account(.addressCreate).path,
                                        title: context.l10n(id == nil ? .addressNewTitle : .addressEditTitle), l10n: context.l10n)),
                status: .unprocessableContent)
        }
    }

    static func addressDelete(_ context: inout RequestContext, id: Address.ID, confirmed: Bool) throws -> Response {
        guard let store = context.environment.addresses else { return context.errorPage(.notFound) }
        let user: User
        switch try requireUser(&context, next: SiteRoute.account(.addresses).path) {
        case let .success(found): user = found
        case let .failure(redirect): return redirect.response
        }
        guard let address = try store.address(user.id, id) else { return context.errorPage(.notFound) }
        if confirmed {
            try store.delete(user.id, id)
            context.setFlash(Flash(kind: .success, text: context.l10n(.addressDeleted)))
            return .redirect(to: SiteRoute.account(.addresses).path)
        }
        return try page(&context, PageContent(title: context.l10n(.addressDeleteTitle), tab: .account,
                                              node: Views.addressDeleteConfirmation(address, l10n: context.l10n)))
    }
}
