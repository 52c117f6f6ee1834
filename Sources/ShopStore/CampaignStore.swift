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

    /// English text for logs and the CLI.
    public var errorDescription: String? {
        switch self {
        case let .duplicateID(id): "Two campaigns have the id “\(id.rawValue)”."
        case let .duplicateVoucherCode(code): "Two campaigns have the voucher code \(code.normalized)."
        case let .emptyTimeWindow(id): "Campaign “\(id.rawValue)” ends before it starts."
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
    /// Makes `campaigns` the whole set, in one transaction: the file is the truth, so stored
    /// campaigns not in the list are deleted. All or nothing.
    /// - Throws: `CampaignStoreError.duplicateID`, `.duplicateVoucherCode`, `.emptyTimeWindow`
    ///   (nothing written), or the storage's own error.
    /// Each campaign added, changed or removed is an entry of the audit log, as `actor`'s, in the
    /// same transaction (`CampaignReplacePlan.auditEntries`); callers use ``replaceAll(_:by:now:)``.
    public var replaceAllBy: @Sendable (_ campaigns: [Campaign], _ actor: AuditActor, _ now: Date) throws -> CampaignReplaceResult
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
        replaceAllBy: @escaping @Sendable (_ campaigns: [Campaign], _ actor: AuditActor, _ now: Date) throws -> CampaignReplaceResult,
        all: @escaping @Sendable () throws -> [Campaign],
        campaign: @escaping @Sendable (_ id: Campaign.ID) throws -> Campaign?,
        byVoucherCode: @escaping @Sendable (_ code: VoucherCode) throws -> Campaign?,
        version: @escaping @Sendable () throws -> Int64
    ) {
        self.replaceAllBy = replaceAllBy
        self.all = all
        self.campaign = campaign
        self.byVoucherCode = byVoucherCode
        self.version = version
    }
}

extension CampaignStore {
    /// Makes `campaigns` the whole set (``replaceAllBy``), recorded in the audit log as `actor`'s.
    public func replaceAll(_ campaigns: [Campaign], by actor: AuditActor = .cli, now: Date = Date()) throws -> CampaignReplaceResult {
        try replaceAllBy(campaigns, actor, now)
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
