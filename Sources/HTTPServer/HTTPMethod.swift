/// An HTTP request method (RFC 9110 §9), compared case-sensitively as the RFC requires.
///
/// A struct rather than a closed enum, so extension methods (`PROPFIND`, `QUERY`, …) arrive
/// intact instead of being squashed into an "other" case. The common methods are static members
/// and work in `switch`:
///
/// ```swift
/// switch request.method {
/// case .get, .head: …
/// case .post: …
/// default: return .text("Method Not Allowed", status: .methodNotAllowed)
/// }
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The method token exactly as sent on the request line, e.g. `"GET"`.
    public let rawValue: String

    /// Wraps a method token (no validation or case folding).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a method token written as a literal: `let m: HTTPMethod = "PROPFIND"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`: retrieve a representation.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like `GET`, but the server sends the headers only (the engine drops the body).
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: submit data (forms).
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: partially modify a resource (RFC 5789).
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: describe communication options.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The method token, e.g. `"GET"`.
    public var description: String { rawValue }
}
