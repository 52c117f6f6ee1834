public import ShopStore
import Foundation
import SQLite

extension DashboardStore {
    /// The dashboard's reads on SQLite.
    public static func sqlite(_ database: SQLiteDatabase) -> DashboardStore {
        DashboardStore(
            lowStock: { threshold, limit in
                try database.withConnection { connection in
                    try connection.prepare(lowStockSQL(isTrue: { "\($0) = 1" }))
                        .query([.integer(Int64(threshold)), .integer(Int64(limit))]).map { try lowStockVariant($0) }
                }
            },
            failingEmails: {
                try database.withConnection { connection in try connection.prepare(failingEmailsSQL).first()?.int(0) ?? 0 }
            },
            voucherUsage: {
                try database.withConnection { connection in try voucherUsage(try connection.prepare(voucherUsageSQL).query()) }
            })
    }
}
