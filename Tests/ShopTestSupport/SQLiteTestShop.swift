public import ShopCore
public import ShopStoreSQLite

/// A `TestShop` over a migrated SQLite file in the temporary directory (closed and removed when
/// this goes away): for tests that race threads through the real store and its connection pool,
/// or that look at what the file holds.
public final class SQLiteTestShop {
    public let shop: TestShop
    public let database: SQLiteDatabase
    /// The database file (with `-wal` and `-shm` beside it).
    public let path: TemporaryDatabasePath

    /// A shop holding `drafts`, with `poolSize` connections.
    public init(_ drafts: [ProductDraft] = [], poolSize: Int = 8) throws {
        path = TemporaryDatabasePath()
        database = try SQLiteDatabase.open(path: path.path, poolSize: poolSize)
        shop = try TestShop(drafts, sqlite: database)
    }

    /// A shop over the database already at `path` (migrated when opened); the shop owns it from now on.
    public init(existing path: TemporaryDatabasePath, _ drafts: [ProductDraft] = []) throws {
        self.path = path
        database = try SQLiteDatabase.open(path: path.path, poolSize: 4)
        shop = try TestShop(drafts, sqlite: database)
    }

    deinit {
        database.close()
        path.remove()
    }
}
