public import Foundation
public import ShopCore
public import ShopStore

/// The throttle's shape every guarded step shares (customers' and staff's sign-in, the second
/// factor's code, a staff member's current password): count the attempt before checking it,
/// and on success clear the account's count and give the client address its attempt back, so
/// a team signing in from one office address never locks itself out.
extension AccountStore {
    /// Counts an attempt against `checks`; the whole seconds to wait (at least 1) when one of
    /// them refuses it, nil when it is allowed (and counted).
    public func secondsToWait(_ checks: [ThrottleCheck], at now: Date) throws -> Int? {
        try countAttempt(checks, now).map { max(1, Int($0.timeIntervalSince(now).rounded(.up))) }
    }

    /// A success: the account's attempts forgotten (when it has a key) and the client's
    /// attempt, counted at `now`, given back.
    func forgiveAttempt(accountKey: String?, clientKey: String, at now: Date) throws {
        if let accountKey { try clearAttempts(accountKey) }
        try uncountAttempt(clientKey, now)
    }
}
