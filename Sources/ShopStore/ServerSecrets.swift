/// Random keys the shop's servers share through the database (`server_secrets`): made once,
/// never shown, never leave the servers. Each engine makes and reads them
/// (`SQLiteDatabase.serverSecret`, `PostgresDatabase.serverSecret`).
public enum ServerSecrets {
    /// The key of the guest session token derived from a visitor's CSRF cookie.
    public static let guestSession = "guest-session"
}
