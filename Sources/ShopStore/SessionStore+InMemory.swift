import ShopCore
import Foundation
import Synchronization

extension SessionStore {
    /// Sessions and carts kept in memory behind a `Mutex`, with the same semantics as the SQL
    /// stores: times kept to the whole second (`StoredTime`), `create` refuses a known id,
    /// `touch` of an unknown id does nothing, `saveCart` of an unknown id throws.
    ///
    /// Unlike the SQL stores, it does not know the catalog, so it keeps lines whose variant
    /// no longer exists (pricing leaves them out).
    public static func inMemory() -> SessionStore {
        let state = Mutex<[Session.ID: (session: Session, cart: Cart)]>([:])
        return SessionStore(
            create: { session in
                try state.withLock { (sessions: inout [Session.ID: (session: Session, cart: Cart)]) throws(SessionStoreError) in
                    guard sessions[session.id] == nil else { throw .sessionAlreadyExists(session.id) }
                    let stored = Session(id: session.id, createdAt: StoredTime.normalized(session.createdAt),
                                         lastSeenAt: StoredTime.normalized(session.lastSeenAt))
                    sessions[session.id] = (stored, Cart())
                }
            },
            find: { id in state.withLock { $0[id]?.session } },
            touch: { id, date in
                state.withLock { sessions in sessions[id]?.session.lastSeenAt = StoredTime.normalized(date) }
            },
            loadCart: { id in state.withLock { $0[id]?.cart ?? Cart() } },
            saveCart: { id, cart in
                try SessionStoreError.checkLines(of: cart)
                try state.withLock { (sessions: inout [Session.ID: (session: Session, cart: Cart)]) throws(SessionStoreError) in
                    guard sessions[id] != nil else { throw .sessionNotFound(id) }
                    sessions[id]?.cart = cart
                }
            }
        )
    }
}
