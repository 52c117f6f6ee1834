import Foundation
import HTTPServer
import ShopCore
import ShopService
import ShopStore

/// An attempt a throttle refused: what to tell the visitor, and when to come back.
struct Throttled {
    /// "Too many attempts. Please try again in 15 minutes."
    var message: String
    /// Whole seconds until an attempt is allowed again (for `Retry-After`).
    var retryAfterSeconds: Int

    /// `response` marked as refused for now: `Retry-After` set.
    func applied(to response: Response) -> Response {
        var response = response
        response.headers.replaceOrAdd(name: "Retry-After", value: String(retryAfterSeconds))
        return response
    }
}

extension Throttled {
    /// The refusal for an attempt allowed again in `seconds`, in the request's language.
    init(retryAfterSeconds seconds: Int, l10n: Localizer) {
        let minutes = max(1, Int((Double(seconds) / 60).rounded(.up)))
        self.init(message: l10n.count(minutes, .throttled), retryAfterSeconds: seconds)
    }
}

extension RequestContext {
    /// Counts an attempt against `checks` (`AccountThrottles`), the check and the count in one
    /// store step. Returns nil when the attempt may go ahead, else what to tell the visitor.
    /// - Parameter now: the attempt's time (pass the same time to `uncountAttempt` later).
    func countAttempt(_ checks: [ThrottleCheck], at now: Date) throws -> Throttled? {
        guard let wait = try environment.accounts.secondsToWait(checks, at: now) else { return nil }
        return Throttled(retryAfterSeconds: wait, l10n: l10n)
    }
}
