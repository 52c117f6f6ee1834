public import ShopStore
import Foundation
import Postgres
import ShopCore

extension CampaignStore {
    /// Campaigns in PostgreSQL (`PostgresSchema` migration 5), with the behaviour of
    /// `CampaignStore.sqlite`: what a campaign is stored as (`CampaignRecord`) and what a
    /// replace writes (`CampaignReplacePlan`) are decided above both engines.
    ///
    /// - `replaceAll` runs in one transaction that first locks `campaign_state`'s row
    ///   (`FOR UPDATE`): replaces take turns — as SQLite's single writer makes them — so two
    ///   imports at once never both insert a campaign and collide on its id; the version is
    ///   bumped when anything changed.
    /// - Ids are ordered by bytes (`COLLATE "C"`), as SQLite orders them, in any database locale.
    /// - Reads throw `PostgresStoreError.corruptValue` (naming `row_number`) for a row that is
    ///   not a campaign.
    /// - `version` is read per call (no memory of it yet, unlike SQLite's ten milliseconds).
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> CampaignStore {
        CampaignStore(
            changeBy: { change, actor, now in
                return try database.transaction { connection in
                    _ = try connection.first("SELECT version FROM campaign_state WHERE id = 1 FOR UPDATE")
                    let current = try PostgresCampaigns.all(connection)
                    let plan = CampaignReplacePlan(stored: current, incoming: try change.applied(to: current))
                    for id in plan.deletions {
                        try connection.run("DELETE FROM campaigns WHERE id = $1", [.text(id.rawValue)])
                    }
                    for campaign in plan.writes {
                        try connection.run(PostgresCampaigns.insert, PostgresCampaigns.values(campaign))
                    }
                    try PGAudit.insert(plan.auditEntries(actor: actor, now: now), connection)
                    if plan.result.changedAnything {
                        try connection.run("UPDATE campaign_state SET version = version + 1 WHERE id = 1")
                    }
                    return plan.result
                }
            },
            all: {
                try database.withConnection { connection in try PostgresCampaigns.all(connection) }
            },
            campaign: { id in
                try database.withConnection { connection in
                    try connection.first(PostgresCampaigns.select + " WHERE id = $1", [.text(id.rawValue)])
                        .map(PostgresCampaigns.campaign)
                }
            },
            byVoucherCode: { code in
                try database.withConnection { connection in
                    try connection.first(PostgresCampaigns.select + " WHERE voucher_code = $1", [.text(code.normalized)])
                        .map(PostgresCampaigns.campaign)
                }
            },
            version: {
                try database.withConnection { connection in
                    try connection.first("SELECT version FROM campaign_state WHERE id = 1")?.int64(0) ?? 0
                }
            }
        )
    }
}

/// Rows of the `campaigns` table ↔ `Campaign` values, through `CampaignRecord` (ShopStore).
enum PostgresCampaigns {
    static let select = "SELECT row_number, \(CampaignRecord.columns.joined(separator: ", ")) FROM campaigns"

    static let insert = """
        INSERT INTO campaigns (\(CampaignRecord.columns.joined(separator: ", ")))
        VALUES (\((1...CampaignRecord.columns.count).map { "$\($0)" }.joined(separator: ", ")))
        """

    /// Every campaign, by `starts_at`, then id (by bytes, as SQLite).
    static func all(_ connection: PostgresConnection) throws -> [Campaign] {
        try connection.query(select + " ORDER BY starts_at, id COLLATE \"C\"").map(campaign)
    }

    /// The values bound to `insert`, in order.
    static func values(_ campaign: Campaign) -> [PostgresValue] { CampaignRecord(campaign).values.map(PostgresValue.init) }

    /// A campaign from a row selected with `select` (the row number first, for error messages).
    /// - Throws: `PostgresStoreError.corruptValue` for a row that is not a campaign.
    static func campaign(_ row: PostgresRow) throws -> Campaign {
        let record = try CampaignRecord(row: row, from: 1)
        do {
            return try record.campaign()
        } catch {
            throw PostgresStoreError.corruptValue(table: "campaigns", column: error.column, rowID: try row.int64(0))
        }
    }
}

extension PostgresRow: StoredRow {}

extension PostgresValue {
    /// A value of a record shared by the engines (`StoredValue`).
    init(_ value: StoredValue) {
        switch value {
        case .null: self = .null
        case let .integer(integer): self = .integer(integer)
        case let .text(text): self = .text(text)
        case let .bool(bool): self = .bool(bool)
        }
    }
}
