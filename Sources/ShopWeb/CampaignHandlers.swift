import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopStore

/// Campaign pages, home recommendations, and the cart's voucher and line selection (issue #4).
extension ShopApp {
    // MARK: Campaigns

    static func campaignsPage(_ context: inout RequestContext) throws -> Response {
        try cachedPage(&context) { context in
            let schedule = try context.campaignSchedule()
            let cards = schedule.active.map { context.models.campaignCard($0, timeZone: context.environment.timeZone) }
            return PageContent(title: context.l10n(.campaignsTitle), tab: .campaigns,
                               node: Views.campaigns(cards, l10n: context.l10n))
        }
    }

    static func campaignPage(_ context: inout RequestContext, id: Campaign.ID) throws -> Response {
        try cachedPage(&context) { context in
            guard let campaign = try context.campaignSchedule().active.first(where: { $0.id == id }) else { return nil }
            let catalog = context.environment.catalog
            var query = ProductQuery(sort: .rating, limit: 48)
            switch campaign.target {
            case .wholeCart: break
            case let .category(handle):
                guard let category = try catalog.categoryByHandle(handle) else { break }
                query.categoryID = category.id
            case let .products(handles):
                var ids: [Product.ID] = []
                for handle in handles { if let product = try catalog.productByHandle(handle) { ids.append(product.id) } }
                query.productIDs = ids
            }
            let products = try catalog.products(query).products
            let model = context.models.campaignDetail(campaign, products: products, timeZone: context.environment.timeZone)
            return PageContent(title: campaign.title, tab: .campaigns,
                               node: Views.campaign(model, l10n: context.l10n, returnTo: context.canonicalPath))
        }
    }

    // MARK: Home recommendations

    /// Best-rated products the visitor can buy and has not got in the cart; when they have
    /// favorites, products from their favorites' categories first. Personal, so not cached.
    static func homeRecommendations(_ context: inout RequestContext) throws -> Response {
        let catalog = context.environment.catalog
        let inCart = Set(try context.cart().lines.map(\.productID))
        let favoriteIDs = try context.favoriteIDs()
        let favoriteCategories = Set(try context.products(favoriteIDs).values.compactMap(\.categoryID))
        let candidates = try catalog.products(ProductQuery(sort: .rating, inStockOnly: true, limit: 60)).products
            .filter { !inCart.contains($0.id) }
        let ranked = candidates.enumerated().sorted { lhs, rhs in
            let left = lhs.element.categoryID.map(favoriteCategories.contains) ?? false
            let right = rhs.element.categoryID.map(favoriteCategories.contains) ?? false
            return left != right ? left : lhs.offset < rhs.offset
        }.map(\.element)
        let categories = try catalog.categories()
        let schedule = try context.campaignSchedule()
        let page = context.models.homePage(categories: categories, featured: Array(ranked.prefix(12)),
                                           campaigns: schedule.active, showingRecommendations: true,
                                               timeZone: context.environment.timeZone)
        return try self.page(&context, PageContent(title: context.l10n(.homeTitle), tab: .home,
                                                   node: Views.home(page, l10n: context.l10n,
                                                                    returnTo: SiteRoute.catalog(.homeRecommendations).path)))
    }

    // MARK: Cart voucher and selection

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

// MARK: - Page models

struct CampaignCardModel: Sendable {
    var title: String
    var href: String
    var imageURL: String?
    var dates: String
    var offer: String
}

struct CampaignDetailModel: Sendable {
    var card: CampaignCardModel
    var description: String
    var voucherCode: String?
    var conditions: [String]
    var products: [ProductCardModel]
}

extension ModelBuilder {
    func offer(_ discount: Discount) -> String {
        switch discount {
        case let .percentage(percent): localizer(.campaignPercentOff, ["percent": localizer.number(percent)])
        case let .fixedAmount(amount): localizer(.campaignAmountOff, ["amount": localizer.money(amount)])
        }
    }

    func campaignCard(_ campaign: Campaign, timeZone: TimeZone) -> CampaignCardModel {
        CampaignCardModel(
            title: campaign.title, href: SiteRoute.campaigns(.campaign(campaign.id)).path, imageURL: campaign.imageURL,
            dates: localizer(.campaignDates, ["start": localizer.date(campaign.startsAt, timeZone: timeZone),
                                              "end": localizer.date(campaign.endsAt.addingTimeInterval(-1), timeZone: timeZone)]),
            offer: offer(campaign.discount))
    }

    func campaignDetail(_ campaign: Campaign, products: [Product], timeZone: TimeZone) -> CampaignDetailModel {
        var conditions: [String] = []
        if case .wholeCart = campaign.target { conditions.append(localizer(.campaignAppliesToCart)) }
        if let minimum = campaign.minimumSubtotal {
            conditions.append(localizer(.campaignMinimum, ["amount": localizer.money(minimum)]))
        }
        // Products show their campaign price — a percentage off each one's price, struck through
        // from what it costs now — only when a code gives that price in the cart (a shop must not
        // show a price it does not charge). A fixed amount is off the order: prices stay.
        if let code = campaign.voucherCode { conditions.append(localizer(.campaignPricesWithCode, ["code": code.normalized])) }
        let cards = products.map { product -> ProductCardModel in
            var model = card(product)
            if campaign.voucherCode != nil, case .percentage = campaign.discount, let price = product.defaultVariant?.price,
               let off = try? campaign.discount.amountOff(price), let now = try? price.subtracting(off) {
                model.compareAtPrice = localizer.money(price)
                model.price = localizer.money(now)
            }
            return model
        }
        return CampaignDetailModel(card: campaignCard(campaign, timeZone: timeZone), description: campaign.description,
                                   voucherCode: campaign.voucherCode?.normalized, conditions: conditions, products: cards)
    }
}
