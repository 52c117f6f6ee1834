public import Foundation
import Synchronization

/// Where ShopKit keeps small settings across launches (onboarding seen, list layout, language):
/// `UserDefaults` in an app, memory in tests.
public protocol KeyValueStore: AnyObject, Sendable {
    /// The string under `key`, if any.
    func string(forKey key: String) -> String?
    /// Stores `value` under `key`; nil removes it.
    func set(_ value: String?, forKey key: String)
}

/// A ``KeyValueStore`` in `UserDefaults`.
public final class UserDefaultsStore: KeyValueStore, @unchecked Sendable {
    // `UserDefaults` is thread-safe (documented), though not marked `Sendable`.
    private let defaults: UserDefaults
    private let prefix: String

    /// A store in `defaults` (default `.standard`), its keys prefixed with `prefix`.
    public init(defaults: UserDefaults = .standard, prefix: String = "shoppable.") {
        self.defaults = defaults
        self.prefix = prefix
    }

    public func string(forKey key: String) -> String? { defaults.string(forKey: prefix + key) }

    public func set(_ value: String?, forKey key: String) {
        if let value { defaults.set(value, forKey: prefix + key) } else { defaults.removeObject(forKey: prefix + key) }
    }
}

/// A ``KeyValueStore`` in memory (tests, previews).
public final class MemoryKeyValueStore: KeyValueStore, Sendable {
    private let values: Mutex<[String: String]>

    /// A store holding `values`.
    public init(_ values: [String: String] = [:]) { self.values = Mutex(values) }

    public func string(forKey key: String) -> String? { values.withLock { $0[key] } }

    public func set(_ value: String?, forKey key: String) { values.withLock { $0[key] = value } }
}
