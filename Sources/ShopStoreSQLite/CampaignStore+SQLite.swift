public import ShopStore
import Foundation
import ShopCore
import SQLite

extension CampaignStore {
    /// Campaigns in a SQLite database (schema: `ShopSchema` migration 5, migrated beforehand).
    ///
    /// - `replaceAll` runs in one transaction (`BEGIN IMMEDIATE`): it rewrites the campaigns that
    ///   are new or changed, deletes the ones not given, leaves equal ones alone, and bumps
    ///   `campaign_state.version` when anything changed.
    /// - Times are Unix seconds: `startsAt`/`endsAt` come back rounded down to the second.
    /// - Amounts are minor units with their ISO 4217 currency; the product list of a
    ///   `.products` target is a JSON array of handles.
    /// - Reads throw `SQLiteStoreError.corruptValue` when a row was edited into something that
    ///   is not a campaign (unknown currency, bad JSON).
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> CampaignStore {
        let version = SQLiteDatabase.Memo<Int64>(readFrom: .campaignState)
        return CampaignStore(
            changeBy: { change, actor, now in
                return try database.write { connection in
                    let current = try SQLCampaigns.all(connection)
                    let plan = CampaignReplacePlan(stored: current, incoming: try change.applied(to: current))
                    let delete = try connection.prepare("DELETE FROM campaigns WHERE id = ?")
                    for id in plan.deletions { try delete.run([.text(id.rawValue)]) }
                    let insert = try connection.prepare(SQLCampaigns.insert)
                    for campaign in plan.writes { try insert.run(SQLCampaigns.values(campaign)) }
                    try SQLAudit.insert(plan.auditEntries(actor: actor, now: now), connection)
                    let result = plan.result
                    if result.changedAnything {
                        try connection.prepare("UPDATE campaign_state SET version = version + 1 WHERE id = 1").run()
                    }
                    return result
                }
            },
            all: {
                try database.withConnection { connection in try SQLCampaigns.all(connection) }
            },
            campaign: { id in
                try database.withConnection { connection in
                    try connection.prepare(SQLCampaigns.select + " WHERE id = ?").first([.text(id.rawValue)])
                        .map(SQLCampaigns.campaign)
                }
            },
            byVoucherCode: { code in
                try database.withConnection { connection in
                    try connection.prepare(SQLCampaigns.select + " WHERE voucher_code = ?").first([.text(code.normalized)])
                        .map(SQLCampaigns.campaign)
                }
            },
            version: {
                // Remembered like the catalog version: until this process commits a change to it, or 10 ms.
                try database.remembered(version) { connection in
                    try connection.prepare("SELECT version FROM campaign_state WHERE id = 1").first()?.int64(0) ?? 0
                }
            }
        )
    }
}

/// Rows of the `campaigns` table ↔ `Campaign` values, through `CampaignRecord` (ShopStore).
enum SQLCampaigns {
    static let select = "SELECT rowid, \(CampaignRecord.columns.joined(separator: ", ")) FROM campaigns"

    static let insert = """
        INSERT INTO campaigns (\(CampaignRecord.columns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: CampaignRecord.columns.count).joined(separator: ", ")))
        """

    /// Every campaign, by `starts_at`, then id.
    static func all(_ connection: Connection) throws -> [Campaign] {
        try connection.prepare(select + " ORDER BY starts_at, id").query().map(campaign)
    }

    /// The values bound to `insert`, in order.
    static func values(_ campaign: Campaign) -> [SQLValue] { CampaignRecord(campaign).values.map(SQLValue.init) }

    /// A campaign from a row selected with `select` (the rowid first, for error messages).
    /// - Throws: `SQLiteStoreError.corruptValue` for a row that is not a campaign.
    static func campaign(_ row: Row) throws -> Campaign {
        let record = try CampaignRecord(row: row, from: 1)
        do {
            return try record.campaign()
        } catch {
            throw SQLiteStoreError.corruptValue(table: "campaigns", column: error.column, rowID: try row.int64(0))
        }
    }
}

extension Row: StoredRow {}

extension SQLValue {
    /// A value of a record shared by the engines (`StoredValue`).
    init(_ value: StoredValue) {
        switch value {
        case .null: self = .null
        case let .integer(integer): self = .integer(integer)
        case let .text(text): self = .text(text)
        case let .bool(bool): self = SQLValue(bool)
        }
    }
}
