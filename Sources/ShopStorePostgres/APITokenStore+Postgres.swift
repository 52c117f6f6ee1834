public import ShopStore
import Foundation
import Postgres
import ShopCore

extension APITokenStore {
    /// The API's token pairs in PostgreSQL (`PostgresSchema` migration 15), with the behaviour
    /// of `APITokenStore.sqlite`: hashes only; each pair belongs to a session and goes with it.
    ///
    /// `rotate` spends the refresh token with a conditional `UPDATE … WHERE spent_at IS NULL`:
    /// under READ COMMITTED a second use at the same moment waits for the first's row lock, then
    /// finds the token spent — reuse, which ends the session — so of two uses exactly one rotates.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> APITokenStore {
        APITokenStore(
            issue: { pair in
                try database.transaction { connection in try insert(pair, connection) }
            },
            session: { accessTokenHash in
                try database.withConnection { connection in
                    try connection.first("""
                        SELECT \(SessionStore.sessionColumns("s")), t.access_expires_at
                        FROM api_tokens AS t JOIN sessions AS s ON s.id = t.session_id
                        WHERE t.access_token_hash = $1
                        """, [.text(accessTokenHash)]).map { row in
                        (session: try SessionStore.session(row), accessExpiresAt: StoredTime.date(unixSeconds: try row.int64(7)))
                    }
                }
            },
            rotate: { refreshTokenHash, next, now, forgetSpentBefore in
                try database.transaction { connection in
                    let spent = try connection.first("""
                        UPDATE api_tokens SET spent_at = $1 WHERE refresh_token_hash = $2 AND spent_at IS NULL
                        RETURNING session_id
                        """, [.integer(StoredTime.unixSeconds(now)), .text(refreshTokenHash)])
                    guard let spent else {
                        guard let row = try connection.first("SELECT session_id FROM api_tokens WHERE refresh_token_hash = $1",
                                                             [.text(refreshTokenHash)]) else { return .unknown }
                        // Reuse: a copy of the token is in other hands. End the session and every pair of it.
                        try connection.run("DELETE FROM sessions WHERE id = $1", [.text(try row.string(0))])
                        return .reused
                    }
                    let sessionID = try spent.string(0)
                    guard let row = try connection.first("SELECT \(SessionStore.sessionColumns("sessions")) FROM sessions WHERE id = $1",
                                                         [.text(sessionID)]) else { return .unknown }
                    let session = try SessionStore.session(row)
                    var pair = next
                    pair.sessionID = session.id
                    try insert(pair, connection)
                    try connection.run("DELETE FROM api_tokens WHERE session_id = $1 AND spent_at IS NOT NULL AND spent_at < $2",
                                       [.text(sessionID), .integer(StoredTime.unixSeconds(forgetSpentBefore))])
                    return .rotated(session)
                }
            }
        )
    }

    /// Stores a pair. - Throws: `SessionStoreError.sessionNotFound` for an unknown session (also
    /// one deleted at this moment: the foreign key decides).
    private static func insert(_ pair: APITokenPair, _ connection: PostgresConnection) throws {
        do {
            try connection.run("""
                INSERT INTO api_tokens (refresh_token_hash, access_token_hash, session_id, access_expires_at, created_at)
                VALUES ($1, $2, $3, $4, $5)
                """, [.text(pair.refreshTokenHash), .text(pair.accessTokenHash), .text(pair.sessionID.rawValue),
                      .integer(StoredTime.unixSeconds(pair.accessExpiresAt)), .integer(StoredTime.unixSeconds(pair.createdAt))])
        } catch {
            guard error.sqlState == .foreignKeyViolation else { throw error }
            throw SessionStoreError.sessionNotFound(pair.sessionID)
        }
    }
}
