public import Foundation
public import ShopCore

/// What `CampaignStore.replaceAll` changed, by campaign id.
public struct CampaignReplaceResult: Hashable, Sendable {
    /// Ids that were not stored before, in the order given.
    public var added: [Campaign.ID]
    /// Ids that were stored and differ now, in the order given.
    public var updated: [Campaign.ID]
    /// Ids that were stored and equal what was given, in the order given.
    public var unchanged: [Campaign.ID]
    /// Ids that were stored but are not in the new list (now deleted), ascending.
    public var removed: [Campaign.ID]

    /// Creates a result.
    public init(added: [Campaign.ID] = [], updated: [Campaign.ID] = [], unchanged: [Campaign.ID] = [],
                removed: [Campaign.ID] = []) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.removed = removed
    }

    /// `true` when anything was added, updated or removed.
    public var changedAnything: Bool { !(added.isEmpty && updated.isEmpty && removed.isEmpty) }
}

/// Why a campaign store refused a change. Nothing is written then.
public enum CampaignStoreError: Error, Equatable, Sendable, LocalizedError {
    /// Two campaigns in the list have this id.
    case duplicateID(Campaign.ID)
    /// Two campaigns in the list have this voucher code.
    case duplicateVoucherCode(VoucherCode)
    /// The campaign's `endsAt` is not after its `startsAt` (compared to the whole second, as stored).
    case emptyTimeWindow(Campaign.ID)
    /// A new campaign's id is taken.
    case idTaken(Campaign.ID)
    /// No campaign has this id (any more).
    case campaignNotFound(Campaign.ID)
    /// The campaign changed since its editor read it (its ``CampaignStore/revision(of:)``
    /// differs): someone else saved it first. Nothing is written; read it again.
    case changedSinceRead(Campaign.ID)

    /// English text for logs and the CLI.
    public var errorDescription: String? {
        switch self {
        case let .duplicateID(id): "Two campaigns have the id “\(id.rawValue)”."
        case let .duplicateVoucherCode(code): "Two campaigns have the voucher code \(code.normalized)."
        case let .emptyTimeWindow(id): "Campaign “\(id.rawValue)” ends before it starts."
        case let .idTaken(id): "A campaign with the id “\(id.rawValue)” exists already."
        case let .campaignNotFound(id): "No campaign has the id “\(id.rawValue)”."
        case let .changedSinceRead(id): "Campaign “\(id.rawValue)” was changed by someone else since it was read."
        }
    }
}

/// The shop's campaigns, as last loaded from the merchant's campaign file
/// (`shoppable campaigns import`, `docs/CAMPAIGNS.md`).
///
/// A struct of closures (DESIGN.md §2, STYLE.md 3): `ShopStoreSQLite` provides `.sqlite(…)`;
/// unit tests override what they need of `.failing` (`ShopTestSupport`). Times are kept to the
/// whole second (`StoredTime`): a stored campaign comes back with `startsAt`/`endsAt` rounded down.
/// Campaigns are returned whether active or not: callers decide with `Campaign.isActive(at:)`.
///
/// ```swift
/// let result = try store.replaceAll(try CampaignFile.read(data, fileName: name, currency: .usd))
/// let welcome = try store.byVoucherCode(VoucherCode("welcome10")!)
/// ```
public struct CampaignStore: Sendable {
    /// Applies `change` in one transaction: the stored set is read under the engine's writer
    /// lock, `CampaignChange.applied(to:)` makes the new set from it (refusing an edit of a
    /// campaign changed since it was read), and what differs is written. All or nothing.
    /// - Throws: `CampaignStoreError` (nothing written), or the storage's own error.
    /// Each campaign added, changed or removed is an entry of the audit log, as `actor`'s, in the
    /// same transaction (`CampaignReplacePlan.auditEntries`); callers use ``replaceAll(_:by:now:)``,
    /// ``save(_:revision:by:now:)`` and ``delete(_:revision:by:now:)``.
    public var changeBy: @Sendable (_ change: CampaignChange, _ actor: AuditActor, _ now: Date) throws -> CampaignReplaceResult
    /// Every stored campaign, by `startsAt`, then id.
    public var all: @Sendable () throws -> [Campaign]
    /// The campaign with this id, or nil.
    public var campaign: @Sendable (_ id: Campaign.ID) throws -> Campaign?
    /// The campaign with this voucher code (codes are normalized upper case, so the lookup
    /// ignores case), or nil. Active or not: the cart tells "expired" from "unknown".
    public var byVoucherCode: @Sendable (_ code: VoucherCode) throws -> Campaign?
    /// A number that changes whenever `replaceAll` changes something (whoever wrote it, another
    /// process included), for caches of pages that show campaigns. It does NOT change when a
    /// campaign starts or ends by the clock.
    public var version: @Sendable () throws -> Int64

    /// Creates a store from its operations.
    public init(
        changeBy: @escaping @Sendable (_ change: CampaignChange, _ actor: AuditActor, _ now: Date) throws -> CampaignReplaceResult,
        all: @escaping @Sendable () throws -> [Campaign],
        campaign: @escaping @Sendable (_ id: Campaign.ID) throws -> Campaign?,
        byVoucherCode: @escaping @Sendable (_ code: VoucherCode) throws -> Campaign?,
        version: @escaping @Sendable () throws -> Int64
    ) {
        self.changeBy = changeBy
        self.all = all
        self.campaign = campaign
        self.byVoucherCode = byVoucherCode
        self.version = version
    }
}

extension CampaignStore {
    /// Makes `campaigns` the whole set: the file is the truth, so stored campaigns not in the
    /// list are deleted. Recorded in the audit log as `actor`'s.
    /// - Throws: `CampaignStoreError.duplicateID`, `.duplicateVoucherCode`, `.emptyTimeWindow`
    ///   (nothing written), or the storage's own error.
    public func replaceAll(_ campaigns: [Campaign], by actor: AuditActor = .cli, now: Date = Date()) throws -> CampaignReplaceResult {
        try changeBy(.replaceAll(campaigns), actor, now)
    }

    /// Adds `campaign` (`revision` nil) or replaces the stored campaign of its id, provided that
    /// one's revision is still `revision` — what its editor read.
    /// - Throws: `CampaignStoreError.idTaken`, `.campaignNotFound`, `.changedSinceRead`,
    ///   `.duplicateVoucherCode`, `.emptyTimeWindow` (nothing written).
    public func save(_ campaign: Campaign, revision: String?, by actor: AuditActor, now: Date = Date()) throws -> CampaignReplaceResult {
        try changeBy(.save(campaign, revision: revision), actor, now)
    }

    /// Deletes the campaign `id`, provided its revision is still `revision`.
    /// - Throws: `CampaignStoreError.campaignNotFound`, `.changedSinceRead` (nothing written).
    public func delete(_ id: Campaign.ID, revision: String, by actor: AuditActor, now: Date = Date()) throws -> CampaignReplaceResult {
        try changeBy(.delete(id, revision: revision), actor, now)
    }

    /// A short text that changes whenever anything of `campaign` as stored changes: an editor
    /// keeps it with the form and hands it back to ``save(_:revision:by:now:)`` so that two
    /// people editing one campaign never overwrite each other unknowingly. The same on every
    /// engine and every server (a hash of the stored columns, not Swift's seeded `hashValue`).
    public static func revision(of campaign: Campaign) -> String {
        var bytes: [UInt8] = []
        for value in CampaignRecord(stored(campaign)).values {
            let text: String = switch value {
            case .null: "n"
            case let .integer(number): "i\(number)"
            case let .text(text): "t\(text)"
            case let .bool(flag): flag ? "b1" : "b0"
            }
            // Length-prefixed, so that no two column lists give the same bytes.
            bytes += Array("\(text.utf8.count):".utf8) + Array(text.utf8)
        }
        return ContentHash(of: bytes).hex
    }

    /// Checks a list before it replaces the stored campaigns, as every store does.
    /// - Throws: `CampaignStoreError.duplicateID`, `.duplicateVoucherCode`, `.emptyTimeWindow`.
    public static func check(_ campaigns: [Campaign]) throws(CampaignStoreError) {
        var ids: Set<Campaign.ID> = []
        var codes: Set<VoucherCode> = []
        for campaign in campaigns {
            guard ids.insert(campaign.id).inserted else { throw .duplicateID(campaign.id) }
            if let code = campaign.voucherCode, !codes.insert(code).inserted { throw .duplicateVoucherCode(code) }
            guard StoredTime.unixSeconds(campaign.endsAt) > StoredTime.unixSeconds(campaign.startsAt) else {
                throw .emptyTimeWindow(campaign.id)
            }
        }
    }

    /// The campaign as a store gives it back: times rounded down to the whole second.
    public static func stored(_ campaign: Campaign) -> Campaign {
        var campaign = campaign
        campaign.startsAt = StoredTime.normalized(campaign.startsAt)
        campaign.endsAt = StoredTime.normalized(campaign.endsAt)
        return campaign
    }
}

/// One change of the stored campaigns, decided by ``applied(to:)`` above the engines on the set
/// they read inside their transaction (so that nothing read is stale by the time it is written).
public enum CampaignChange: Sendable {
    /// The merchant's file: this is the whole set.
    case replaceAll([Campaign])
    /// Add (`revision` nil) or replace one campaign, as its editor read it.
    case save(Campaign, revision: String?)
    /// Delete one campaign, as its editor read it.
    case delete(Campaign.ID, revision: String)

    /// The set after the change, checked (`CampaignStore.check`) and as stored.
    /// - Throws: `CampaignStoreError`.
    public func applied(to stored: [Campaign]) throws(CampaignStoreError) -> [Campaign] {
        var campaigns: [Campaign]
        switch self {
        case let .replaceAll(incoming):
            campaigns = incoming
        case let .save(campaign, revision):
            campaigns = stored
            let index = stored.firstIndex { $0.id == campaign.id }
            switch (index, revision) {
            case (nil, nil): campaigns.append(campaign)
            case (.some, nil): throw .idTaken(campaign.id)
            case (nil, .some): throw .campaignNotFound(campaign.id)
            case let (index?, revision?):
                guard CampaignStore.revision(of: stored[index]) == revision else { throw .changedSinceRead(campaign.id) }
                campaigns[index] = campaign
            }
        case let .delete(id, revision):
            guard let index = stored.firstIndex(where: { $0.id == id }) else { throw .campaignNotFound(id) }
            guard CampaignStore.revision(of: stored[index]) == revision else { throw .changedSinceRead(id) }
            campaigns = stored
            campaigns.remove(at: index)
        }
        try CampaignStore.check(campaigns)
        return campaigns.map(CampaignStore.stored)
    }
}

extension Campaign {
    /// What the campaign names that the catalog does not have (published): not errors — the
    /// catalog may be imported later — but worth a word wherever a campaign is saved (the
    /// campaigns file's import, the back office's form: a fresh tester saved a voucher for
    /// `no-such-product` without a word).
    /// - Returns: the category handle (when the campaign targets one the catalog lacks) and the
    ///   product handles, in the campaign's order, no published product has.
    public func missing(from catalog: CatalogStore) throws -> (category: String?, products: [String]) {
        switch target {
        case .wholeCart:
            return (nil, [])
        case let .category(handle):
            return (try catalog.categoryByHandle(handle) == nil ? handle : nil, [])
        case let .products(handles):
            return (nil, try handles.filter { try catalog.productByHandle($0) == nil })
        }
    }
}
