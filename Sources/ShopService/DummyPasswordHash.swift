import Foundation
import Synchronization

/// A hash of no one's password: a sign-in that names an unknown email checks the password against
/// it, so the answer takes as long as for a real account (no email can be found out by timing).
///
/// Made on first use, once, not when the server starts: argon2id with the interactive settings
/// is tens of milliseconds and 64 MiB of memory touched, and was the largest part of a cold
/// start (issue #14: under 150 ms). The first sign-in with an unknown email after a start waits
/// for it. (Warming it on a background thread as the server started to listen competed with the
/// first requests for the CPU: under load the server then freed closed connections' slots late,
/// and the e2e HTTP fuzz test saw connections refused — so `serve` no longer does.)
public final class DummyPasswordHash: Sendable {
    private let crypto: Crypto
    private let made = Mutex<String?>(nil)

    /// A hash to be made with `crypto`'s password hasher.
    public init(crypto: Crypto) { self.crypto = crypto }

    /// The hash, made the first time it is asked for (callers meanwhile wait for the one hash).
    public var value: String {
        made.withLock { made in
            if let made { return made }
            let hash = (try? crypto.hashPassword("no one's password 7")) ?? ""
            made = hash
            return hash
        }
    }

    /// Whether the hash has been made (tests).
    public var isMade: Bool { made.withLock { $0 != nil } }
}
