"""What the benchmark scripts share: a free port, waiting for a server, the generated catalog,
and reading a process's CPU time and memory from /proc."""
import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

CSRF = "bench0123456789abcdefghijklmnopqrstuvwxyz"  # the shoppers' CSRF cookie: any 32+ characters


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"bench: {url} did not answer")


def bench_catalog(path, products=120):
    """A catalog with one 'Bench' category of `products` products, 1–3 variants each."""
    items = []
    for i in range(products):
        variants = [{"sku": f"B-{i}-{v}", "options": [f"Size {v}"],
                     "price": f"{10 + (i * 7) % 90}.{(i * 13) % 100:02d}",
                     "compareAtPrice": f"{120 + i}.00" if i % 4 == 0 else None,
                     "stock": None if i % 3 else 50} for v in range(1 + i % 3)]
        items.append({
            "handle": f"bench-product-{i}", "title": f"Bench product {i} <with> \"escaping\" & more",
            "description": f"<p>Description of product {i}, with <strong>markup</strong>.</p>",
            "vendor": "Bench & Co", "productType": "Thing", "category": "Bench",
            "tags": ["bench", f"tag{i % 5}"], "publishedAt": "2026-01-01T00:00:00Z",
            "images": [{"url": "/static/images/icon.svg", "alt": f"Product {i}"}],
            "rating": {"rate": 3 + (i % 20) / 10, "count": i}, "options": ["Size"], "variants": variants})
    path.write_text(json.dumps({"format": "shoppable-catalog", "version": 1, "currency": "USD", "products": items}))


def cpu_seconds(pid):
    """User + system CPU seconds a process has used so far (/proc/PID/stat), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def memory_kilobytes(pid):
    """A process's resident memory in KiB from /proc/PID/status: `rss` (VmRSS) and its parts,
    `anon` (RssAnon: the heap, stacks — what a leak grows) and `file` (RssFile: mapped files,
    the binary and SQLite's memory-mapped database among them). Zeros once it is gone."""
    found = {"rss": 0, "anon": 0, "file": 0}
    names = {"VmRSS:": "rss", "RssAnon:": "anon", "RssFile:": "file"}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name = line.split(maxsplit=1)[0] if line else ""
            if name in names:
                found[names[name]] = int(line.split()[1])
    except OSError:
        pass
    return found


def resident_kilobytes(pid):
    """A process's resident set size in KiB (VmRSS), or 0 once it is gone."""
    return memory_kilobytes(pid)["rss"]


def wrk(url, seconds, connections, threads, script=None, headers=(), server_pid=None, prefix=()):
    """One wrk run: req/s, p99, errors — and, given the server's pid, the server's CPU time per
    request (µs), which a busy machine disturbs far less than req/s. `prefix` runs wrk under
    another command (`taskset -c 1`)."""
    before = cpu_seconds(server_pid) if server_pid else None
    command = list(prefix) + ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    output = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    after = cpu_seconds(server_pid) if server_pid else None
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", output)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    return {"rps": rps, "p99_ms": float(p99.group(1)) * scale,
            "cpu_us": (after - before) * 1e6 / requests if before is not None and after is not None and requests else None,
            "non2xx": int(non2xx.group(1)) if non2xx else 0, "socket_errors": errors.group(1) if errors else ""}


def add_to_cart_script(path, handle, variant):
    """A wrk script of adds to cart in which every request is a new visitor: its own CSRF cookie,
    so each creates its own guest session (one cookie for all would make them one visitor — the
    guest session is derived from it)."""
    path.write_text(
        'local counter = 0\n'
        'math.randomseed(os.time() + math.floor(os.clock() * 1000000))\n'
        'local prefix = string.format("bench%010d", math.random(0, 2147483647))\n'
        'request = function()\n'
        '  counter = counter + 1\n'
        '  local token = string.format("%s%022d", prefix, counter)\n'
        '  return wrk.format("POST", nil, {["Cookie"] = "shoppable_csrf=" .. token,\n'
        '    ["Content-Type"] = "application/x-www-form-urlencoded"},\n'
        f'    "csrf_token=" .. token .. "&product={handle}&quantity=1&variant={variant}")\n'
        'end\n')


def add_voucher_campaign(binary, database, work):
    """The voucher BENCH10 (10 % off the cart) in `database`, for the three-line shopper's cart."""
    campaigns = Path(work) / "campaigns.json"
    campaigns.write_text(json.dumps({"currency": "USD", "campaigns": [{
        "id": "bench-ten", "title": "Ten percent", "startsAt": "2020-01-01T00:00:00Z",
        "endsAt": "2099-01-01T00:00:00Z", "rule": {"type": "percentage", "percent": 10},
        "appliesTo": {"type": "cart"}, "voucherCode": "BENCH10"}]}))
    subprocess.run([binary, "campaigns", "import", str(campaigns), "--database", str(database)],
                   check=True, stdout=subprocess.DEVNULL)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def three_line_shopper(base):
    """Issue #14's shopper, made through the storefront at `base`: three lines (bench products 3,
    4 and 5) and the voucher BENCH10. Returns the Cookie header a browser would then send."""
    def post_form(path, form, cookie):
        request = urllib.request.Request(base + path, method="POST", data=urllib.parse.urlencode(form).encode(),
                                         headers={"Content-Type": "application/x-www-form-urlencoded",
                                                  "Cookie": cookie})
        try:
            urllib.request.build_opener(NoRedirect).open(request)
            raise SystemExit(f"bench: {path} did not redirect")
        except urllib.error.HTTPError as redirect:
            if redirect.code != 303:
                raise SystemExit(f"bench: {path} answered {redirect.code}")
            return redirect.headers.get("Set-Cookie", "")

    def first_variant(handle):
        page = urllib.request.urlopen(base + f"/products/{handle}").read()
        return re.search(rb'name="variant" value="(\d+)"', page).group(1).decode()
    cookie = f"shoppable_csrf={CSRF}"
    set_cookie = post_form("/cart/add", {"product": "bench-product-3", "variant": first_variant("bench-product-3"),
                                         "quantity": "1", "csrf_token": CSRF}, cookie)
    session = re.search(r"shoppable_session=([0-9a-f]+)", set_cookie).group(1)
    cookie = f"shoppable_session={session}; shoppable_csrf={CSRF}"
    page_with_form = urllib.request.urlopen(urllib.request.Request(base + "/cart", headers={"Cookie": cookie})).read()
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page_with_form).group(1).decode()
    for handle in ("bench-product-4", "bench-product-5"):
        post_form("/cart/add", {"product": handle, "variant": first_variant(handle), "quantity": "2",
                                "csrf_token": token}, cookie)
    post_form("/cart/voucher", {"code": "BENCH10", "csrf_token": token}, cookie)
    cart_page = urllib.request.urlopen(urllib.request.Request(base + "/cart", headers={"Cookie": cookie})).read()
    if cart_page.count(b'name="quantity"') < 3 or b"BENCH10" not in cart_page.upper():
        raise SystemExit("bench: the three-line cart with a voucher was not set up")
    return cookie
