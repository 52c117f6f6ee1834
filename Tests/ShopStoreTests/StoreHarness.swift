import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Sodium
import Testing

/// Which implementation a contract test runs against. Every contract suite takes
/// `StoreKind.allCases`; the PostgreSQL stores (issue #15) slot in as one more case here and in
/// `StoreHarness.init`, and every suite then runs against them too.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case sqlite

    var testDescription: String { rawValue }
}

/// The one harness of the store contract tests: every store of one kind — catalog, sessions,
/// accounts, campaigns, orders, addresses — sharing one database (SQLite: a migrated temporary
/// file deleted when the harness goes away; in memory: one `InMemoryDatabase`).
final class StoreHarness {
    let catalog: CatalogStore
    let sessions: SessionStore
    let accounts: AccountStore
    let campaigns: CampaignStore
    let orders: OrderStore
    let addresses: AddressStore
    let database: SQLiteDatabase?
    private let path: TemporaryDatabasePath?

    /// - Parameter poolSize: SQLite connections (more than 2 for tests that race threads).
    init(_ kind: StoreKind, poolSize: Int = 2) throws {
        switch kind {
        case .inMemory:
            let shared = InMemoryDatabase()
            catalog = .inMemory()
            sessions = .inMemory(shared)
            accounts = .inMemory(shared)
            campaigns = .inMemory()
            orders = .inMemory(shared, catalog: catalog)
            addresses = .inMemory(shared)
            database = nil
            path = nil
        case .sqlite:
            let path = TemporaryDatabasePath()
            let database = try SQLiteDatabase.open(path: path.path, poolSize: poolSize)
            catalog = .sqlite(database)
            sessions = .sqlite(database)
            accounts = .sqlite(database)
            campaigns = .sqlite(database)
            orders = .sqlite(database)
            addresses = .sqlite(database)
            self.database = database
            self.path = path
        }
    }

    deinit {
        database?.close()
        path?.remove()
    }

    /// The published product with `handle`, or a test failure.
    func product(_ handle: String) throws -> Product {
        guard let product = try catalog.productByHandle(handle) else { throw MissingProduct(handle: handle) }
        return product
    }

    struct MissingProduct: Error { var handle: String }

    /// A new account (`ana@example.com` unless told), created verified.
    func account(_ email: String = "ana@example.com", name: String = "Ana Lima",
                 at date: Date = Fixtures.start) throws -> User {
        try accounts.createUser(NewAccount(email: email, name: name, passwordHash: "hash-of-\(email)", createdAt: date), true)
    }

    /// A new session: a guest's, or signed in to `user`.
    @discardableResult
    func session(_ id: Session.ID, user: User.ID? = nil, at date: Date = Fixtures.start,
                 expiresAt: Date? = nil) throws -> Session {
        let session = Fixtures.session(id, user: user, at: date, expiresAt: expiresAt)
        try sessions.create(session)
        return session
    }
}

/// Values the store tests share.
enum Fixtures {
    /// 2025-06-15T15:06:40Z, a whole second.
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    /// A session value created at `date`, expiring 30 days later unless told.
    static func session(_ id: Session.ID, user: User.ID? = nil, at date: Date = start, expiresAt: Date? = nil,
                        isPersistent: Bool = true) -> Session {
        Session(id: id, userID: user, csrfTokenHash: "csrf-hash-\(id.rawValue)-0123456789abcdef0123456789", createdAt: date,
                lastSeenAt: date, expiresAt: expiresAt ?? date.addingTimeInterval(30 * 86_400), isPersistent: isPersistent)
    }

    /// What a session stored before migration 10 is called after it: the SHA-256 of its old id.
    static func upgradedSessionID(_ old: String) -> Session.ID { Session.ID(rawValue: Digest.sha256Hex(old)) }

    /// An email to `address` created at `date`.
    static func message(to address: String = "ana@example.com", subject: String = "Confirm your email",
                        at date: Date = start, html: String? = "<p>Hi</p>") -> OutboxDraft {
        OutboxDraft(toAddress: address, toName: "Ana Lima", subject: subject, textBody: "Hi Ana", htmlBody: html,
                    createdAt: date)
    }

    /// A token of `purpose` with hash `hash`, expiring at `expiresAt`.
    static func token(_ hash: String, _ purpose: TokenPurpose = .emailVerification,
                      expiresAt: Date = start.addingTimeInterval(86_400)) -> TokenDraft {
        TokenDraft(purpose: purpose, tokenHash: hash, expiresAt: expiresAt)
    }

    /// A registration form's account for `email`.
    static func newAccount(_ email: String = "ana@example.com", name: String = "Ana Lima", at date: Date = start) -> NewAccount {
        NewAccount(email: email, name: name, passwordHash: "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA", createdAt: date)
    }
}

