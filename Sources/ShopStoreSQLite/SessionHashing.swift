import SQLite
import Sodium

/// Migration 10's step: SQLite has no SHA-256, so the stored session ids and CSRF tokens are
/// hashed here, with the same libsodium SHA-256 the storefront hashes cookies with.
enum SessionHashing {
    /// The tables whose `session_id` names a guest session (each `REFERENCES sessions(id)`).
    static let sessionOwnedTables = ["cart_lines", "favorites", "cart_vouchers", "stock_reservations", "checkouts",
                                     "reservation_trims"]

    /// Replaces every session id by its SHA-256 — in `sessions` and in every row that names the
    /// session, including guest idempotency keys (`guest:<id>`) — and every CSRF token by its
    /// SHA-256. Foreign keys are checked when the migration's transaction commits, by which time
    /// parents and children agree again.
    static func hashStoredSessions(_ connection: Connection) throws {
        // The raw ids must not linger in the file: content this step deletes or overwrites is
        // zeroed (secure_delete), and `migrate` checkpoints and truncates the WAL afterwards.
        try connection.execute("""
            PRAGMA secure_delete = ON;
            PRAGMA defer_foreign_keys = ON;
            CREATE TEMP TABLE session_rekey (old TEXT PRIMARY KEY, new TEXT NOT NULL, csrf TEXT NOT NULL) WITHOUT ROWID;
            """)
        let insert = try connection.prepare("INSERT INTO session_rekey (old, new, csrf) VALUES (?, ?, ?)")
        for row in try connection.prepare("SELECT id, csrf_token_hash FROM sessions").query() {
            let id = try row.string(0)
            try insert.run([.text(id), .text(Digest.sha256Hex(id)), .text(Digest.sha256Hex(try row.string(1)))])
        }
        for table in sessionOwnedTables {
            try connection.execute("""
                UPDATE \(table) SET session_id = (SELECT new FROM session_rekey WHERE old = \(table).session_id)
                WHERE session_id IN (SELECT old FROM session_rekey)
                """)
        }
        try connection.execute("""
            UPDATE sessions SET csrf_token_hash = (SELECT csrf FROM session_rekey WHERE old = sessions.id),
                                id = (SELECT new FROM session_rekey WHERE old = sessions.id);
            DROP TABLE session_rekey;
            """)
        // Keys of guest orders name the session too (live or long gone): hash them all.
        let owners = try connection.prepare("SELECT DISTINCT owner FROM order_idempotency_keys WHERE owner LIKE 'guest:%'")
            .query().map { try $0.string(0) }
        let rename = try connection.prepare("UPDATE order_idempotency_keys SET owner = ? WHERE owner = ?")
        for owner in owners {
            try rename.run([.text("guest:" + Digest.sha256Hex(String(owner.dropFirst("guest:".count)))), .text(owner)])
        }
        try connection.execute("PRAGMA secure_delete = OFF")
    }
}
