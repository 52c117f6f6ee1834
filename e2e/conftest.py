"""End-to-end fixtures: the real `shoppable` binary on a free port, and headless Chromium."""
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BINARY = os.environ.get("SHOPPABLE_BINARY", str(ROOT / ".build" / "release" / "shoppable"))
SCREENSHOTS = ROOT / ".build" / "e2e-screenshots"
# Where the accessibility pass saves every main page (issue #11, point 9):
# `SHOPPABLE_SCREENSHOTS=docs/screenshots` refreshes the committed set.
PAGE_SCREENSHOTS = Path(os.environ.get("SHOPPABLE_SCREENSHOTS", str(SCREENSHOTS)))

# The files that take longest (seconds, sequential run of 2026-12-02), started first: `make test`
# runs the files on two pytest-xdist workers (`-n 2 --dist loadfile`), and one long file started
# last would leave the other worker idle at the end.
SLOWEST_FIRST = ("test_api_schema.py", "test_http_fuzz.py", "test_accessibility.py", "test_keyboard.py")


def pytest_collection_modifyitems(items):
    def rank(item):
        name = Path(str(item.fspath)).name
        return SLOWEST_FIRST.index(name) if name in SLOWEST_FIRST else len(SLOWEST_FIRST)
    items.sort(key=rank)  # stable: each file's tests keep their order


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    """Resident memory of process `pid` in MB (`VmRSS` of /proc/<pid>/status)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def wait_for_health(base, seconds, process=None):
    """`True` once `base`/healthz answers 200 within `seconds`; `False` if it does not, or if
    `process` exits first."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process is not None and process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


class Server:
    """One `shoppable serve` process; `restart()` stops it with SIGTERM and starts it again."""

    def __init__(self, workdir, extra_args=()):
        self.workdir = Path(workdir)
        self.database = self.workdir / "shop.sqlite3"
        self.port = free_port()
        self.extra_args = list(extra_args)
        self.process = None
        self.log = self.workdir / "server.log"

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def run(self, *args):
        """Runs a `shoppable` subcommand against this server's database."""
        return subprocess.run([BINARY, *args, "--database", str(self.database)], cwd=self.workdir,
                              capture_output=True, text=True, timeout=120)

    def start(self):
        log = open(self.log, "a")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--database", str(self.database), *self.extra_args],
            cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT)
        if not wait_for_health(self.url, 30, self.process):
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()}")
            raise RuntimeError(f"server did not answer /healthz:\n{self.log.read_text()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            code = self.process.wait(timeout=20)
            assert code == 0, f"server exited with {code} on SIGTERM:\n{self.log.read_text()}"
        self.process = None

    def restart(self):
        self.stop()
        self.start()


@pytest.fixture
def server():
    with tempfile.TemporaryDirectory() as workdir:
        srv = Server(workdir)
        srv.start()
        yield srv
        srv.stop()


@pytest.fixture
def empty_server():
    with tempfile.TemporaryDirectory() as workdir:
        srv = Server(workdir, extra_args=["--no-demo"])
        srv.start()
        yield srv
        srv.stop()


class Client:
    """A cookie-keeping HTTP client that does not follow redirects."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), self.NoRedirect)

    def request(self, method, path, form=None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def get(self, path):
        return self.request("GET", path)

    def same_browser_at(self, base):
        """A client for another server that shares this one's cookies: the same browser."""
        other = Client(base)
        other.jar = self.jar
        other.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), self.NoRedirect)
        return other

    def csrf_token(self):
        """The token a browser would find in the forms of a freshly loaded page: its session's,
        or "" before it has one (those forms carry none; docs/ARCHITECTURE.md, "Cross-site requests")."""
        _, _, page = self.get("/account/sign-in")
        return csrf(page)

    def post(self, path, form, csrf=True):
        form = dict(form)
        if csrf and "csrf_token" not in form:
            form["csrf_token"] = self.csrf_token()
        return self.request("POST", path, form)


def cart_lines(html):
    """(variant id, quantity) pairs of the cart page, in order."""
    lines = re.findall(r'data-variant-id="(\d+)".*?name="quantity" value="(\d+)"', html, re.S)
    return [(int(v), int(q)) for v, q in lines]


WELCOMED_COOKIE = "shoppable_welcomed"


def make_browser(welcomed=True):
    """Headless Chromium at 390x844. `welcomed`: the shopper has dismissed the first-visit
    introduction already (the cookie is set for 127.0.0.1 before the first page), so tests about
    something else never meet it; `first_visit_browser` is the new visitor."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=390,844",
                     "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    driver.implicitly_wait(5)  # a busy CI machine may take a moment to render the next page
    # Headless Chromium will not make a window narrower than 500 px: emulate the phone instead.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    if welcomed:  # cookies are not port-specific: this covers every test server on 127.0.0.1
        driver.execute_cdp_cmd("Network.setCookie", {"name": WELCOMED_COOKIE, "value": "done",
                                                     "url": "http://127.0.0.1/", "path": "/"})
    return driver


@pytest.fixture
def browser():
    driver = make_browser()
    yield driver
    driver.quit()


@pytest.fixture
def first_visit_browser():
    driver = make_browser(welcomed=False)
    yield driver
    driver.quit()


# A signed-in shopper with an order, a full cart at the review step and a favorite
# (e2e/test_layout.py, e2e/test_accessibility.py).
ADDRESS = {"first_name": "Ana", "last_name": "Lima", "phone": "+1 555 0100", "line1": "1 Main St",
           "city": "Springfield", "postal_code": "12345", "country": "US"}


def csrf(page):
    """The CSRF token in the page's forms; "" when they carry none (a visitor without a session)."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    return found.group(1) if found else ""


def post(client, path, form, page_path="/products/glazed-teapot"):
    """Posts `form` with the CSRF token of a freshly loaded page of this client's session."""
    _, _, page = client.get(page_path)
    status, headers, body = client.request("POST", path, {"csrf_token": csrf(page), **form})
    assert status in (200, 303), f"POST {path}: {status}\n{body[:500]}"
    return headers


def checkout_to_review(client):
    post(client, "/checkout/address", {**ADDRESS, "save_address": "1"}, page_path="/checkout/address")
    post(client, "/checkout/shipping", {"method": "standard"}, page_path="/checkout/shipping")
    status, _, review = client.get("/checkout/review")
    assert status == 200, review[:500]
    return review


def add(client, handle, quantity):
    """Adds the product's preselected variant, from its page as a shopper would."""
    _, _, page = client.get(f"/products/{handle}")
    variant = re.search(r'name="variant" value="(\d+)"(?: checked)?', page)
    checked = re.search(r'name="variant" value="(\d+)" checked', page) or variant
    post(client, "/cart/add", {"product": handle, "variant": checked.group(1), "quantity": str(quantity)},
         page_path=f"/products/{handle}")


def fill_cart(client):
    add(client, "oak-dining-chair", 1)  # on sale
    add(client, "stoneware-mug", 2)
    add(client, "ceramic-table-lamp", 1)
    post(client, "/cart/voucher", {"code": "WELCOME10"})  # 10% on every line


@pytest.fixture(scope="module")
def shop():
    """A server with a shopper who has an order, a full cart at the review step and a favorite."""
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir)
        server.start()
        client = Client(server.url)
        _, _, page = client.get("/account/register")
        status, _, body = client.request("POST", "/account/register", {
            "csrf_token": csrf(page), "name": "Anastasia Lima-Vasconcelos", "email": "anastasia@example.com",
            "password": "Blue9sky!harbor", "password_confirmation": "Blue9sky!harbor"})
        assert status == 303, body[:500]
        post(client, "/favorites/1", {"return_to": "/"})
        add(client, "glazed-teapot", 1)
        review = checkout_to_review(client)
        key = re.search(r'name="idempotency_key" value="([^"]+)"', review).group(1)
        order = post(client, "/checkout/place", {"idempotency_key": key}, page_path="/checkout/review")["Location"]
        fill_cart(client)
        checkout_to_review(client)
        yield server, client, order
        server.stop()


def new_browser():
    """Headless Chromium emulating a 390×844 phone that has dismissed the introduction; the
    caller quits it."""
    return make_browser()


def click(browser, element):
    """Scrolls `element` to the middle of the viewport and clicks it (a phone's fixed tab bar
    would otherwise catch clicks near the bottom)."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def wait_for_url(browser, part):
    """Waits up to 10 s for the browser's URL to contain `part`."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, 10).until(expected_conditions.url_contains(part))
