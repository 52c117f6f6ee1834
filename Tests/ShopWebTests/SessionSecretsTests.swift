import Foundation
import ShopService
import HTTPServer
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
@testable import ShopWeb
import SQLite
import Testing

private let chair = ProductDraft.mock(handle: "chair", title: "Oak Chair", category: "Chairs",
                                      variants: [.mock(sku: "CHAIR-1", price: .usd(40_00),
                                                       inventory: .tracked(quantity: 10, allowsBackorder: false))])
private let password = "Blue9sky!"

/// Issue #8: session ids and CSRF tokens are stored only as hashes, so a copy of the database
/// yields no live session; sessions from before keep working.
@Suite("Session secrets at rest")
struct SessionSecretsTests {
    /// The database file and its write-ahead log, as a thief copying them would get them.
    private func fileBytes(_ sqlite: SQLiteTestShop) -> Data {
        ["", "-wal"].reduce(into: Data()) { bytes, suffix in
            bytes += FileManager.default.contents(atPath: sqlite.path.path + suffix) ?? Data()
        }
    }

    private func contains(_ haystack: Data, _ needle: String) -> Bool { haystack.range(of: Data(needle.utf8)) != nil }

    /// Every text value of every table, for a readable failure.
    private func storedTexts(_ database: SQLiteDatabase) throws -> [String] {
        try database.withConnection { connection in
            let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").query().map { try $0.string(0) }
            return try tables.flatMap { table in
                try connection.prepare("SELECT * FROM \"\(table)\"").query().flatMap { row in
                    (0..<row.count).compactMap { try? row.optionalString($0) ?? nil }
                }
            }
        }
    }

    @Test func noCookieValueOrFormTokenIsStoredOnlyTheirHashes() throws {
        let sqlite = try SQLiteTestShop([chair])
        let shop = sqlite.shop
        configureCheckout(shop)
        var secrets: Set<String> = []
        func remember() {
            for name in ["shoppable_session", "shoppable_csrf"] { if let value = shop.cookies[name] { secrets.insert(value) } }
            if let token = shop.csrfToken { secrets.insert(token) }
        }
        // A shopper registers (signed in), saves a favorite and fills the account's cart…
        try shop.post("/account/register", [("name", "Ana Lima"), ("email", "ana@example.com"), ("password", password),
                                            ("password_confirmation", password)])
        remember()
        let product = try #require(try shop.catalog.productByHandle("chair"))
        try shop.post("/favorites/\(product.id.rawValue)", [("favorite", "1")])
        try shop.post("/cart/add", [("product", "chair"), ("quantity", "1")])
        remember()
        try shop.post("/account/sign-out", [])
        // …then, as a guest, holds stock at checkout and orders.
        try shop.post("/cart/add", [("product", "chair"), ("quantity", "2")])
        remember()
        let review = try reachReview(shop)
        remember()
        #expect(try shop.post("/checkout/place", [("idempotency_key", try idempotencyKey(review))]).status == 303)
        remember()
        #expect(secrets.count >= 4, "two sessions and their form tokens: \(secrets.count)")

        let bytes = fileBytes(sqlite)
        let texts = try storedTexts(sqlite.database)
        for secret in secrets {
            #expect(!contains(bytes, secret), "the raw \(secret) is in the database file")
            #expect(!texts.contains { $0.contains(secret) }, "a table holds \(secret)")
        }
        // What is stored is the hash: a session cookie still finds its session.
        let session = try #require(shop.cookies["shoppable_session"])
        #expect(contains(bytes, shop.environment.crypto.sha256Hex(session)))
        #expect(try shop.sessions.find(shop.sessionID(forCookie: session)) != nil)
    }

    @Test func aSessionFromBeforeHashedIdsStaysSignedInAndGetsANewFormToken() throws {
        // A signed-in session as schema version 9 stored it: raw cookie token and CSRF token.
        let path = TemporaryDatabasePath()
        let cookie = "0123456789abcdef0123456789abcdef"
        let oldFormToken = "old-form-token-0123456789abcdefghijklmnopqrstuvwxyz"
        do {
            let database = try SQLiteDatabase(path: path.path)
            defer { database.close() }
            try database.migrate(Array(ShopSchema.migrations.prefix(9)))
            let hash = try Crypto.testing.hashPassword(password)
            try database.withConnection { connection in
                try connection.prepare("""
                    INSERT INTO users (email, name, password_hash, email_verified_at, created_at)
                    VALUES ('ana@example.com', 'Ana Lima', ?, 1, 1);
                    """).run([.text(hash)])
                try connection.prepare("""
                    INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at, expires_at, is_persistent)
                    VALUES (?, 1, ?, ?, ?, ?, 1)
                    """).run([.text(cookie), .text(oldFormToken), .integer(1_779_990_000), .integer(1_779_999_000),
                              .integer(1_790_000_000)])
            }
        }
        let sqlite = try SQLiteTestShop(existing: path, [chair])  // opening migrates to the current schema
        let shop = sqlite.shop
        shop.cookies["shoppable_session"] = cookie

        // A form that was open in a tab before the upgrade still posts…
        let added = try shop.post("/cart/add", [("product", "chair"), ("quantity", "1"), ("csrf_token", oldFormToken)])
        #expect(added.status == 303)
        // …and the next page gives the browser a new form token, kept only as a hash.
        let account = try shop.get("/account")
        #expect(account.status == 200 && account.text.contains("ana@example.com"), "still signed in")
        let renewed = try #require(shop.cookies["shoppable_csrf"])
        #expect(renewed != oldFormToken && shop.csrfToken.flatMap(CSRFMask.unmask) == renewed, "the page carries it masked")
        #expect(try shop.post("/cart/add", [("product", "chair"), ("quantity", "1")]).status == 303)
        #expect(try shop.post("/cart/add", [("product", "chair"), ("quantity", "1"), ("csrf_token", oldFormToken)]).status == 403,
                "the old token was replaced")
        #expect(try shop.get("/cart").text.contains("data-cart-count=\"2\""))
        let texts = try storedTexts(sqlite.database)
        #expect(!texts.contains { $0.contains(cookie) || $0.contains(oldFormToken) || $0.contains(renewed) })
        // Nor in the file: the upgrade zeroed what it rewrote and checkpointed the log.
        let bytes = fileBytes(sqlite)
        #expect(!contains(bytes, cookie) && !contains(bytes, oldFormToken))
    }
}
