import Foundation
public import ShopClient
import Synchronization

/// The session an app keeps across launches: its credentials and whether they are a guest's.
public struct SavedSession: Codable, Hashable, Sendable {
    /// Whose credentials.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// A guest token (`POST /api/v1/sessions/guest`): a cart and favorites before sign-in.
        case guest
        /// A signed-in account's token pair (`POST /api/v1/auth/tokens`).
        case account
    }

    public var kind: Kind
    public var credentials: Credentials

    /// A saved session.
    public init(kind: Kind, credentials: Credentials) {
        self.kind = kind
        self.credentials = credentials
    }
}

/// Where ``AppModel`` keeps the session across launches.
///
/// **A real app keeps credentials in the Keychain** (a `SessionStore` over `SecItemAdd` /
/// `SecItemCopyMatching` with `kSecClassGenericPassword`, in the app's code: Security is not
/// available on Linux). ``MemorySessionStore`` serves tests and previews;
/// ``KeyValueSessionStore`` is for development builds only — `UserDefaults` is not encrypted.
public protocol SessionStore: AnyObject, Sendable {
    /// The saved session, if any.
    func load() -> SavedSession?
    /// Saves `session`; nil forgets it.
    func save(_ session: SavedSession?)
}

/// A ``SessionStore`` in memory: tests, previews.
public final class MemorySessionStore: SessionStore {
    private let session: Mutex<SavedSession?>

    /// A store holding `session`.
    public init(_ session: SavedSession? = nil) { self.session = Mutex(session) }

    public func load() -> SavedSession? { session.withLock { $0 } }
    public func save(_ session: SavedSession?) { self.session.withLock { $0 = session } }
}

/// A ``SessionStore`` writing JSON into a ``KeyValueStore``. For development only: a shipped app
/// keeps tokens in the Keychain (see ``SessionStore``).
public final class KeyValueSessionStore: SessionStore {
    private let store: any KeyValueStore
    private let key: String

    /// A store under `key` of `store`.
    public init(_ store: any KeyValueStore, key: String = "session") {
        self.store = store
        self.key = key
    }

    public func load() -> SavedSession? {
        guard let text = store.string(forKey: key) else { return nil }
        return try? JSONDecoder().decode(SavedSession.self, from: Data(text.utf8))
    }

    public func save(_ session: SavedSession?) {
        let text = session.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        store.set(text, forKey: key)
    }
}
