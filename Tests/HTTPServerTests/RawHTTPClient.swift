import Foundation
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny blocking HTTP/1.1 client over one TCP socket, so tests control exactly which bytes go
/// on the wire and can see whether the server keeps or closes the connection.
final class RawHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A parsed response.
    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (numeric IPv4 or IPv6) on `port`, from the IPv4 address `source` when
    /// given (any of 127.0.0.0/8 works on loopback, so tests can be "another client"); every read
    /// gives up after `timeout` seconds.
    init(host: String = "127.0.0.1", port: Int, timeout: Int = 3, source: String? = nil) throws {
        var storage = sockaddr_storage()
        let length: Int
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: ipv4) { target.copyMemory(from: $0) } }
            length = MemoryLayout<sockaddr_in>.size
        } else if inet_pton(AF_INET6, host, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: ipv6) { target.copyMemory(from: $0) } }
            length = MemoryLayout<sockaddr_in6>.size
        } else {
            throw Failure(description: "not a numeric address: \(host)")
        }
        fd = socket(Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                Glibc.close(fd)
                throw Failure(description: "not a numeric IPv4 source address: \(source)")
            }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                Glibc.close(fd)
                throw Failure(description: "bind(\(source)) failed: errno \(errno)")
            }
        }
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(length)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect() failed: errno \(errno)")
        }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Closes the connection now.
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Closes the sending side only (the server sees end-of-file; answers can still arrive).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Whether this host can bind a socket on the IPv6 loopback address (containers may lack it).
    static var ipv6LoopbackWorks: Bool {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }

    /// Sends all of `bytes`; returns false if the peer closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads one response. `bodyExpected: false` for HEAD (Content-Length present, no body).
    func readResponse(bodyExpected: Bool = true) throws -> Reply {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body: [UInt8] = []
        if bodyExpected, let length = headers["Content-Length"].flatMap({ Int($0) }) {
            while buffer.count < length {
                guard try fill() else { throw Failure(description: "connection closed mid-body") }
            }
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        return Reply(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (the next read sees EOF, or a reset).
    func peerClosed() -> Bool {
        do { return try !fill() } catch { return true }
    }

    /// Whether the server has closed the connection, without waiting for data that may come.
    func peerClosedNow() -> Bool {
        var byte: UInt8 = 0
        let received = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if received == 0 { return true }
        if received < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        return false
    }

    /// Sends one request and reads the reply.
    func exchange(_ request: String, bodyExpected: Bool = true) throws -> Reply {
        send(request)
        return try readResponse(bodyExpected: bodyExpected)
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if let range = buffer.firstRange(of: marker) { return range.lowerBound }
            guard try fill() else { throw Failure(description: "connection closed before a full response head") }
        }
    }

    /// Reads more bytes; false on orderly EOF.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if received > 0 {
            buffer += chunk[..<received]
            return true
        }
        if received == 0 { return false }
        if errno == ECONNRESET { return false }
        throw Failure(description: "recv() failed or timed out: errno \(errno)")
    }
}

/// Collects log lines from the server's logger closure.
final class LogSink: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

import Synchronization

/// Starts a server on a free loopback port, runs `body`, and stops the server.
@discardableResult
func withServer<T>(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(port: 0, threadCount: 2),
    log: LogSink = LogSink(),
    refusal: @escaping @Sendable (HTTPStatus, String, String, HTTPHeaders) -> Response = HTTPServer.plainRefusal,
    handler: @escaping @Sendable (Request) -> Response,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    let server = HTTPServer(configuration: configuration, logger: { log.append($0) }, refusal: refusal,
                            handler: handler)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// A handler that describes the request it got, one `key=value` per line.
@Sendable func echoHandler(_ request: Request) -> Response {
    var lines = [
        "method=\(request.method)",
        "path=\(request.path)",
        "rawPath=\(request.rawPath)",
        "remote=\(request.remoteAddress)",
        "id=\(request.id)",
        "body=\(String(decoding: request.body, as: UTF8.self))",
    ]
    lines += request.query.map { "query.\($0.name)=\($0.value)" }
    lines += request.cookies.sorted { $0.key < $1.key }.map { "cookie.\($0.key)=\($0.value)" }
    lines += request.form.map { "form.\($0.name)=\($0.value)" }
    return .text(lines.joined(separator: "\n") + "\n")
}
