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

/// Keeps the campaign list between requests while `CampaignStore.version()` stays the same,
/// and the running ones while no campaign starts or ends.
public final class CampaignCache: Sendable {
    /// One version's campaigns, their starts and ends in order, and the campaigns running at the
    /// last epoch asked for.
    private struct Kept {
        var version: Int64
        var campaigns: [Campaign]
        var boundaries: [Date]
        var epoch: Int64
        var active: [Campaign]
    }

    private let cached = Mutex<Kept?>(nil)

    /// An empty cache.
    public init() {}

    /// Every page asks (its cache version counts the epoch). The running campaigns depend only
    /// on which starts and ends have passed, and the number passed names them — the passed ones
    /// are a prefix of the sorted boundaries — so they are filtered again only when that number
    /// changes; counting and filtering every campaign per request was 3 % of a first visit
    /// (issue #14).
    func schedule(_ store: CampaignStore, now: Date) throws -> CampaignSchedule {
        let version = try store.version()
        var kept: Kept
        if let hit = cached.withLock({ $0 }), hit.version == version {
            kept = hit
        } else {
            let campaigns = try store.all()
            kept = Kept(version: version, campaigns: campaigns,
                        boundaries: campaigns.flatMap { [$0.startsAt, $0.endsAt] }.sorted(), epoch: -1, active: [])
        }
        let epoch = Int64(kept.boundaries.partitioningIndex { $0 > now })
        if kept.epoch != epoch {
            kept.epoch = epoch
            kept.active = kept.campaigns.filter { $0.isActive(at: now) }
            cached.withLock { [kept] in $0 = kept }
        }
        return CampaignSchedule(all: kept.campaigns, version: version, epoch: epoch, active: kept.active)
    }
}

extension Array where Element == Date {
    /// The first index whose element satisfies `isAbove` (every element after it does too, as in a
    /// sorted array with a threshold), by binary search; `count` when none does.
    fileprivate func partitioningIndex(where isAbove: (Date) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isAbove(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
