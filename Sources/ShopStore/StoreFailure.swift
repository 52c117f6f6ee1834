/// An error a store throws when it could not do the work *right now* but will be able to soon —
/// e.g. SQLite is locked by a long import in another process. The storefront answers it with
/// 503 and `Retry-After` instead of a 500.
public protocol TemporaryStoreFailure: Error {
    /// `true` when trying again shortly may succeed.
    var isTemporary: Bool { get }
}
