import ShopCore
import Foundation
import Synchronization

extension CampaignStore {
    /// Campaigns kept in memory behind a `Mutex`, with the same semantics as the SQL stores:
    /// times kept to the whole second, `replaceAll` all or nothing (checked by
    /// `CampaignStore.check(_:)` first), `all()` by `startsAt` then id, `version` bumped only when
    /// `replaceAll` changes something. For tests and demos; nothing survives the process.
    public static func inMemory() -> CampaignStore {
        let state = Mutex(InMemoryCampaigns())
        return CampaignStore(
            replaceAll: { campaigns in
                try check(campaigns)
                let incoming = campaigns.map(stored)
                return state.withLock { state in
                    var result = CampaignReplaceResult()
                    for campaign in incoming {
                        switch state.byID[campaign.id] {
                        case nil: result.added.append(campaign.id)
                        case campaign: result.unchanged.append(campaign.id)
                        default: result.updated.append(campaign.id)
                        }
                    }
                    let kept = Set(incoming.map(\.id))
                    result.removed = state.byID.keys.filter { !kept.contains($0) }
                        .sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
                    state.byID = Dictionary(uniqueKeysWithValues: incoming.map { ($0.id, $0) })
                    if result.changedAnything { state.version += 1 }
                    return result
                }
            },
            all: { state.withLock { $0.byID.values.sorted(by: inListOrder) } },
            campaign: { id in state.withLock { $0.byID[id] } },
            byVoucherCode: { code in state.withLock { $0.byID.values.first { $0.voucherCode == code } } },
            version: { state.withLock { $0.version } }
        )
    }
}

private struct InMemoryCampaigns: Sendable {
    var byID: [Campaign.ID: Campaign] = [:]
    var version: Int64 = 1
}
