import Foundation
import ShopCore
import ShopStore

/// The cart.
struct CartPage: Sendable {
    /// A line's identity: its variant and the values chosen for its open options.
    struct LineKey: Hashable {
        var variantID: Variant.ID
        var chosen: ChosenValues

        init(_ variantID: Variant.ID, _ chosen: ChosenValues) {
            self.variantID = variantID
            self.chosen = chosen
        }
    }

    struct Line: Sendable, Equatable {
        var variantID: Int64
        var productHref: String
        var title: String
        var variantTitle: String
        var image: ProductImage?
        var imageAlt: String
        var unitPriceText: String
        var compareAtPrice: String?
        var quantity: Int
        var maxQuantity: Int
        var lineTotal: String
        var stockText: String?
        var error: String?
        var isSelected: Bool
        /// "−$2.00" when the voucher takes something off this line.
        var discountText: String?
        /// The values picked for an open variant (`ChosenValues.text`, posted back as `chosen`);
        /// empty for other lines.
        var chosenText: String = ""
        /// The line's quantity form id: `line-<variant id>`, and the line's place after it for a
        /// line with chosen values (one variant may have several such lines).
        var formID: String = ""
    }

    /// The voucher field's state.
    enum Voucher: Sendable {
        case empty
        case applied(code: String, title: String)
        case rejected(code: String, message: String)
    }

    var lines: [Line]
    var itemCountText: String
    var subtotal: String
    var discountLabel: String?
    var discount: String?
    /// What the voucher takes off, without the minus sign ("$36.60"), when it takes something.
    var savedAmount: String? = nil
    var total: String
    var voucher: Voucher
    var nothingSelected: Bool
    /// "You may also like": the cards' HTML as rendered (`ShopApp.recommendationStrip`, kept per
    /// shared version), or nil for none.
    var recommendations: String?
}

extension ModelBuilder {
    /// The cart page of a quote; `errors` are refusals of this request by line — its variant and
    /// chosen values, so one of two lines of a variant gets its own (a quantity the shopper
    /// typed) — shown instead of the line's stock problem.
    func cartPage(_ quote: CartQuote, recommendations: String? = nil, errors: [CartPage.LineKey: String] = [:],
                  timeZone: TimeZone) -> CartPage {
        let l10n = localizer
        let lines = quote.lines.enumerated().map { position, line in
            let level = StockLevel(line.variant.inventory)
            let stockText: String? = switch level {
            case .inStock: nil
            default: level.text(l10n)
            }
            return CartPage.Line(
                variantID: line.variant.id.rawValue,
                productHref: SiteRoute.catalog(.product(handle: line.product.handle, variant: line.product.hasOptions ? line.variant.id : nil)).path,
                title: line.product.title, variantTitle: line.variant.title,
                image: line.product.image(showing: line.variant), imageAlt: line.product.title,
                unitPriceText: l10n(.cartUnitPrice, ["price": l10n.money(line.unitPrice)]),
                compareAtPrice: line.variant.compareAtPrice.map(l10n.money),
                quantity: line.quantity, maxQuantity: max(line.quantityLimit, line.quantity),
                lineTotal: l10n.money(line.amount), stockText: stockText,
                error: errors[CartPage.LineKey(line.variant.id, line.item.chosen)] ?? line.stockProblem.map(l10n.message(for:)),
                isSelected: line.isSelected,
                discountText: line.discount.isZero ? nil : "−" + l10n.money(line.discount),
                chosenText: line.item.chosen.text,
                formID: line.item.chosen.isEmpty ? "line-\(line.variant.id.rawValue)" : "line-\(line.variant.id.rawValue)-\(position)")
        }
        let selectedCount = quote.selectedItemCount
        let voucher: CartPage.Voucher
        var discountLabel: String?
        switch quote.voucher {
        case .none: voucher = .empty
        case let .applied(campaign):
            let code = campaign.voucherCode?.normalized ?? ""
            voucher = .applied(code: code, title: campaign.title.text(in: l10n.language))
            discountLabel = l10n(.cartDiscount, ["code": code])
        case let .rejected(code, problem):
            voucher = .rejected(code: code.normalized, message: message(for: problem, code: code.normalized, timeZone: timeZone))
        }
        return CartPage(
            lines: lines, itemCountText: l10n.count(selectedCount, .cartItemCount),
            subtotal: l10n.money(quote.subtotal), discountLabel: discountLabel,
            discount: discountLabel == nil ? nil : "−" + l10n.money(quote.discount),
            savedAmount: discountLabel == nil || quote.discount.isZero ? nil : l10n.money(quote.discount),
            total: l10n.money(quote.total), voucher: voucher,
            nothingSelected: !lines.isEmpty && selectedCount == 0, recommendations: recommendations)
    }

    /// What the shopper reads when their code gives no discount.
    func message(for problem: VoucherProblem, code: String, timeZone: TimeZone) -> String {
        let l10n = localizer
        return switch problem {
        case .unknown: l10n(.voucherUnknown, ["code": code])
        case let .notStarted(startsAt): l10n(.voucherNotStarted, ["code": code, "date": l10n.date(startsAt, timeZone: timeZone)])
        case let .expired(endedAt):
            l10n(.voucherExpired, ["code": code, "date": l10n.date(endedAt.addingTimeInterval(-1), timeZone: timeZone)])
        case let .minimumNotMet(minimum, missing):
            l10n(.voucherMinimumNotMet, ["code": code, "missing": l10n.money(missing), "minimum": l10n.money(minimum)])
        case .notApplicable: l10n(.voucherNotApplicable, ["code": code])
        case .signInRequired: l10n(.voucherSignIn, ["code": code])
        case let .usageLimitReached(limit): l10n.count(limit, .voucherUsedUp, ["code": code])
        }
    }
}
