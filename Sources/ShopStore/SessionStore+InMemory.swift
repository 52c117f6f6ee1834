import ShopCore
import Foundation

extension SessionStore {
    /// Sessions, carts and favorites kept in memory (see `InMemoryDatabase`), with the same
    /// semantics as the SQL stores:
    /// - times are kept to the whole second (`StoredTime`);
    /// - `create` refuses a known id (`SessionStoreError.sessionAlreadyExists`) and a `userID`
    ///   that is not stored (`AccountStoreError.userNotFound`);
    /// - `touch`, `renewCSRFToken`, `delete` of an unknown id do nothing;
    /// - `saveCart` and `setFavorite` throw `SessionStoreError.sessionNotFound` for an unknown
    ///   guest session and `AccountStoreError.userNotFound` for an unknown account;
    /// - `signIn` throws `AccountStoreError.userNotFound` when `newSession.userID` is nil or
    ///   unknown, `sessionAlreadyExists` when the new id is taken, and changes nothing then;
    ///   an unknown `guestSession` is skipped;
    /// - a saved cart loads back as it was: lines in order with their selection (`isSelected`),
    ///   and its voucher code, kept even when the cart has no lines;
    /// - favorites come back most recently added first (same second: the later call first).
    ///
    /// Unlike the SQL stores, it does not know the catalog, so it keeps cart lines whose
    /// variant no longer exists (pricing leaves them out) and favorites of products that are
    /// gone (the storefront shows only published products it finds).
    /// - Parameter database: the state to keep them in; share it with `AccountStore.inMemory(_:)`
    ///   so that sessions can belong to accounts (default: a new, private one — guests only).
    public static func inMemory(_ database: InMemoryDatabase = InMemoryDatabase()) -> SessionStore {
        return SessionStore(
            create: { session in
                try database.withLock { state in
                    guard state.sessions[session.id] == nil else { throw SessionStoreError.sessionAlreadyExists(session.id) }
                    if let userID = session.userID, state.users[userID] == nil { throw AccountStoreError.userNotFound }
                    state.sessions[session.id] = normalized(session)
                }
            },
            find: { id in database.withLock { $0.sessions[id] } },
            touch: { id, lastSeenAt, expiresAt in
                database.withLock { state in
                    guard state.sessions[id] != nil else { return }
                    state.sessions[id]?.lastSeenAt = StoredTime.normalized(lastSeenAt)
                    state.sessions[id]?.expiresAt = StoredTime.normalized(expiresAt)
                }
            },
            renewCSRFToken: { id, tokenHash in database.withLock { $0.sessions[id]?.csrfTokenHash = tokenHash } },
            delete: { id in database.withLock { _ = $0.deleteSessions { $0.id == id } } },
            deleteAll: { userID, keeping in
                database.withLock { _ = $0.deleteSessions { $0.userID == userID && $0.id != keeping } }
            },
            purgeExpired: { before in
                let cutoff = StoredTime.normalized(before)
                return database.withLock { $0.deleteSessions { $0.expiresAt < cutoff } }
            },
            signIn: { signIn in
                try database.withLock { state in
                    guard let userID = signIn.newSession.userID, state.users[userID] != nil else {
                        throw AccountStoreError.userNotFound
                    }
                    guard state.sessions[signIn.newSession.id] == nil else {
                        throw SessionStoreError.sessionAlreadyExists(signIn.newSession.id)
                    }
                    // Nothing below throws: all or nothing.
                    state.sessions[signIn.newSession.id] = normalized(signIn.newSession)
                    guard let guest = signIn.guestSession, guest != signIn.newSession.id, state.sessions[guest] != nil else { return [] }
                    // It does not know stock: lines are capped at the per-line maximum only.
                    let guestCart = state.carts[.guest(guest)] ?? Cart()
                    var lines = (state.carts[.account(userID)] ?? Cart()).lines
                    for line in guestCart.lines {
                        if let index = lines.firstIndex(where: { $0.variantID == line.variantID }) {
                            lines[index].quantity = min(lines[index].quantity + line.quantity, Cart.maximumQuantityPerLine)
                        } else {
                            lines.append(line)
                        }
                    }
                    let merged = Cart(lines: lines, voucherCode: guestCart.voucherCode ?? state.carts[.account(userID)]?.voucherCode)
                    state.carts[.account(userID)] = merged == Cart() ? nil : merged
                    state.moveFavorites(from: guest, to: userID)
                    state.deleteSessions { $0.id == guest }
                    return []
                }
            },
            loadCart: { shopper in database.withLock { $0.carts[shopper] ?? Cart() } },
            saveCart: { shopper, cart in
                try SessionStoreError.checkLines(of: cart)
                try database.withLock { state in
                    try state.requireShopper(shopper)
                    state.carts[shopper] = cart == Cart() ? nil : cart  // a voucher code stays without lines
                }
            },
            changeCart: { shopper, changes in
                try database.withLock { state in
                    try state.requireShopper(shopper)
                    // It does not know the catalog: every variant may get a line (see above).
                    let changed = try (state.carts[shopper] ?? Cart()).applying(changes, variantExists: { _ in true })
                    state.carts[shopper] = changed == Cart() ? nil : changed
                }
            },
            favorites: { shopper in
                database.withLock { state in
                    (state.favorites[shopper] ?? [])
                        .sorted { ($0.addedAt, $0.sequence) > ($1.addedAt, $1.sequence) }
                        .map(\.productID)
                }
            },
            setFavorite: { shopper, productID, isFavorite, date in
                try database.withLock { state in
                    try state.requireShopper(shopper)
                    if isFavorite {
                        state.addFavorite(shopper, productID, at: date)
                    } else {
                        state.favorites[shopper]?.removeAll { $0.productID == productID }
                        if state.favorites[shopper]?.isEmpty == true { state.favorites[shopper] = nil }
                    }
                }
            }
        )
    }

    /// The session as a store gives it back: times rounded down to the second.
    private static func normalized(_ session: Session) -> Session {
        var session = session
        session.createdAt = StoredTime.normalized(session.createdAt)
        session.lastSeenAt = StoredTime.normalized(session.lastSeenAt)
        session.expiresAt = StoredTime.normalized(session.expiresAt)
        return session
    }
}
