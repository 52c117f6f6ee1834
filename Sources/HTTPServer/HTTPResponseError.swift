/// An error that knows how it is answered: a status and the headers that go with it. The front
/// doors (the storefront's HTML pages now, the JSON API next) render the body in their own form
/// — an error page, a JSON error envelope — from the same status, so the mapping from failure to
/// HTTP lives with the error, not in each handler.
///
/// ```swift
/// struct Busy: HTTPResponseError {
///     var status: HTTPStatus { .serviceUnavailable }
///     var headers: HTTPHeaders { ["Retry-After": "5"] }
/// }
/// ```
public protocol HTTPResponseError: Error {
    /// The status to answer with.
    var status: HTTPStatus { get }
    /// Headers the answer carries besides the body's own (default: none).
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    public var headers: HTTPHeaders { [:] }
}
