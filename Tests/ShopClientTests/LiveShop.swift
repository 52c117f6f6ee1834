import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import HTTPServer
import ShopClient
import ShopCore
import ShopTestSupport
import ShopWeb
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `body` with a bare `HTTPServer` answering with `handler` on a free port.
func withServer<T>(_ handler: @escaping @Sendable (Request) -> Response,
                   _ body: (URL) async throws -> T) async throws -> T {
    let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threadCount: 2), logger: { _ in },
                            handler: handler)
    try server.start()
    defer { server.stop() }
    return try await body(URL(string: "http://127.0.0.1:\(server.port)")!)
}

/// A port on 127.0.0.1 that refuses connections, for as long as this is alive: a socket bound to
/// it that never listens (a connection gets a reset: "connection refused"). Held, not released:
/// a port a server had bound and then released was given to another test's server during a
/// client's retries, which then answered (a clean-clone run saw "Lamps" instead of offline).
final class ClosedPort {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let failure = POSIXErrorCode(rawValue: errno) ?? .EIO
            Glibc.close(socket)
            throw POSIXError(failure)
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:<port>`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { Glibc.close(socket) }
}

/// A transport that forwards to `URLSession` and remembers every request it sent.
final class Recorder: Sendable {
    private let sent = Mutex<[URLRequest]>([])
    let live = HTTPTransport.urlSession()

    var requests: [URLRequest] { sent.withLock { $0 } }

    var transport: HTTPTransport {
        HTTPTransport { [self] request in
            sent.withLock { $0.append(request) }
            return try await live.send(request)
        }
    }
}

/// A retry policy that records its waits instead of sleeping.
final class Sleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    var recorded: [Duration] { waits.withLock { $0 } }

    func policy(maxAttempts: Int = 3) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, sleep: { [self] duration in waits.withLock { $0.append(duration) } })
    }
}

/// Counts calls across the server's threads.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    /// Adds one and returns the new count.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}
