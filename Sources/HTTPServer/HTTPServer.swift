import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server over GNU libmicrohttpd that runs a synchronous `(Request) -> Response`
/// handler on the engine's worker threads.
///
/// The engine runs an internal thread pool (epoll where available, else poll) of
/// ``Configuration/threadCount`` threads; a handler may block (SQLite) but then stalls one of
/// them. The server enforces the limits of ``Configuration`` with proper status codes
/// (413, 414, 431, 400), keeps connections alive, writes one access-log line per request and
/// shuts down gracefully.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080), logger: { print($0) }) { request in
///     .text("Hello, \(request.path)")
/// }
/// try server.start()
/// server.runUntilSignalled()   // returns after SIGINT/SIGTERM, once in-flight requests finished
/// ```
public final class HTTPServer: Sendable {
    /// Listening address, engine threads and request limits.
    public struct Configuration: Sendable {
        /// Numeric IPv4 or IPv6 address to listen on (`"127.0.0.1"`, `"0.0.0.0"`, `"::1"`), or
        /// `"localhost"` (= `127.0.0.1`). Default `"127.0.0.1"`.
        public var host: String
        /// TCP port; `0` lets the system pick a free one (read it from ``HTTPServer/port``).
        /// Default 8080.
        public var port: Int
        /// Engine worker threads (each runs handlers). Default: the number of online cores.
        public var threadCount: Int
        /// Largest accepted request body in bytes; larger bodies get 413. Default 1 MiB.
        public var maxBodyBytes: Int
        /// Largest accepted request target (path + query, as sent) in bytes; longer ones get 414.
        /// Default 8 KiB.
        public var maxURIBytes: Int
        /// Largest accepted request line + header fields in bytes (each line counted with its
        /// CRLF); larger requests get 431. Default 16 KiB.
        public var maxHeaderBytes: Int
        /// Seconds of inactivity after which the engine closes a connection (a client that stops
        /// reading its response). Default 15.
        public var connectionTimeout: Int
        /// Seconds a connection has to deliver a whole request head (request line and headers),
        /// counted from when it opened or its previous response was sent — a total, not reset by
        /// each byte, so a slow-loris client cannot keep a slot by trickling. Also the longest a
        /// kept-alive connection stays idle. Default 10.
        public var requestHeadTimeout: Int
        /// Seconds a request's body has to arrive in full once its head has. Default 30
        /// (at least 35 KB/s for the largest body).
        public var requestBodyTimeout: Int
        /// Most simultaneous connections the engine accepts; further ones wait in the kernel
        /// backlog or are refused. Default 1000.
        public var maxConnections: Int
        /// Most simultaneous connections from one client address; further ones are refused at
        /// once, so one client cannot take the slots every other visitor needs. Trusted proxies
        /// are exempt. Default 128.
        public var maxConnectionsPerAddress: Int
        /// Numeric addresses of reverse proxies whose `X-Forwarded-For` is believed: a request
        /// arriving from one gets ``Request/remoteAddress`` from that header (see
        /// ``ClientAddress``), and they are exempt from ``maxConnectionsPerAddress`` (limit
        /// clients per address in the proxy instead). Default none.
        public var trustedProxies: [String]
        /// Seconds ``HTTPServer/stop()`` waits for in-flight requests before closing anyway.
        /// Default 30.
        public var shutdownGracePeriod: Int
        /// Upload forms: exact `POST` paths (as sent, without the query) allowed a larger body
        /// than ``maxBodyBytes``, with their own limit and body timeout. Default none.
        public var uploads: [String: UploadLimit]

        /// A larger body limit for one upload path.
        public struct UploadLimit: Sendable {
            /// Largest accepted body in bytes.
            public var maxBodyBytes: Int
            /// Seconds the body has to arrive in full once the head has.
            public var bodyTimeout: Int
            /// Whether a request, by its head alone (its cookies: a signed-in staff member who may
            /// upload), gets this limit; others keep the defaults, so a stranger cannot make the
            /// server hold a large body before the handler refuses it.
            public var admits: @Sendable (HTTPHeaders) -> Bool

            public init(maxBodyBytes: Int, bodyTimeout: Int, admits: @escaping @Sendable (HTTPHeaders) -> Bool = { _ in true }) {
                self.maxBodyBytes = maxBodyBytes
                self.bodyTimeout = bodyTimeout
                self.admits = admits
            }
        }

        /// A configuration; every parameter has the documented default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threadCount: Int = Configuration.onlineCoreCount,
            maxBodyBytes: Int = 1 << 20,
            maxURIBytes: Int = 8 << 10,
            maxHeaderBytes: Int = 16 << 10,
            connectionTimeout: Int = 15,
            requestHeadTimeout: Int = 10,
            requestBodyTimeout: Int = 30,
            maxConnections: Int = 1000,
            maxConnectionsPerAddress: Int = 128,
            trustedProxies: [String] = [],
            shutdownGracePeriod: Int = 30,
            uploads: [String: UploadLimit] = [:]
        ) {
            self.uploads = uploads
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.maxBodyBytes = maxBodyBytes
            self.maxURIBytes = maxURIBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.connectionTimeout = connectionTimeout
            self.requestHeadTimeout = requestHeadTimeout
            self.requestBodyTimeout = requestBodyTimeout
            self.maxConnections = maxConnections
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.trustedProxies = trustedProxies
            self.shutdownGracePeriod = shutdownGracePeriod
        }

        /// The body limit and body timeout of a request: an upload path's, or the defaults.
        func bodyLimit(method: HTTPMethod, rawTarget: String, headers: HTTPHeaders) -> UploadLimit {
            let defaults = UploadLimit(maxBodyBytes: maxBodyBytes, bodyTimeout: requestBodyTimeout)
            guard method == .post, !uploads.isEmpty else { return defaults }
            let path = rawTarget.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? rawTarget
            guard let upload = uploads[path], upload.admits(headers) else { return defaults }
            return upload
        }

        /// Number of online CPU cores (at least 1).
        public static var onlineCoreCount: Int {
            max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }

        /// Per-connection memory pool of the engine. MHD 0.9.75 starts the read buffer at half
        /// the pool and grows it into the free half, which also holds one small record per
        /// header and per cookie and the response head. 32 KiB (twice the 16 KiB default head
        /// limit) lets heads up to about 30 KB reach the handler-side check, which answers
        /// 431/414 with the shop's own response, and takes about 400 header fields (browsers
        /// send 10–30); GET arguments take none, since MHD is not given the query (see
        /// `shoppable_mhd_uri_log_trampoline`). Larger heads get the engine's own 431/414 (see
        /// docs/SECURITY.md). The engine zeroes the whole pool between requests on a
        /// connection — 8 % of a cached API read at 64 KiB — so it is kept this small.
        var connectionMemoryLimit: Int {
            max(32 << 10, 2 * max(maxHeaderBytes, maxURIBytes))
        }

        func validate() throws(HTTPServerError) {
            func invalid(_ message: String) -> HTTPServerError {
                HTTPServerError(code: .invalidConfiguration, message: message)
            }
            guard (0...65535).contains(port) else { throw invalid("port \(port) is not in 0…65535") }
            guard threadCount >= 1, threadCount <= 1024 else {
                throw invalid("threadCount \(threadCount) is not in 1…1024")
            }
            guard maxBodyBytes >= 0 else { throw invalid("maxBodyBytes must not be negative") }
            guard maxURIBytes >= 1 else { throw invalid("maxURIBytes must be positive") }
            guard maxHeaderBytes >= 64 else { throw invalid("maxHeaderBytes must be at least 64") }
            guard connectionTimeout >= 0 else { throw invalid("connectionTimeout must not be negative") }
            guard requestHeadTimeout >= 1 else { throw invalid("requestHeadTimeout must be positive") }
            guard requestBodyTimeout >= 1 else { throw invalid("requestBodyTimeout must be positive") }
            guard maxConnections >= 1 else { throw invalid("maxConnections must be positive") }
            guard maxConnectionsPerAddress >= 1 else { throw invalid("maxConnectionsPerAddress must be positive") }
            for proxy in trustedProxies where ClientAddress.canonical(proxy) == nil {
                throw invalid("trusted proxy \"\(proxy)\" is not a numeric IPv4/IPv6 address")
            }
            guard shutdownGracePeriod >= 0 else { throw invalid("shutdownGracePeriod must not be negative") }
            for (path, limit) in uploads where limit.maxBodyBytes < 0 || limit.bodyTimeout < 1 || !path.hasPrefix("/") {
                throw invalid("upload \(path) needs a path from / , a body limit of 0 or more and a positive timeout")
            }
        }
    }

    private let context: ServerContext
    private let engine = Mutex<Engine?>(nil)
    private let boundPort = Atomic<Int>(0)

    /// Creates a stopped server.
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - logger: receives one access-log line per request
    ///     (`GET /path 200 1234 567µs 3f2a9c1e0b7d4e21`: method, raw path, status, body bytes
    ///     sent, duration from request line to response in microseconds, request id) and the
    ///     engine's own error messages (prefixed `microhttpd:`). Called on worker threads.
    ///   - accessLog: receives the access-log lines instead of `logger`, when given (the app
    ///     gathers them and writes them in batches, `LineLog.append(_:)`).
    ///   - refusal: the response for a request the server refuses before the handler sees it
    ///     (400 undecodable, 413 body, 414 target, 431 head too large), given the status, a
    ///     sentence for a person (in English, for the log and the API), the request's raw target
    ///     (so an API can answer in its own format) and its headers (so a page can answer in the
    ///     reader's language); the app passes its own so that these carry its headers too.
    ///     Default: the sentence as plain text.
    ///   - handler: turns a request into a response; called concurrently on worker threads.
    public init(
        configuration: Configuration = Configuration(),
        logger: @escaping @Sendable (String) -> Void,
        accessLog: (@Sendable (String) -> Void)? = nil,
        refusal: @escaping @Sendable (HTTPStatus, String, _ target: String, HTTPHeaders) -> Response = HTTPServer.plainRefusal,
        handler: @escaping @Sendable (Request) -> Response
    ) {
        self.context = ServerContext(configuration: configuration, logger: logger, accessLogger: accessLog,
                                     refusal: refusal, handler: handler)
    }

    /// The default refusal: `"<status>: <message>"` as plain text.
    @Sendable public static func plainRefusal(_ status: HTTPStatus, _ message: String, _ target: String,
                                              _ headers: HTTPHeaders) -> Response {
        .text("\(status): \(message)\n", status: status)
    }

    deinit {
        stop()
    }

    /// The configuration the server was created with.
    public var configuration: Configuration { context.configuration }

    /// The bound TCP port once started (useful with port 0); `0` before ``start()``.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// Number of requests whose request line has arrived and whose response has not been fully
    /// sent yet (diagnostics; ``stop()`` waits for it to reach zero).
    public var requestsInFlight: Int { context.inFlight.load(ordering: .acquiring) }

    /// Binds, listens and starts the worker threads; returns immediately.
    /// - Throws: ``HTTPServerError`` with code `.invalidConfiguration`, `.invalidAddress`,
    ///   `.alreadyRunning`, or `.listenFailed` (message says which address and why, e.g.
    ///   `could not listen on 127.0.0.1:8080 (address in use?)`).
    public func start() throws(HTTPServerError) {
        let configuration = context.configuration
        try configuration.validate()
        var address = try SocketAddress(host: configuration.host, port: configuration.port)
        try engine.withLock { (engine: inout Engine?) throws(HTTPServerError) in
            guard engine == nil else {
                throw HTTPServerError(code: .alreadyRunning, message: "the HTTP server is already running")
            }
            context.stopping.store(false, ordering: .releasing)
            context.lastEngineMessage.withLock { $0 = nil }

            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue
                | MHD_USE_ERROR_LOG.rawValue
            flags |= MHD_is_feature_supported(.FEATURE_EPOLL) == .YES
                ? MHD_USE_EPOLL.rawValue : MHD_USE_POLL.rawValue
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }

            let contextPointer = Unmanaged.passUnretained(context).toOpaque()
            let logSink = UnsafeMutablePointer<shoppable_mhd_log_sink>.allocate(capacity: 1)
            logSink.initialize(to: shoppable_mhd_log_sink(fn: mhdLog, context: contextPointer))
            let uriLogSink = UnsafeMutablePointer<shoppable_mhd_uri_log_sink>.allocate(capacity: 1)
            uriLogSink.initialize(to: shoppable_mhd_uri_log_sink(fn: mhdURILog, context: contextPointer))

            let daemon = address.withSockaddr { sockaddr in
                shoppable_mhd_start_daemon(
                    flags, sockaddr,
                    UInt32(configuration.threadCount),
                    configuration.connectionMemoryLimit,
                    UInt32(configuration.connectionTimeout),
                    UInt32(configuration.maxConnections),
                    mhdAcceptPolicy, contextPointer,
                    mhdAccessHandler, contextPointer,
                    mhdRequestCompleted, contextPointer,
                    mhdConnectionNotify, contextPointer,
                    uriLogSink,
                    logSink)
            }
            guard let daemon else {
                logSink.deallocate()
                uriLogSink.deallocate()
                let detail = context.lastEngineMessage.withLock { $0 }.map { ": \($0)" } ?? ""
                throw HTTPServerError(
                    code: .listenFailed,
                    message: "could not listen on \(address) (address in use, or not permitted?)\(detail)")
            }
            let watchdog = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "HTTPServer.watchdog"))
            let context = self.context
            let ticks = Atomic<Int>(0)
            watchdog.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250),
                              leeway: .milliseconds(50))
            watchdog.setEventHandler {
                context.closeOverdueConnections()
                if ticks.add(1, ordering: .relaxed).newValue % 4 == 0 { context.reportLimits() }
            }
            watchdog.resume()
            engine = Engine(daemon: daemon, logSink: logSink, uriLogSink: uriLogSink, watchdog: watchdog)
            boundPort.store(Int(shoppable_mhd_bound_port(daemon)), ordering: .releasing)
        }
    }

    /// Stops gracefully: stops accepting connections, closes those still receiving a request,
    /// lets requests already being handled finish (up to ``Configuration/shutdownGracePeriod``
    /// seconds; responses sent meanwhile carry `Connection: close`), then closes every
    /// connection and joins the worker threads.
    /// Returns when all of that is done. Does nothing if the server is not running.
    /// Must not be called from inside a handler.
    public func stop() {
        guard let engine = engine.withLock({ $0.take() }) else { return }
        context.stopping.store(true, ordering: .releasing)
        let listenSocket = MHD_quiesce_daemon(engine.daemon)
        context.closeReceivingConnections()

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(context.configuration.shutdownGracePeriod))
        while context.inFlight.load(ordering: .acquiring) > 0 && clock.now < deadline {
            usleep(1_000)
        }
        let abandoned = context.inFlight.load(ordering: .acquiring)
        if abandoned > 0 {
            context.logger("stopping with \(abandoned) request(s) still in flight after the grace period")
        }
        engine.watchdog.cancel()
        MHD_stop_daemon(engine.daemon)
        if listenSocket >= 0 { close(listenSocket) }
        context.reportLimits()
        engine.logSink.deinitialize(count: 1)
        engine.logSink.deallocate()
        engine.uriLogSink.deinitialize(count: 1)
        engine.uriLogSink.deallocate()
        boundPort.store(0, ordering: .releasing)
    }

    /// Blocks until SIGINT or SIGTERM arrives, then stops gracefully; see
    /// ``runUntilSignalled(signals:)``.
    /// - Returns: the signal number received.
    @discardableResult
    public func runUntilSignalled() -> Int32 {
        runUntilSignalled(signals: [SIGINT, SIGTERM])
    }

    /// Blocks until one of `signals` arrives, then calls ``stop()`` and returns the signal
    /// number. After it returns the caller can close the database.
    ///
    /// The signals are set to be ignored (so they no longer terminate the process) and watched
    /// with Dispatch signal sources; once the first arrives their default action is restored,
    /// so a second Ctrl-C during a slow drain terminates the process at once.
    @discardableResult
    public func runUntilSignalled(signals: [Int32]) -> Int32 {
        let received = Mutex<Int32>(0)
        let semaphore = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "HTTPServer.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                let isFirst = received.withLock { value in
                    defer { if value == 0 { value = signalNumber } }
                    return value == 0
                }
                if isFirst { semaphore.signal() }
            }
            source.resume()
            sources.append(source)
        }
        semaphore.wait()
        for source in sources { source.cancel() }
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
        let signalNumber = received.withLock { $0 }
        context.logger("received signal \(signalNumber), stopping")
        stop()
        return signalNumber
    }
}

/// The running engine: owned by `HTTPServer.engine`, torn down in `stop()`.
private struct Engine: @unchecked Sendable {
    // The daemon handle is used only under the server's mutex or after being taken out of it.
    let daemon: OpaquePointer
    let logSink: UnsafeMutablePointer<shoppable_mhd_log_sink>
    let uriLogSink: UnsafeMutablePointer<shoppable_mhd_uri_log_sink>
    /// Closes connections past their receive deadline (`ServerContext.closeOverdueConnections`).
    let watchdog: any DispatchSourceTimer
}

/// A numeric IPv4/IPv6 socket address parsed from `Configuration.host`.
private struct SocketAddress: CustomStringConvertible {
    private var storage = sockaddr_storage()
    let isIPv6: Bool
    let host: String
    let port: Int

    init(host: String, port: Int) throws(HTTPServerError) {
        let numericHost = host == "localhost" ? "127.0.0.1" : host
        self.host = host
        self.port = port
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, numericHost, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: ipv4) { target.copyMemory(from: $0) }
            }
            isIPv6 = false
        } else if inet_pton(AF_INET6, numericHost, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: ipv6) { target.copyMemory(from: $0) }
            }
            isIPv6 = true
        } else {
            throw HTTPServerError(
                code: .invalidAddress,
                message: "host \"\(host)\" is not a numeric IPv4/IPv6 address or localhost")
        }
    }

    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }

    var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
