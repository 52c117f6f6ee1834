public import ShopClient

/// Where a screen's data is: the explicit states every ShopKit view model shows.
///
/// A view switches over it: a spinner for ``loading``, the content for ``loaded(_:)``, an empty
/// view for ``empty``, the error with "Try again" for ``failed(_:)``, the offline view (no retry
/// button: the model retries by itself when the network returns) for ``offline``.
public enum LoadState<Value: Sendable>: Sendable {
    /// Nothing asked yet.
    case idle
    /// Asked; no answer yet.
    case loading
    /// The answer.
    case loaded(Value)
    /// The answer has nothing to show (an empty cart, no favorites, no results).
    case empty
    /// The shop answered with an error, or the answer could not be read.
    case failed(NetworkError)
    /// The shop could not be reached.
    case offline

    /// The state after `error`: ``offline`` for `NetworkError.offline`, else ``failed(_:)``.
    public init(_ error: NetworkError) {
        if case .offline = error { self = .offline } else { self = .failed(error) }
    }

    /// The loaded value, if any.
    public var value: Value? {
        if case let .loaded(value) = self { value } else { nil }
    }

    /// `true` while loading.
    public var isLoading: Bool {
        if case .loading = self { true } else { false }
    }
}
