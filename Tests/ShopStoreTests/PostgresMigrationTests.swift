import Dispatch
import Foundation
import Postgres
import ShopStore
import ShopStorePostgres
import ShopStoreSQLite
import Synchronization
import Testing

@Suite("PostgreSQL migrations", .enabled(if: PostgresTestServer.url != nil, "SHOPPABLE_TEST_POSTGRES_URL is not set"))
struct PostgresMigrationTests {
    @Test func migratingTwiceAppliesEverythingOnceThenNothing() throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1, schema: schema)
        defer { database.close() }
        #expect(try database.appliedMigrations().isEmpty)
        let all = PostgresSchema.migrations.map(\.version)
        #expect(try database.migrate() == all)
        #expect(try database.migrate() == [])
        #expect(try database.appliedMigrations() == all)
    }

    /// The guest-session key: made by whichever server asks first, the same for all of them.
    @Test func serversAskingForASecretAtOnceShareOneKey() throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let url = try #require(PostgresTestServer.url)
        let databases = try (0..<4).map { _ in try PostgresDatabase.open(url: url, poolSize: 1, schema: schema) }
        defer { databases.forEach { $0.close() } }
        let keys = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: databases.count) { index in
            if let key = try? databases[index].serverSecret(ServerSecrets.guestSession) { keys.withLock { $0.append(key) } }
        }
        let all = keys.withLock { $0 }
        #expect(all.count == 4)
        #expect(Set(all).count == 1)
        #expect(all.first?.count == 32)
        #expect(try databases[0].serverSecret("another") != all.first)
    }

    /// Several servers starting at once on one new database: each migrates on its own pool; the
    /// advisory lock makes them take turns, so every migration runs exactly once and none fails.
    @Test(arguments: [2, 8])
    func serversStartingAtOnceMigrateExactlyOnce(servers: Int) throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let url = try #require(PostgresTestServer.url)
        let databases = try (0..<servers).map { _ in try PostgresDatabase(url: url, poolSize: 1, schema: schema) }
        defer { databases.forEach { $0.close() } }
        // Connections opened first, so the migrations themselves start together.
        for database in databases { try database.withConnection { _ in } }
        // A migration that takes a while, so the servers truly overlap.
        let migrations = PostgresSchema.migrations + [PostgresMigration(version: 9_999, sql: """
            SELECT pg_sleep(0.2);
            CREATE TABLE migrated_once (n integer);
            INSERT INTO migrated_once VALUES (1);
            """)]
        let applied = Mutex<[[Int]]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: servers) { index in
            do {
                let versions = try databases[index].migrate(migrations)
                applied.withLock { $0.append(versions) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let runs = applied.withLock { $0 }
        #expect(runs.count == servers)
        #expect(runs.filter { !$0.isEmpty } == [migrations.map(\.version)])
        let rows = try databases[0].withConnection { connection in
            (try connection.first("SELECT count(*) FROM migrated_once")?.int(0),
             try connection.first("SELECT count(*), count(DISTINCT version) FROM schema_migrations")
                .map { (try $0.int(0), try $0.int(1)) })
        }
        #expect(rows.0 == 1)
        #expect(rows.1?.0 == migrations.count)
        #expect(rows.1?.1 == migrations.count)
    }

    @Test func aFailingMigrationAppliesNothing() throws {
        let schema = try PostgresTestServer.createSchema()
        defer { PostgresTestServer.drop(schema) }
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1, schema: schema)
        defer { database.close() }
        let broken = PostgresSchema.migrations + [PostgresMigration(version: 9_999, sql: "CREATE TABLE half (n integer); SELEC 1")]
        #expect(throws: PostgresError.self) { try database.migrate(broken) }
        #expect(try database.appliedMigrations().isEmpty)
        #expect(try database.withConnection { try $0.first("SELECT to_regclass('users') IS NULL")?.bool(0) } == true)
    }

    @Test func aListOutOfOrderIsRefused() throws {
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), poolSize: 1)
        defer { database.close() }
        #expect(throws: PostgresStoreError.self) {
            try database.migrate([PostgresMigration(version: 3, sql: ""), PostgresMigration(version: 3, sql: "")])
        }
    }

    @Test(arguments: ["public; DROP TABLE users", "Shop", ""])
    func aSchemaNameOutsideLettersDigitsAndUnderscoreIsRefused(name: String) {
        #expect(throws: PostgresStoreError.invalidSchemaName(name)) {
            try PostgresDatabase(url: "postgresql://127.0.0.1/none", schema: name)
        }
    }
}

/// What the PostgreSQL schema has, checked against SQLite's sequence (no server needed).
@Suite struct PostgresSchemaNumberingTests {
    @Test func postgresMigrationsAreNumberedFromSQLitesSequence() {
        let sqlite = Set(ShopSchema.migrations.map(\.version))
        let postgres = PostgresSchema.migrations.map(\.version)
        #expect(postgres == postgres.sorted())
        #expect(postgres.allSatisfy(sqlite.contains))
    }
}
