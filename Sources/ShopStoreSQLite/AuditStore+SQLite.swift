public import ShopStore
import Foundation
import ShopCore
import SQLite

extension AuditStore {
    /// The audit log in a SQLite database (migration 29).
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> AuditStore {
        AuditStore(entries: { query in
            try database.withConnection { connection in
                try connection.transaction(.deferred) {
                    let condition = query.condition
                    let values = condition.values.map(SQLValue.init)
                    let total = try connection.prepare("SELECT count(*) FROM audit_events WHERE \(condition.sql)").first(values)?.int(0) ?? 0
                    let entries = try connection.prepare("""
                        SELECT \(StoredAudit.columns) FROM audit_events WHERE \(condition.sql)
                        ORDER BY at DESC, id DESC LIMIT \(query.limit) OFFSET \(query.offset)
                        """).query(values).map { try StoredAudit.entry($0) }
                    return AuditPage(entries: entries, total: total)
                }
            }
        })
    }
}

/// Writes audit entries inside the transaction of the change they record.
enum SQLAudit {
    static func insert(_ entries: [AuditEntry], _ connection: Connection) throws {
        guard !entries.isEmpty else { return }
        let insert = try connection.prepare("INSERT INTO audit_events (\(StoredAudit.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for entry in entries { try insert.run(StoredAudit.values(entry).map(SQLValue.init)) }
    }
}
