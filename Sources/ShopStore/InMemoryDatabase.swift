import Foundation
import ShopCore
import Synchronization

/// The sessions, carts, favorites, accounts, tokens, throttle counts, outbox, addresses,
/// orders, stock reservations, checkouts and stock changes of the in-memory stores, behind one
/// `Mutex` — the in-memory counterpart of a `SQLiteDatabase` file.
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
/// let orders = OrderStore.inMemory(database, catalog: catalog)   // places orders from these carts
/// let addresses = AddressStore.inMemory(database)
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
    /// Attempts counted per throttle key (`AccountStore.countAttempt`), each to the second.
    var throttleEvents: [String: [Date]] = [:]
    var outbox: [InMemoryOutboxRow] = []
    var nextOutboxID: Int64 = 1

    /// Address book entries by id, with their account.
    var addresses: [Address.ID: InMemoryAddress] = [:]
    /// Ids start at 1 and are never reused (SQLite `AUTOINCREMENT`).
    var nextAddressID: Int64 = 1
    /// Placed orders, oldest first; an order's id is its index + 1.
    var orders: [InMemoryOrder] = []
    /// Used place-order keys (`OrderRules.ownerKey` + newline + key) → order id.
    var orderKeys: [String: Order.ID] = [:]
    /// Each shopper's stock reservation (times rounded down to the second).
    var reservations: [Shopper: [InMemoryReservation]] = [:]
    /// The place the next new hold takes in the order holds were taken (SQLite's row id).
    var nextReservationSequence: Int64 = 1
    /// Holds that lowering the stock trimmed, per shopper and variant, until told.
    var reservationTrims: [Shopper: [Variant.ID: InMemoryTrim]] = [:]
    /// Checkouts in progress.
    var checkouts: [Shopper: CheckoutState] = [:]
    /// Stock changed by orders and `setStock`, per variant, over the catalog's (see `InMemoryStock`).
    var stock: [Variant.ID: InMemoryStock] = [:]

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
            reservations[.guest(id)] = nil
            reservationTrims[.guest(id)] = nil
            checkouts[.guest(id)] = nil
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

    // MARK: stock

    /// The variant's inventory now: the catalog's, unless an order or `setStock` changed it
    /// since the catalog last set it.
    func inventory(of variant: Variant) -> Inventory {
        guard let changed = stock[variant.id], changed.catalogInventory == variant.inventory else { return variant.inventory }
        return changed.inventory
    }

    /// `stock − live reservations of everyone but shopper` (of everyone when nil), at least 0,
    /// for a tracked, non-backorder variant; nil for one without a stock limit.
    func available(_ variant: Variant, excluding shopper: Shopper?, now: Date) -> Int? {
        guard case let .tracked(quantity, false) = inventory(of: variant) else { return nil }
        let now = StoredTime.unixSeconds(now)
        var reserved = 0
        for (owner, lines) in reservations where owner != shopper {
            for line in lines where line.variantID == variant.id && StoredTime.unixSeconds(line.expiresAt) > now {
                reserved += line.quantity
            }
        }
        return max(quantity - reserved, 0)
    }

    /// Trims the live holds on a variant, latest taken first (`OrderRules.keptHolds`), until they
    /// fit `stock`, recording a trim for each shopper; returns how many holds were trimmed.
    mutating func trimReservations(of variantID: Variant.ID, toFit stock: Int, now: Date) -> Int {
        let now = StoredTime.unixSeconds(now)
        var holds: [(shopper: Shopper, line: InMemoryReservation)] = []
        for (shopper, lines) in reservations {
            for line in lines where line.variantID == variantID && StoredTime.unixSeconds(line.expiresAt) > now {
                holds.append((shopper, line))
            }
        }
        holds.sort { $0.line.sequence < $1.line.sequence }
        let kept = OrderRules.keptHolds(holds.map(\.line.quantity), stock: stock)
        var trimmed = 0
        for (hold, kept) in zip(holds, kept) where kept < hold.line.quantity {
            trimmed += 1
            var lines = reservations[hold.shopper] ?? []
            if kept == 0 {
                lines.removeAll { $0.variantID == variantID }
            } else if let index = lines.firstIndex(where: { $0.variantID == variantID }) {
                lines[index].quantity = kept
            }
            reservations[hold.shopper] = lines.isEmpty ? nil : lines
            // Trimmed again before being told: the first `held` stays, the latest `kept` counts.
            let earlier = reservationTrims[hold.shopper]?[variantID]
            reservationTrims[hold.shopper, default: [:]][variantID] = InMemoryTrim(
                held: earlier?.held ?? hold.line.quantity, kept: min(kept, earlier?.kept ?? kept), expiresAt: hold.line.expiresAt)
        }
        return trimmed
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

struct InMemoryAddress {
    var userID: User.ID
    var address: Address
}

struct InMemoryOrder {
    var order: Order
    var guestTokenHash: String?
}

struct InMemoryReservation {
    var variantID: Variant.ID
    var quantity: Int
    var expiresAt: Date
    /// The hold's place in the order holds were taken (kept when renewed).
    var sequence: Int64
}

struct InMemoryTrim {
    var held: Int
    var kept: Int
    /// The trimmed hold's end: the trim lapses with it.
    var expiresAt: Date
}

/// A variant's stock as orders and `setStock` left it. The catalog (`CatalogStore.inMemory`)
/// keeps its own state, so the order store cannot write the catalog's stock: it records the
/// resulting inventory here together with the catalog's inventory it was based on. While the
/// catalog still says `catalogInventory`, `inventory` is the truth; once the catalog sets
/// something else (an import re-set the stock, as it does in SQL), the catalog wins again.
struct InMemoryStock {
    var catalogInventory: Inventory
    var inventory: Inventory
}
