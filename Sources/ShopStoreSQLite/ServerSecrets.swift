import SQLite
import ShopStore
import Sodium

extension ServerSecrets {
    /// Migration 11's step: one 32-byte random key per secret the shop uses.
    @Sendable static func create(_ connection: Connection) throws {
        try connection.prepare("INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING")
            .run([.text(guestSession), .blob(SecureRandom.bytes(32))])
    }
}

extension SQLiteDatabase {
    /// The 32-byte server secret `name` (see ``ServerSecrets``).
    /// - Throws: `SQLiteStoreError.corruptValue` when it is missing (the database is not migrated).
    public func serverSecret(_ name: String) throws -> [UInt8] {
        try withConnection { connection in
            guard let row = try connection.prepare("SELECT value FROM server_secrets WHERE name = ?").first([.text(name)])
            else { throw SQLiteStoreError.corruptValue(table: "server_secrets", column: name, rowID: 0) }
            return try row.blob(0)
        }
    }
}
