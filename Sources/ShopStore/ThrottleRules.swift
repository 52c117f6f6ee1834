public import Foundation
public import ShopCore

/// How every account store (SQLite; PostgreSQL next) decides `AccountStore.countAttempt`, so
/// they answer alike: attempts are kept to the second (`StoredTime`), and a key refuses while
/// `RateLimit.retryAfter` says so for the attempts it has counted since `windowStart`.
public enum ThrottleRules {
    /// The earliest stored time that can still count under `check` at `at`.
    public static func windowStart(_ check: ThrottleCheck, at: Date) -> Date {
        StoredTime.normalized(at.addingTimeInterval(-check.limit.window))
    }

    /// When the attempt must wait (the latest over the refusing keys), or nil when it may be counted.
    /// - Parameters:
    ///   - checks: the counters the attempt is checked against.
    ///   - at: the attempt's time.
    ///   - attempts: the times a key has counted since a date (read inside the store's transaction).
    public static func retryAfter(_ checks: [ThrottleCheck], at: Date,
                                  attempts: (_ key: String, _ since: Date) throws -> [Date]) rethrows -> Date? {
        var latest: Date?
        for check in checks {
            let counted = try attempts(check.key, windowStart(check, at: at))
            if let retry = check.limit.retryAfter(attempts: counted, now: at), retry > (latest ?? .distantPast) {
                latest = retry
            }
        }
        return latest
    }
}
