import Foundation
import ShopCore
import ShopStore
import Synchronization

/// The campaigns as a page sees them at one instant.
struct CampaignSchedule: Sendable {
    /// Every campaign in the store, by start.
    var all: [Campaign]
    /// The store's campaign version.
    var version: Int64
    /// How many starts and ends have passed: changes exactly when a campaign starts or ends, so
    /// cached pages showing "active campaigns" are rebuilt at those instants.
    var epoch: Int64
    /// Campaigns running now.
    var active: [Campaign]

    /// The version of a cached answer showing campaigns over the catalog at `catalogVersion`:
    /// it changes with either store and whenever a campaign starts or ends.
    func cacheVersion(catalog catalogVersion: Int64) -> Int64 {
        catalogVersion &* 1_000_003 &+ version &* 7_919 &+ epoch
    }
}

/// Keeps the campaign list between requests while `CampaignStore.version()` stays the same.
public final class CampaignCache: Sendable {
    private let cached = Mutex<(version: Int64, campaigns: [Campaign])?>(nil)

    /// An empty cache.
    public init() {}

    func schedule(_ store: CampaignStore, now: Date) throws -> CampaignSchedule {
        let version = try store.version()
        let campaigns: [Campaign]
        if let hit = cached.withLock({ $0 }), hit.version == version {
            campaigns = hit.campaigns
        } else {
            campaigns = try store.all()
            cached.withLock { $0 = (version, campaigns) }
        }
        let epoch = campaigns.reduce(Int64(0)) { total, campaign in
            total + (campaign.startsAt <= now ? 1 : 0) + (campaign.endsAt <= now ? 1 : 0)
        }
        return CampaignSchedule(all: campaigns, version: version, epoch: epoch,
                                active: campaigns.filter { $0.isActive(at: now) })
    }
}
