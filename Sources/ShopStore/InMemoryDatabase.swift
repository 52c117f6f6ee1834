import Foundation
import ShopCore
import Synchronization

/// The sessions, carts, favorites, accounts, tokens, sign-in failures and outbox of the
/// in-memory stores, behind one `Mutex` — the in-memory counterpart of a `SQLiteDatabase` file.
///
/// Give the SAME value to `SessionStore.inMemory(_:)` and `AccountStore.inMemory(_:)`: an
/// account's carts and sessions live here, so a password reset can sign the account out
/// everywhere and a signed-in session can point at its account, each in one locked step (the
/// in-memory "transaction"). The catalog is not part of it (`CatalogStore.inMemory`).
///
/// ```swift
/// let database = InMemoryDatabase()
/// let sessions = SessionStore.inMemory(database)
/// let accounts = AccountStore.inMemory(database)
/// ```
///
/// For tests and demos; nothing survives the process.
public final class InMemoryDatabase: Sendable {
    private let state = Mutex(InMemoryState())

    /// Creates an empty database.
    public init() {}

    /// Runs `body` with the state locked: the in-memory transaction. `body` must leave the
    /// state unchanged when it throws (check first, then change).
    func withLock<T: Sendable, E: Error>(_ body: (inout InMemoryState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state: inout InMemoryState) throws(E) -> T in try body(&state) }
    }
}

/// Everything an `InMemoryDatabase` holds. Times are stored as the SQL stores keep them:
/// rounded down to the second (`StoredTime`).
struct InMemoryState {
    var sessions: [Session.ID: Session] = [:]
    var carts: [Shopper: Cart] = [:]
    var favorites: [Shopper: [InMemoryFavorite]] = [:]
    /// Orders favorites added in the same second like SQLite's rowid (newer first).
    var nextFavoriteSequence: Int64 = 1

    var users: [User.ID: InMemoryUser] = [:]
    /// Ids start at 1 and are never reused (SQLite `AUTOINCREMENT`).
    var nextUserID: Int64 = 1
    var tokens: [InMemoryToken] = []
    var signInFailures: [String: [Date]] = [:]
    var outbox: [InMemoryOutboxRow] = []
    var nextOutboxID: Int64 = 1

    // MARK: sessions and shoppers

    /// Deletes sessions matching `isDeleted` with their guest carts and favorites, as
    /// `ON DELETE CASCADE` does in SQL; returns how many sessions went.
    @discardableResult
    mutating func deleteSessions(where isDeleted: (Session) -> Bool) -> Int {
        let doomed = sessions.values.filter(isDeleted).map(\.id)
        for id in doomed {
            sessions[id] = nil
            carts[.guest(id)] = nil
            favorites[.guest(id)] = nil
        }
        return doomed.count
    }

    /// Throws unless the shopper's session or account is stored.
    func requireShopper(_ shopper: Shopper) throws {
        switch shopper {
        case let .guest(id): guard sessions[id] != nil else { throw SessionStoreError.sessionNotFound(id) }
        case let .account(id): guard users[id] != nil else { throw AccountStoreError.userNotFound }
        }
    }

    /// Adds a favorite unless the product is already one.
    mutating func addFavorite(_ shopper: Shopper, _ productID: Product.ID, at date: Date) {
        guard favorites[shopper]?.contains(where: { $0.productID == productID }) != true else { return }
        favorites[shopper, default: []].append(
            InMemoryFavorite(productID: productID, addedAt: StoredTime.normalized(date), sequence: nextFavoriteSequence))
        nextFavoriteSequence += 1
    }

    /// Moves a guest's favorites to an account: the union, keeping for each product the
    /// earlier `addedAt` (and that entry's place among same-second ones: the account's entry).
    mutating func moveFavorites(from guest: Session.ID, to account: User.ID) {
        let moving = favorites[.guest(guest)] ?? []
        var kept = favorites[.account(account)] ?? []
        for favorite in moving {
            if let index = kept.firstIndex(where: { $0.productID == favorite.productID }) {
                kept[index].addedAt = min(kept[index].addedAt, favorite.addedAt)
            } else {
                kept.append(favorite)
            }
        }
        favorites[.account(account)] = kept.isEmpty ? nil : kept
        favorites[.guest(guest)] = nil
    }

    // MARK: accounts

    /// The stored user whose email equals `email` under SQLite's `NOCASE` collation (ASCII
    /// letters compared without case), as the SQL stores compare them.
    func user(email: String) -> InMemoryUser? {
        let key = InMemoryState.nocase(email)
        return users.values.first { InMemoryState.nocase($0.user.email) == key }
    }

    /// Stores a new account. - Throws: `AccountStoreError.emailTaken`.
    mutating func insertUser(_ account: NewAccount, verified: Bool) throws(AccountStoreError) -> User {
        guard user(email: account.email) == nil else { throw .emailTaken }
        let createdAt = StoredTime.normalized(account.createdAt)
        let user = User(id: User.ID(nextUserID), email: account.email, name: account.name,
                        emailVerifiedAt: verified ? createdAt : nil, createdAt: createdAt)
        nextUserID += 1
        users[user.id] = InMemoryUser(user: user, passwordHash: account.passwordHash)
        return user
    }

    /// Stores a token, after deleting the account's earlier unused tokens of the same purpose.
    mutating func insertToken(_ token: TokenDraft, for userID: User.ID) {
        tokens.removeAll { $0.userID == userID && $0.purpose == token.purpose && $0.usedAt == nil }
        tokens.append(InMemoryToken(userID: userID, purpose: token.purpose, tokenHash: token.tokenHash,
                                    expiresAt: StoredTime.normalized(token.expiresAt), usedAt: nil))
    }

    /// The index of an unused, unexpired token with this hash and purpose.
    func validToken(_ tokenHash: String, _ purpose: TokenPurpose, now: Date) -> Int? {
        let now = StoredTime.normalized(now)
        return tokens.firstIndex {
            $0.tokenHash == tokenHash && $0.purpose == purpose && $0.usedAt == nil && $0.expiresAt > now
        }
    }

    /// Queues a message, due at once.
    mutating func enqueue(_ draft: OutboxDraft) {
        var draft = draft
        draft.createdAt = StoredTime.normalized(draft.createdAt)
        outbox.append(InMemoryOutboxRow(message: OutboxMessage(id: OutboxMessage.ID(nextOutboxID), draft: draft,
                                                               attempts: 0, nextAttemptAt: draft.createdAt)))
        nextOutboxID += 1
    }

    /// SQLite's `NOCASE`: only the 26 ASCII capitals fold to lower case.
    static func nocase(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
    }
}

struct InMemoryFavorite {
    var productID: Product.ID
    var addedAt: Date
    var sequence: Int64
}

struct InMemoryUser {
    var user: User
    var passwordHash: String
}

struct InMemoryToken {
    var userID: User.ID
    var purpose: TokenPurpose
    var tokenHash: String
    var expiresAt: Date
    var usedAt: Date?
}

struct InMemoryOutboxRow {
    var message: OutboxMessage
    var sentAt: Date?
    var lastError: String?
}
