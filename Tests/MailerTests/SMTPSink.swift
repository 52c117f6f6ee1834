import Foundation
import Glibc
import Synchronization

/// A tiny SMTP server for tests: a blocking loopback socket on a free port, served by one
/// background thread, speaking just enough SMTP (RFC 5321) for libcurl — `220` greeting,
/// `EHLO`/`HELO` → `250`, `MAIL FROM`/`RCPT TO` → `250` (or `550` for addresses in
/// `rejecting`), `DATA` → `354`, data until `CRLF.CRLF` → `250`, `RSET`/`NOOP` → `250`,
/// `QUIT` → `221`. With `greets: false` it accepts connections and stays silent (a hung
/// server). Records each accepted message with the dot-stuffing undone.
final class SMTPSink: Sendable {
    /// One message accepted after `DATA`.
    struct Delivery: Sendable, Equatable {
        var mailFrom: String
        /// What followed the sender's address in `MAIL FROM` (e.g. ` SMTPUTF8`).
        var mailParameters: String = ""
        var recipients: [String]
        /// The data as sent, lines joined by CRLF (with a final CRLF), leading dots unstuffed.
        var data: [UInt8]
    }

    struct SocketError: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    let port: UInt16
    private let listener: Int32
    private let rejecting: Set<String>
    private let greets: Bool
    private let offersUTF8: Bool
    private let state = Mutex<[Delivery]>([])
    private let stopped = Atomic<Bool>(false)

    /// Starts listening on `127.0.0.1` on a port the kernel picks.
    /// With `offersUTF8`, its `EHLO` answer offers `SMTPUTF8` (RFC 6531).
    init(rejecting: Set<String> = [], greets: Bool = true, offersUTF8: Bool = false) throws {
        let (listener, port) = try Self.bindLoopback()
        guard listen(listener, 8) == 0 else {
            let code = errno
            close(listener)
            throw SocketError(call: "listen", code: code)
        }
        self.listener = listener
        self.port = port
        self.rejecting = rejecting
        self.offersUTF8 = offersUTF8
        self.greets = greets
        Thread.detachNewThread { [self] in serve() }
    }

    /// The messages accepted so far.
    var deliveries: [Delivery] { state.withLock { $0 } }

    /// Stops accepting; the serving thread closes the socket when it notices.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// A URL on which nothing listens: a port the kernel handed out, then released.
    static func refusingURL() throws -> String {
        let (socket, port) = try bindLoopback()
        close(socket)
        return "smtp://127.0.0.1:\(port)"
    }

    private static func bindLoopback() throws -> (socket: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw SocketError(call: "bind", code: code)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func serve() {
        defer { close(listener) }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            serveSession(on: connection)
            close(connection)
        }
    }

    private func serveSession(on connection: Int32) {
        var reader = LineReader(socket: connection)
        guard greets else {
            while reader.readLine() != nil {} // until the client gives up and closes
            return
        }
        func reply(_ text: String) {
            let bytes = Array((text + "\r\n").utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        func angleBracketed(_ line: String) -> String {
            guard let open = line.firstIndex(of: "<"), let close = line[open...].firstIndex(of: ">") else { return "" }
            return String(line[line.index(after: open)..<close])
        }
        var mailFrom: String?
        var mailParameters = ""
        var recipients: [String] = []
        reply("220 sink.test ESMTP test sink")
        while let lineBytes = reader.readLine() {
            let line = String(decoding: lineBytes, as: UTF8.self)
            let command = line.uppercased()
            if command.hasPrefix("EHLO") || command.hasPrefix("HELO") {
                if offersUTF8 && command.hasPrefix("EHLO") {
                    reply("250-sink.test")
                    reply("250 SMTPUTF8")
                } else {
                    reply("250 sink.test")
                }
            } else if command.hasPrefix("MAIL FROM:") {
                mailFrom = angleBracketed(line)
                mailParameters = line.firstIndex(of: ">").map { String(line[line.index(after: $0)...]) } ?? ""
                recipients = []
                reply("250 OK")
            } else if command.hasPrefix("RCPT TO:") {
                let recipient = angleBracketed(line)
                if rejecting.contains(recipient) {
                    reply("550 5.1.1 no such user")
                } else {
                    recipients.append(recipient)
                    reply("250 OK")
                }
            } else if command == "DATA" {
                guard let sender = mailFrom, !recipients.isEmpty else {
                    reply("503 need MAIL and RCPT first")
                    continue
                }
                reply("354 end data with <CR><LF>.<CR><LF>")
                var data: [UInt8] = []
                while let dataLine = reader.readLine() {
                    if dataLine == [UInt8(ascii: ".")] {
                        state.withLock { $0.append(Delivery(mailFrom: sender, mailParameters: mailParameters, recipients: recipients,
                                                           data: data)) }
                        reply("250 OK queued")
                        break
                    }
                    data += dataLine.first == UInt8(ascii: ".") ? Array(dataLine.dropFirst()) : dataLine
                    data += [0x0D, 0x0A]
                }
                mailFrom = nil
                recipients = []
            } else if command == "RSET" || command == "NOOP" {
                if command == "RSET" {
                    mailFrom = nil
                    recipients = []
                }
                reply("250 OK")
            } else if command == "QUIT" {
                reply("221 bye")
                return
            } else {
                reply("502 command not implemented")
            }
        }
    }
}

/// Reads CRLF-terminated lines from a blocking socket.
private struct LineReader {
    let socket: Int32
    private var buffer: [UInt8] = []

    init(socket: Int32) {
        self.socket = socket
    }

    /// The next line without its CRLF, or `nil` at end of stream, on error or timeout.
    mutating func readLine() -> [UInt8]? {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 0x0D && buffer[$0 + 1] == 0x0A }) {
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 2)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}
