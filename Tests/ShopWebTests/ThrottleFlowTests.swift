import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import ShopWeb
import Synchronization
import Testing

private let goodPassword = "Blue9sky!"

/// A shop over a migrated SQLite file with a pool of 8 connections (removed when it goes away),
/// whose password checks are counted and take a few milliseconds like a real argon2id hash.
private final class RacingShop {
    let shop: TestShop
    /// How many times a password was checked.
    var passwordChecks: Int { checks.value.load(ordering: .relaxed) }
    private let checks = Tally()
    private let database: SQLiteDatabase
    private let path = TemporaryDatabasePath()

    init() throws {
        database = try SQLiteDatabase.open(path: path.path, poolSize: 8)
        shop = try TestShop(sqlite: database)
        let real = shop.environment.crypto
        let checks = self.checks
        shop.environment.crypto.verifyPassword = { password, hash in
            checks.value.add(1, ordering: .relaxed)
            Thread.sleep(forTimeInterval: 0.005)  // the hash's cost: the window a check-then-count race needs
            return real.verifyPassword(password, hash)
        }
    }

    deinit {
        database.close()
        path.remove()
    }

    /// `count` visitors, each holding the CSRF token of a page they loaded.
    func visitors(_ count: Int) throws -> [TestShop] {
        try (0..<count).map { _ in
            let visitor = try shop.visitor()
            try visitor.get("/account/sign-in")
            return visitor
        }
    }
}

/// A shared count.
private final class Tally: Sendable {
    let value = Atomic<Int>(0)
}

@Suite("Throttles under concurrent requests (issue #8)")
struct ConcurrentThrottleTests {
    @Test func sixtySimultaneousWrongPasswordsAreCheckedOnlyFiveTimes() throws {
        let racing = try RacingShop()
        _ = try racing.shop.accounts.createUser(
            NewAccount(email: "ana@example.com", name: "Ana Lima", passwordHash: try Crypto.testing.hashPassword(goodPassword),
                       createdAt: racing.shop.clock.now), true)
        let visitors = try racing.visitors(60)
        let statuses = try ConcurrentRun.together(60) { index in
            let visitor = visitors[index]
            return try visitor.send(.post, "/account/sign-in",
                                    form: [("email", "ana@example.com"), ("password", "Wrong9pass\(index)"),
                                           ("csrf_token", visitor.csrfToken ?? "")],
                                    remoteAddress: "10.0.\(index / 200).\(index % 200)").status
        }
        #expect(racing.passwordChecks == 5)
        #expect(statuses.count { $0 == 401 } == 5)
        #expect(statuses.count { $0 == 429 } == 55)
    }
}
