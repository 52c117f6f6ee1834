public import Foundation
public import ShopStore
import Synchronization

/// The version of what every visitor sees alike — cached pages and API reads, the pool of
/// recommendations: the catalog's version, moved on also at each instant a live hold ends.
///
/// A hold bumps the catalog version when it is taken and when the sweeper deletes it, but its
/// end writes nothing: a shared page built while it was live kept the product sold out (and out
/// of "In stock only") for up to a minute after it had lapsed, while a page not yet cached
/// showed it in stock (found by a fresh tester). The ends are read once per catalog version
/// (`OrderStore.holdEnds`); each request only counts those passed.
public final class SharedVersion: Sendable {
    private let kept = Mutex<(catalogVersion: Int64, ends: [Date])?>(nil)

    /// Nothing kept yet.
    public init() {}

    /// The version now: the catalog's, and how many of the live holds' ends have passed.
    /// - Throws: what the stores throw; nothing is kept then.
    public func version(catalog: CatalogStore, orders: OrderStore?, now: Date) throws -> Int64 {
        // The one closure, not a copy of the store (a copy retains each of its closures: 1 % of a
        // shopper's page, issue #14).
        guard let holdEnds = orders?.holdEnds else { return try catalog.version() }
        let (catalogVersion, ends) = try kept(catalog: catalog, holdEnds: holdEnds, now: now)
        return Self.combine(catalogVersion, passed: Self.passed(ends, at: now))
    }

    /// `true` when a hold is live at `now` (its end is later): without one, every shopper's
    /// stock is the stock as stored (`CartService.available`).
    /// - Throws: what the stores throw.
    /// - Parameter readingEnds: the live holds' ends as stored (`OrderStore.holdEnds`), read once
    ///   per catalog version.
    public func hasLiveHolds(catalog: CatalogStore, readingEnds: (Date) throws -> [Date], now: Date) throws -> Bool {
        let ends = try kept(catalog: catalog, holdEnds: readingEnds, now: now).ends
        return Self.passed(ends, at: now) < ends.count
    }

    /// The catalog version now and the ends (ascending) of the holds it has, kept per version.
    private func kept(catalog: CatalogStore, holdEnds: (Date) throws -> [Date],
                      now: Date) throws -> (catalogVersion: Int64, ends: [Date]) {
        let catalogVersion = try catalog.version()
        if let hit = kept.withLock({ $0 }), hit.catalogVersion == catalogVersion { return hit }
        // Read after the version: a hold taken meanwhile adds an end (a needless rebuild at
        // most), a hold gone meanwhile has moved the version on already.
        let ends = try holdEnds(now)
        kept.withLock { kept in
            if kept.map({ $0.catalogVersion <= catalogVersion }) ?? true { kept = (catalogVersion, ends) }
        }
        return (catalogVersion, ends)
    }

    /// How many of `ends` (ascending) are at or before `now`: a hold is live while `now` is
    /// before its end (`OrderStore.heldProducts`).
    static func passed(_ ends: [Date], at now: Date) -> Int {
        var low = 0, high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= now { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// One number for a catalog version and a count of passed ends: distinct for every pair whose
    /// count is below 2²⁰ (a million holds ending within one catalog version).
    static func combine(_ catalogVersion: Int64, passed: Int) -> Int64 {
        catalogVersion &<< 20 | Int64(min(passed, (1 << 20) - 1))
    }
}
