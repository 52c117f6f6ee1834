import Foundation
import HTML
import HTTPServer
import Routing
import ShopCore
import ShopStore

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

    /// `POST /cart/add`: `product` (handle), `variant` (id), `quantity`, optional `return_to`.
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
        let chosen = requestedVariant.flatMap { id in product.variants.first { $0.id == id } }
            ?? (product.hasOptions ? nil : product.defaultVariant)
        let quantityText = request.formValue("quantity") ?? "1"
        func rejected(_ message: String, quantity: Int = 1) throws -> Response {
            if wantsJSON {
                return JSONText.response(["ok": .bool(false), "message": .string(message)], status: .unprocessableContent)
            }
            // The stock shown beside the refusal is what this shopper can buy now (net of others' holds).
            let model = context.models.productPage(try context.availableToShopper(product), selected: requestedVariant,
                                                   quantity: quantity, error: message, timeZone: context.environment.timeZone)
            // Shown at the top as well, where a phone's screen starts.
            context.pageFlash = Flash(kind: .error, text: message)
            return try page(&context, PageContent(title: product.title, tab: .categories, mainClass: "product-page",
                                                  node: Views.product(model, related: [], l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        guard let listed = chosen else { return try rejected(context.l10n(.cartErrorChooseVariant)) }
        let variant = try context.withReservations(listed)
        do {
            // The checks that need no cart here; the one against the line already in the cart
            // is the store's conditional increment (simultaneous adds all count).
            let quantity = try CartQuantity.parse(quantityText)
            let limit = try Cart.lineLimit(adding: quantity, of: variant)
            do {
                try context.changeCart([.add(productID: product.id, variantID: variant.id, quantity: quantity, limit: limit)])
            } catch let refused as CartLineLimitExceeded {
                throw Cart.addRefusal(adding: quantity, of: variant, alreadyInCart: refused.inCart)
            }
        } catch let error as CartError {
            return try rejected(context.l10n.message(for: error), quantity: Int(quantityText) ?? 1)
        }
        let added = context.l10n(.addedToCart, ["title": product.title])
        if wantsJSON {
            // Quick add with JavaScript: the page stays; the badge and a short toast update in place.
            return JSONText.response(["ok": .bool(true), "message": .string(added),
                                      "cartCount": .int(try context.cartItemCount())])
        }
        context.setFlash(Flash(kind: .success, text: added, linkText: context.l10n(.viewCart), linkHref: SiteRoute.cart(.show).path))
        let fallback = SiteRoute.catalog(.product(handle: product.handle, variant: product.hasOptions ? variant.id : nil)).path
        return .redirect(to: SafeRedirect.localPath(request.formValue("return_to")) ?? fallback)
    }

    /// `POST /cart/lines/{id}` (`quantity`, 0 removes) and `POST /cart/lines/{id}/remove`.
    static func cartUpdate(_ context: inout RequestContext, variantID: Variant.ID, remove: Bool) throws -> Response {
        var cart = try context.cart()
        guard let line = cart.line(for: variantID) else {
            context.setFlash(Flash(kind: .error, text: context.l10n(.cartErrorLineNotFound)))
            return .redirect(to: SiteRoute.cart(.show).path)
        }
        let product = try context.environment.catalog.productsByID([line.productID])[line.productID]
        let variant = product?.variants.first { $0.id == variantID }
        if remove || variant == nil {
            try context.changeCart([.remove(variantID)])
            if let product {
                context.setFlash(Flash(kind: .success, text: context.l10n(.cartRemoved, ["title": product.title])))
            }
            return .redirect(to: SiteRoute.cart(.show).path)
        }
        let available = try context.withReservations(variant!)
        let quantity: Int
        do {
            quantity = try CartQuantity.parse(context.request.formValue("quantity") ?? "")
            try cart.setQuantity(quantity, of: available)  // the rules, on this request's copy
        } catch {
            let priced = try context.pricedCart()
            let model = context.models.cartPage(priced, totals: try cartTotals(&context), recommendations: [],
                                                errors: [variantID: context.l10n.message(for: error)],
                                                timeZone: context.environment.timeZone)
            return try page(&context, PageContent(title: context.l10n(.cartTitle), tab: .cart, mainClass: "cart-page",
                                                  node: Views.cart(model, l10n: context.l10n)),
                            status: .unprocessableContent)
        }
        try context.changeCart([quantity == 0 ? .remove(variantID) : .setQuantity(variantID, quantity)])
        context.setFlash(Flash(kind: .success, text: context.l10n(.cartUpdated)))
        return .redirect(to: SiteRoute.cart(.show).path)
    }

    static func cartVoucher(_ context: inout RequestContext, remove: Bool) throws -> Response {
        if remove {
            try context.changeCart([.setVoucher(nil)])
        } else {
            let typed = context.request.formValue("code") ?? ""
            guard let code = VoucherCode(typed) else {
                context.setFlash(Flash(kind: .error, text: context.l10n(.voucherInvalidFormat)))
                return .redirect(to: SiteRoute.cart(.show).path)
            }
            try context.changeCart([.setVoucher(code)])
        }
        // The cart's summary says whether the code applies, and why not.
        return .redirect(to: SiteRoute.cart(.show).path)
    }

    static func cartSelect(_ context: inout RequestContext, line variantID: Variant.ID?) throws -> Response {
        let selected = context.request.formValue("selected") == "1"
        try context.changeCart([.setSelected(variantID, selected)])
        if context.request.headers["Accept"]?.contains("application/json") == true {
            return JSONText.response(["ok": .bool(true)])
        }
        return .redirect(to: SiteRoute.cart(.show).path)
    }

    /// The cart's totals: selected lines, the voucher re-decided now (nil for an empty cart).
    static func cartTotals(_ context: inout RequestContext) throws -> CartTotals? {
        let cart = try context.cart()
        let priced = try context.pricedCart()
        guard !priced.lines.isEmpty else { return nil }
        let categoryHandles = Dictionary(try context.environment.catalog.categories().map { ($0.category.id, $0.category.handle) },
                                         uniquingKeysWith: { first, _ in first })
        let lines = priced.lines.map { line in
            PricingLine(product: line.product, variant: line.variant,
                        categoryHandle: line.product.categoryID.flatMap { categoryHandles[$0] }, quantity: line.quantity,
                        isSelected: cart.line(for: line.variant.id)?.isSelected ?? true)
        }
        let campaign = try cart.voucherCode.flatMap { try context.environment.campaigns.byVoucherCode($0) }
        // A code limited per account counts the account's earlier orders with it (issue #4).
        var uses: Int? = 0
        if let campaign, campaign.usageLimitPerAccount != nil {
            if let user = try context.currentUser(), let orders = context.environment.orders {
                uses = try orders.orders(user.id).filter {
                    $0.status != .cancelled && $0.voucherCode == campaign.voucherCode?.normalized
                }.count
            } else {
                uses = nil
            }
        }
        return try CartPricing.price(lines, voucherCode: cart.voucherCode, campaign: campaign, now: context.now,
                                     currency: context.environment.currency, accountUses: uses)
    }

    /// Products for "You may also like" in the cart: best rated, buyable, not already in it.
    static func cartRecommendations(_ context: inout RequestContext) throws -> [Product] {
        let inCart = Set(try context.cart().lines.map(\.productID))
        guard !inCart.isEmpty else { return [] }
        return try context.environment.catalog.products(ProductQuery(sort: .rating, inStockOnly: true, limit: 24))
            .products.filter { !inCart.contains($0.id) }.prefix(8).map { $0 }
    }
}

extension ShopApp {
    static func cart(_ context: inout RequestContext) throws -> Response {
        var priced = try context.pricedCart()
        // Lines whose product is no longer sold are removed for good, and the shopper is told.
        let cart = try context.cart()
        if priced.lines.count < cart.lines.count {
            let kept = Set(priced.lines.map(\.variant.id))
            try context.changeCart(cart.lines.filter { !kept.contains($0.variantID) }.map { .remove($0.variantID) })
            priced = try context.pricedCart()
            context.pageFlash = Flash(kind: .error, text: context.l10n(.cartLineRemoved))
        }
        // What other shoppers hold is not available to this one.
        for index in priced.lines.indices {
            priced.lines[index].variant = try context.withReservations(priced.lines[index].variant)
        }
        // Stock that fell below a line's quantity since it was added: say so on the line.
        var errors: [Variant.ID: String] = [:]
        for line in priced.lines where line.quantity > line.quantityLimit {
            errors[line.variant.id] = context.l10n.message(
                for: line.quantityLimit == 0 ? .soldOut : .quantityExceedsStock(available: line.quantityLimit, inCart: 0))
        }
        let totals = try cartTotals(&context)
        let page = context.models.cartPage(priced, totals: totals, recommendations: try cartRecommendations(&context),
                                           errors: errors, timeZone: context.environment.timeZone)
        return try self.page(&context, PageContent(title: context.l10n(.cartTitle), tab: .cart, mainClass: "cart-page",
                                                   node: Views.cart(page, l10n: context.l10n)))
    }
}
