public import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a `ShopClient` call can fail, as a closed set an app can switch over.
///
/// ```swift
/// do {
///     products = try await client.products()
/// } catch NetworkError.offline {
///     banner = "You are offline."
/// } catch NetworkError.serverError(_, code: "not_found", _) {
///     products = []
/// } catch {
///     banner = error.localizedDescription
/// }
/// ```
public enum NetworkError: Error, Sendable {
    /// The environment's base URL and the route do not make an `http(s)` URL.
    case invalidURL
    /// A success without a body where one was expected.
    case noData
    /// The body is not the expected JSON; the associated text says where and why.
    case decodingError(String)
    /// The server answered with a status outside 2xx. `code` and `message` come from the API's
    /// error envelope (`{"error": {"code", "message"}}`) when the body is one; otherwise `code`
    /// is nil and `message` is the body's text or the status's standard phrase.
    case serverError(status: Int, code: String?, message: String)
    /// No connection: refused, not connected, host not found or unreachable, timed out, lost.
    case offline
    /// Anything else (cancellation, a TLS failure, …), with the underlying error.
    case unknown(any Error)

    /// The HTTP status of a `.serverError`, else nil.
    public var status: Int? {
        if case let .serverError(status, _, _) = self { status } else { nil }
    }

    /// The error envelope's code of a `.serverError`, else nil.
    public var code: String? {
        if case let .serverError(_, code, _) = self { code } else { nil }
    }

    /// `error` as a `NetworkError`: the connection failures of `URLError` become ``offline``;
    /// a `NetworkError` stays itself; everything else is ``unknown(_:)``.
    public init(_ error: any Error) {
        if let error = error as? NetworkError {
            self = error
        } else if let error = error as? URLError, Self.offlineCodes.contains(error.code) {
            self = .offline
        } else {
            self = .unknown(error)
        }
    }

    /// The `URLError` codes that mean "no connection" rather than "a broken exchange".
    static let offlineCodes: Set<URLError.Code> = [
        .cannotConnectToHost, .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed, .timedOut,
        .networkConnectionLost, .internationalRoamingOff, .dataNotAllowed, .callIsActive,
    ]
}

extension NetworkError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidURL: "The shop's address is not a valid URL."
        case .noData: "The shop answered without data."
        case let .decodingError(detail): "The shop's answer could not be read (\(detail))."
        case let .serverError(_, _, message): message
        case .offline: "The shop cannot be reached. Check the connection and try again."
        case let .unknown(error): error.localizedDescription
        }
    }
}

extension NetworkError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidURL: "invalidURL"
        case .noData: "noData"
        case let .decodingError(detail): "decodingError(\(detail))"
        case let .serverError(status, code, message): "serverError(status: \(status), code: \(code ?? "nil"), message: \(message))"
        case .offline: "offline"
        case let .unknown(error): "unknown(\(error))"
        }
    }
}

extension DecodingError {
    /// A one-line account of where decoding failed, e.g. `price: expected Decimal, found a string (at [0].price)`.
    var summary: String {
        func path(_ context: Context) -> String {
            let components = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            let joined = components.joined()
            return joined.isEmpty ? "at the top level" : "at " + (joined.hasPrefix(".") ? String(joined.dropFirst()) : joined)
        }
        switch self {
        case let .typeMismatch(type, context): return "expected \(type) \(path(context)): \(context.debugDescription)"
        case let .valueNotFound(type, context): return "missing \(type) value \(path(context))"
        case let .keyNotFound(key, context): return "missing key “\(key.stringValue)” \(path(context))"
        case let .dataCorrupted(context): return "\(context.debugDescription) (\(path(context)))"
        @unknown default: return String(describing: self)
        }
    }
}
