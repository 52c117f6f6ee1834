public import ShopStore
import Foundation
import Postgres

extension DashboardStore {
    /// The dashboard's reads on PostgreSQL.
    public static func postgres(_ database: PostgresDatabase) -> DashboardStore {
        DashboardStore(
            lowStock: { threshold, limit in
                try database.withConnection { connection in
                    try connection.query(PGCatalog.numbered(lowStockSQL(isTrue: { $0 })),
                                         [.integer(Int64(threshold)), .integer(Int64(limit))]).map { try lowStockVariant($0) }
                }
            },
            failingEmails: {
                try database.withConnection { connection in Int(try connection.first(failingEmailsSQL)?.int64(0) ?? 0) }
            },
            voucherUsage: {
                try database.withConnection { connection in try voucherUsage(try connection.query(voucherUsageSQL)) }
            })
    }
}
