import HTML
import ShopCore

/// A campaign banner: image, title, offer and dates, linking to the campaign.
struct CampaignBanner: Component {
    var model: CampaignCardModel

    var body: Node {
        a(.class("campaign-card"), .href(model.href)) {
            if let url = model.imageURL {
                img(.src(url), .alt(""), .width(800), .height(400), .loading("lazy"))
            }
            span(.class("campaign-text")) {
                span(.class("campaign-offer")) { model.offer }
                span(.class("campaign-title")) { model.title }
                span(.class("campaign-dates")) { model.dates }
            }
        }
    }
}

extension Views {
    static func campaigns(_ cards: [CampaignCardModel], l10n: Localizer) -> Node {
        fragment {
            h1(.class("page-title")) { l10n(.campaignsTitle) }
            if cards.isEmpty {
                div(.class("empty-state")) {
                    span(.class("empty-icon")) { Icon.tag.node }
                    p { l10n(.campaignsEmpty) }
                }
            }
            div(.class("campaign-list")) { for card in cards { CampaignBanner(model: card) } }
        }
    }

    static func campaign(_ model: CampaignDetailModel, l10n: Localizer, returnTo: String) -> Node {
        fragment {
            div(.class("page-head")) {
                a(.class("back-link"), .href(SiteRoute.campaigns(.list).path), .aria("label", l10n(.campaignsTitle))) { Icon.back.node }
                div(.class("page-head-text")) {
                    h1(.class("page-title")) { model.card.title }
                    p(.class("muted")) { model.card.dates }
                }
            }
            if let url = model.card.imageURL {
                img(.class("campaign-hero"), .src(url), .alt(""), .width(800), .height(400))
            }
            section(.class("campaign-info")) {
                p(.class("campaign-offer-large")) { model.card.offer }
                if !model.description.isEmpty { p { model.description } }
                for condition in model.conditions { p(.class("muted")) { condition } }
                if let code = model.voucherCode {
                    div(.class("voucher-box")) {
                        span(.class("muted small")) { l10n(.campaignCode) }
                        output(.class("voucher-code"), .id("voucher-code")) { code }
                        button(.type("button"), .class("button button-small"), .data("copy", "#voucher-code"),
                               .data("copied-label", l10n(.campaignCopied)), .hidden(true)) { l10n(.campaignCopy) }
                    }
                }
            }
            if !model.products.isEmpty {
                h2(.class("section-title")) { l10n(.campaignProducts) }
                ProductGrid(cards: model.products, returnTo: returnTo)
            }
        }
    }
}
