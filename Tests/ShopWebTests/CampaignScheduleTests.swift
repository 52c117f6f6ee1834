import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Synchronization
import Testing

/// `CampaignCache` keeps the running campaigns between the instants a campaign starts or ends;
/// what it answers must be what filtering the store's campaigns afresh answers, at any instant,
/// with the clock going either way, and after the store changes.
@Suite("the campaign schedule, kept")
struct CampaignScheduleTests {
    static let day: TimeInterval = 24 * 60 * 60
    static let origin = Date(timeIntervalSince1970: 1_770_000_000)

    static func campaign(_ id: String, from start: Double, to end: Double, paused: Bool = false) -> Campaign {
        Campaign(id: Campaign.ID(rawValue: id), title: LocalizedText(id), startsAt: origin + start * day,
                 endsAt: origin + end * day, discount: .percentage(10), isPaused: paused)
    }

    /// A store whose campaigns and version the test changes, counting its `all()` reads.
    final class Store: Sendable {
        let state = Mutex<(version: Int64, campaigns: [Campaign], reads: Int)>((1, [], 0))
        var campaignStore: CampaignStore {
            var store = CampaignStore.failing
            store.all = { self.state.withLock { $0.reads += 1; return $0.campaigns } }
            store.version = { self.state.withLock { $0.version } }
            return store
        }
        func replace(_ campaigns: [Campaign]) { state.withLock { $0 = ($0.version + 1, campaigns, $0.reads) } }
    }

    @Test func theRunningCampaignsAreThoseRunningAtEveryInstantTheClockVisits() throws {
        let store = Store()
        store.replace([Self.campaign("a", from: 1, to: 5), Self.campaign("b", from: 3, to: 4),
                       Self.campaign("c", from: 3, to: 9), Self.campaign("d", from: 2, to: 6, paused: true)])
        let cache = CampaignCache()
        // Forward through every start and end, on them and between them, then back again.
        let days: [Double] = [0, 1, 2, 2.5, 3, 3.5, 4, 5, 6, 8.9, 9, 10, 4.5, 3, 0.5, 5, 1]
        var epochs: [Int64] = []
        for day in days {
            let now = Self.origin + day * Self.day
            let schedule = try cache.schedule(store.campaignStore, now: now)
            let campaigns = store.state.withLock { $0.campaigns }
            #expect(schedule.active.map(\.id) == campaigns.filter { $0.isActive(at: now) }.map(\.id), "day \(day)")
            #expect(schedule.all.map(\.id) == campaigns.map(\.id))
            // The epoch counts the starts and ends passed, paused campaigns' too.
            let passed = campaigns.reduce(0) { $0 + ($1.startsAt <= now ? 1 : 0) + ($1.endsAt <= now ? 1 : 0) }
            #expect(schedule.epoch == Int64(passed), "day \(day)")
            epochs.append(schedule.epoch)
        }
        #expect(epochs == [0, 1, 2, 2, 4, 4, 5, 6, 7, 7, 8, 8, 5, 4, 0, 6, 1])
        #expect(store.state.withLock { $0.reads } == 1, "the list is read once per version")

        // A change in the store (a campaign paused) is seen at the next request, at the same instant.
        let now = Self.origin + 3.5 * Self.day
        #expect(try cache.schedule(store.campaignStore, now: now).active.map(\.id) == ["a", "b", "c"])
        store.replace([Self.campaign("a", from: 1, to: 5), Self.campaign("b", from: 3, to: 4, paused: true),
                       Self.campaign("c", from: 3, to: 9)])
        let changed = try cache.schedule(store.campaignStore, now: now)
        #expect(changed.active.map(\.id) == ["a", "c"])
        #expect(store.state.withLock { $0.reads } == 2)
    }
}
