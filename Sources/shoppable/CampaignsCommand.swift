import Foundation
import ShopCore
import ShopImport
import ShopStore
import ShopStoreSQLite

/// `shoppable campaigns import FILE` (check the whole file, then replace the stored campaigns in
/// one transaction: the file is the truth) and `shoppable campaigns list`.
enum CampaignsCommand {
    static func run(_ options: Options) throws {
        guard options.arguments.count >= 2 else { throw UsageError("campaigns needs a subcommand: import or list") }
        let timeZone = try options.timeZone()
        switch options.arguments[1] {
        case "import":
            guard options.arguments.count == 3 else { throw UsageError("campaigns import needs exactly one FILE") }
            let path = options.arguments[2]
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read “\(path)”") }
            let fileName = (path as NSString).lastPathComponent
            let campaigns = try CampaignFile.read(data, fileName: fileName, currency: try options.currency())
            print("\(fileName): \(campaigns.count) campaign\(campaigns.count == 1 ? "" : "s") (times in \(options.value("timezone", default: "UTC")!))")
            let now = Date()
            let width = campaigns.map(\.id.rawValue.count).max() ?? 0
            for campaign in campaigns {
                print("  " + CampaignSummary.line(campaign, timeZone: timeZone, now: now, idWidth: width))
            }
            if options.has("dry-run") {
                print("dry run: the file is valid; nothing written")
                return
            }
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            for warning in try CampaignSummary.catalogWarnings(campaigns, catalog: database.catalog(currency: try options.currency())) {
                print("  warning: \(warning)")
            }
            let result = try database.campaigns.replaceAll(campaigns)
            print("imported into \(try options.database): \(result.added.count) added, \(result.updated.count) updated, "
                  + "\(result.unchanged.count) unchanged, \(result.removed.count) removed"
                  + (result.removed.isEmpty ? "" : " (\(result.removed.map(\.rawValue).joined(separator: ", ")))"))
        case "list":
            guard options.arguments.count == 2 else { throw UsageError("campaigns list takes no arguments") }
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            let campaigns = try database.campaigns.all()
            if campaigns.isEmpty { print("no campaigns yet: load a file with `shoppable campaigns import FILE`") }
            let now = Date()
            let width = campaigns.map(\.id.rawValue.count).max() ?? 0
            for campaign in campaigns { print(CampaignSummary.line(campaign, timeZone: timeZone, now: now, idWidth: width)) }
        default:
            throw UsageError("unknown campaigns subcommand “\(options.arguments[1])”: use import or list")
        }
    }
}

/// One-line descriptions of campaigns for the terminal.
enum CampaignSummary {
    /// `welcome  2026-11-01 00:00 → 2027-03-01 00:00  10% off the cart, minimum 50.00 USD, code WELCOME10  [active]`.
    static func line(_ campaign: Campaign, timeZone: TimeZone, now: Date, idWidth: Int = 0) -> String {
        let dates = DateFormatter()
        dates.locale = Locale(identifier: "en_US_POSIX")
        dates.timeZone = timeZone
        dates.dateFormat = "yyyy-MM-dd HH:mm"
        var parts: [String] = []
        switch campaign.discount {
        case let .percentage(percent): parts.append("\(percent)% off")
        case let .fixedAmount(amount): parts.append("\(amount.decimalString) \(amount.currency.code) off")
        }
        switch campaign.target {
        case .wholeCart: parts[0] += " the cart"
        case let .category(handle): parts[0] += " category \(handle)"
        case let .products(handles): parts[0] += " \(handles.count) product\(handles.count == 1 ? "" : "s") (\(handles.joined(separator: ", ")))"
        }
        if let minimum = campaign.minimumSubtotal { parts.append("minimum \(minimum.decimalString) \(minimum.currency.code)") }
        parts.append(campaign.voucherCode.map { "code \($0.normalized)" } ?? "no code")
        if let limit = campaign.usageLimitPerAccount { parts.append("\(limit) use\(limit == 1 ? "" : "s") per account") }
        let status = switch campaign.state(at: now) {
        case .active: "active"
        case .scheduled: "upcoming"
        case .ended: "ended"
        case .paused: "paused"
        }
        let id = campaign.id.rawValue.padding(toLength: max(idWidth, campaign.id.rawValue.count), withPad: " ", startingAt: 0)
        return "\(id)  \(dates.string(from: campaign.startsAt)) → \(dates.string(from: campaign.endsAt))  "
            + parts.joined(separator: ", ") + "  [\(status)]"
    }

    /// Categories and products the campaigns name that the catalog does not have (published):
    /// not errors — the catalog may be imported later — but worth a look.
    static func catalogWarnings(_ campaigns: [Campaign], catalog: CatalogStore) throws -> [String] {
        var warnings: [String] = []
        for campaign in campaigns {
            let missing = try campaign.missing(from: catalog)
            if let handle = missing.category {
                warnings.append("campaign “\(campaign.id.rawValue)”: no category “\(handle)” in the catalog")
            }
            for handle in missing.products {
                warnings.append("campaign “\(campaign.id.rawValue)”: no published product “\(handle)” in the catalog")
            }
        }
        return warnings
    }
}
