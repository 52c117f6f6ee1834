import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopService
import ShopStore

/// The campaigns list and a campaign's page (issue #4).
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
            let products = try campaignProducts(campaign, context.environment)
            let model = context.models.campaignDetail(campaign, products: products, timeZone: context.environment.timeZone)
            return PageContent(title: campaign.title.text(in: context.l10n.language), tab: .campaigns,
                               node: Views.campaign(model, l10n: context.l10n, returnTo: context.canonicalPath))
        }
    }
}

extension ShopApp {
    /// The products a campaign's page shows (the page's and the API's): those it applies to, best
    /// rated first, at most 48 (the whole catalog for a whole-cart campaign), stock net of
    /// checkouts' holds.
    static func campaignProducts(_ campaign: Campaign, _ environment: AppEnvironment) throws -> [Product] {
        let catalog = environment.catalog
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
        return try environment.carts.listing(query).products
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
            title: campaign.title.text(in: localizer.language), href: SiteRoute.campaigns(.campaign(campaign.id)).path, imageURL: campaign.imageURL,
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
                // Not "Sale": the price needs the code (and the campaign's conditions), as a
                // fresh tester pointed out — a mug alone stays $24.00 under a $50 minimum. The
                // code itself is named above the cards (up to 40 characters: no badge holds it).
                model.saleText = localizer(.campaignCardWithCode)
            }
            return model
        }
        return CampaignDetailModel(card: campaignCard(campaign, timeZone: timeZone), description: campaign.description.text(in: localizer.language),
                                   voucherCode: campaign.voucherCode?.normalized, conditions: conditions, products: cards)
    }
}
