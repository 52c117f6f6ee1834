public import ShopStore
import Foundation
import Postgres
import ShopCore

extension ImportJobStore {
    /// The back office's import jobs in PostgreSQL (migration 33), with the behaviour of
    /// `ImportJobStore.sqlite`.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> ImportJobStore {
        ImportJobStore(
            insert: { job in
                try database.withConnection { connection in
                    _ = try connection.run("""
                        INSERT INTO import_jobs (\(StoredImportJob.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                        """, StoredImportJob.values(job).map(PostgresValue.init))
                }
            },
            update: { job in
                try database.withConnection { connection in
                    try connection.run("""
                        UPDATE import_jobs SET \(PGCatalog.numbered(StoredImportJob.updateAssignments)) WHERE id = $6 AND step <> 'finished'
                        """, (StoredImportJob.updateValues(job) + [.text(job.id)]).map(PostgresValue.init)) == 1
                }
            },
            job: { id in
                try database.withConnection { connection in
                    try connection.first("SELECT \(StoredImportJob.columns) FROM import_jobs WHERE id = $1", [.text(id)])
                        .map { try StoredImportJob.job($0) }
                }
            },
            purge: { date in
                try database.withConnection { connection in
                    try connection.run("DELETE FROM import_jobs WHERE started_at < $1", [.integer(StoredTime.unixSeconds(date))])
                }
            },
            recent: { limit in
                try database.withConnection { connection in
                    try connection.query("""
                        SELECT \(StoredImportJob.columns) FROM import_jobs ORDER BY started_at DESC, id LIMIT $1
                        """, [.integer(Int64(max(limit, 0)))]).map { try StoredImportJob.job($0) }
                }
            })
    }
}
