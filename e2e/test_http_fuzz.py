"""HTTP-level fuzzing of the real server from a raw-socket client (127.0.0.1 only).

A few thousand malformed and oversized requests: bad request lines, huge and many headers, many
query parameters, bad chunked bodies, NUL bytes, bad Content-Length, pipelining,
`Expect: 100-continue`, truncated bodies, slow partial sends, idle half-sent requests, random
bytes and randomly mutated valid requests. For every request the server must answer with an HTTP
status, or, where no answer can be expected (the request never ends, or is not HTTP), close the
connection within a bound. After each group `GET /healthz` still answers 200 and the server's
resident memory (`VmRSS`) has grown less than RSS_GROWTH_LIMIT_MB since the warm-up.

Everything is seeded (`random.Random(SEED)`), so a failure repeats; the failing request is
printed (`repr`, cut to 300 bytes).
"""
import random
import re
import selectors
import socket
import struct
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import Server, rss_mb

SEED = 20260528
ANSWER_SECONDS = 5.0  # a complete request must be answered within this
RSS_GROWTH_LIMIT_MB = 64
# The server's limits (HTTPServer.Configuration defaults, which `shoppable serve` uses).
MAX_URI_BYTES = 8 << 10
MAX_HEADER_BYTES = 16 << 10
MAX_BODY_BYTES = 1 << 20
HEAD_DEADLINE_SECONDS = 10  # requestHeadTimeout: a head must be complete this long after the connection opens
BODY_DEADLINE_SECONDS = 30  # requestBodyTimeout: a body must be complete this long after its head
PER_ADDRESS_CONNECTIONS = 128  # --max-connections-per-address: more from 127.0.0.1 are refused at accept
# An unfinished request (or bytes that are not HTTP) must be answered or closed within this.
UNFINISHED_SECONDS = BODY_DEADLINE_SECONDS + 5
# Connections the bulk client keeps open at once: well under the per-address limit, so that none is
# refused for being one too many and the health checks always find a slot. A quarter, not a half:
# the client closes a connection a moment before the server's engine frees its slot, and on two
# busy cores (the e2e files run on two workers) that lag let a half-window reach the limit and
# see a connection refused (twice in four full runs, 2026-12-03).
WINDOW = PER_ADDRESS_CONNECTIONS // 4

STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3})[^\r\n]*\r?\n")


# MARK: - raw client


class Exchange:
    """What came back for one payload: the statuses of complete responses, in order (interim
    1xx included), and whether the server closed (or reset) the connection."""

    def __init__(self, payload, head_request=False):
        self.payload = payload
        self.head_request = head_request
        self.statuses = []
        self.closed = False
        self.seconds = 0.0
        self.buffer = b""

    @property
    def final_statuses(self):
        return [status for status in self.statuses if status >= 200]

    def received(self, data):
        """Takes bytes from the server (b"" for the close); returns True when nothing more can come."""
        if not data:
            self.closed = True
            return True
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return False
            match = STATUS_LINE.match(self.buffer)
            assert match, f"not an HTTP response: {self.buffer[:200]!r} to {self}"
            status = int(match.group(1))
            headers = {}
            for line in self.buffer[match.end():end].split(b"\r\n"):
                name, _, value = line.partition(b":")
                headers[name.strip().lower()] = value.strip()
            start = end + 4
            if 100 <= status < 200 or status in (204, 304) or self.head_request:
                length = 0
            elif b"content-length" in headers:
                length = int(headers[b"content-length"])
            elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
                length = chunked_length(self.buffer, start)
                if length is None:
                    return False
            else:  # the body runs to the close: the status is all we need
                self.statuses.append(status)
                self.closed = True
                return True
            if len(self.buffer) < start + length:
                return False
            self.statuses.append(status)
            self.buffer = self.buffer[start + length:]

    def __repr__(self):
        shown = self.payload if len(self.payload) <= 300 else self.payload[:300] + b"..."
        return f"<{shown!r} ({len(self.payload)} bytes) -> statuses {self.statuses}, closed {self.closed}, {self.seconds:.2f}s>"


def chunked_length(buffer, start):
    """Length of the chunked body at `start` (through the last chunk and trailers), or None."""
    position = start
    while True:
        line_end = buffer.find(b"\r\n", position)
        if line_end < 0:
            return None
        size = int(buffer[position:line_end].split(b";")[0], 16)
        position = line_end + 2
        if size == 0:
            trailers_end = buffer.find(b"\r\n", position)
            while trailers_end > position:  # skip trailer fields
                position = trailers_end + 2
                trailers_end = buffer.find(b"\r\n", position)
            return None if trailers_end < 0 else trailers_end + 2 - start
        position += size + 2
        if position > len(buffer):
            return None


def connect_and_send(port, payload, half_close, pieces=1, pause=0.0):
    """A new connection with `payload` sent (in `pieces` writes `pause` seconds apart)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_SECONDS)
    # Closing resets the connection, so the server frees the slot at once even when it missed our
    # half-close (see test_half_closed_connections_are_released).
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    try:
        step = max(1, -(-len(payload) // pieces))
        for offset in range(0, len(payload), step):
            sock.sendall(payload[offset:offset + step])
            if pause:
                time.sleep(pause)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the server stopped reading or closed (it may have answered first): read what came
    return sock


def exchange(port, payload, *, responses=1, half_close=False, pieces=1, pause=0.0,
             seconds=ANSWER_SECONDS, head_request=False):
    """Sends `payload` on a new connection (in `pieces` writes `pause` seconds apart), then reads
    until `responses` final responses came, the server closed, or `seconds` passed (counted
    from the last byte sent). With `half_close`, shuts down our sending side after the payload."""
    result = Exchange(payload, head_request)
    started = time.monotonic()
    with connect_and_send(port, payload, half_close, pieces, pause) as sock:
        deadline = time.monotonic() + seconds
        while len(result.final_statuses) < responses and time.monotonic() < deadline:
            sock.settimeout(deadline - time.monotonic())
            try:
                data = sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                data = b""
            if result.received(data):
                break
    result.seconds = time.monotonic() - started
    return result


def exchange_many(port, payloads, *, seconds, half_close=True, window=WINDOW):
    """Sends each payload on its own connection, at most `window` connections open at once,
    and waits until each got one final response or was closed, or `seconds` passed since its
    last byte was sent. Returns the exchanges in the order of `payloads`."""
    results = [Exchange(payload, payload.startswith(b"HEAD ")) for payload in payloads]
    pending = list(reversed(results))
    deadlines = {}
    selector = selectors.DefaultSelector()

    def finish(sock, result):
        result.seconds = time.monotonic() - deadlines.pop(sock) + seconds
        selector.unregister(sock)
        sock.close()

    try:
        while pending or deadlines:
            while pending and len(deadlines) < window:
                result = pending.pop()
                sock = connect_and_send(port, result.payload, half_close)
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ, result)
                deadlines[sock] = time.monotonic() + seconds
            next_deadline = min(deadlines.values())
            for key, _ in selector.select(timeout=max(0.0, next_deadline - time.monotonic())):
                sock, result = key.fileobj, key.data
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    data = b""
                if result.received(data) or result.final_statuses:
                    finish(sock, result)
            now = time.monotonic()
            for sock in [sock for sock, deadline in deadlines.items() if deadline <= now]:
                finish(sock, selector.get_key(sock).data)
    finally:
        for sock in list(deadlines):
            selector.unregister(sock)
            sock.close()
        selector.close()
    return results


def assert_answered(result, expected=None, responses=1):
    """The server answered `responses` times with a valid status (one of `expected`, if given)."""
    assert len(result.final_statuses) >= responses, f"no answer: {result}"
    for status in result.final_statuses:
        assert 200 <= status <= 599, f"bad status: {result}"
        if expected is not None:
            assert status in expected, f"expected {sorted(expected)}: {result}"


def assert_answered_or_closed(result):
    """An answer could not be expected (the request is incomplete or not HTTP), but the
    connection must not hang: the server answered with a valid status, or closed it."""
    assert result.final_statuses or result.closed, f"neither answered nor closed in time: {result}"
    for status in result.final_statuses:
        assert 200 <= status <= 599, f"bad status: {result}"
        assert status != 500, f"an internal error: {result}"


def answered_or_closed_within_bound(port, payloads):
    """Every payload, sent with our side shut down after it, is answered or its connection is
    closed by the server's request deadlines (plus a margin): libmicrohttpd does not always
    notice the half-close, so an unfinished request may wait for its deadline."""
    for result in exchange_many(port, payloads, seconds=UNFINISHED_SECONDS):
        assert_answered_or_closed(result)


# MARK: - the server under test


class FuzzedServer:
    """A running server plus its RSS after warm-up; `check()` after each group."""

    def __init__(self, server):
        self.server = server
        self.port = server.port
        warm_up = [request(f"GET {path} HTTP/1.1") for path in ("/", "/healthz", "/search?q=oak", "/cart", "/nope")]
        for result in exchange_many(self.port, warm_up * 40, seconds=ANSWER_SECONDS, half_close=False):
            assert_answered(result)
        self.baseline_mb = rss_mb(server.process.pid)

    def check(self, slots_freed_within=0.0):
        """The server is alive, answers `GET /healthz` with 200, and its RSS grew less than
        RSS_GROWTH_LIMIT_MB since the warm-up.

        `slots_freed_within`: after closing a full per-address quota of connections, how long the
        engine may take to see the closes (a new connection is turned away until it has)."""
        assert self.server.process.poll() is None, f"server died:\n{self.server.log.read_text()[-3000:]}"
        deadline = time.monotonic() + slots_freed_within
        result = exchange(self.port, request("GET /healthz HTTP/1.1"))
        while not result.final_statuses and time.monotonic() < deadline:
            time.sleep(0.05)
            result = exchange(self.port, request("GET /healthz HTTP/1.1"))
        assert_answered(result, expected={200})
        growth = rss_mb(self.server.process.pid) - self.baseline_mb
        assert growth < RSS_GROWTH_LIMIT_MB, f"RSS grew {growth:.0f} MB since warm-up"


@pytest.fixture(scope="module")
def target():
    """One server for the whole file (its memory is measured across every group)."""
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir)
        server.start()
        yield FuzzedServer(server)
        server.stop()


@pytest.fixture
def own_target():
    """A server of its own, for groups that hurt servers before (so they cannot spoil the
    others); the test stops it itself, so that a shutdown that hangs counts against the test."""
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir)
        server.start()
        try:
            yield FuzzedServer(server)
        finally:
            if server.process is not None and server.process.poll() is None:
                server.process.kill()
                server.process.wait()


def request(line="GET / HTTP/1.1", headers=(("Host", "127.0.0.1"),), body=b""):
    head = line + "\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n"
    return head.encode("latin-1") + body


def form_post(body, path="/cart/add", extra=()):
    headers = [("Host", "x"), ("Content-Type", "application/x-www-form-urlencoded"), *extra]
    if not any(name.lower() in ("content-length", "transfer-encoding") for name, _ in extra):
        headers.append(("Content-Length", str(len(body))))
    return request(f"POST {path} HTTP/1.1", headers, body)


# MARK: - groups


def test_malformed_request_lines_are_answered(target):
    # Shaped like `method SP target SP version`, however wrong each part: an answer is due.
    lines = [
        "GET / HTTP/1.1 extra", "GET  /  HTTP/1.1", "get / HTTP/1.1", "G\tET / HTTP/1.1", "GET / HTTP/9.9",
        "GET / HTTP/1", "GET / HTTPS/1.1", "GET / http/1.1", "GET / HTTP/1.1\t", "GET /", "GET /%zz HTTP/1.1",
        "GET /%ff%fe HTTP/1.1", "GET /?q=%zz HTTP/1.1", "GET /?q=%c3 HTTP/1.1", "GET products HTTP/1.1",
        "GET * HTTP/1.1", "OPTIONS * HTTP/1.1", "GET http://x/healthz HTTP/1.1", "GET http://x HTTP/1.1",
        "GET https://127.0.0.1:1/?a=%41 HTTP/1.1", "GET //// HTTP/1.1", "GET /../../etc/passwd HTTP/1.1",
        "GET /static/../../../etc/passwd HTTP/1.1", "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1",
        "GET /static/%2e%2e%2fPackage.swift HTTP/1.1", "BREW / HTTP/1.1", "X" * 300 + " / HTTP/1.1",
        "DELETE /cart HTTP/1.1", "TRACE / HTTP/1.1", "CONNECT 127.0.0.1:80 HTTP/1.1", "PATCH /account HTTP/1.1",
        "HEAD /nope HTTP/1.1", "GET /\x7f HTTP/1.1", "GET /\x01\x02 HTTP/1.1", "GET /\xe9 HTTP/1.1",
        "GET /a b HTTP/1.1", "GET /?" + "&" * 200 + " HTTP/1.1", "GET /?=&=&a== HTTP/1.1",
    ]
    answered = []
    for line in lines:
        answered += [request(line), request(line, headers=()), request(line.replace(" HTTP/1.1", " HTTP/1.0"), headers=())]
    for result in exchange_many(target.port, answered * 3, seconds=ANSWER_SECONDS, half_close=False):
        assert_answered(result)
    # Not a request line at all, or bare LF line ends: an answer, or the connection closed.
    garbage = ["GET", " GET / HTTP/1.1", "\tGET / HTTP/1.1", "/ HTTP/1.1", "HTTP/1.1", "GET / / / HTTP/1.1 HTTP/1.1"]
    odd = [(line + "\nHost: x\n\n").encode("latin-1") for line in lines]
    for line in garbage:
        odd += [request(line), request(line, headers=()), (line + "\n\n").encode("latin-1")]
    answered_or_closed_within_bound(target.port, odd * 3)
    # Whatever else they get, these must be refused as bad requests.
    for line in ("GET /%zz HTTP/1.1", "GET /?q=%zz HTTP/1.1", "GET /%ff%fe HTTP/1.1", "GET products HTTP/1.1"):
        assert_answered(exchange(target.port, request(line)), expected={400})
    target.check()


def test_http11_request_without_host_is_refused(target):
    # RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without a Host field.
    assert_answered(exchange(target.port, request("GET /healthz HTTP/1.1", headers=())), expected={400})


def test_oversized_requests_are_refused(target):
    too_long_body = (("Content-Length", str(MAX_BODY_BYTES + 1)),)
    cases = [
        (request("GET /?" + "a" * (MAX_URI_BYTES + 100) + " HTTP/1.1"), {414, 431}),
        (request("GET /" + "a" * 200_000 + " HTTP/1.1"), {414, 431}),
        (request(headers=(("Host", "x"), ("X-Big", "b" * (MAX_HEADER_BYTES + 100)))), {431}),
        (request(headers=(("Host", "x"), ("X-Big", "b" * 1_000_000))), {431}),
        (request(headers=(("Host", "x"), ("Cookie", "c=" + "z" * 100_000))), {431}),
        (form_post(b"", extra=too_long_body), {413}),
        (form_post(b"q" * (MAX_BODY_BYTES + 1), extra=too_long_body), {413}),
        (form_post(b"", extra=(("Content-Length", str(10 ** 12)),)), {413}),
    ]
    for payload, expected in cases * 3:
        assert_answered(exchange(target.port, payload), expected=expected)
    # A chunked body beyond the limit: answered 413, or cut off once it is far beyond it.
    chunk = b"%x\r\n%s\r\n" % (65536, b"c" * 65536)
    chunked = form_post(chunk * 40 + b"0\r\n\r\n", extra=(("Transfer-Encoding", "chunked"),))
    for _ in range(3):
        result = exchange(target.port, chunked)
        assert 413 in result.final_statuses or (result.closed and not result.final_statuses), result
    target.check()


@pytest.mark.parametrize("count", [50, 200, 1000, 5000])
def test_many_headers_are_answered(target, count):
    distinct = request(headers=[("Host", "x")] + [(f"X-H{i}", "v") for i in range(count)])
    cookies = request(headers=[("Host", "x")] + [("Cookie", f"c{i}=v{i}") for i in range(count)])
    payloads = [distinct, cookies] * 20
    for result in exchange_many(target.port, payloads, seconds=ANSWER_SECONDS, half_close=False):
        # Within the byte limit, "too many fields" (431) is as fair an answer as 200.
        assert_answered(result, expected={200, 431} if len(result.payload) <= MAX_HEADER_BYTES else {431})
    target.check()


@pytest.mark.parametrize("query", [
    pytest.param("&".join(f"p{i}={i}" for i in range(10)), id="10"),
    pytest.param("&".join(f"p{i}={i}" for i in range(100)), id="100"),
    pytest.param("&".join(f"p{i}={i}" for i in range(400)), id="400"),
    pytest.param("&".join(f"p{i}={i}" for i in range(600)), id="600"),
    pytest.param("&".join(f"p{i}={i}" for i in range(2000)), id="2000"),
    pytest.param("&" * 2000, id="2000-empty"),
])
def test_many_query_parameters_are_answered(own_target, query):
    payloads = []
    for path in ("/", "/search", "/healthz", "/products/nope"):
        fits = len(f"{path}?q=oak&{query}") <= MAX_URI_BYTES
        payloads.append((request(f"GET {path}?q=oak&{query} HTTP/1.1"), range(200, 500) if fits else {414, 431}))
    payloads.append((form_post(query.encode()), range(200, 500)))
    for payload, expected in payloads:  # each once first, so a failure shows quickly
        assert_answered(exchange(own_target.port, payload), expected=expected)
    # Then in volume: a leak per request shows in RSS, a stuck connection in refusals or shutdown.
    expected_by_payload = dict(payloads)
    for _ in range(5):
        for result in exchange_many(own_target.port, [payload for payload, _ in payloads] * 50,
                                    seconds=ANSWER_SECONDS, half_close=False):
            assert_answered(result, expected=expected_by_payload[result.payload])
    own_target.check()
    own_target.server.stop()  # gracefully, within conftest's 20 s: nothing is left in flight


def test_bad_chunked_bodies_are_answered_or_closed(target):
    bodies = [
        b"zz\r\nabc\r\n0\r\n\r\n", b"-5\r\nabc\r\n0\r\n\r\n", b"3\r\nabcdef\r\n0\r\n\r\n", b"3\nabc\n0\n\n",
        b"ffffffffffffffff\r\nabc\r\n0\r\n\r\n", b"10000000000000000000\r\nabc\r\n0\r\n\r\n",
        b"3;ext=1;x\r\nabc\r\n0\r\n\r\n", b"3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n", b"0x3\r\nabc\r\n0\r\n\r\n",
        b" 3\r\nabc\r\n0\r\n\r\n", b"3 \r\nabc\r\n0\r\n\r\n", b"\r\n\r\n", b"0\r\n", b"3\r\nab",
        b"3\r\n\x00\x00\x00\r\n0\r\n\r\n", b"1\r\na\r\n" * 5000 + b"0\r\n\r\n", b"0\r\n" + b"X-T: y\r\n" * 2000 + b"\r\n",
    ]
    framings = [
        (("Transfer-Encoding", "chunked"),),
        (("Transfer-Encoding", "CHUNKED"),),
        (("Transfer-Encoding", "chunked"), ("Content-Length", "3")),
        (("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")),
        (("Transfer-Encoding ", "chunked"),),
    ]
    payloads = [form_post(body, extra=framing) for body in bodies for framing in framings]
    answered_or_closed_within_bound(target.port, payloads * 2)
    target.check()


@pytest.mark.parametrize("coding", ["gzip, chunked", "chunked, gzip", "gzip", "br"])
def test_unknown_transfer_coding_is_refused(target, coding):
    # RFC 9112 §6.1: 501 for a transfer coding the server does not understand (400 when chunked
    # is not the final coding); either way at once, not after an idle timeout.
    payload = form_post(b"3\r\na=1\r\n0\r\n\r\n", extra=(("Transfer-Encoding", coding),))
    assert_answered(exchange(target.port, payload), expected={400, 501})


def test_nul_bytes_are_refused_or_closed(target):
    payloads = [
        b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /?q=\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\x00y\r\n\r\n", b"GET / HTTP/1.1\r\nX-\x00: 1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\n\x00\r\n\r\n", b"G\x00T / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\x00\r\nHost: x\r\n\r\n", b"\x00GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nCookie: shoppable_session=\x00\x00\r\nHost: x\r\n\r\n",
        form_post(b"a=\x00&b=1"), form_post(b"a=%00&b=1"), b"GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /?q=%00 HTTP/1.1\r\nHost: x\r\n\r\n", b"\x00" * 5000, b"\x00" * 5000 + b"\r\n\r\n",
    ]
    answered_or_closed_within_bound(target.port, payloads * 10)
    target.check()


def test_bad_content_lengths_are_answered_or_closed(target):
    values = [("abc",), ("-1",), ("3", "4"), ("1e3",), ("0x3",), ("99999999999999999999999999",), ("+3",), (" ",),
              ("3 3",), ("3,3",), ("3", "3"), ("18446744073709551617",)]
    payloads = [form_post(b"a=1", extra=[("Content-Length", value) for value in value_list]) for value_list in values]
    answered_or_closed_within_bound(target.port, payloads * 10)
    # Shorter than the body: the rest is read as the next request, which gets its own answer (or
    # the connection is closed after the first).
    for _ in range(10):
        result = exchange(target.port, form_post(b"a=1&junk junk junk\r\n\r\n", extra=(("Content-Length", "1"),)),
                          responses=2, half_close=True, seconds=UNFINISHED_SECONDS)
        assert len(result.final_statuses) == 2 or (len(result.final_statuses) == 1 and result.closed), result
    target.check()


def test_pipelined_requests_are_answered_in_order(target):
    rng = random.Random(SEED)
    expected_status = {"/healthz": 200, "/nope": 404, "/%zz": 400, "/search?q=%ff": 400}
    for _ in range(40):
        paths = [rng.choice(list(expected_status)) for _ in range(rng.randint(2, 40))]
        result = exchange(target.port, b"".join(request(f"GET {path} HTTP/1.1") for path in paths),
                          responses=len(paths))
        assert result.final_statuses == [expected_status[path] for path in paths], result
    # A bad request in the middle may end the connection, but what came before is answered.
    payload = request("GET /healthz HTTP/1.1") * 3 + b"BAD\x00\r\n\r\n" + request("GET /healthz HTTP/1.1") * 3
    for _ in range(20):
        result = exchange(target.port, payload, responses=7, half_close=True, seconds=UNFINISHED_SECONDS)
        assert result.final_statuses[:3] == [200, 200, 200], result
    target.check()


def test_expect_100_continue(target):
    body = b"product=1&quantity=1"
    expecting = form_post(b"", extra=(("Expect", "100-continue"), ("Content-Length", str(len(body)))))
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", target.port), timeout=ANSWER_SECONDS) as sock:
            sock.sendall(expecting)
            interim = sock.recv(1024)
            assert interim.startswith(b"HTTP/1.1 100"), interim
            sock.sendall(body)
            result = Exchange(expecting + body)
            while not result.final_statuses and not result.received(sock.recv(65536)):
                pass
            assert_answered(result)
        result = exchange(target.port, form_post(b"", extra=(("Expect", "100-continue"),
                                                                ("Content-Length", str(MAX_BODY_BYTES + 1)))))
        assert_answered(result, expected={413})
        assert 100 not in result.statuses, result
    odd = [form_post(b"a=1", extra=(("Expect", expectation),)) for expectation in ("200-ok", "100-continue, x", "")]
    answered_or_closed_within_bound(target.port, odd * 10)
    target.check()


def test_truncated_requests_are_closed(target):
    full = form_post(b"product=1&quantity=1", extra=(("Content-Length", "100"),))
    rng = random.Random(SEED)
    answered_or_closed_within_bound(target.port, [full[:rng.randint(1, len(full) - 1)] for _ in range(200)])
    target.check()


def test_half_closed_connections_are_released(own_target):
    # A client that sends its request and shuts down its side (HTTP/1.0 style, `printf … | nc -N`)
    # gets its answer, and the server then closes the connection (within its watchdog's second)
    # instead of holding the slot until the 10 s head deadline.
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", own_target.port), timeout=ANSWER_SECONDS) as sock:
            sock.sendall(request("GET /healthz HTTP/1.1"))
            sock.shutdown(socket.SHUT_WR)
            result = Exchange(b"(half-closed)")
            while not result.received(sock.recv(65536)) and not result.final_statuses:
                pass
            assert_answered(result, expected={200})
            sock.settimeout(2)
            while sock.recv(65536):  # the rest of the answer, then the server's close
                pass
    # No slot was kept: a full per-address quota of connections is still accepted. (The client
    # sees the server's close a moment before the engine's close notification frees the slot:
    # this flaked twice under load when the quota was taken at the very same instant.)
    time.sleep(1.0)
    held = [socket.create_connection(("127.0.0.1", own_target.port), timeout=ANSWER_SECONDS)
            for _ in range(PER_ADDRESS_CONNECTIONS)]
    try:
        for sock in held[-3:]:
            sock.sendall(request("GET /healthz HTTP/1.1"))
            result = Exchange(b"(after half-closed)")
            while not result.received(sock.recv(65536)) and not result.final_statuses:
                pass
            assert_answered(result, expected={200})
    finally:
        for sock in held:
            sock.close()
    # The same moment as above, the other way: the quota was just closed from this side.
    own_target.check(slots_freed_within=5.0)


def test_slow_partial_sends_are_answered(target):
    payloads = [request(f"GET /healthz?n={i} HTTP/1.1") for i in range(30)] + [form_post(b"product=1&quantity=1")] * 10
    with ThreadPoolExecutor(8) as pool:
        for result in pool.map(lambda payload: exchange(target.port, payload, pieces=min(len(payload), 40), pause=0.005),
                               payloads):
            assert_answered(result)
    target.check()


def test_idle_half_sent_requests_do_not_block_and_are_closed(target):
    # (what is sent, then nothing; when the server must have closed it)
    starts = [(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow:", HEAD_DEADLINE_SECONDS + 5), (b"GE", HEAD_DEADLINE_SECONDS + 5),
              (b"", HEAD_DEADLINE_SECONDS + 5), (form_post(b"a", extra=(("Content-Length", "50"),)), UNFINISHED_SECONDS)]
    opened = time.monotonic()
    idle = [(connect_and_send(target.port, start, half_close=False), bound) for start, bound in starts * 10]
    try:
        for _ in range(20):  # the server still serves others while they hang
            assert_answered(exchange(target.port, request("GET /healthz HTTP/1.1")), expected={200})
        for sock, bound in idle:
            result = Exchange(b"(idle)")
            sock.settimeout(max(0.1, opened + bound - time.monotonic()))
            try:
                while not result.received(sock.recv(65536)):  # an answer (408) is fine; the close must follow
                    pass
            except ConnectionResetError:
                pass
            except socket.timeout:
                raise AssertionError(f"an idle connection was not closed within {bound}s") from None
    finally:
        for sock, _ in idle:
            sock.close()
    target.check()


def test_random_bytes_are_answered_or_closed(target):
    rng = random.Random(SEED)
    prefixes = [b"", b"GET ", b"GET / HTTP/1.1\r\n", b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n"]
    payloads = []
    for i in range(600):
        blob = bytes(rng.getrandbits(8) for _ in range(rng.choice([1, 2, 10, 100, 1000, 20000])))
        payloads.append(prefixes[i % 4] + blob + [b"", b"\r\n\r\n"][i % 2])
    answered_or_closed_within_bound(target.port, payloads)
    target.check()


def mutate(rng, payload):
    """`payload` with 1 to 6 random edits: bytes flipped, deleted, repeated, inserted; framing
    headers and big numbers inserted."""
    data = bytearray(payload)
    for _ in range(rng.randint(1, 6)):
        operation = rng.randrange(7)
        position = rng.randrange(len(data) + 1)
        if operation == 0 and data:
            data[min(position, len(data) - 1)] = rng.getrandbits(8)
        elif operation == 1:
            data[position:position] = rng.choice([b"\r\n", b"\n", b"\r", b":", b" ", b"%", b"\x00", b"=", b"&", b";"])
        elif operation == 2:
            del data[position:position + rng.randint(1, 20)]
        elif operation == 3:
            data[position:position] = data[position:position + rng.randint(1, 50)] * rng.randint(1, 100)
        elif operation == 4:
            data[position:position] = rng.choice([b"Content-Length: 9\r\n", b"Transfer-Encoding: chunked\r\n",
                                                  b"Expect: 100-continue\r\n", b"Connection: close\r\n",
                                                  b"Cookie: shoppable_session=" + b"f" * 32 + b"\r\n"])
        elif operation == 5:
            data[position:position] = str(rng.choice([-1, 0, 2 ** 31, 2 ** 63, 10 ** 30])).encode()
        else:
            data[position:position] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 30)))
    return bytes(data)


def test_mutated_requests_are_answered_or_closed(target):
    valid = [
        request("GET /search?q=oak+chair&page=2 HTTP/1.1"),
        request("GET /products/oak-chair HTTP/1.1", (("Host", "x"), ("Cookie", "shoppable_session=abc; lang=tr"),
                                                    ("Accept-Language", "tr-TR,tr;q=0.9"))),
        form_post(b"product=1&quantity=2&csrf_token=x"),
        form_post(b"b\r\nemail=a%40b\r\n0\r\n\r\n", path="/account/sign-in", extra=(("Transfer-Encoding", "chunked"),)),
        request("GET /static/app.css HTTP/1.1", (("Host", "x"), ("If-None-Match", '"abc"'), ("Range", "bytes=0-10"))),
    ]
    rng = random.Random(SEED)
    answered_or_closed_within_bound(target.port, [mutate(rng, rng.choice(valid)) for _ in range(1200)])
    target.check()
