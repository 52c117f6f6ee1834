import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// Campaigns.
    public enum CampaignsRoute: Hashable, Sendable {
        /// `GET /campaigns` — the active campaigns.
        case list
        /// `GET /campaigns/{id}` — description, dates, products with campaign prices, code.
        case campaign(Campaign.ID)
    }

    /// The declarations of ``CampaignsRoute``, tried in this order.
    static let campaignsRoutes: [Declaration] = [
        fixed("GET", "/campaigns", [.cacheable], .campaigns(.list)),
        Declaration("GET", "/campaigns/{id}", [.cacheable],
                    make: { .campaigns(.campaign(Campaign.ID(rawValue: $0["id"]))) },
                    match: { if case let .campaigns(.campaign(id)) = $0 { Parameters(["id": id.rawValue]) } else { nil } }),
    ]
}
