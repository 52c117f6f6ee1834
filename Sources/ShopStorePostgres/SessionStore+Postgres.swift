public import ShopStore
import Foundation
import Postgres
import ShopCore

extension SessionStore {
    /// Sessions in PostgreSQL (`PostgresSchema` migration 3), with the behaviour of
    /// `SessionStore.sqlite` for the session itself: `create` refuses a known id
    /// (`sessionAlreadyExists`) and an unknown account (`AccountStoreError.userNotFound`, also
    /// when the account is deleted at the same moment: the foreign key decides); `touch`,
    /// `renewCSRFToken` and `delete` of an unknown id do nothing; times are kept to the second.
    ///
    /// Not ported yet: carts and favorites point at the catalog's products and variants, which
    /// are not on PostgreSQL yet, so `signIn`, `loadCart`, `saveCart`, `changeCart`, `favorites`
    /// and `setFavorite` throw `PostgresStoreError.notPorted` (docs/ARCHITECTURE.md §4).
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> SessionStore {
        SessionStore(
            create: { session in
                try database.transaction { connection in try insert(session, connection) }
            },
            find: { id in
                try database.withConnection { connection in
                    try connection.first("SELECT \(sessionColumns("sessions")) FROM sessions WHERE id = $1", [.text(id.rawValue)])
                        .map { try session($0) }
                }
            },
            touch: { id, lastSeenAt, expiresAt in
                try database.transaction { connection in
                    _ = try connection.run("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE id = $3",
                                           [.integer(StoredTime.unixSeconds(lastSeenAt)), .integer(StoredTime.unixSeconds(expiresAt)),
                                            .text(id.rawValue)])
                }
            },
            renewCSRFToken: { id, tokenHash in
                try database.transaction { connection in
                    _ = try connection.run("UPDATE sessions SET csrf_token_hash = $1 WHERE id = $2", [.text(tokenHash), .text(id.rawValue)])
                }
            },
            delete: { id in
                try database.transaction { connection in
                    _ = try connection.run("DELETE FROM sessions WHERE id = $1", [.text(id.rawValue)])
                }
            },
            deleteAll: { userID, keeping in
                try database.transaction { connection in try deleteSessions(of: userID, keeping: keeping, connection) }
            },
            purgeExpired: { before in
                try database.transaction { connection in
                    try connection.run("DELETE FROM sessions WHERE expires_at < $1", [.integer(StoredTime.unixSeconds(before))])
                }
            },
            signIn: { _ in throw PostgresStoreError.notPorted("SessionStore.signIn (merges carts)") },
            loadCart: { _ in throw PostgresStoreError.notPorted("SessionStore.loadCart") },
            saveCart: { _, _ in throw PostgresStoreError.notPorted("SessionStore.saveCart") },
            changeCart: { _, _ in throw PostgresStoreError.notPorted("SessionStore.changeCart") },
            favorites: { _ in throw PostgresStoreError.notPorted("SessionStore.favorites") },
            setFavorite: { _, _, _, _ in throw PostgresStoreError.notPorted("SessionStore.setFavorite") }
        )
    }

    /// The columns ``session(_:)`` reads, of the table or alias `table`.
    static func sessionColumns(_ table: String) -> String {
        ["id", "user_id", "csrf_token_hash", "created_at", "last_seen_at", "expires_at", "is_persistent"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// A session from a row whose first columns are ``sessionColumns(_:)``.
    static func session(_ row: PostgresRow) throws -> Session {
        Session(id: Session.ID(rawValue: try row.string(0)), userID: try row.optionalInt64(1).map { User.ID($0) },
                csrfTokenHash: try row.string(2), createdAt: StoredTime.date(unixSeconds: try row.int64(3)),
                lastSeenAt: StoredTime.date(unixSeconds: try row.int64(4)),
                expiresAt: StoredTime.date(unixSeconds: try row.int64(5)), isPersistent: try row.bool(6))
    }

    /// Inserts a session. - Throws: `sessionAlreadyExists`, `AccountStoreError.userNotFound`.
    private static func insert(_ session: Session, _ connection: PostgresConnection) throws {
        let inserted: Int
        do {
            inserted = try connection.run("""
                INSERT INTO sessions (id, user_id, csrf_token_hash, created_at, last_seen_at, expires_at, is_persistent)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING
                """, [.text(session.id.rawValue), PostgresValue(session.userID?.rawValue), .text(session.csrfTokenHash),
                      .integer(StoredTime.unixSeconds(session.createdAt)), .integer(StoredTime.unixSeconds(session.lastSeenAt)),
                      .integer(StoredTime.unixSeconds(session.expiresAt)), .bool(session.isPersistent)])
        } catch {
            // The account is unknown, or was deleted at this moment.
            guard error.sqlState == .foreignKeyViolation else { throw error }
            throw AccountStoreError.userNotFound
        }
        guard inserted == 1 else { throw SessionStoreError.sessionAlreadyExists(session.id) }
    }

    /// Deletes the account's sessions but `keeping`. Shared with the account store's password
    /// operations, inside their transaction.
    static func deleteSessions(of userID: User.ID, keeping: Session.ID?, _ connection: PostgresConnection) throws {
        try connection.run("DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2::text",
                           [.integer(userID.rawValue), PostgresValue(keeping?.rawValue)])
    }
}
