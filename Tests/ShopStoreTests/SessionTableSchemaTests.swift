import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Testing

/// Migration 41 (issue #14): `sessions` becomes a rowid table, rebuilt with foreign keys off
/// (`Migration.rebuildsReferencedTable`), so that a new session appends instead of landing at a
/// random place of the table.
@Suite("SQLite sessions as a rowid table")
struct SessionTableSchemaTests {
    @Test(.bug(id: "14")) func migration41KeepsEverySessionAndWhatItOwns() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        #expect(try database.migrate(Array(ShopSchema.migrations.prefix(40))) == Array(1...40))
        let catalog = CatalogStore.sqlite(database), sessions = SessionStore.sqlite(database)
        _ = try catalog.upsert([.mock(handle: "a"), .mock(handle: "b")])
        let a = try #require(try catalog.productByHandle("a")), b = try #require(try catalog.productByHandle("b"))
        for id in ["guest", "other"] { try sessions.create(Fixtures.session(Session.ID(rawValue: id))) }
        try sessions.saveCart(.guest("guest"), Cart(lines: [LineItem(productID: a.id, variantID: a.variants[0].id, quantity: 2),
                                                            LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 1)]))
        try sessions.setFavorite(.guest("guest"), b.id, true, Fixtures.start)
        try sessions.saveCart(.guest("other"), Cart(lines: [LineItem(productID: b.id, variantID: b.variants[0].id, quantity: 3)]))

        #expect(try database.migrate() == [41])
        let schema = try database.withConnection { try $0.prepare("SELECT sql FROM sqlite_master WHERE name = 'sessions'").first()?.string(0) }
        #expect(schema?.contains("WITHOUT ROWID") == false)
        #expect(try sessions.find("guest") == Fixtures.session("guest"))
        #expect(try sessions.loadCart(.guest("guest")).lines.map(\.quantity) == [2, 1])
        #expect(try sessions.favorites(.guest("guest")) == [b.id])
        // Foreign keys are on again, and still cascade from the new table.
        #expect(try database.withConnection { try $0.prepare("PRAGMA foreign_keys").first()?.int(0) } == 1)
        try sessions.delete("guest")
        let left = try database.withConnection { try $0.prepare("SELECT count(*) FROM cart_lines").first()?.int(0) }
        #expect(left == 1, "the deleted session's lines went, the other's stayed")
        #expect(try sessions.loadCart(.guest("other")).lines.map(\.quantity) == [3])
    }

    /// A rebuild that leaves a row naming nothing is rolled back whole, and foreign keys are on
    /// again afterwards.
    @Test(.bug(id: "14")) func aRebuildThatOrphansARowIsRolledBack() throws {
        let path = TemporaryDatabasePath()
        let database = try SQLiteDatabase(path: path.path)
        defer { database.close(); path.remove() }
        let migrations = [
            Migration(version: 1, sql: """
                CREATE TABLE parents (id TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TABLE children (id INTEGER PRIMARY KEY, parent TEXT NOT NULL REFERENCES parents(id) ON DELETE CASCADE);
                INSERT INTO parents VALUES ('p1'), ('p2');
                INSERT INTO children (parent) VALUES ('p1'), ('p2');
                """),
            Migration(version: 2, sql: """
                CREATE TABLE parents_v2 (id TEXT PRIMARY KEY);
                INSERT INTO parents_v2 SELECT id FROM parents WHERE id <> 'p2';
                DROP TABLE parents;
                ALTER TABLE parents_v2 RENAME TO parents;
                """, rebuildsReferencedTable: true),
        ]
        #expect(try database.migrate(Array(migrations.prefix(1))) == [1])
        #expect(throws: SQLiteStoreError.foreignKeyViolation(table: "children", rowID: 2)) { try database.migrate(migrations) }
        func value(_ sql: String) throws -> Int? { try database.withConnection { try $0.prepare(sql).first()?.int(0) } }
        #expect(try value("SELECT count(*) FROM children") == 2, "the drop cascaded nothing")
        #expect(try value("SELECT max(version) FROM schema_migrations") == 1)
        #expect(try value("PRAGMA foreign_keys") == 1)
    }
}
