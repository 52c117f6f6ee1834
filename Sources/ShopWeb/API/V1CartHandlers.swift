import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// The cart over the API: every change through `CartService` (the cart page's use cases), every
/// answer the cart priced in one pass (`CartQuote`) — the same numbers as the cart page.
extension V1Handlers {
    /// `GET /api/v1/cart`. Lines whose product is no longer sold are listed in `unavailable`
    /// (a GET changes nothing; the next change or the cart page removes them).
    static func cart(_ context: inout RequestContext) throws -> Response {
        _ = try shopper(&context)
        return try cartAnswer(&context)
    }

    /// `POST /api/v1/cart/lines`: `CartService.add`, as the storefront's add-to-cart.
    static func addLine(_ context: inout RequestContext) throws -> Response {
        try changingCart(&context) { shopper, context in
            let body = try APIApp.body(V1AddLine.self, of: context.request)
            let catalog = context.environment.catalog
            let product: Product?
            if let handle = body.product {
                product = try catalog.productByHandle(handle)
                // Both named (a fresh tester's body): they must be one product, not the handle's silently.
                if let id = body.productId, let product, product.id.rawValue != id {
                    throw APIError(status: .badRequest, code: "invalid_field", .apiFieldsDisagree,
                                   ["first": "product", "second": "productId"], field: "productId")
                }
            } else if let id = body.productId {
                product = try catalog.productsByID([Product.ID(rawValue: id)])[Product.ID(rawValue: id)]
            } else {
                throw APIError(status: .badRequest, code: "missing_field", .apiMissingEither,
                               ["first": "product", "second": "productId"], field: "product")
            }
            guard let product else { throw refusal(.variantNotFound, context, field: "product") }
            do {
                try context.environment.carts.add(product, variantID: body.variantId.map(Variant.ID.init(rawValue:)),
                                                  quantityText: body.quantity.map { "\($0)" } ?? "1",
                                                  picked: picked(body.chosenValues, of: product, context),
                                                  for: shopper)
            } catch let error as CartError {
                let field = switch error {
                case .variantNotChosen, .variantNotFound: "variantId"
                case .valueNotChosen, .valueNotAllowed: "chosenValues"
                default: "quantity"
                }
                throw refusal(error, context, field: field)
            }
        }
    }

    /// `PATCH /api/v1/cart/lines/{variantId}`: `quantity` (`CartService.setQuantity`, 0
    /// removes) and/or `selected` (`CartService.setSelected`).
    static func updateLine(_ id: FakeStoreID, _ context: inout RequestContext) throws -> Response {
        try changingCart(&context) { shopper, context in
            let body = try APIApp.body(V1LineChange.self, of: context.request)
            guard body.quantity != nil || body.selected != nil else {
                throw APIError(status: .badRequest, code: "missing_field", .apiMissingEither,
                               ["first": "quantity", "second": "selected"], field: "quantity")
            }
            let chosen = ChosenValues(picked: body.chosenValues)
            let variantID = try lineInCart(id, chosen: chosen, &context)
            let carts = context.environment.carts
            var removed = false
            if let quantity = body.quantity {
                do {
                    if case .removed = try carts.setQuantity("\(quantity)", of: variantID, chosen: chosen, for: shopper) {
                        removed = true
                    }
                } catch let error as CartError {
                    throw refusal(error, context, field: error == .lineNotFound ? "variantId" : "quantity")
                }
            }
            if let selected = body.selected, !removed {
                try carts.setSelected(selected, line: variantID, chosen: chosen, for: shopper)
            }
        }
    }

    /// `DELETE /api/v1/cart/lines/{variantId}`: `CartService.remove`; the line of an open variant
    /// is named by the query's `chosen` (`Size=M`, options joined by a line feed: `ChosenValues.text`).
    static func removeLine(_ id: FakeStoreID, chosen text: String?, _ context: inout RequestContext) throws -> Response {
        try changingCart(&context) { shopper, context in
            let chosen = ChosenValues(text: text ?? "")
            _ = try context.environment.carts.remove(try lineInCart(id, chosen: chosen, &context), chosen: chosen, for: shopper)
        }
    }

    /// The picks of a request, by the product's option name: `option` may be that name or the one
    /// the API shows in the product's `options` (in the shopper's language). The first of a name counts.
    static func picked(_ values: [V1ChosenValue]?, of product: Product, _ context: RequestContext) -> [String: String] {
        let shown = context.environment.optionNames.names(product.optionNames, in: context.l10n.language)
        let names = Dictionary(zip(shown, product.optionNames).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        var picked: [String: String] = [:]
        for value in values ?? [] {
            let name = product.optionNames.contains(value.option) ? value.option : names[value.option] ?? value.option
            if picked[name] == nil { picked[name] = value.value }
        }
        return picked
    }

    /// Chosen values on the wire; nil (left out) when there are none.
    static func wire(_ chosen: ChosenValues) -> [V1ChosenValue]? {
        chosen.isEmpty ? nil : chosen.entries.map { V1ChosenValue(option: $0.name, value: $0.value) }
    }

    /// `PUT /api/v1/cart/voucher` `{"code"}` and `DELETE /api/v1/cart/voucher`:
    /// `CartService.setVoucher`. A code that does not apply stays entered, as on the cart page:
    /// the answer's `voucher.problem` says why, and it applies once the cart qualifies.
    static func setVoucher(_ context: inout RequestContext, remove: Bool) throws -> Response {
        try changingCart(&context) { shopper, context in
            var code: VoucherCode?
            if !remove {
                let body = try APIApp.body(V1Voucher.self, of: context.request)
                guard let typed = VoucherCode(body.code) else {
                    throw APIError(status: .badRequest, code: "invalid_voucher_code",
                                   message: context.l10n(.voucherInvalidFormat), field: "code")
                }
                code = typed
            }
            try context.environment.carts.setVoucher(code, for: shopper)
        }
    }

    /// Runs one change of the bearer's cart, then answers the cart as it now is — or, when the
    /// request says `Prefer: return=minimal` (RFC 7240), 204 without it: quoting and encoding
    /// a large cart is most of a write's cost, and a client adding in a loop need not pay it.
    private static func changingCart(_ context: inout RequestContext,
                                     _ change: (Shopper, inout RequestContext) throws -> Void) throws -> Response {
        let shopper = try shopper(&context)
        try change(shopper, &context)
        context.invalidateCart()
        if prefersMinimal(context.request) {
            return Response(status: .noContent, headers: ["Preference-Applied": "return=minimal",
                                                          "Cache-Control": "no-store"])
        }
        return try cartAnswer(&context)
    }

    /// Whether the request's `Prefer` header holds the `return=minimal` preference (names are
    /// case-insensitive; preferences are comma-separated, parameters after `;`).
    static func prefersMinimal(_ request: Request) -> Bool {
        guard let header = request.headers["Prefer"] else { return false }
        return header.split(separator: ",").contains { preference in
            let token = preference.split(separator: ";").first ?? ""
            let parts = token.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 && parts[0].lowercased() == "return"
                && parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased() == "minimal"
        }
    }

    /// The variant of a line the caller's cart holds.
    /// - Throws: 400 `malformed_id`, or 404 `line_not_found` — also for a line of another
    ///   shopper's cart, which this token cannot reach.
    private static func lineInCart(_ id: FakeStoreID, chosen: ChosenValues, _ context: inout RequestContext) throws -> Variant.ID {
        guard let value = id.value else { throw APIError.malformedID(id, "variant") }
        let variantID = Variant.ID(rawValue: value)
        guard try context.cart().line(for: variantID, chosen: chosen) != nil else {
            throw refusal(.lineNotFound, context, field: "variantId")
        }
        return variantID
    }

    // MARK: Shaping

    /// The request's cart quote (`RequestContext.cartQuote`, i.e. `CartService.quote`) as JSON.
    static func cartAnswer(_ context: inout RequestContext) throws -> Response {
        try APIApp.json(cartJSON(try context.cartQuote(), context))
    }

    /// A `CartQuote` on the wire.
    static func cartJSON(_ quote: CartQuote, _ context: RequestContext) -> V1Cart {
        let lines = quote.lines.map { line in
            V1Cart.Line(variantId: line.variant.id.rawValue, productId: line.product.id.rawValue, handle: line.product.handle,
                        title: line.product.title, variantTitle: line.variant.title,
                        image: line.product.image(showing: line.variant).map { FakeStoreHandlers.absolute($0.url, context) },
                        quantity: line.quantity, selected: line.isSelected, unitPrice: money(line.unitPrice, context),
                        amount: money(line.amount, context), discount: money(line.discount, context),
                        total: money(line.total, context), quantityLimit: line.quantityLimit,
                        problem: line.stockProblem.map { V1Problem(code: code(for: $0), message: context.l10n.message(for: $0)) },
                        chosenValues: wire(line.item.chosen))
        }
        let voucher: V1Cart.Voucher? = switch quote.voucher {
        case .none: nil
        case let .applied(campaign):
            V1Cart.Voucher(code: campaign.voucherCode?.normalized ?? "", status: "applied", campaign: campaign.title.text(in: context.l10n.language),
                           problem: nil)
        case let .rejected(code, problem):
            V1Cart.Voucher(code: code.normalized, status: "rejected", campaign: nil,
                           problem: V1Problem(code: self.code(for: problem),
                                              message: context.models.message(for: problem, code: code.normalized,
                                                                              timeZone: context.environment.timeZone)))
        }
        return V1Cart(lines: lines, subtotal: money(quote.subtotal, context), discount: money(quote.discount, context),
                      total: money(quote.total, context), itemCount: quote.itemCount,
                      selectedItemCount: quote.selectedItemCount, voucher: voucher,
                      unavailable: quote.unavailable.map {
                          V1Cart.UnavailableLine(productId: $0.productID.rawValue, variantId: $0.variantID.rawValue,
                                                 quantity: $0.quantity, chosenValues: wire($0.chosen))
                      })
    }

    /// A cart refusal as the error envelope: the storefront's localized message
    /// (`Localizer.message(for: CartError)`) with a stable code — 404 for a line the cart does
    /// not have, 400 for a quantity that is not a whole number ≥ 0, 422 for what the stock,
    /// the line limit or the product refuses.
    static func refusal(_ error: CartError, _ context: RequestContext, field: String) -> APIError {
        let status: HTTPStatus = switch error {
        case .lineNotFound: .notFound
        case .quantityNegative, .quantityNotWhole, .quantityNotANumber, .quantityNotPositive: .badRequest
        case .soldOut, .quantityExceedsStock, .quantityExceedsMaximum, .variantNotFound, .variantNotChosen,
             .valueNotChosen, .valueNotAllowed: .unprocessableContent
        }
        return APIError(status: status, code: code(for: error), message: context.l10n.message(for: error), field: field)
    }

    /// The stable code of a cart refusal.
    static func code(for error: CartError) -> String {
        switch error {
        case .quantityNegative: "quantity_negative"
        case .quantityNotWhole: "quantity_not_whole"
        case .quantityNotANumber: "quantity_not_a_number"
        case .quantityNotPositive: "quantity_not_positive"
        case .soldOut: "sold_out"
        case .quantityExceedsStock: "quantity_exceeds_stock"
        case .quantityExceedsMaximum: "quantity_exceeds_maximum"
        case .lineNotFound: "line_not_found"
        case .variantNotFound: "variant_not_found"
        case .variantNotChosen: "variant_not_chosen"
        case .valueNotChosen: "value_not_chosen"
        case .valueNotAllowed: "value_not_allowed"
        }
    }

    /// The stable code of why a voucher gives no discount.
    static func code(for problem: VoucherProblem) -> String {
        switch problem {
        case .unknown: "voucher_unknown"
        case .notStarted: "voucher_not_started"
        case .expired: "voucher_expired"
        case .minimumNotMet: "voucher_minimum_not_met"
        case .notApplicable: "voucher_not_applicable"
        case .signInRequired: "voucher_sign_in_required"
        case .usageLimitReached: "voucher_usage_limit_reached"
        }
    }
}

extension ChosenValues {
    /// The line named by an API request's `chosenValues` (in the order sent; none when absent).
    init(picked values: [V1ChosenValue]?) {
        self.init(entries: (values ?? []).map { Entry(name: $0.option, value: $0.value) })
    }
}
