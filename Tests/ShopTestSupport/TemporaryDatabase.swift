import Foundation

/// A unique database file path in the temporary directory, removed (with its `-wal` and
/// `-shm` companions) by `remove()`.
public struct TemporaryDatabasePath: Sendable {
    /// The file path (the file itself is not created).
    public let path: String

    /// Picks a new unique path.
    public init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("shoppable-test-\(UUID().uuidString).sqlite3").path
    }

    /// Deletes the database files, ignoring missing ones.
    public func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
