import ShopCore
import Foundation

extension AccountStore {
    /// Accounts, tokens, throttle counts and the outbox kept in memory (see
    /// `InMemoryDatabase`), with the same semantics as the SQL stores:
    /// - times are kept to the whole second (`StoredTime`); a token is valid while `now` (to the
    ///   second) is before its `expiresAt`;
    /// - emails are unique compared like SQLite's `NOCASE` (ASCII letters without case);
    /// - ids start at 1 and are never reused; `users()` is ordered by `createdAt`, then id;
    /// - issuing a token deletes the account's earlier unused tokens of that purpose;
    /// - `countAttempt` decides by `ThrottleRules`; `purgeAttempts(before)` keeps attempts at or
    ///   after `before`;
    /// - `markSent`/`markFailed` of an unknown message do nothing.
    /// Each operation runs under the database's lock, so multi-part changes are all or nothing.
    /// - Parameter database: the state to keep them in: the SAME value given to
    ///   `SessionStore.inMemory(_:)`, so that password changes sign sessions out.
    public static func inMemory(_ database: InMemoryDatabase) -> AccountStore {
        return AccountStore(
            register: { account, token, message in
                try database.withLock { state in
                    let user = try state.insertUser(account, verified: false)
                    state.insertToken(token, for: user.id)
                    state.enqueue(message)
                    return user
                }
            },
            createUser: { account, verified in
                try database.withLock { state in try state.insertUser(account, verified: verified) }
            },
            user: { id in database.withLock { $0.users[id]?.user } },
            credentials: { email in
                database.withLock { state in state.user(email: email).map { (user: $0.user, passwordHash: $0.passwordHash) } }
            },
            users: {
                database.withLock { state in
                    state.users.values.map(\.user).sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }
                }
            },
            issueToken: { userID, token, message in
                try database.withLock { state in
                    guard state.users[userID] != nil else { throw AccountStoreError.userNotFound }
                    state.insertToken(token, for: userID)
                    state.enqueue(message)
                }
            },
            verifyEmail: { tokenHash, now in
                database.withLock { state in
                    guard let index = state.validToken(tokenHash, .emailVerification, now: now) else { return nil }
                    let userID = state.tokens[index].userID
                    state.tokens[index].usedAt = StoredTime.normalized(now)
                    if state.users[userID]?.user.emailVerifiedAt == nil {
                        state.users[userID]?.user.emailVerifiedAt = StoredTime.normalized(now)
                    }
                    return state.users[userID]?.user
                }
            },
            passwordResetUser: { tokenHash, now in
                database.withLock { state in
                    state.validToken(tokenHash, .passwordReset, now: now).flatMap { state.users[state.tokens[$0].userID]?.user }
                }
            },
            resetPassword: { tokenHash, newPasswordHash, now in
                database.withLock { state in
                    guard let index = state.validToken(tokenHash, .passwordReset, now: now) else { return nil }
                    let userID = state.tokens[index].userID
                    state.tokens[index].usedAt = StoredTime.normalized(now)
                    state.users[userID]?.passwordHash = newPasswordHash
                    state.deleteSessions { $0.userID == userID }
                    return state.users[userID]?.user
                }
            },
            changePassword: { userID, newPasswordHash, keeping in
                try database.withLock { state in
                    guard state.users[userID] != nil else { throw AccountStoreError.userNotFound }
                    state.users[userID]?.passwordHash = newPasswordHash
                    state.deleteSessions { $0.userID == userID && $0.id != keeping }
                }
            },
            rehashPassword: { userID, old, new in
                database.withLock { state in
                    guard state.users[userID]?.passwordHash == old else { return false }
                    state.users[userID]?.passwordHash = new
                    return true
                }
            },
            countAttempt: { checks, at in
                database.withLock { state in
                    let retry = ThrottleRules.retryAfter(checks, at: at) { key, since in
                        (state.throttleEvents[key] ?? []).filter { $0 >= since }
                    }
                    if retry == nil {
                        for check in checks { state.throttleEvents[check.key, default: []].append(StoredTime.normalized(at)) }
                    }
                    return retry
                }
            },
            clearAttempts: { key in database.withLock { $0.throttleEvents[key] = nil } },
            uncountAttempt: { key, at in
                let at = StoredTime.normalized(at)
                database.withLock { state in
                    guard let index = state.throttleEvents[key]?.firstIndex(of: at) else { return }
                    state.throttleEvents[key]?.remove(at: index)
                    if state.throttleEvents[key]?.isEmpty == true { state.throttleEvents[key] = nil }
                }
            },
            purgeAttempts: { before in
                let before = StoredTime.normalized(before)
                return database.withLock { state in
                    var purged = 0
                    for (key, times) in state.throttleEvents {
                        let kept = times.filter { $0 >= before }
                        purged += times.count - kept.count
                        state.throttleEvents[key] = kept.isEmpty ? nil : kept
                    }
                    return purged
                }
            },
            enqueue: { message in database.withLock { $0.enqueue(message) } },
            dueMessages: { now, limit in
                let now = StoredTime.normalized(now)
                return database.withLock { state in
                    Array(state.outbox.lazy.filter { $0.sentAt == nil && $0.message.nextAttemptAt <= now }
                        .map(\.message).prefix(max(limit, 0)))
                }
            },
            markSent: { id, date in
                database.withLock { state in
                    guard let index = state.outbox.firstIndex(where: { $0.message.id == id }) else { return }
                    state.outbox[index].sentAt = StoredTime.normalized(date)
                }
            },
            markFailed: { id, error, retryAt in
                database.withLock { state in
                    guard let index = state.outbox.firstIndex(where: { $0.message.id == id }) else { return }
                    state.outbox[index].message.attempts += 1
                    state.outbox[index].message.nextAttemptAt = StoredTime.normalized(retryAt)
                    state.outbox[index].lastError = error
                }
            }
        )
    }
}
