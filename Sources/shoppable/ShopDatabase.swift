import Foundation
import ShopCore
import ShopStore
import ShopStorePostgres
import ShopStoreSQLite

/// The shop's database as `--database` chose it — a SQLite file or a PostgreSQL server — and
/// the stores over it: the one place a command picks an engine (issue #15).
enum ShopDatabase {
    case sqlite(SQLiteDatabase)
    case postgres(PostgresDatabase)

    func catalog(currency: Currency, searchCountLimit: Int = ProductPage.searchCountLimit) -> CatalogStore {
        switch self {
        case let .sqlite(database): .sqlite(database, currency: currency, searchCountLimit: searchCountLimit)
        case let .postgres(database): .postgres(database, currency: currency, searchCountLimit: searchCountLimit)
        }
    }

    /// How a request's reads share one transaction (`AppEnvironment.readingTogether`): on
    /// SQLite, `SQLiteDatabase.readingTogether`; PostgreSQL reads each in its own, as before.
    var readingTogether: @Sendable (() throws -> Void) throws -> Void {
        switch self {
        case let .sqlite(database): { body in try database.readingTogether(body) }
        case .postgres: { body in try body() }
        }
    }

    var sessions: SessionStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var accounts: AccountStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var campaigns: CampaignStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var orders: OrderStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var addresses: AddressStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var savedCarts: SavedCartStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var apiTokens: APITokenStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var dashboard: DashboardStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var audit: AuditStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var importJobs: ImportJobStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    var staff: StaffStore {
        switch self {
        case let .sqlite(database): .sqlite(database)
        case let .postgres(database): .postgres(database)
        }
    }

    /// The 32-byte server secret `name` (`ServerSecrets`).
    func serverSecret(_ name: String) throws -> [UInt8] {
        switch self {
        case let .sqlite(database): try database.serverSecret(name)
        case let .postgres(database): try database.serverSecret(name)
        }
    }

    /// The migrations applied so far.
    func appliedMigrations() throws -> [Int] {
        switch self {
        case let .sqlite(database): try database.appliedMigrations()
        case let .postgres(database): try database.appliedMigrations()
        }
    }

    /// For one long write (an import) on SQLite; nothing on PostgreSQL.
    func configureForBulkWrite() throws {
        if case let .sqlite(database) = self { try database.configureForBulkWrite() }
    }

    func close() {
        switch self {
        case let .sqlite(database): database.close()
        case let .postgres(database): database.close()
        }
    }
}

/// Opens the database and applies pending migrations: a SQLite file (its folder created), or a
/// PostgreSQL server (its migrations taken under an advisory lock, so servers starting at once
/// migrate once).
func openDatabase(_ options: Options, poolSize: Int) throws -> ShopDatabase {
    let location = try options.database
    let database: ShopDatabase
    let applied: [Int]
    switch location {
    case let .sqlite(path):
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let sqlite = try SQLiteDatabase(path: path, poolSize: poolSize)
        applied = try sqlite.migrate()
        database = .sqlite(sqlite)
    case let .postgres(url):
        let postgres = try PostgresDatabase(url: url, poolSize: poolSize)
        applied = try postgres.migrate()
        database = .postgres(postgres)
    }
    if !applied.isEmpty { printLine("database \(location): applied migrations \(applied.map(String.init).joined(separator: ", "))") }
    return database
}

/// Opens the database without creating or migrating it (for commands that only read, or whose
/// output must not be mixed with migration notices): nil when the SQLite file does not exist.
/// - Throws: `UsageError` when the database needs migrations (`shoppable migrate`).
func openExistingDatabase(_ options: Options, poolSize: Int = 1) throws -> ShopDatabase? {
    let location = try options.database
    let database: ShopDatabase
    let latest: Int
    switch location {
    case let .sqlite(path):
        guard path != ":memory:", FileManager.default.fileExists(atPath: path) else { return nil }
        database = .sqlite(try SQLiteDatabase(path: path, poolSize: poolSize))
        latest = ShopSchema.migrations.map(\.version).max() ?? 0
    case let .postgres(url):
        database = .postgres(try PostgresDatabase(url: url, poolSize: poolSize))
        latest = PostgresSchema.migrations.map(\.version).max() ?? 0
    }
    guard try database.appliedMigrations().max() ?? 0 >= latest else {
        database.close()
        throw UsageError("the database \(location) needs migrations; run `shoppable migrate --database …` first")
    }
    return database
}
