import Dispatch
import Fetch
import Foundation
import HTTPServer
import ShopTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The loopback server every test fetches from: an image, a 404, redirects.
private func withServer(_ body: (FileServer) throws -> Void) throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)
    let server = try FileServer([
        "/photo.png": Response(headers: ["Content-Type": "image/png"], body: png),
        "/big.png": Response(body: Array(repeating: 1, count: 200_000)),
        "/moved": .redirect(to: "/photo.png", status: .found),
        "/to-ftp": .redirect(to: "ftp://127.0.0.1/photo.png", status: .found),
        "/to-other-host": .redirect(to: "http://localhost:1/photo.png", status: .found),
        "/loop": .redirect(to: "/loop", status: .found),
        "/gone": Response(status: .gone, body: Array("gone".utf8)),
    ])
    defer { server.stop() }
    try body(server)
}

private let limits = HTTPFetch.Limits(maximumBytes: 10_000, connectTimeout: 5, totalTimeout: 20, maximumRedirects: 3)

/// The rule "127.0.0.1 named by the operator; nothing else".
private func onlyLoopback(_ host: String) -> HTTPFetch.HostAccess { host == "127.0.0.1" ? .anyAddress : .refused }

private func fetchError(_ url: String, limits: HTTPFetch.Limits = limits,
                        access: (String) -> HTTPFetch.HostAccess = onlyLoopback) -> FetchError? {
    do {
        _ = try HTTPFetch.get(url, limits: limits, access: access)
        return nil
    } catch {
        return error
    }
}

@Suite("HTTPFetch: http(s) downloads with SSRF rules, a byte cap and time limits")
struct HTTPFetchTests {
    @Test func fetchesABodyAndFollowsARedirectOnAnAllowedHost() throws {
        try withServer { server in
            let direct = try HTTPFetch.get(server.url("/photo.png"), limits: limits, access: onlyLoopback)
            #expect(direct.bytes.count == 108 && direct.bytes.starts(with: [0x89, 0x50]))
            #expect(direct.status == 200)
            let moved = try HTTPFetch.get(server.url("/moved"), limits: limits, access: onlyLoopback)
            #expect(moved.bytes == direct.bytes)
            #expect(moved.url == server.url("/photo.png"))
            #expect(server.requests("/moved") == 1 && server.requests("/photo.png") == 2)
        }
    }

    /// Each refusal, with the error that names it; the server never sees a refused host.
    @Test(arguments: [
        ("/missing", "HTTP 404"),
        ("/gone", "HTTP 410"),
        ("/to-ftp", "not followed: only http and https"),
        ("/to-other-host", "host “localhost” is not allowed"),
        ("/loop", "more than 3 redirects"),
        ("/big.png", "at most 10000 bytes"),
    ])
    func refusesWhatTheRulesForbid(path: String, message: String) throws {
        try withServer { server in
            let error = try #require(fetchError(server.url(path)))
            #expect(error.description.contains(message), "\(error)")
            #expect(error.url == server.url(path))
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x.png", "gopher://127.0.0.1/", "not a url", "http://", "https://:80/x.png"])
    func onlyHTTPAndHTTPSURLsAreFetched(url: String) {
        guard case .unsupportedURL = fetchError(url) else {
            Issue.record("\(url) was not refused as unsupported: \(String(describing: fetchError(url)))")
            return
        }
    }

    /// A host allowed at public addresses only cannot reach loopback, by name or by number; the
    /// check is on the address connected to, so `localhost` is refused like `127.0.0.1`.
    @Test(arguments: ["127.0.0.1", "localhost"])
    func aPublicOnlyHostResolvingToLoopbackIsRefused(host: String) throws {
        try withServer { server in
            let url = "http://\(host):\(server.server.port)/photo.png"
            let error = fetchError(url) { _ in .publicAddressesOnly }
            guard case let .privateAddress(_, refusedHost, address) = error else {
                Issue.record("expected a private-address refusal, got \(String(describing: error))")
                return
            }
            #expect(refusedHost == host)
            #expect(address == "127.0.0.1" || address == "0:0:0:0:0:0:0:1")
            #expect(server.requests("/photo.png") == 0)
        }
    }

    @Test func aHostTheRuleRefusesIsNeverAsked() throws {
        try withServer { server in
            let error = fetchError(server.url("/photo.png")) { _ in .refused }
            #expect(error == .hostNotAllowed(url: server.url("/photo.png"), host: "127.0.0.1"))
            #expect(server.requests("/photo.png") == 0)
        }
    }

    /// A body with no `Content-Length` that grows past the cap: the transfer is aborted as soon
    /// as the cap is passed, so the server cannot send its 64 MB (it gets a broken pipe after
    /// what the socket buffers hold).
    @Test func theByteCapAbortsAStreamWithoutContentLength() throws {
        let stream = try StreamingServer(totalBytes: 64 << 20)
        let error = fetchError("http://127.0.0.1:\(stream.port)/endless.jpg")
        #expect(error == .tooLarge(url: "http://127.0.0.1:\(stream.port)/endless.jpg", maximum: 10_000))
        let sent = stream.waitForSent()
        #expect(sent < 16 << 20, "the server sent \(sent) bytes before the client hung up")
    }

    @Test(arguments: [
        ([93, 184, 215, 14], true), ([8, 8, 8, 8], true), ([127, 0, 0, 1], false), ([10, 1, 2, 3], false),
        ([172, 16, 0, 1], false), ([172, 32, 0, 1], true), ([192, 168, 1, 1], false), ([169, 254, 169, 254], false),
        ([100, 64, 0, 1], false), ([0, 0, 0, 0], false), ([224, 0, 0, 1], false), ([255, 255, 255, 255], false),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], false),                                // ::1
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1], false),                        // ::ffff:127.0.0.1
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 8, 8, 8, 8], true),                           // ::ffff:8.8.8.8
        ([0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], false),                          // fe80::1
        ([0xFD, 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], false),                          // fd12::1
        ([0x20, 0x01, 0x48, 0x60, 0x48, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x88], true),          // 2001:4860:4860::8888
        ([0x20, 0x02, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], false),                         // 6to4 of 10.0.0.1
    ] as [([UInt8], Bool)])
    func publicAddresses(bytes: [UInt8], isPublic: Bool) throws {
        let address = try #require(IPAddress(bytes: bytes))
        #expect(address.isPublic == isPublic, "\(address)")
    }
}

/// A one-connection server that answers any request with a 200 and no `Content-Length`, then
/// writes up to `totalBytes` until the client hangs up; counts what it managed to send.
private final class StreamingServer: Sendable {
    let port: Int
    private let sent = Mutex<Int?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(totalBytes: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard listener >= 0, bound == 0, listen(listener, 1) == 0 else { throw StreamingServerError() }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            defer { close(listener); done.signal() }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            let head = Array("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nConnection: close\r\n\r\n".utf8)
            _ = send(connection, head, head.count, Int32(MSG_NOSIGNAL))
            let chunk = [UInt8](repeating: 0xAB, count: 64 * 1024)
            var total = 0
            while total < totalBytes {
                let count = send(connection, chunk, chunk.count, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                total += count
            }
            sent.withLock { $0 = total }
        }
        thread.start()
    }

    /// What was sent before the client hung up (waits for the server to finish).
    func waitForSent() -> Int {
        _ = done.wait(timeout: .now() + 30)
        return sent.withLock { $0 } ?? -1
    }
}

private struct StreamingServerError: Error {}

/// A loopback `https` server with a certificate made for the test (openssl) and served by
/// Python's `ssl`: what `--fetch-images` meets at a real CDN, with a certificate no system trusts.
private final class TLSServer {
    let port: Int
    /// The server's certificate (PEM), self-signed: the authority to trust it by.
    let certificate: String
    private let directory: URL
    private let process = Process()
    private let input = Pipe()

    /// - Parameter names: the certificate's subject alternative names (`IP:127.0.0.1`, `DNS:localhost`).
    init(names: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                             "-days", "2", "-subj", "/CN=shoppable-test", "-addext", "subjectAltName=\(names)"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw TLSServerError(message: "openssl req failed") }

        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import http.server, ssl, sys, threading
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    body = b"\\x89PNG over tls"
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            class Server(http.server.HTTPServer):
                def handle_error(self, request, address):
                    pass  # a client that refuses the certificate ends its handshake
            server = Server(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            sys.stdin.read()
            """, certificate, key]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw TLSServerError(message: "the TLS server did not start")
        }
        self.port = port
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

private struct TLSServerError: Error {
    var message: String
}

/// Issue #13 (the TLS fetch was untested): `https` downloads verify the server's certificate and
/// the name it is for; a certificate the shop trusts is fetched over TLS.
@Suite("HTTPFetch over TLS")
struct HTTPFetchTLSTests {
    private static func anyLoopback(_ host: String) -> HTTPFetch.HostAccess { .anyAddress }

    @Test(.bug(id: "13")) func aTrustedCertificateIsFetchedOverTLS() throws {
        let server = try TLSServer(names: "IP:127.0.0.1")
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/photo.png"
        let response = try HTTPFetch.get(url, limits: limits, certificateAuthorities: server.certificate,
                                         access: Self.anyLoopback)
        #expect(response.bytes == [0x89] + Array("PNG over tls".utf8))
        #expect(response.status == 200 && response.url == url)
    }

    /// Not trusted (the system's authorities), or trusted but for another name: refused.
    @Test(.bug(id: "13"), arguments: [("IP:127.0.0.1", false), ("DNS:localhost", true)])
    func anUntrustedOrMisnamedCertificateIsRefused(names: String, trusted: Bool) throws {
        let server = try TLSServer(names: names)
        defer { server.stop() }
        do {
            _ = try HTTPFetch.get("https://127.0.0.1:\(server.port)/photo.png", limits: limits,
                                  certificateAuthorities: trusted ? server.certificate : nil, access: Self.anyLoopback)
            Issue.record("fetched over an unverified connection")
        } catch let .transfer(_, code, message) {
            #expect(code == 60, "CURLE_PEER_FAILED_VERIFICATION: \(message)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
