import Foundation
import ShopCore
import ShopStore

/// Home: the category strip and featured products.
struct HomePage: Sendable {
    var categories: [CategoryLinkModel]
    var featured: [ProductCardModel]
    var seeAllHref: String
    var banners: [CampaignCardModel]
    /// The featured list shows recommendations for this visitor (the toggle's other state).
    var showingRecommendations: Bool
}

/// Every category with its count.
struct CategoriesPage: Sendable {
    var categories: [CategoryLinkModel]
    /// What the visitor searched for ("" for none).
    var query: String
}

/// One category's products, a page at a time.
struct CategoryPage: Sendable {
    var name: String
    var countText: String
    var cards: [ProductCardModel]
    var pagination: PaginationModel?
    var controls: ListingControlsModel
}

/// Product search results.
struct SearchPage: Sendable {
    var query: String
    var heading: String
    var cards: [ProductCardModel]
    var pagination: PaginationModel?
    var controls: ListingControlsModel?
    /// Categories to browse when nothing matched.
    var suggestions: [CategoryLinkModel]
}

/// A product's page.
struct ProductDetailPage: Sendable {
    struct VariantChoice: Sendable, Equatable {
        var id: Int64
        var title: String
        var price: String
        var compareAtPrice: String?
        var stockText: String
        var stockClass: String
        var maxQuantity: Int
        var isSoldOut: Bool
        var isSelected: Bool
    }

    struct Image: Sendable, Equatable {
        var url: String
        var alt: String
    }

    var productID: Int64
    var handle: String
    var title: String
    var vendorText: String?
    var images: [Image]
    var price: String
    var compareAtPrice: String?
    var saleText: String?
    var stockText: String
    var stockClass: String
    var rating: RatingModel?
    var publishedText: String?
    var tags: [String]
    var descriptionHTML: String
    /// Empty when the product has no options (no picker shown).
    var optionsLabel: String
    var choices: [VariantChoice]
    var selectedVariantID: Int64
    var maxQuantity: Int
    var quantity: Int
    var isSoldOut: Bool
    var error: String?
}

/// The cart.
struct CartPage: Sendable {
    struct Line: Sendable, Equatable {
        var variantID: Int64
        var productHref: String
        var title: String
        var variantTitle: String
        var imageURL: String?
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
    var total: String
    var voucher: Voucher
    var nothingSelected: Bool
    var recommendations: [ProductCardModel]
}

extension ModelBuilder {
    func homePage(categories: [CategorySummary], featured: [Product], campaigns: [Campaign],
                  showingRecommendations: Bool, timeZone: TimeZone) -> HomePage {
        HomePage(categories: categories.map(categoryLink), featured: featured.map(card),
                 seeAllHref: SiteRoute.catalog(.categories).path,
                 banners: campaigns.map { campaignCard($0, timeZone: timeZone) },
                 showingRecommendations: showingRecommendations)
    }

    /// Previous/next links for a list of `total` products, `pageSize` a page.
    func pagination(total: Int, pageSize: Int, page: Int, href: (Int) -> String) -> PaginationModel? {
        let pages = max(1, (total + pageSize - 1) / pageSize)
        guard pages > 1 else { return nil }
        return PaginationModel(
            previousHref: page > 1 ? href(page - 1) : nil, nextHref: page < pages ? href(page + 1) : nil,
            status: localizer(.paginationStatus, ["page": localizer.number(page), "pages": localizer.number(pages)]))
    }

    func categoryPage(category: Category, page: ProductPage, listing: Listing, pageSize: Int) -> CategoryPage {
        let base = SiteRoute.category(handle: category.handle, page: 1).path
        return CategoryPage(
            name: category.name,
            countText: localizer.count(page.totalCount, one: .categoryProductCountOne, other: .categoryProductCount),
            cards: page.products.map(card),
            pagination: pagination(total: page.totalCount, pageSize: pageSize, page: listing.page) {
                SiteRoute.catalog(.category(handle: category.handle, listing: listing.onPage($0))).path
            },
            controls: listingControls(listing, page: page, action: base, hidden: [],
                                      sorts: [.featured, .priceAscending, .priceDescending, .newest, .rating, .name],
                                      defaultSort: .featured))
    }

    func productPage(_ product: Product, selected: Variant.ID?, quantity: Int = 1, error: String? = nil,
                     timeZone: TimeZone) -> ProductDetailPage {
        let l10n = localizer
        let variant = product.variants.first { $0.id == selected } ?? product.defaultVariant!
        let level = StockLevel(variant.inventory)
        let choices: [ProductDetailPage.VariantChoice] = !product.hasOptions ? [] : product.variants.map { candidate in
            let candidateLevel = StockLevel(candidate.inventory)
            return ProductDetailPage.VariantChoice(
                id: candidate.id.rawValue, title: candidate.title, price: l10n.money(candidate.price),
                compareAtPrice: candidate.compareAtPrice.map(l10n.money), stockText: candidateLevel.text(l10n),
                stockClass: candidateLevel.cssClass, maxQuantity: max(Cart.quantityLimit(for: candidate), 1),
                isSoldOut: candidate.inventory.isSoldOut, isSelected: candidate.id == variant.id)
        }
        return ProductDetailPage(
            productID: product.id.rawValue, handle: product.handle, title: product.title,
            vendorText: product.vendor.isEmpty ? nil : l10n(.productVendor, ["vendor": product.vendor]),
            images: product.images.map { .init(url: $0.url, alt: $0.altText.isEmpty ? product.title : $0.altText) },
            price: l10n.money(variant.price), compareAtPrice: variant.compareAtPrice.map(l10n.money),
            saleText: variant.compareAtPrice == nil ? nil : l10n(.onSale),
            stockText: level.text(l10n), stockClass: level.cssClass, rating: rating(product.rating),
            publishedText: product.publishedAt.map { l10n(.productPublished, ["date": l10n.date($0, timeZone: timeZone)]) },
            tags: product.tags, descriptionHTML: product.descriptionHTML,
            optionsLabel: product.optionNames.joined(separator: " / "), choices: choices,
            selectedVariantID: variant.id.rawValue, maxQuantity: max(Cart.quantityLimit(for: variant), 1),
            quantity: quantity, isSoldOut: variant.inventory.isSoldOut, error: error)
    }

    func cartPage(_ priced: PricedCart, totals: CartTotals?, recommendations: [Product],
                  errors: [Variant.ID: String] = [:], timeZone: TimeZone) -> CartPage {
        let l10n = localizer
        let pricedLines = Dictionary((totals?.lines ?? []).map { ($0.variantID, $0) }, uniquingKeysWith: { first, _ in first })
        let lines = priced.lines.map { line in
            let level = StockLevel(line.variant.inventory)
            let stockText: String? = switch level {
            case .inStock: nil
            default: level.text(l10n)
            }
            return CartPage.Line(
                variantID: line.variant.id.rawValue,
                productHref: SiteRoute.catalog(.product(handle: line.product.handle, variant: line.product.hasOptions ? line.variant.id : nil)).path,
                title: line.product.title, variantTitle: line.variant.title,
                imageURL: line.product.images.first?.url, imageAlt: line.product.title,
                unitPriceText: l10n(.cartUnitPrice, ["price": l10n.money(line.unitPrice)]),
                compareAtPrice: line.variant.compareAtPrice.map(l10n.money),
                quantity: line.quantity, maxQuantity: max(line.quantityLimit, line.quantity),
                lineTotal: l10n.money(line.lineTotal), stockText: stockText, error: errors[line.variant.id],
                isSelected: pricedLines[line.variant.id]?.isSelected ?? true,
                discountText: pricedLines[line.variant.id].flatMap { $0.discount.isZero ? nil : "−" + l10n.money($0.discount) })
        }
        let selectedCount = priced.lines.filter { pricedLines[$0.variant.id]?.isSelected ?? true }.reduce(0) { $0 + $1.quantity }
        let voucher: CartPage.Voucher
        var discountLabel: String?
        switch totals?.voucher ?? .none {
        case .none: voucher = .empty
        case let .applied(campaign):
            let code = campaign.voucherCode?.normalized ?? ""
            voucher = .applied(code: code, title: campaign.title)
            discountLabel = l10n(.cartDiscount, ["code": code])
        case let .rejected(code, problem):
            voucher = .rejected(code: code.normalized, message: message(for: problem, code: code.normalized, timeZone: timeZone))
        }
        let subtotal = totals?.subtotal ?? priced.subtotal
        return CartPage(
            lines: lines, itemCountText: l10n.count(selectedCount, one: .cartItemCountOne, other: .cartItemCount),
            subtotal: l10n.money(subtotal), discountLabel: discountLabel,
            discount: discountLabel == nil ? nil : "−" + l10n.money(totals?.discount ?? .zero(subtotal.currency)),
            total: l10n.money(totals?.total ?? subtotal), voucher: voucher,
            nothingSelected: !lines.isEmpty && selectedCount == 0, recommendations: recommendations.map(card))
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
        case let .usageLimitReached(limit): l10n(.voucherUsedUp, ["code": code, "limit": l10n.number(limit)])
        }
    }
}
