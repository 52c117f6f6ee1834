import Foundation

/// When and how long `ShopClient` waits before sending a failed request again.
///
/// Only idempotent requests are retried (`GET`, `HEAD`, `PUT`, `DELETE`): sending one twice has
/// the effect of sending it once. A `POST` is not retried, because the first one may have
/// reached the shop (an order placed twice is worse than an error) — unless it carries an
/// `Idempotency-Key` (placing an order): the shop answers a key it has seen with the order it
/// already made, so the retry cannot make a second one. Only failures that a second
/// try can cure are retried: ``NetworkError/offline`` and the statuses 502, 503 and 504.
///
/// The delay doubles with every attempt, from ``baseDelay`` up to ``maxDelay``. A 503 with
/// `Retry-After` (seconds or an HTTP date) waits what the server asks instead; when it asks for
/// longer than ``maxDelay`` the client gives up at once and throws the 503.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1: never retry).
    public var maxAttempts: Int
    /// The wait before the second attempt; doubled for each further one.
    public var baseDelay: Duration
    /// The longest wait, and the longest `Retry-After` honoured.
    public var maxDelay: Duration
    /// Waits (tests pass one that records the delay and returns at once).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A policy.
    /// - Parameters:
    ///   - maxAttempts: attempts in all, at least 1.
    ///   - baseDelay: the first back-off.
    ///   - maxDelay: the cap of every back-off and of `Retry-After`.
    ///   - sleep: how to wait; default `Task.sleep(for:)`.
    public init(maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(300), maxDelay: Duration = .seconds(8),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.sleep = sleep
    }

    /// Three attempts, 0.3 s then 0.6 s apart, never more than 8 s.
    public static let standard = RetryPolicy()

    /// One attempt: failures are thrown at once.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// Whether requests with `method` may be sent again: `GET`, `HEAD`, `PUT`, `DELETE`, and any
    /// request that carries an `Idempotency-Key`.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - idempotencyKey: the request's `Idempotency-Key` header, if any.
    public static func isIdempotent(_ method: String, idempotencyKey: String? = nil) -> Bool {
        idempotencyKey != nil || ["GET", "HEAD", "PUT", "DELETE"].contains(method.uppercased())
    }

    /// Whether `error` is worth another attempt: offline, 502, 503, 504.
    public static func isRetryable(_ error: NetworkError) -> Bool {
        switch error {
        case .offline: true
        case let .serverError(status, _, _): [502, 503, 504].contains(status)
        default: false
        }
    }

    /// The wait before attempt `attempt + 1`, or nil to give up.
    /// - Parameters:
    ///   - attempt: the attempt that just failed, from 1.
    ///   - method: the request's method.
    ///   - error: how it failed.
    ///   - retryAfter: the response's `Retry-After` (honoured on 503 only).
    ///   - idempotencyKey: the request's `Idempotency-Key`, which makes a `POST` safe to repeat.
    public func delay(after attempt: Int, method: String, error: NetworkError, retryAfter: Duration? = nil,
                      idempotencyKey: String? = nil) -> Duration? {
        guard attempt < maxAttempts, Self.isIdempotent(method, idempotencyKey: idempotencyKey), Self.isRetryable(error) else {
            return nil
        }
        if error.status == 503, let retryAfter {
            return retryAfter <= maxDelay ? max(retryAfter, .zero) : nil
        }
        var delay = baseDelay
        for _ in 1..<attempt where delay < maxDelay { delay *= 2 }
        return min(delay, maxDelay)
    }

    /// `Retry-After` as a duration: delta seconds, or an HTTP date measured from `now`.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }
}
