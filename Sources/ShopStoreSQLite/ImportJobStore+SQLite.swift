public import ShopStore
import Foundation
import ShopCore
import SQLite

extension ImportJobStore {
    /// The back office's import jobs in a SQLite database (migration 33).
    ///
    /// A job's thread writes its row only between the steps of an import, never inside the
    /// import's write transaction (SQLite has one writer: the row's update would wait for the
    /// import it reports on). The live counts within a step stay in the server's memory
    /// (`ImportJobs`). An update is a write transaction of its own, so it takes its turn behind
    /// another import's.
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> ImportJobStore {
        ImportJobStore(
            insert: { job in
                try database.write { connection in
                    try connection.prepare("INSERT INTO import_jobs (\(StoredImportJob.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                        .run(StoredImportJob.values(job).map(SQLValue.init))
                }
            },
            update: { job in
                try database.write { connection in
                    // A write transaction: it waits its turn behind this process's other writers
                    // (another import's long transaction) instead of meeting the busy timeout.
                    try connection.prepare("""
                        UPDATE import_jobs SET \(StoredImportJob.updateAssignments) WHERE id = ? AND step <> 'finished'
                        """).run((StoredImportJob.updateValues(job) + [.text(job.id)]).map(SQLValue.init))
                    return connection.changes == 1
                }
            },
            job: { id in
                try database.withConnection { connection in
                    try connection.prepare("SELECT \(StoredImportJob.columns) FROM import_jobs WHERE id = ?").first([.text(id)])
                        .map { try StoredImportJob.job($0) }
                }
            },
            purge: { date in
                try database.write { connection in
                    try connection.prepare("DELETE FROM import_jobs WHERE started_at < ?").run([.integer(StoredTime.unixSeconds(date))])
                    return connection.changes
                }
            },
            recent: { limit in
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT \(StoredImportJob.columns) FROM import_jobs ORDER BY started_at DESC, id LIMIT ?
                        """).query([.integer(Int64(max(limit, 0)))]).map { try StoredImportJob.job($0) }
                }
            })
    }
}
