public import Observation
public import ShopClient

/// Whether the shop can be reached, as the whole app sees it (`AppModel.network`).
public enum NetworkStatus: Hashable, Sendable {
    /// Requests go through.
    case online
    /// The last request or probe could not reach the shop: actions that need the server are
    /// disabled, and reads that failed wait in ``Connectivity`` to be retried.
    case offline
}

/// The app's connectivity: one value every model reports to and reads from.
///
/// Two things drive ``status``: the `NetworkError.offline` of any model's request
/// (``record(_:)``), and a reachability probe (`ShopOperations.probe`) that ``run()`` sends
/// periodically — more often while offline. When the shop answers again, the reads that failed
/// offline (registered with ``retryWhenOnline(_:_:)``) run again, once each.
///
/// ```swift
/// // In a model:
/// do { products = try await connectivity.send { try await shop.products(query) } }
/// catch .offline { state = .offline; connectivity.retryWhenOnline("products") { await self.load() } }
/// ```
///
/// Time is injected (`sleep`), so tests neither wait nor depend on a clock.
@MainActor
@Observable
public final class Connectivity {
    /// Online or offline; starts online (the first failure says otherwise).
    public private(set) var status: NetworkStatus = .online
    /// `true` while online: what a button needing the server checks.
    public var isOnline: Bool { status == .online }

    @ObservationIgnored private let probe: @Sendable () async throws -> Void
    @ObservationIgnored private let sleep: @Sendable (Duration) async throws -> Void
    @ObservationIgnored private let interval: Duration
    @ObservationIgnored private let offlineInterval: Duration
    /// The reads to run again when the shop answers, by key (a second registration replaces the first).
    @ObservationIgnored private var retries: [(key: String, read: @MainActor () async -> Void)] = []
    /// The retries started by the last return to online, run one after another.
    @ObservationIgnored private var retrying: Task<Void, Never>?

    /// Connectivity over `probe`.
    /// - Parameters:
    ///   - probe: a cheap request that succeeds whenever the shop is reachable (`ShopOperations.probe`).
    ///   - interval: the time between probes while online (default 30 s).
    ///   - offlineInterval: the time between probes while offline (default 5 s).
    ///   - sleep: waits a duration (default `Task.sleep(for:)`); tests pass one that returns at once.
    public init(probe: @escaping @Sendable () async throws -> Void,
                interval: Duration = .seconds(30), offlineInterval: Duration = .seconds(5),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.probe = probe
        self.interval = interval
        self.offlineInterval = offlineInterval
        self.sleep = sleep
    }

    /// Connectivity that never probes (previews, tests of one screen): only ``record(_:)`` moves it.
    public static func manual() -> Connectivity { Connectivity(probe: {}) }

    /// Records the outcome of a request: `NetworkError.offline` (or a `URLError` meaning no
    /// connection) → ``NetworkStatus/offline``; any other answer, even an error, came from the
    /// shop → ``NetworkStatus/online`` (which runs the pending retries).
    /// - Parameter error: the request's error, or nil when it succeeded.
    public func record(_ error: (any Error)?) {
        if let error, case .offline = NetworkError(error) {
            status = .offline
        } else {
            becameReachable()
        }
    }

    /// Runs `request`, records its outcome, and returns its answer.
    /// - Returns: what `request` returns.
    /// - Throws: the request's error as a ``NetworkError``.
    public func send<Value: Sendable>(_ request: @Sendable () async throws -> Value) async throws(NetworkError) -> Value {
        do {
            let value = try await request()
            record(nil)
            return value
        } catch {
            let error = NetworkError(error)
            record(error)
            throw error
        }
    }

    /// Registers a read to run again once the shop answers (after a probe or any request
    /// succeeds). Registering the same `key` again replaces the earlier read.
    /// - Parameters:
    ///   - key: which read (e.g. `"cart"`, `"products:lamps"`).
    ///   - read: the read; it runs on the main actor, once.
    public func retryWhenOnline(_ key: String, _ read: @escaping @MainActor () async -> Void) {
        retries.removeAll { $0.key == key }
        retries.append((key, read))
    }

    /// The keys of the reads waiting for the network (for tests and diagnostics).
    public var pendingRetries: [String] { retries.map(\.key) }

    /// Sends the probe once and records its outcome; when the shop answers, waits for the
    /// retried reads to finish.
    /// - Returns: `true` when the shop answered.
    @discardableResult
    public func probeNow() async -> Bool {
        do {
            try await probe()
            record(nil)
            await retrying?.value
            return true
        } catch {
            // Any answer from the shop (even an error status) means it is reachable.
            record(NetworkError(error))
            return status == .online
        }
    }

    /// Probes until cancelled: every `interval` while online, every `offlineInterval` while
    /// offline. An app runs it in a task for as long as it is in the foreground
    /// (`.task { await app.connectivity.run() }`).
    public func run() async {
        while !Task.isCancelled {
            do { try await sleep(isOnline ? interval : offlineInterval) } catch { return }
            if Task.isCancelled { return }
            await probeNow()
        }
    }

    private func becameReachable() {
        status = .online
        guard !retries.isEmpty else { return }
        let pending = retries
        retries.removeAll()
        let previous = retrying
        retrying = Task {
            await previous?.value
            for (_, read) in pending { await read() }
        }
    }
}
