public import ShopStore
import Foundation
import Postgres
import ShopCore

extension AuditStore {
    /// The audit log in PostgreSQL (migration 29), with the behaviour of `AuditStore.sqlite`.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> AuditStore {
        AuditStore(entries: { query in
            try database.withConnection { connection in
                let condition = query.condition
                let sql = PGCatalog.numbered(condition.sql)
                let values = condition.values.map(PostgresValue.init)
                let total = try connection.first("SELECT count(*) FROM audit_events WHERE \(sql)", values)?.int64(0) ?? 0
                let entries = try connection.query("""
                    SELECT \(StoredAudit.columns) FROM audit_events WHERE \(sql)
                    ORDER BY at DESC, id DESC LIMIT \(query.limit) OFFSET \(query.offset)
                    """, values).map { try StoredAudit.entry($0) }
                return AuditPage(entries: entries, total: Int(total))
            }
        })
    }
}

/// Writes audit entries inside the transaction of the change they record.
enum PGAudit {
    static func insert(_ entries: [AuditEntry], _ connection: PostgresConnection) throws {
        for entry in entries {
            try connection.run("INSERT INTO audit_events (\(StoredAudit.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                               StoredAudit.values(entry).map(PostgresValue.init))
        }
    }
}
