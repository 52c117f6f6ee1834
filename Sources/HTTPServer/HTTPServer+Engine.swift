import CMicroHTTPD
import Synchronization

// The libmicrohttpd callbacks. They are top-level functions in this library module on purpose:
// closures written in an executable's main.swift are main-actor isolated under Swift 6, and the
// inserted isolation check traps (SIGILL) when the engine calls them on its own threads.
//
// Lifecycle of one request (MHD 0.9.75):
//   1. mhdURILog            request line parsed: create RequestState (retained in *con_cls),
//                           count it in flight.
//   2. mhdAccessHandler #1  headers parsed: check URI/header/Content-Length limits. Answering
//                           here makes MHD close the connection, so only refusals do.
//   3. mhdAccessHandler #n  body chunks: accumulate up to maxBodyBytes.
//   4. mhdAccessHandler     final call (no upload data): build Request, run the handler,
//                           queue the response (keep-alive preserved).
//   5. mhdRequestCompleted  response sent or connection dropped: release state, uncount it.

/// State shared by all callbacks of one server; passed to C as an unretained `void *`
/// (the `HTTPServer` owns it and outlives the engine).
final class ServerContext: Sendable {
    let configuration: HTTPServer.Configuration
    let logger: @Sendable (String) -> Void
    let handler: @Sendable (Request) -> Response
    /// Requests between URI-log and completion callbacks.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop()`: responses then carry `Connection: close`.
    let stopping = Atomic<Bool>(false)
    /// The engine's most recent error message, quoted when `start()` fails.
    let lastEngineMessage = Mutex<String?>(nil)

    init(
        configuration: HTTPServer.Configuration,
        logger: @escaping @Sendable (String) -> Void,
        handler: @escaping @Sendable (Request) -> Response
    ) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
    }
}

/// Per-request state, owned through MHD's `*con_cls`. A connection is served by one engine
/// thread at a time, so it needs no lock.
final class RequestState {
    let rawTarget: String
    let startedAt = ContinuousClock.now
    let id = Request.makeID()
    var sawHeaders = false
    var method = HTTPMethod.get
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var bodyTooLarge = false
    var discardedBytes = 0

    init(rawTarget: String) { self.rawTarget = rawTarget }

    /// The target without its query, shortened for the access log.
    var logPath: String {
        let path = rawTarget.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            .first ?? ""
        return path.utf8.count > 200 ? String(path.prefix(200)) + "…" : String(path)
    }
}

// MARK: - Callbacks

/// `MHD_OPTION_URI_LOG_CALLBACK`: sees the raw request target (with query) before MHD decodes
/// it; its return value becomes the request's initial `*con_cls`.
func mhdURILog(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = RequestState(rawTarget: uri.map { String(cString: $0) } ?? "")
    context.inFlight.add(1, ordering: .acquiringAndReleasing)
    return Unmanaged.passRetained(state).toOpaque()
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

    let state: RequestState
    if let existing = conCls.pointee {
        state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    } else {
        // Not expected (the URI-log callback runs first), but stay consistent if it did not.
        state = RequestState(rawTarget: url.map { String(cString: $0) } ?? "/")
        context.inFlight.add(1, ordering: .acquiringAndReleasing)
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
    }

    // 1. Headers complete: check the limits that need no body.
    if !state.sawHeaders {
        state.sawHeaders = true
        state.method = HTTPMethod(rawValue: method.map { String(cString: $0) } ?? "GET")
        state.headers = readHeaders(of: connection)
        if state.rawTarget.utf8.count > limits.maxURIBytes {
            return refuse(.uriTooLong, "request target longer than \(limits.maxURIBytes) bytes",
                          connection, state, context)
        }
        let versionLength = version.map { strlen($0) } ?? 8
        if headerBytes(state, versionLength: versionLength) > limits.maxHeaderBytes {
            return refuse(.requestHeaderFieldsTooLarge,
                          "request line and headers larger than \(limits.maxHeaderBytes) bytes",
                          connection, state, context)
        }
        if let declared = state.headers["Content-Length"].flatMap({ Int($0) }),
            declared > limits.maxBodyBytes
        {
            return refuse(.contentTooLarge, "request body larger than \(limits.maxBodyBytes) bytes",
                          connection, state, context)
        }
        return .YES
    }

    // 2. A body chunk. MHD cannot queue a response now; past the limit (possible only with
    //    chunked bodies, Content-Length was checked above), discard and answer 413 at the end,
    //    but close the connection if the client keeps sending far beyond the limit.
    let chunkSize = uploadDataSize.pointee
    if chunkSize > 0 {
        if !state.bodyTooLarge && state.body.count + chunkSize > limits.maxBodyBytes {
            state.bodyTooLarge = true
            state.body = []
        }
        if state.bodyTooLarge {
            state.discardedBytes += chunkSize
            if state.discardedBytes > max(limits.maxBodyBytes, 64 << 10) {
                context.logger("\(state.method) \(state.logPath) body far over the limit, closing \(state.id)")
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

    // 3. Request complete.
    if state.bodyTooLarge {
        return refuse(.contentTooLarge, "request body larger than \(limits.maxBodyBytes) bytes",
                      connection, state, context)
    }
    let request: Request
    do {
        let body = state.body
        state.body = []
        request = try Request(
            method: state.method, target: state.rawTarget, headers: state.headers, body: body,
            remoteAddress: clientAddress(of: connection), id: state.id)
    } catch {
        return refuse(.badRequest, error.description, connection, state, context, close: false)
    }
    let response = context.handler(request)
    return send(response, connection, state, context, close: false)
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the response was sent or the connection dropped.
func mhdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    Unmanaged<RequestState>.fromOpaque(raw).release()
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
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

/// Answers with a short plain-text error. `close` (the default) for refusals before the body
/// was read: the connection cannot be reused then.
private func refuse(
    _ status: HTTPStatus, _ message: String,
    _ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext,
    close: Bool = true
) -> MHD_Result {
    send(.text("\(status): \(message)\n", status: status), connection, state, context, close: close)
}

/// Hands `response` to MHD (one copy of the body, made by MHD) and writes the access-log line.
private func send(
    _ response: Response,
    _ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext,
    close: Bool
) -> MHD_Result {
    guard let mhdResponse = makeEngineResponse(response, requestID: state.id,
                                               close: close || context.stopping.load(ordering: .acquiring))
    else {
        context.logger("\(state.method) \(state.logPath) handler returned an invalid header; answering 500 \(state.id)")
        let fallback = Response.text("500 Internal Server Error\n", status: .internalServerError)
        guard let plain = makeEngineResponse(fallback, requestID: state.id, close: close) else { return .NO }
        return queue(plain, fallback, connection, state, context)
    }
    return queue(mhdResponse, response, connection, state, context)
}

private func queue(
    _ mhdResponse: OpaquePointer, _ response: Response,
    _ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext
) -> MHD_Result {
    let result = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
    MHD_destroy_response(mhdResponse)
    let micros = (ContinuousClock.now - state.startedAt).microseconds
    let bytes = state.method == .head ? 0 : response.body.count
    context.logger("\(state.method) \(state.logPath) \(response.status.code) \(bytes) \(micros)µs \(state.id)")
    return result
}

/// An MHD response for `response`, or `nil` if a header was rejected (CR/LF in a value, …).
private func makeEngineResponse(_ response: Response, requestID: String, close: Bool) -> OpaquePointer? {
    let body = response.body
    let created = body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse = created else { return nil }
    for field in response.headers {
        if HTTPHeaders.namesMatch(field.name, "Content-Length")
            || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
            || HTTPHeaders.namesMatch(field.name, "X-Request-ID")
        {
            continue
        }
        guard isValidFieldName(field.name), isValidFieldValue(field.value),
            MHD_add_response_header(mhdResponse, field.name, field.value) == .YES
        else {
            MHD_destroy_response(mhdResponse)
            return nil
        }
    }
    _ = MHD_add_response_header(mhdResponse, "X-Request-ID", requestID)
    if close && !response.headers.contains("Connection") {
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    return mhdResponse
}

/// RFC 9110 §5.1 field-name: a non-empty token.
private func isValidFieldName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy { byte in
        (0x21...0x7E).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
    }
}

/// RFC 9110 §5.5 field-value: no CR, LF or NUL (header injection).
private func isValidFieldValue(_ value: String) -> Bool {
    !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
}

extension Duration {
    /// Whole microseconds.
    fileprivate var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
