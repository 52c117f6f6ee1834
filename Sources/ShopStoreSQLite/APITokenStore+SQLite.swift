public import ShopStore
import Foundation
import ShopCore
import SQLite

extension APITokenStore {
    /// The API's token pairs in a SQLite database (table `api_tokens`, migration 15): hashes
    /// only; each row belongs to a session and is deleted with it (`ON DELETE CASCADE`), so
    /// signing out, signing out everywhere, a password change and purging end the tokens too.
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> APITokenStore {
        APITokenStore(
            issue: { pair in
                try database.write { connection in try insert(pair, connection) }
            },
            session: { accessTokenHash in
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT s.id, s.user_id, s.csrf_token_hash, s.created_at, s.last_seen_at, s.expires_at, s.is_persistent,
                               t.access_expires_at
                        FROM api_tokens AS t JOIN sessions AS s ON s.id = t.session_id
                        WHERE t.access_token_hash = ?
                        """).first([.text(accessTokenHash)]).map { row in
                        (session: Session(id: Session.ID(rawValue: try row.string(0)),
                                          userID: try row.optionalInt64(1).map { User.ID($0) }, csrfTokenHash: try row.string(2),
                                          createdAt: StoredTime.date(unixSeconds: try row.int64(3)),
                                          lastSeenAt: StoredTime.date(unixSeconds: try row.int64(4)),
                                          expiresAt: StoredTime.date(unixSeconds: try row.int64(5)), isPersistent: try row.bool(6)),
                         accessExpiresAt: StoredTime.date(unixSeconds: try row.int64(7)))
                    }
                }
            },
            rotate: { refreshTokenHash, next, now, forgetSpentBefore in
                try database.write { connection in
                    guard let row = try connection.prepare("""
                        SELECT session_id, spent_at IS NOT NULL FROM api_tokens WHERE refresh_token_hash = ?
                        """).first([.text(refreshTokenHash)]) else { return .unknown }
                    let sessionID = try row.string(0)
                    // Spent only if nobody spent it first (two simultaneous uses: one rotates).
                    try connection.prepare("""
                        UPDATE api_tokens SET spent_at = ? WHERE refresh_token_hash = ? AND spent_at IS NULL
                        """).run([.integer(StoredTime.unixSeconds(now)), .text(refreshTokenHash)])
                    guard try !row.bool(1), connection.changes == 1 else {
                        // Reuse: a copy of the token is in other hands. End the session and every pair of it.
                        try connection.prepare("DELETE FROM sessions WHERE id = ?").run([.text(sessionID)])
                        return .reused
                    }
                    guard let session = try SessionStore.sqliteFind(Session.ID(rawValue: sessionID), connection) else {
                        return .unknown
                    }
                    var pair = next
                    pair.sessionID = session.id
                    try insert(pair, connection)
                    try connection.prepare("""
                        DELETE FROM api_tokens WHERE session_id = ? AND spent_at IS NOT NULL AND spent_at < ?
                        """).run([.text(sessionID), .integer(StoredTime.unixSeconds(forgetSpentBefore))])
                    return .rotated(session)
                }
            }
        )
    }

    private static func insert(_ pair: APITokenPair, _ connection: Connection) throws {
        guard try connection.prepare("SELECT 1 FROM sessions WHERE id = ?").first([.text(pair.sessionID.rawValue)]) != nil else {
            throw SessionStoreError.sessionNotFound(pair.sessionID)
        }
        try connection.prepare("""
            INSERT INTO api_tokens (refresh_token_hash, access_token_hash, session_id, access_expires_at, created_at)
            VALUES (?, ?, ?, ?, ?)
            """).run([.text(pair.refreshTokenHash), .text(pair.accessTokenHash), .text(pair.sessionID.rawValue),
                      .integer(StoredTime.unixSeconds(pair.accessExpiresAt)), .integer(StoredTime.unixSeconds(pair.createdAt))])
    }
}
