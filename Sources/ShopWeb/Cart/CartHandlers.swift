import Foundation
import HTML
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopService

/// The cart page and every cart action: add, quantity, remove, selection, voucher.
extension ShopApp {
    static func cart(_ route: SiteRoute.CartRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .show: return try cart(&context)
        case .add: return try cartAdd(&context)
        case let .updateLine(variantID): return try cartUpdate(&context, variantID: variantID, remove: false)
        case let .removeLine(variantID): return try cartUpdate(&context, variantID: variantID, remove: true)
        case let .selectLine(id): return try cartSelect(&context, line: id)
        case .selectAll: return try cartSelect(&context, line: nil)
        case .voucher: return try cartVoucher(&context, remove: false)
        case .voucherRemove: return try cartVoucher(&context, remove: true)
        }
    }

    /// `POST /cart/add`: `product` (handle), `variant` (id), `quantity`, optional `return_to`, and
    /// `choice.<variant id>.<option>` for each open option of the variant (`PickedValues`).
    static func cartAdd(_ context: inout RequestContext) throws -> Response {
        let request = context.request
        let wantsJSON = request.headers["Accept"]?.contains("application/json") == true
        guard let handle = request.formValue("product"),
              let product = try context.environment.catalog.productByHandle(handle) else {
            // No longer sold (or never was): quick add shows the reason in its toast.
            guard wantsJSON else { return context.errorPage(.notFound) }
            return JSONText.response(["ok": .bool(false), "message": .string(context.l10n.message(for: CartError.variantNotFound))],
                                     status: .notFound)
        }
        let requestedVariant = request.formValue("variant").flatMap { Int64($0) }.map(Variant.ID.init(rawValue:))
        let quantityText = request.formValue("quantity") ?? "1"
        let picked = PickedValues.picked(for: requestedVariant, in: request.form)
        do {
            try context.environment.carts.add(product, variantID: requestedVariant, quantityText: quantityText,
                                              picked: picked, for: try context.shopper(),
                                              startingSession: { changes in try context.startGuestSession(cart: changes) })
            context.invalidateCart()
        } catch let error as CartError {
            let message = context.l10n.message(for: error)
            if wantsJSON {
                return JSONText.response(["ok": .bool(false), "message": .string(message)], status: .unprocessableContent)
            }
            // The stock shown beside the refusal is what this shopper can buy now (net of others' holds).
            let model = context.models.productPage(try context.availableToShopper(product),
                                                   category: try context.category(of: product), selected: requestedVariant,
                                                   quantity: Int(quantityText) ?? 1, error: message, picked: picked,
                                                   choosing: error == .variantNotChosen, timeZone: context.environment.timeZone)
            // Shown at the top as well, where a phone's screen starts.
            context.pageFlash = Flash(kind: .error, text: message)
            context.shownPath = SiteRoute.catalog(.product(handle: product.handle, variant: requestedVariant)).path
            return try page(&context, PageContent(title: product.title, tab: .categories, mainClass: "product-page",
                                                  node: Views.product(model, related: [], l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        let added = context.l10n(.addedToCart, ["title": product.title])
        if wantsJSON {
            // Quick add with JavaScript: the page stays; the badge and a short toast update in place.
            return JSONText.response(["ok": .bool(true), "message": .string(added),
                                      "cartCount": .int(try context.cartItemCount())])
        }
        context.setFlash(Flash(kind: .success, text: added, linkText: context.l10n(.viewCart), linkHref: SiteRoute.cart(.show).path))
        let fallback = SiteRoute.catalog(.product(handle: product.handle, variant: product.hasOptions ? requestedVariant : nil)).path
        return .redirect(to: SafeRedirect.localPath(request.formValue("return_to")) ?? fallback)
    }

    /// `POST /cart/lines/{id}` (`quantity`, 0 removes) and `POST /cart/lines/{id}/remove`; `chosen`
    /// names the line of an open variant (its `ChosenValues.text`).
    static func cartUpdate(_ context: inout RequestContext, variantID: Variant.ID, remove: Bool) throws -> Response {
        guard let shopper = try context.shopper() else {
            context.setFlash(Flash(kind: .error, text: context.l10n(.cartErrorLineNotFound)))
            return .redirect(to: SiteRoute.cart(.show).path)
        }
        let carts = context.environment.carts
        do {
            if remove {
                if let title = try carts.remove(variantID, chosen: PickedValues.chosen(context.request), for: shopper) {
                    context.setFlash(Flash(kind: .success, text: context.l10n(.cartRemoved, ["title": title])))
                }
                return .redirect(to: SiteRoute.cart(.show).path)
            }
            // The line's select box belongs to this form (one "Update" button per line without
            // JavaScript); an unticked box sends nothing, so `select_shown` says it was there.
            if context.request.formValue("select_shown") == "1" {
                let selected = context.request.form.contains { $0.name == "selected" && $0.value == "1" }
                try carts.setSelected(selected, line: variantID, chosen: PickedValues.chosen(context.request), for: shopper)
            }
            switch try carts.setQuantity(context.request.formValue("quantity") ?? "", of: variantID,
                                         chosen: PickedValues.chosen(context.request), for: shopper) {
            case .updated:
                context.setFlash(Flash(kind: .success, text: context.l10n(.cartUpdated)))
            case let .removed(title: title):
                if let title { context.setFlash(Flash(kind: .success, text: context.l10n(.cartRemoved, ["title": title]))) }
            }
            return .redirect(to: SiteRoute.cart(.show).path)
        } catch CartError.lineNotFound {
            context.setFlash(Flash(kind: .error, text: context.l10n(.cartErrorLineNotFound)))
            return .redirect(to: SiteRoute.cart(.show).path)
        } catch let error as CartError {
            context.shownPath = SiteRoute.cart(.show).path
            let model = context.models.cartPage(try context.cartQuote(),
                                                errors: [CartPage.LineKey(variantID, PickedValues.chosen(context.request)):
                                                            context.l10n.message(for: error)],
                                                timeZone: context.environment.timeZone)
            return try page(&context, PageContent(title: context.l10n(.cartTitle), tab: .cart, mainClass: "cart-page",
                                                  node: Views.cart(model, l10n: context.l10n)),
                            status: .unprocessableContent)
        }
    }

    static func cartVoucher(_ context: inout RequestContext, remove: Bool) throws -> Response {
        var code: VoucherCode?
        if !remove {
            guard let typed = VoucherCode(context.request.formValue("code") ?? "") else {
                // This attempt replaces an unknown code kept from the last one: the page would
                // otherwise say both "not a code" and "we don't know NOPE" (a fresh tester's).
                // A code that applies, or may once the cart qualifies, stays.
                if case .rejected(_, .unknown) = try context.cartQuote().voucher, let shopper = try context.shopper() {
                    try context.environment.carts.setVoucher(nil, for: shopper)
                }
                context.setFlash(Flash(kind: .error, text: context.l10n(.voucherInvalidFormat)))
                return .redirect(to: SiteRoute.cart(.show).path)
            }
            code = typed
        }
        try context.environment.carts.setVoucher(code, for: try context.changingShopper())
        // The cart's summary says whether the code applies, and why not.
        return .redirect(to: SiteRoute.cart(.show).path)
    }

    static func cartSelect(_ context: inout RequestContext, line variantID: Variant.ID?) throws -> Response {
        let selected = context.request.formValue("selected") == "1"
        try context.environment.carts.setSelected(selected, line: variantID, for: try context.changingShopper())
        if context.request.headers["Accept"]?.contains("application/json") == true {
            return JSONText.response(["ok": .bool(true)])
        }
        return .redirect(to: SiteRoute.cart(.show).path)
    }

    /// The cards of "You may also like", rendered once per shared version, language and list
    /// (`AppEnvironment.recommendationStrips`): the same for every cart whose products leave the
    /// same eight, and as cards they were ~12 % of the cart page's CPU (issue #14). Hearts and
    /// forms are markers, filled per visitor. Nil when there are none.
    static func recommendationStrip(_ context: inout RequestContext) throws -> String? {
        // The version is read before the pool, so a strip is never kept under a newer version
        // than the products it shows (`CatalogMemo`'s rule).
        let version = try context.environment.sharedVersion(at: context.now)
        let products = try cartRecommendations(&context)
        guard !products.isEmpty else { return nil }
        let key = RecommendationStripKey(language: context.l10n.language, products: products.map(\.id))
        let html = context.environment.recommendationStrips.answer(at: version, key) {
            let returnTo = SiteRoute.cart(.show).path
            var writer = HTMLWriter(reservingCapacity: 16_384)
            for product in products { ProductCard(model: context.models.card(product), returnTo: returnTo).write(into: &writer) }
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        return html
    }

    /// Products for "You may also like" in the cart: best rated, buyable, not already in it.
    static func cartRecommendations(_ context: inout RequestContext) throws -> [Product] {
        let inCart = Set(try context.cart().lines.map(\.productID))
        guard !inCart.isEmpty else { return [] }
        // Lazily: filtering the pool of 60 eagerly copied every product in it (3 % of a cart page).
        return Array(try bestRatedInStock(context.environment).lazy.filter { !inCart.contains($0.id) }.prefix(8))
    }
}

extension ShopApp {
    /// `GET /cart`: the cart quoted once — lines, stock net of others' holds, voucher, totals.
    static func cart(_ context: inout RequestContext) throws -> Response {
        var quote = try context.cartQuote()
        // Lines whose product is no longer sold are removed for good, and the shopper is told.
        if !quote.unavailable.isEmpty, let shopper = try context.shopper() {
            try context.environment.carts.removeUnavailable(quote, for: shopper)
            quote.unavailable = []
            context.pageFlash = Flash(kind: .error, text: context.l10n(.cartLineRemoved))
        }
        let page = context.models.cartPage(quote, recommendations: try recommendationStrip(&context),
                                           timeZone: context.environment.timeZone)
        return try self.page(&context, PageContent(title: context.l10n(.cartTitle), tab: .cart, mainClass: "cart-page",
                                                   node: Views.cart(page, l10n: context.l10n)))
    }
}
