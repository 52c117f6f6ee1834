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
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
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

    def csrf_token(self):
        """The token a browser would find in the forms of a freshly loaded page."""
        _, _, page = self.get("/account/sign-in")
        return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)

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
