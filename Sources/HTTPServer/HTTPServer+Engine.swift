import CMicroHTTPD
import Synchronization

// The libmicrohttpd callbacks. They are top-level functions in this library module on purpose:
// closures written in an executable's main.swift are main-actor isolated under Swift 6, and the
// inserted isolation check traps (SIGILL) when the engine calls them on its own threads.
//
// Lifecycle of one connection and its requests (MHD 0.9.75):
//   0. mhdAcceptPolicy         a client connects: refused when its address already holds
//                              `maxConnectionsPerAddress` connections (trusted proxies exempt).
//      mhdConnectionNotify     STARTED: ConnectionState (fd, peer address, receive deadline)
//                              retained in the socket context and listed in the registry.
//   1. mhdURILog               request line parsed: the raw target (with query) is kept on the
//                              ConnectionState; the C trampoline then hides the query from MHD.
//   2. mhdAccessHandler #1     headers parsed: RequestState created (retained in *con_cls) and
//                              counted in flight; URI/header/Content-Length limits checked.
//                              Answering here makes MHD close the connection, so only refusals do.
//   3. mhdAccessHandler #n     body chunks: accumulate up to maxBodyBytes.
//   4. mhdAccessHandler        final call (no upload data): build Request, run the handler,
//                              queue the response (keep-alive preserved).
//   5. mhdRequestCompleted     response sent or connection dropped: release state, uncount it.
//      mhdConnectionNotify     CLOSED: unlisted and released (MHD calls it for every STARTED,
//                              before it closes the descriptor).
//
// Nothing is allocated before the access handler's first call except through the connection
// notifications, which MHD pairs on every path; so no request path can leak state or leave the
// in-flight counter up (a request MHD refuses itself never reaches step 2).

/// State shared by all callbacks of one server; passed to C as an unretained `void *`
/// (the `HTTPServer` owns it and outlives the engine).
final class ServerContext: Sendable {
    let configuration: HTTPServer.Configuration
    let logger: @Sendable (String) -> Void
    /// Receives the access-log lines (`logger` unless the server was given its own).
    let accessLogger: @Sendable (String) -> Void
    let handler: @Sendable (Request) -> Response
    let refusal: @Sendable (HTTPStatus, String, _ target: String, HTTPHeaders) -> Response
    /// Requests between the access handler's first call and the completion callback.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop()`: responses then carry `Connection: close`.
    let stopping = Atomic<Bool>(false)
    /// The engine's most recent error message, quoted when `start()` fails.
    let lastEngineMessage = Mutex<String?>(nil)
    /// Open connections and their count per client address.
    let connections = Mutex(ConnectionRegistry())
    /// Connections refused or closed by the limits, reported by the watchdog once a second.
    let refusedConnections = Atomic<Int>(0)
    let closedSlowConnections = Atomic<Int>(0)
    /// Origin of the monotonic nanosecond readings used for receive deadlines.
    private let epoch = ContinuousClock.now
    private let trustedProxies: Set<String>

    init(
        configuration: HTTPServer.Configuration,
        logger: @escaping @Sendable (String) -> Void,
        accessLogger: (@Sendable (String) -> Void)? = nil,
        refusal: @escaping @Sendable (HTTPStatus, String, _ target: String, HTTPHeaders) -> Response,
        handler: @escaping @Sendable (Request) -> Response
    ) {
        self.configuration = configuration
        self.logger = logger
        self.accessLogger = accessLogger ?? logger
        self.refusal = refusal
        self.handler = handler
        self.trustedProxies = Set(configuration.trustedProxies.map(ClientAddress.normalized))
    }

    /// Monotonic nanoseconds since the server context was made.
    func nanosecondsNow() -> Int64 {
        let (seconds, attoseconds) = (ContinuousClock.now - epoch).components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    func isTrustedProxy(_ address: String) -> Bool { trustedProxies.contains(address) }

    /// A deadline `seconds` from now, as stored in ``ConnectionState/deadline``.
    func deadline(in seconds: Int) -> Int64 { nanosecondsNow() + Int64(seconds) * 1_000_000_000 }

    /// Shuts down (both directions) every connection whose request has not arrived in full by its
    /// deadline; the engine then sees end-of-file and closes it through its own path. Runs under
    /// the registry lock, and MHD reports a connection CLOSED (which takes the lock) before it
    /// closes the descriptor, so a descriptor shut down here always belongs to that connection.
    func closeOverdueConnections() {
        let now = nanosecondsNow()
        let closed = connections.withLock { registry in
            var closed = 0
            var byte: UInt8 = 0
            for connection in registry.live.values {
                let deadline = connection.deadline.load(ordering: .acquiring)
                if deadline != 0 && deadline < now {
                    connection.deadline.store(0, ordering: .releasing)
                    _ = shutdown(connection.fd, Int32(SHUT_RDWR))
                    closed += 1
                } else if case let idle = connection.idleSince.load(ordering: .acquiring), idle != 0,
                          now - idle > 200_000_000,
                          recv(connection.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 0 {
                    // The client sent its request and closed its side (`nc -N`, HTTP/1.0 style);
                    // MHD 0.9.75 misses a FIN that arrived with the request and would keep the
                    // connection (and a per-address slot) until the head deadline. (Idle for
                    // 200 ms first: a request pipelined before the FIN is already being served.)
                    connection.idleSince.store(0, ordering: .releasing)
                    _ = shutdown(connection.fd, Int32(SHUT_RDWR))
                }
            }
            return closed
        }
        if closed > 0 { closedSlowConnections.add(closed, ordering: .relaxed) }
    }

    /// Shuts down every connection still receiving a request (its head or body): on shutdown
    /// they are not waited for — a client trickling a body must not hold up a deploy for the
    /// body deadline. Requests already being handled or answered are left to finish.
    func closeReceivingConnections() {
        connections.withLock { registry in
            for connection in registry.live.values where connection.deadline.load(ordering: .acquiring) != 0 {
                connection.deadline.store(0, ordering: .releasing)
                _ = shutdown(connection.fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// Writes one log line for the connections refused or closed since the last report.
    func reportLimits() {
        let refused = refusedConnections.exchange(0, ordering: .acquiringAndReleasing)
        let slow = closedSlowConnections.exchange(0, ordering: .acquiringAndReleasing)
        if refused > 0 {
            logger("refused \(refused) connection(s): more than \(configuration.maxConnectionsPerAddress) open from one address")
        }
        if slow > 0 {
            logger("closed \(slow) connection(s) that did not send their request in time")
        }
    }
}

/// Open connections, listed for the receive-deadline watchdog and counted per client address.
struct ConnectionRegistry: ~Copyable {
    var live: [ObjectIdentifier: ConnectionState] = [:]
    var perAddress: [String: Int] = [:]
}

/// Per-connection state, owned through MHD's socket context from STARTED to CLOSED.
final class ConnectionState: @unchecked Sendable {
    /// The socket (valid until MHD reports the connection CLOSED).
    let fd: Int32
    /// The peer's numeric address (IPv4-mapped IPv6 as IPv4).
    let peerAddress: String
    /// Monotonic nanoseconds (``ServerContext/nanosecondsNow()``) by which the request being
    /// received must have arrived in full; 0 while none is being received (handler running,
    /// response being sent). Read by the watchdog, written by the engine thread.
    let deadline = Atomic<Int64>(0)
    /// When the last response was sent, while no next request has begun (0 otherwise): the
    /// watchdog checks whether such a client has closed its side.
    let idleSince = Atomic<Int64>(0)
    /// The raw target of the request whose line just arrived; engine thread only (MHD serves a
    /// connection on one thread at a time).
    var pendingTarget: String?
    /// Whether `pendingTarget`'s bytes were not UTF-8 (kept repaired, for the access log).
    var pendingTargetIsNotUTF8 = false

    init(fd: Int32, peerAddress: String) {
        self.fd = fd
        self.peerAddress = peerAddress
    }
}

/// Per-request state, owned through MHD's `*con_cls`. A connection is served by one engine
/// thread at a time, so it needs no lock.
final class RequestState {
    let rawTarget: String
    let startedAt = ContinuousClock.now
    let id = Request.makeID()
    var method = HTTPMethod.get
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var bodyTooLarge = false
    var discardedBytes = 0
    /// The body limit of this request (``HTTPServer/Configuration/bodyLimit(method:rawTarget:headers:)``).
    var maxBodyBytes = 0
    /// The handler's answer when MHD could not take it yet (see `mhdAccessHandler`).
    var pendingResponse: Response?

    init(rawTarget: String) { self.rawTarget = rawTarget }

    /// The target without its query, shortened and escaped for the access log.
    var logPath: String {
        let bytes = rawTarget.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let path = rawTarget[..<end]
        return path.utf8.count > 200 ? AccessLog.escaped(String(path.prefix(200))) + "…" : AccessLog.escaped(path)
    }
}

// MARK: - Callbacks

/// `MHD_AcceptPolicyCallback`: refuses a client address that already holds
/// `maxConnectionsPerAddress` open connections, so one client cannot take every slot. Trusted
/// proxies are exempt (they carry many clients). The check is not atomic with the count (which
/// changes in the connection notifications), so the limit can be passed by at most the number of
/// engine threads accepting at the same instant — never by a count that leaks.
func mhdAcceptPolicy(
    _ cls: UnsafeMutableRawPointer?,
    _ address: UnsafePointer<sockaddr>?,
    _ length: socklen_t
) -> MHD_Result {
    guard let cls else { return .YES }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let peer = formatAddress(address)
    if context.isTrustedProxy(peer) { return .YES }
    let limit = context.configuration.maxConnectionsPerAddress
    let open = context.connections.withLock { $0.perAddress[peer] ?? 0 }
    if open < limit { return .YES }
    context.refusedConnections.add(1, ordering: .relaxed)
    return .NO
}

/// `MHD_NotifyConnectionCallback`: creates and releases the ``ConnectionState``.
func mhdConnectionNotify(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        let state = ConnectionState(fd: shoppable_mhd_connection_fd(connection),
                                    peerAddress: clientAddress(of: connection))
        state.deadline.store(context.deadline(in: context.configuration.requestHeadTimeout), ordering: .releasing)
        context.connections.withLock { registry in
            registry.live[ObjectIdentifier(state)] = state
            registry.perAddress[state.peerAddress, default: 0] += 1
        }
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
    } else {
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        context.connections.withLock { registry in
            registry.live[ObjectIdentifier(state)] = nil
            let remaining = (registry.perAddress[state.peerAddress] ?? 1) - 1
            registry.perAddress[state.peerAddress] = remaining > 0 ? remaining : nil
        }
    }
}

/// Called by the C URI-log trampoline with the raw request target (with query) before MHD
/// decodes it; kept on the connection for the access handler's first call.
func mhdURILog(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) {
    guard let connection, let raw = shoppable_mhd_socket_context(connection) else { return }
    let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
    // Raw bytes that are not UTF-8 are refused as `%FF` is (400), not read as U+FFFD.
    let valid = uri.flatMap { String(validatingCString: $0) }
    state.pendingTarget = valid ?? uri.map { String(cString: $0) } ?? ""
    state.pendingTargetIsNotUTF8 = uri != nil && valid == nil
}

/// `MHD_AccessHandlerCallback`; see the lifecycle above.
func mhdAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let limits = context.configuration
    let peer = shoppable_mhd_socket_context(connection)
        .map { Unmanaged<ConnectionState>.fromOpaque($0).takeUnretainedValue() }

    // 1. Headers complete: create the request state, check the limits that need no body.
    guard let existing = conCls.pointee else {
        let state = RequestState(rawTarget: peer?.pendingTarget ?? url.map { String(cString: $0) } ?? "/")
        let targetIsNotUTF8 = peer?.pendingTargetIsNotUTF8 ?? false
        peer?.pendingTarget = nil
        peer?.pendingTargetIsNotUTF8 = false
        peer?.idleSince.store(0, ordering: .releasing)
        context.inFlight.add(1, ordering: .acquiringAndReleasing)
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        state.method = HTTPMethod(rawValue: method.map { String(cString: $0) } ?? "GET")
        state.headers = readHeaders(of: connection)
        let bodyLimit = limits.bodyLimit(method: state.method, rawTarget: state.rawTarget, headers: state.headers)
        state.maxBodyBytes = bodyLimit.maxBodyBytes
        peer?.deadline.store(context.deadline(in: bodyLimit.bodyTimeout), ordering: .releasing)
        if state.rawTarget.utf8.count > limits.maxURIBytes {
            return refuse(.uriTooLong, "The address is longer than \(limits.maxURIBytes) bytes.",
                          connection, state, context)
        }
        let versionLength = version.map { strlen($0) } ?? 8
        if headerBytes(state, versionLength: versionLength) > limits.maxHeaderBytes {
            return refuse(.requestHeaderFieldsTooLarge,
                          "The request line and headers are larger than \(limits.maxHeaderBytes) bytes.",
                          connection, state, context)
        }
        if let declared = state.headers["Content-Length"].flatMap({ Int($0) }),
            declared > state.maxBodyBytes
        {
            return refuse(.contentTooLarge, "The request body is larger than \(state.maxBodyBytes) bytes.",
                          connection, state, context)
        }
        if targetIsNotUTF8 {
            return refuse(.badRequest, "The address is not valid UTF-8.", connection, state, context)
        }
        // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400.
        if version.map({ String(cString: $0) }) == "HTTP/1.1", state.headers["Host"] == nil {
            return refuse(.badRequest, "An HTTP/1.1 request needs a Host header.", connection, state, context)
        }
        // RFC 9112 §6.1: the only transfer coding understood is chunked; 501 for any other,
        // 400 when chunked is not the last (the body's end could not be found). The engine would
        // otherwise wait for a body it cannot frame until the connection times out.
        let codings: [String] = state.headers.values(for: "Transfer-Encoding")
            .flatMap { value in value.split(separator: ",") }
            .map { coding in String(Substring(coding.utf8.trimmingOptionalWhiteSpace)).lowercased() }
            .filter { !$0.isEmpty }
        if !codings.isEmpty && codings != ["chunked"] {
            return codings.last == "chunked" || !codings.contains("chunked")
                ? refuse(.notImplemented, "Only the chunked transfer coding is understood.", connection, state, context)
                : refuse(.badRequest, "chunked must be the last transfer coding.", connection, state, context)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()

    // 2. A body chunk. MHD cannot queue a response now; past the limit (possible only with
    //    chunked bodies, Content-Length was checked above), discard and answer 413 at the end,
    //    but close the connection if the client keeps sending far beyond the limit.
    let chunkSize = uploadDataSize.pointee
    if chunkSize > 0 {
        if !state.bodyTooLarge && state.body.count + chunkSize > state.maxBodyBytes {
            state.bodyTooLarge = true
            state.body = []
        }
        if state.bodyTooLarge {
            state.discardedBytes += chunkSize
            if state.discardedBytes > max(state.maxBodyBytes, 64 << 10) {
                context.logger("\(AccessLog.escaped(state.method.rawValue)) \(state.logPath) body far over the limit, closing \(state.id)")
                return .NO
            }
        } else if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: chunkSize) { bytes in
                state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: chunkSize))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }

    // 3. Request complete (or so it seems: after a "100 Continue" for a request without a body,
    //    MHD 0.9.75 also calls with no data while it is not ready for a response, and refuses a
    //    response queued then; it is kept and queued at the real final call).
    peer?.deadline.store(0, ordering: .releasing)
    if let pending = state.pendingResponse {
        state.pendingResponse = nil
        return send(pending, connection, state, context, close: false, mayDefer: false)
    }
    if state.bodyTooLarge {
        return refuse(.contentTooLarge, "The request body is larger than \(state.maxBodyBytes) bytes.",
                      connection, state, context)
    }
    // A multipart/form-data body (an upload form) is split by the engine's post processor: its
    // text fields join `Request.form`, its files `Request.files`, and the raw body is dropped.
    var parts: MultipartParts?
    if MultipartParts.isMultipart(state.headers) {
        guard let split = MultipartParts.split(state.body, connection) else {
            return refuse(.badRequest, "The multipart/form-data body could not be read.", connection, state, context,
                          close: false)
        }
        parts = split
        state.body = []
    }
    let request: Request
    do {
        let body = state.body
        state.body = []
        let peerAddress = peer?.peerAddress ?? clientAddress(of: connection)
        request = try Request(
            method: state.method, target: state.rawTarget, headers: state.headers, body: body,
            remoteAddress: context.isTrustedProxy(peerAddress)
                ? ClientAddress.forwarded(peer: peerAddress, forwardedFor: state.headers.values(for: "X-Forwarded-For"),
                                          isTrustedProxy: context.isTrustedProxy)
                : peerAddress,
            id: state.id)
    } catch {
        return refuse(.badRequest, error.description, connection, state, context, close: false)
    }
    var handled = request
    if let parts {
        handled.form += parts.fields
        handled.files = parts.files
    }
    let response = context.handler(handled)
    return send(response, connection, state, context, close: false, mayDefer: true)
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the response was sent or the connection dropped.
func mhdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let cls else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    // The next request on a kept-alive connection must arrive within the head timeout.
    if let connection, let raw = shoppable_mhd_socket_context(connection) {
        let peer = Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
        peer.deadline.store(context.deadline(in: context.configuration.requestHeadTimeout), ordering: .releasing)
        peer.idleSince.store(context.nanosecondsNow(), ordering: .releasing)
    }
    guard let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    Unmanaged<RequestState>.fromOpaque(raw).release()
    context.inFlight.subtract(1, ordering: .acquiringAndReleasing)
}

/// `MHD_OPTION_EXTERNAL_LOGGER` target (through the C trampoline that formats the message).
func mhdLog(_ cls: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let cls, let message else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let text = String(cString: message)
    context.lastEngineMessage.withLock { $0 = text }
    context.logger("microhttpd: \(text)")
}

/// `MHD_KeyValueIteratorN` appending each request header to the `HTTPHeaders` at `cls`.
func mhdCollectHeader(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ keySize: Int,
    _ value: UnsafePointer<CChar>?,
    _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
    headers.pointee.add(name: string(key, count: keySize), value: value.map { string($0, count: valueSize) } ?? "")
    return .YES
}

// MARK: - Helpers

private func string(_ pointer: UnsafePointer<CChar>, count: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
}

private func readHeaders(of connection: OpaquePointer) -> HTTPHeaders {
    var headers = HTTPHeaders()
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, mhdCollectHeader, pointer)
    }
    return headers
}

/// Size of the request head as sent, approximately: `METHOD SP target SP version CRLF`, each
/// `name: value CRLF`, and the final CRLF.
private func headerBytes(_ state: RequestState, versionLength: Int) -> Int {
    var total = state.method.rawValue.utf8.count + 1 + state.rawTarget.utf8.count + 1 + versionLength + 2
    for field in state.headers {
        total += field.name.utf8.count + 2 + field.value.utf8.count + 2
    }
    return total + 2
}

private func clientAddress(of connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    guard shoppable_mhd_client_address(connection, &buffer, buffer.count) == 0 else { return "" }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

private func formatAddress(_ address: UnsafePointer<sockaddr>?) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    guard shoppable_format_address(address, &buffer, buffer.count) == 0 else { return "" }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Answers with the server's refusal response (the app's, with its security headers, when it
/// gave one). `close` (the default) for refusals before the body was read: the connection
/// cannot be reused then.
private func refuse(
    _ status: HTTPStatus, _ message: String,
    _ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext,
    close: Bool = true
) -> MHD_Result {
    send(context.refusal(status, message, state.rawTarget, state.headers), connection, state, context, close: close, mayDefer: false)
}

/// Hands `response` to MHD (its body lent, not copied: `SentBody`) and writes the access-log line.
/// With `mayDefer`, a response MHD is not ready to take is kept for the next call.
private func send(
    _ response: Response,
    _ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext,
    close: Bool, mayDefer: Bool
) -> MHD_Result {
    let close = close || context.stopping.load(ordering: .acquiring)
    var response = response
    var mhdResponse = makeEngineResponse(response, requestID: state.id, close: close)
    if mhdResponse == nil {
        context.logger("\(AccessLog.escaped(state.method.rawValue)) \(state.logPath) handler returned an invalid header; answering 500 \(state.id)")
        response = Response.text("500 Internal Server Error\n", status: .internalServerError)
        mhdResponse = makeEngineResponse(response, requestID: state.id, close: close)
    }
    guard let mhdResponse else { return .NO }
    let result = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
    MHD_destroy_response(mhdResponse)
    guard result == .YES else {
        if mayDefer {
            state.pendingResponse = response
            return .YES
        }
        context.logger("\(AccessLog.escaped(state.method.rawValue)) \(state.logPath) the engine refused the response; closing \(state.id)")
        return .NO
    }
    let micros = (ContinuousClock.now - state.startedAt).microseconds
    let bytes = state.method == .head ? 0 : response.body.count
    context.accessLogger("\(AccessLog.escaped(state.method.rawValue)) \(state.logPath) \(response.status.code) \(bytes) \(micros)µs \(state.id)")
    return result
}

/// A response body lent to MHD: its bytes are sent from the array itself, which this keeps
/// alive (and unchanged: it is a `let`) until MHD destroys the response and calls
/// `releaseSentBody`. Copying the body into MHD's own buffer was a `malloc` and a `memcpy` of
/// every body (1.5 % of a first visit's 4 KB page, more for larger ones; issue #14).
private final class SentBody {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// `MHD_ContentReaderFreeCallback` of a ``SentBody``: MHD is done with the bytes.
private func releaseSentBody(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<SentBody>.fromOpaque(cls).release()
}

/// An MHD response for `response`, or `nil` if a header was rejected (CR/LF in a value, …).
private func makeEngineResponse(_ response: Response, requestID: String, close: Bool) -> OpaquePointer? {
    let body = SentBody(response.body)
    let lent = Unmanaged.passRetained(body)
    let created = body.bytes.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer_with_free_callback_cls(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), releaseSentBody, lent.toOpaque())
    }
    guard let mhdResponse = created else {
        lent.release()
        return nil
    }
    for field in response.headers {
        if HTTPHeaders.namesMatch(field.name, "Content-Length")
            || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
            || HTTPHeaders.namesMatch(field.name, "X-Request-ID")
        {
            continue
        }
        // `withCString`, not the implicit conversion: that copies a small string (most names and
        // many values) into a new array on the heap.
        guard isValidFieldName(field.name), isValidFieldValue(field.value),
            field.name.withCString({ name in
                field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
            }) == .YES
        else {
            MHD_destroy_response(mhdResponse)
            return nil
        }
    }
    _ = requestID.withCString { MHD_add_response_header(mhdResponse, "X-Request-ID", $0) }
    if close && !response.headers.contains("Connection") {
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    return mhdResponse
}

/// RFC 9110 §5.1 field-name: a non-empty token.
private func isValidFieldName(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy(ASCIIByteSet.token.contains) }
}

/// RFC 9110 §5.5 field-value: no CR, LF or NUL (header injection). Read on the string's
/// contiguous bytes, eight at a time (a `Content-Security-Policy` is ~200 bytes, on every answer;
/// byte by byte this was 1 % of a first visit).
private func isValidFieldValue(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { bytes in
        let ones: UInt64 = 0x0101_0101_0101_0101
        /// Whether any of the word's eight bytes is zero (exact for "any").
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & (ones &* 0x80) != 0 }
        var index = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= bytes.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if hasZeroByte(word) || hasZeroByte(word ^ (ones &* 0x0D)) || hasZeroByte(word ^ (ones &* 0x0A)) {
                    return false
                }
                index += 8
            }
        }
        while index < bytes.count {
            if bytes[index] == 0x00 || bytes[index] == 0x0A || bytes[index] == 0x0D { return false }
            index += 1
        }
        return true
    }
}

extension Duration {
    /// Whole microseconds.
    fileprivate var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

// MARK: - Multipart bodies

/// The parts of a multipart/form-data body (RFC 7578), split by libmicrohttpd's post processor.
final class MultipartParts {
    var fields: [(name: String, value: String)] = []
    var files: [UploadedFile] = []
    private var current: (name: String, fileName: String?, contentType: String?, data: [UInt8])?

    /// Whether the request's `Content-Type` is `multipart/form-data`.
    static func isMultipart(_ headers: HTTPHeaders) -> Bool {
        guard let type = headers["Content-Type"] else { return false }
        let mediaType = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(Substring(mediaType.utf8.trimmingOptionalWhiteSpace)).lowercased() == "multipart/form-data"
    }

    /// Splits a whole body; nil when it is not valid multipart (no boundary, a broken part).
    static func split(_ body: [UInt8], _ connection: OpaquePointer) -> MultipartParts? {
        let parts = MultipartParts()
        let opaque = Unmanaged.passUnretained(parts).toOpaque()
        guard let processor = MHD_create_post_processor(connection, 64 << 10, mhdPostPart, opaque) else { return nil }
        let processed = body.isEmpty ? MHD_Result.YES : body.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { bytes in
                MHD_post_process(processor, bytes, buffer.count)
            }
        }
        // NO from the destroy: the body ended before its closing delimiter (a truncated upload,
        // whose last part would otherwise arrive cut short, or not at all).
        let completed = MHD_destroy_post_processor(processor)
        guard processed == .YES, completed == .YES else { return nil }
        parts.finishPart()
        return parts
    }

    /// Receives `size` bytes of the value named `name`, at `offset` (0 starts a new value).
    func receive(name: String, fileName: String?, contentType: String?, bytes: UnsafeBufferPointer<UInt8>, offset: UInt64) {
        if offset == 0 || current?.name != name {
            finishPart()
            current = (name, fileName, contentType, [])
        }
        current?.data.append(contentsOf: bytes)
    }

    func finishPart() {
        guard let part = current else { return }
        current = nil
        if let fileName = part.fileName {
            files.append(UploadedFile(fieldName: part.name, fileName: fileName, contentType: part.contentType, data: part.data))
        } else {
            fields.append((part.name, String(decoding: part.data, as: UTF8.self)))
        }
    }
}

/// `MHD_PostDataIterator` feeding the ``MultipartParts`` at `cls`.
func mhdPostPart(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ filename: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?,
    _ transferEncoding: UnsafePointer<CChar>?,
    _ data: UnsafePointer<CChar>?,
    _ offset: UInt64,
    _ size: Int
) -> MHD_Result {
    guard let cls, let key else { return .NO }
    let parts = Unmanaged<MultipartParts>.fromOpaque(cls).takeUnretainedValue()
    let bytes = data.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: size) }
        ?? UnsafeBufferPointer(start: nil, count: 0)
    parts.receive(name: String(cString: key), fileName: filename.map { String(cString: $0) },
                  contentType: contentType.map { String(cString: $0) }, bytes: bytes, offset: offset)
    return .YES
}
