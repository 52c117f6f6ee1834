import Foundation
import HTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The front door under abuse (issue #8): every request answered, nothing leaked, one client
/// unable to take the server from the others. Real sockets against the real engine.
@Suite("HTTPServer front door", .serialized)
struct FrontDoorTests {
    /// Waits up to two seconds for the engine to report every request completed.
    private func settled(_ server: HTTPServer) -> Bool {
        for _ in 0..<200 {
            if server.requestsInFlight == 0 { return true }
            usleep(10_000)
        }
        return false
    }

    /// Sends `bytes` every 200 ms until the server closes the connection; how long that took, or
    /// nil when it was still open after 6 s.
    private func secondsUntilClosed(_ client: RawHTTPClient, trickling bytes: String) -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(6) {
            usleep(200_000)
            if !client.send(bytes) || client.peerClosedNow() { return ContinuousClock.now - started }
        }
        return nil
    }

    @Test(
        "Long query strings are answered and leave nothing in flight",
        .bug(id: 8, "point 1: ~600 query parameters leaked per-request state and got no answer"),
        arguments: [(540, 200), (600, 200), (2_000, 200), (4_000, 200), (6_000, 414)])
    func manyQueryParameters(count: Int, status: Int) throws {
        try withServer(handler: echoHandler) { server in
            // "a&a&…" is the densest query: one parameter per two bytes (6 000 of them pass the
            // 8 KiB target limit and must get the shop's 414, not silence).
            let query = Array(repeating: "a", count: count).joined(separator: "&")
            for _ in 0..<20 {
                let client = try RawHTTPClient(port: server.port)
                let reply = try client.exchange("POST /cart/add?\(query) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                #expect(reply.status == status)
                if status == 200 { #expect(reply.text.contains("path=/cart/add\n")) }
            }
            #expect(settled(server), "requests still counted in flight: \(server.requestsInFlight)")
        }
    }

    @Test func queryParametersReachTheHandlerOnce() throws {
        try withServer(handler: echoHandler) { server in
            let client = try RawHTTPClient(port: server.port)
            let reply = try client.exchange("GET /search?q=oak+chair&q=second&empty= HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(reply.status == 200)
            #expect(reply.text.contains("query.q=oak chair\nquery.q=second\nquery.empty=\n"))
            // The connection is kept and the next request has its own query.
            let next = try client.exchange("GET /?page=2 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(next.text.contains("query.page=2\n"))
            #expect(!next.text.contains("query.q="))
        }
    }

    @Test("Header and cookie floods are answered 431", arguments: ["header", "cookie"])
    func headerFloods(kind: String) throws {
        try withServer(handler: { _ in .text("no") }) { server in
            for count in [1_000, 3_000] {
                let client = try RawHTTPClient(port: server.port)
                let fields = kind == "header"
                    ? (0..<count).map { "X-\($0): v\r\n" }.joined()
                    : "Cookie: " + (0..<count).map { "c\($0)=v" }.joined(separator: "; ") + "\r\n"
                let reply = try client.exchange("GET / HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
                #expect(reply.status == 431)
            }
            #expect(settled(server))
        }
    }

    @Test func stopIsPromptAfterAbusiveRequests() throws {
        let server = HTTPServer(
            configuration: .init(port: 0, threadCount: 2, shutdownGracePeriod: 30), logger: { _ in },
            handler: { _ in .text("ok") })
        try server.start()
        let query = Array(repeating: "p=v", count: 700).joined(separator: "&")
        for request in [
            "GET /?\(query) HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /\(String(repeating: "x", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<2_000).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",  // body never finished
        ] {
            let client = try RawHTTPClient(port: server.port)
            _ = client.send(request)
            _ = try? client.readResponse()
            client.close()
        }
        #expect(settled(server), "stop() would wait for \(server.requestsInFlight) request(s)")
        let started = ContinuousClock.now
        server.stop()
        // Not a speed target: with a request wrongly counted in flight, stop() waits the whole
        // 30 s grace period.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func stopDoesNotWaitForAClientStillSendingItsBody() throws {
        let server = HTTPServer(
            configuration: .init(port: 0, threadCount: 2, requestBodyTimeout: 30, shutdownGracePeriod: 30),
            logger: { _ in }, handler: { _ in .text("ok") })
        try server.start()
        let client = try RawHTTPClient(port: server.port, timeout: 5)
        _ = client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nemail=")
        usleep(200_000)
        #expect(server.requestsInFlight == 1, "its head has arrived")
        let started = ContinuousClock.now
        server.stop()
        // Not a speed target: before, stop() waited for the 30 s body deadline.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(client.peerClosed())
    }

    @Test(.bug(id: 8, "point 7: a GET with Expect: 100-continue dropped the request pipelined after it"))
    func expectContinueWithPipelinedRequestAnswersBoth() throws {
        try withServer(handler: { .text("ok \($0.path)") }) { server in
            let client = try RawHTTPClient(port: server.port)
            _ = client.send(
                "GET /first HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n"
                    + "GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
            var texts: [String] = []
            while texts.count < 2 {
                let reply = try client.readResponse()
                if reply.status == 100 { continue }
                #expect(reply.status == 200)
                texts.append(reply.text)
            }
            #expect(texts == ["ok /first", "ok /second"])
        }
    }

    @Test func expectContinueWithABodyStillWorks() throws {
        try withServer(handler: echoHandler) { server in
            let client = try RawHTTPClient(port: server.port)
            _ = client.send("POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            let interim = try client.readResponse(bodyExpected: false)
            #expect(interim.status == 100)
            let reply = try client.exchange("hello")
            #expect(reply.status == 200)
            #expect(reply.text.contains("body=hello\n"))
        }
    }

    @Test(.bug(id: 8, "point 2: the idle timeout restarted with every byte, so trickling clients held slots"))
    func aTricklingRequestHeadIsClosedAtItsDeadline() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, connectionTimeout: 30,
                                                     requestHeadTimeout: 1)
        let log = LogSink()
        try withServer(configuration, log: log, handler: { _ in .text("ok") }) { server in
            let client = try RawHTTPClient(port: server.port, timeout: 1)
            _ = client.send("GET / HTTP/1.1\r\nHost: x\r\n")
            // One header line every 200 ms: under the idle timeout, but never finishing.
            let elapsed = try #require(secondsUntilClosed(client, trickling: "X-Slow: 1\r\n"),
                                       "the server kept a trickling connection open")
            #expect(elapsed >= .milliseconds(700), "closed before the deadline: \(elapsed)")
            // A prompt client on another connection is still served.
            let other = try RawHTTPClient(port: server.port)
            #expect(try other.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        }
        #expect(log.all.contains { $0.contains("did not send their request in time") })
    }

    @Test func aTricklingBodyIsClosedAtItsDeadline() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, connectionTimeout: 30,
                                                     requestHeadTimeout: 1, requestBodyTimeout: 1)
        try withServer(configuration, handler: { _ in .text("ok") }) { server in
            let client = try RawHTTPClient(port: server.port, timeout: 1)
            _ = client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            #expect(secondsUntilClosed(client, trickling: "b") != nil)
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterTheHeadTimeout() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, connectionTimeout: 30,
                                                     requestHeadTimeout: 1)
        try withServer(configuration, handler: { _ in .text("ok") }) { server in
            let client = try RawHTTPClient(port: server.port, timeout: 5)
            #expect(try client.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
            // A request right away is still served on the same connection…
            #expect(try client.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
            // …and then the idle connection is closed by the head deadline (read waits up to 5 s).
            #expect(client.peerClosed())
        }
    }

    @Test(.bug(id: 8, "point 2: 1 000 connections from one address blocked every other visitor"))
    func oneAddressCannotTakeEverySlot() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, maxConnections: 50,
                                                     maxConnectionsPerAddress: 4)
        let log = LogSink()
        try withServer(configuration, log: log, handler: { .text("from \($0.remoteAddress)") }) { server in
            var held: [RawHTTPClient] = []
            for _ in 0..<4 {
                let client = try RawHTTPClient(port: server.port, timeout: 2)
                _ = client.send("GET / HTTP/1.1\r\n")  // slow: head never finished
                held.append(client)
            }
            usleep(100_000)
            // The fifth from the same address is closed at once…
            let fifth = try RawHTTPClient(port: server.port, timeout: 2)
            _ = fifth.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(fifth.peerClosed())
            // …while another address is served.
            let other = try RawHTTPClient(port: server.port, source: "127.0.0.2")
            let reply = try other.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(reply.text == "from 127.0.0.2")
            // Once the slow connections go, the address may connect again.
            for client in held { client.close() }
            held.removeAll()
            var served = false
            for _ in 0..<50 where !served {
                usleep(20_000)
                if let again = try? RawHTTPClient(port: server.port, timeout: 2),
                   let answer = try? again.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n") {
                    served = answer.status == 200
                }
            }
            #expect(served)
        }
        #expect(log.all.contains { $0.contains("more than 4 open from one address") })
    }

    @Test func trustedProxiesGiveTheForwardedClientAndAreNotLimited() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, maxConnectionsPerAddress: 2,
                                                     trustedProxies: ["127.0.0.1"])
        try withServer(configuration, handler: { .text($0.remoteAddress) }) { server in
            var clients: [RawHTTPClient] = []
            for _ in 0..<5 {  // more than the per-address limit: the proxy is exempt
                let client = try RawHTTPClient(port: server.port)
                let reply = try client.exchange(
                    "GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.7, 203.0.113.9\r\n\r\n")
                #expect(reply.text == "203.0.113.9")
                clients.append(client)
            }
            // An untrusted peer's header is ignored.
            let direct = try RawHTTPClient(port: server.port, source: "127.0.0.3")
            let reply = try direct.exchange("GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n")
            #expect(reply.text == "127.0.0.3")
        }
    }

    @Test func refusalsUseTheAppsResponse() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, maxBodyBytes: 10, maxURIBytes: 64)
        let refusal: @Sendable (HTTPStatus, String, String, HTTPHeaders) -> Response = { status, message, target, headers in
            var response = Response.text("shop says: \(message) (\(target.prefix(7)))", status: status)
            response.headers.add(name: "X-Asked-Language", value: headers["Accept-Language"] ?? "-")
            response.headers.add(name: "X-Content-Type-Options", value: "nosniff")
            return response
        }
        try withServer(configuration, refusal: refusal, handler: { _ in .text("no") }) { server in
            let long = try RawHTTPClient(port: server.port)
            let reply = try long.exchange("GET /\(String(repeating: "x", count: 100)) HTTP/1.1\r\nHost: x\r\nAccept-Language: tr\r\n\r\n")
            #expect(reply.status == 414)
            #expect(reply.headers["X-Asked-Language"] == "tr", "with the request's headers")
            #expect(reply.text == "shop says: The address is longer than 64 bytes. (/xxxxxx)", "with the request's target")
            #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
            let big = try RawHTTPClient(port: server.port)
            let tooLarge = try big.exchange("POST /api/v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n")
            #expect(tooLarge.status == 413)
            #expect(tooLarge.text.hasSuffix("(/api/v1)"))
            #expect(tooLarge.headers["X-Content-Type-Options"] == "nosniff")
        }
    }

    @Test func anHTTP11RequestWithoutHostIsRefused() throws {
        try withServer(handler: { _ in .text("ok") }) { server in
            let client = try RawHTTPClient(port: server.port)
            #expect(try client.exchange("GET / HTTP/1.1\r\n\r\n").status == 400)
            let old = try RawHTTPClient(port: server.port)
            #expect(try old.exchange("GET / HTTP/1.0\r\n\r\n").status == 200, "HTTP/1.0 needs no Host")
        }
    }

    @Test(arguments: [("gzip", 501), ("chunked, gzip", 400), ("gzip, chunked", 501), ("br", 501)])
    func unknownTransferCodingsAreRefusedAtOnce(coding: String, status: Int) throws {
        try withServer(handler: { _ in .text("ok") }) { server in
            let client = try RawHTTPClient(port: server.port, timeout: 3)
            let reply = try client.exchange("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n3\r\na=1\r\n0\r\n\r\n")
            #expect(reply.status == status)
        }
    }

    @Test func halfClosedConnectionsAreReleasedAfterTheirAnswer() throws {
        let configuration = HTTPServer.Configuration(port: 0, threadCount: 2, maxConnectionsPerAddress: 4)
        try withServer(configuration, handler: { _ in .text("ok") }) { server in
            // Three times the per-address limit: each slot must be given back soon after its answer.
            for _ in 0..<12 {
                let client = try RawHTTPClient(port: server.port, timeout: 3)
                _ = client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                client.shutdownWrite()
                #expect(try client.readResponse().status == 200)
                #expect(client.peerClosed(), "the server closes a half-closed connection after answering")
            }
        }
    }

    @Test(.bug(id: 8, "point 7: a path with spaces forged access-log fields"))
    func accessLogEscapesThePath() throws {
        let log = LogSink()
        try withServer(log: log, handler: { _ in .text("ok") }) { server in
            let client = try RawHTTPClient(port: server.port)
            _ = try client.exchange("GET /healthz 200 3 12µs forged HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        let line = try #require(log.all.first { $0.hasPrefix("GET /healthz") })
        #expect(line.hasPrefix("GET /healthz%20200%203%2012%C2%B5s%20forged 200 2 "))
        #expect(line.split(separator: " ").count == 6)
    }
}

@Suite("Client address and log escaping")
struct ClientAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), (" 10.0.0.1 ", "10.0.0.1"), ("192.0.2.1:4711", "192.0.2.1"),
        ("::1", "::1"), ("[2001:DB8::1]", "2001:db8::1"), ("[2001:db8::1]:443", "2001:db8::1"),
        ("::ffff:198.51.100.7", "198.51.100.7"), ("2001:0db8:0000::0001", "2001:db8::1"),
    ])
    func canonicalForms(input: String, expected: String) {
        #expect(ClientAddress.canonical(input) == expected)
    }

    @Test(arguments: ["", "unknown", "1.2.3", "300.1.1.1", "example.com", "1.2.3.4; DROP", "::g"])
    func notAddresses(input: String) {
        #expect(ClientAddress.canonical(input) == nil)
    }

    @Test(arguments: [
        // (X-Forwarded-For values, trusted, expected)
        ([String](), ["10.0.0.1"], "10.0.0.1"),
        (["203.0.113.9"], ["10.0.0.1"], "203.0.113.9"),
        (["1.1.1.1, 203.0.113.9"], ["10.0.0.1"], "203.0.113.9"),  // the client cannot pick 1.1.1.1
        (["203.0.113.9, 10.0.0.2"], ["10.0.0.1", "10.0.0.2"], "203.0.113.9"),  // two proxies
        (["203.0.113.9", "10.0.0.2"], ["10.0.0.1", "10.0.0.2"], "203.0.113.9"),  // two fields
        (["10.0.0.2"], ["10.0.0.1", "10.0.0.2"], "10.0.0.2"),  // only proxies: the left-most
        (["203.0.113.9, garbage"], ["10.0.0.1"], "10.0.0.1"),  // malformed nearest hop: the peer
    ])
    func forwardedClient(values: [String], trusted: [String], expected: String) {
        let client = ClientAddress.forwarded(peer: "10.0.0.1", forwardedFor: values,
                                             isTrustedProxy: { trusted.contains($0) })
        #expect(client == expected)
    }

    @Test(arguments: [
        ("/products/oak-chair", "/products/oak-chair"), ("/a b", "/a%20b"), ("/x\r\nGET", "/x%0D%0AGET"),
        ("/\"quoted\"", "/%22quoted%22"), ("/ç", "/%C3%A7"), ("/tab\there", "/tab%09here"), ("/a\\b", "/a%5Cb"),
    ])
    func accessLogEscaping(input: String, expected: String) {
        #expect(AccessLog.escaped(input) == expected)
    }
}
