import Foundation
import SQLite

/// The triggers that stand aside during a bulk write (migration 26: their `WHEN` reads
/// `catalog_state.is_bulk_writing`), dropped for the length of a large upsert and created again
/// from their own stored SQL before it commits.
///
/// Why drop what already does nothing while the flag is set: a table with any trigger makes
/// every write to it a "multi-write" statement, and SQLite opens a statement journal for each
/// one (a copy of every page it changes) and a savepoint on every FTS5 table the transaction has
/// written — which also writes FTS5's totals row each time. A 100 000-row import spent about 4 s
/// of 23 s there (issue #13, point 6; docs/BENCHMARKS.md); without triggers a single-row insert
/// needs neither.
///
/// The definitions stay where they are written (the migrations): this type only reads them back
/// from `sqlite_master` and executes them again, so they come back exactly as they were. The drop
/// and the re-creation are part of the caller's transaction: a rollback restores the triggers
/// too, and no other connection ever sees the schema without them (WAL readers keep their
/// snapshot; writers wait for the write lock).
struct BulkWriteTriggers {
    /// `CREATE TRIGGER` statements of the triggers dropped, in name order.
    private var definitions: [String]

    /// Drops every trigger that consults `is_bulk_writing`, remembering its definition.
    /// Call inside a write transaction.
    init(droppingIn connection: Connection) throws {
        let rows = try connection.prepare("""
            SELECT name, sql FROM sqlite_master
            WHERE type = 'trigger' AND sql LIKE '%is_bulk_writing%' ORDER BY name
            """).query()
        var definitions: [String] = []
        for row in rows {
            let name = try row.string(0)
            definitions.append(try row.string(1))
            try connection.execute("DROP TRIGGER \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
        }
        self.definitions = definitions
    }

    /// True until `restore` has created the triggers again.
    var isSetAside: Bool { !definitions.isEmpty }

    /// Creates the dropped triggers again, as they were.
    mutating func restore(_ connection: Connection) throws {
        for sql in definitions { try connection.execute(sql) }
        definitions = []
    }
}
