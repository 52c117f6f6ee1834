public import Postgres
public import ShopStore

extension PostgresError: TemporaryStoreFailure {
    /// The server could not be reached or went away (class 08, shutting down or starting up:
    /// `isConnectionLost`), or a transaction lost a serialization race or a deadlock past the
    /// pool's retries (`isRetryable`): the storefront and the API answer 503 with `Retry-After`,
    /// so an app retries and a proxy tries another server, instead of a 500 that says the code is
    /// wrong (a tester stopped PostgreSQL under two servers and got 500 on every page). The pool
    /// opens a new connection for the next request.
    public var isTemporary: Bool { isConnectionLost || isRetryable }
}
