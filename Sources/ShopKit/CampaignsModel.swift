public import Foundation
public import Observation
public import ShopAPI
public import ShopCore
import ShopClient

/// A campaign as a banner or a list row shows it, every text written for the locale.
public struct CampaignRow: Identifiable, Hashable, Sendable {
    /// The campaign's handle (`ShopOperations.campaign`, deep links).
    public var id: String
    /// The title.
    public var title: String
    /// The description.
    public var summary: String
    /// The discount: "15%" (en), "%15" (tr), "15 %" (es), or an amount ("$5.00").
    public var discount: String
    /// The voucher code to type at the cart, if the campaign has one.
    public var voucherCode: String?
    /// When it runs: "Jun 1, 2026 – Jun 30, 2026".
    public var dates: String
    /// The smallest subtotal it applies to, formatted; nil when none.
    public var minimumSubtotal: String?
    /// The banner image, if any.
    public var imageURL: String?

    /// The row of `campaign`, written for `language` with dates in `timeZone`.
    public init(_ campaign: V1Campaign, language: Language, timeZone: TimeZone) {
        id = campaign.handle
        title = campaign.title
        summary = campaign.description
        discount = Self.discount(campaign.discount, language: language)
        voucherCode = campaign.voucherCode
        dates = language.date(campaign.startsAt, timeZone: timeZone) + " – " + language.date(campaign.endsAt, timeZone: timeZone)
        minimumSubtotal = campaign.minimumSubtotal?.text(in: language.locale)
        imageURL = campaign.image
    }

    private static func discount(_ discount: V1CampaignDiscount, language: Language) -> String {
        if let amount = discount.amount { return amount.text(in: language.locale) }
        let percent = Decimal(discount.percent ?? 0) / 100
        return percent.formatted(.percent.locale(language.locale))
    }

    /// `"Summer sale — 15% (code SUMMER15), Jun 1, 2026 – Jun 30, 2026"`.
    var snapshot: String {
        "\(title) — \(discount)\(voucherCode.map { " (code \($0))" } ?? ""), \(dates)"
    }
}

/// The campaigns screen: the running campaigns.
///
/// Inputs: ``load()``. Outputs: ``state``.
@MainActor
@Observable
public final class CampaignsModel {
    /// The campaigns as loaded.
    public private(set) var state: LoadState<[CampaignRow]> = .idle
    /// The language of the texts.
    public var language: Language

    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored private let timeZone: TimeZone
    /// The app's connectivity: loads report to it, and run again when the shop answers after an offline failure.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`, written for `language` with dates in `timeZone` (the shop's), its
    /// requests reported to `connectivity`.
    public init(shop: ShopOperations, language: Language = .english, timeZone: TimeZone = .current,
                connectivity: Connectivity = .manual()) {
        self.shop = shop
        self.language = language
        self.timeZone = timeZone
        self.connectivity = connectivity
    }

    /// Loads the campaigns.
    public func load() async {
        state = .loading
        state = await connectivity.list("campaigns", retry: { [weak self] in await self?.load() },
                                        { [shop] in try await shop.campaigns() }) {
            CampaignRow($0, language: language, timeZone: timeZone)
        }
    }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        guard case let .loaded(rows) = state else { return "[Campaigns] \(state)" }
        return (["[Campaigns]"] + rows.map { "  \($0.snapshot)" }).joined(separator: "\n")
    }
}
