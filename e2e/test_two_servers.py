"""Issue #15, point 5: two `shoppable serve` processes on different ports share one PostgreSQL
database, with nginx in front of them, round-robin on loopback. A shopper's session, cart and
favorites follow them from one server to the other; each server's page cache sees a catalog
change made through the other at its next request; 300 checkouts for a stock of 10, spread over
both servers, give exactly 10 orders; every queued email is delivered exactly once although
both servers run the outbox worker; and expired stock holds are swept once although both servers
sweep.

Needs `SHOPPABLE_TEST_POSTGRES_URL` (`make test` starts a private cluster) and nginx (Debian's
`nginx-light`, installed by `scripts/install-deps test`)."""
import email
import email.policy
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from conftest import BINARY, Client, Server, cart_lines, csrf, free_port, wait_for_health
from test_checkout_concurrency import CATALOG, HANDLE, SKU, checkout, hold, order_lines

POSTGRES_URL = os.environ.get("SHOPPABLE_TEST_POSTGRES_URL", "")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

pytestmark = pytest.mark.skipif(not POSTGRES_URL or not os.path.exists(NGINX),
                                reason="needs SHOPPABLE_TEST_POSTGRES_URL and nginx (make test provides both)")


class Sink:
    """Every message the SMTP server receives."""

    def __init__(self):
        self.messages = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append(envelope)
        return "250 OK"


def new_database():
    """A new, empty database on the test server; its URL."""
    name = "e2e_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", POSTGRES_URL, "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True, timeout=60)
    return POSTGRES_URL.rsplit("/", 1)[0] + "/" + name, name


def drop_database(name):
    subprocess.run(["psql", "-q", POSTGRES_URL, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"],
                   capture_output=True, timeout=60)


class Nginx:
    """nginx in the foreground on a free port, round-robin over the servers, keep-alive upstream."""

    def __init__(self, workdir, ports):
        self.workdir = Path(workdir) / "nginx"
        self.workdir.mkdir()
        self.workdir.chmod(0o755)
        self.port = free_port()
        upstreams = "\n".join(f"        server 127.0.0.1:{port};" for port in ports)
        user = "user root;" if os.getuid() == 0 else ""
        (self.workdir / "nginx.conf").write_text(f"""
{user}
daemon off;
worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {self.workdir}/body;
    proxy_temp_path {self.workdir}/proxy;
    fastcgi_temp_path {self.workdir}/fastcgi;
    uwsgi_temp_path {self.workdir}/uwsgi;
    scgi_temp_path {self.workdir}/scgi;
    upstream shop {{
{upstreams}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://shop;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
        }}
    }}
}}
""")
        self.process = subprocess.Popen([NGINX, "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        if not wait_for_health(self.url, 15, self.process):
            raise RuntimeError("nginx did not start: " + (self.workdir / "error.log").read_text())

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)


@pytest.fixture(scope="module")
def shop():
    """Two servers on one new PostgreSQL database (started at once: they migrate and load the
    demo catalog once), an SMTP sink both deliver to, nginx in front."""
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    url, name = new_database()
    with tempfile.TemporaryDirectory() as workdir:
        media = Path(workdir) / "media"  # shared, as the deployment guide asks
        servers = []
        for index in range(2):
            folder = Path(workdir) / f"server{index}"
            folder.mkdir()
            server = Server(folder, extra_args=["--media", str(media), "--smtp-url", f"smtp://127.0.0.1:{controller.port}",
                                                "--mail-from", "shop@shoppable.test", "--trusted-proxy", "127.0.0.1"])
            server.database = url
            servers.append(server)
        errors = []

        def start(server):
            try:
                server.start()
            except Exception as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=start, args=(server,)) for server in servers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        nginx = None
        try:
            assert not errors, errors
            nginx = Nginx(workdir, [server.port for server in servers])
            yield servers, nginx, sink, Path(workdir)
        finally:
            if nginx:
                nginx.stop()
            for server in servers:
                if server.process:
                    server.stop()
            controller.stop()
            drop_database(name)


def test_servers_started_at_once_migrated_and_loaded_the_demo_once(shop):
    servers, nginx, _, _ = shop
    logs = [server.log.read_text() for server in servers]
    assert sum("applied migrations" in log for log in logs) == 1, logs
    assert sum("loaded the demo catalog" in log for log in logs) == 1, logs
    with urllib.request.urlopen(nginx.url + "/api/products?limit=1000", timeout=10) as response:
        handles = [product["title"] for product in json.load(response)]
    assert len(handles) == len(set(handles)) > 40, "the demo catalog is there once"
    for server in servers:
        status, _, page = Client(server.url).get("/categories/chairs")
        assert status == 200 and "Oak Dining Chair" in page


def test_a_shoppers_session_cart_and_favorites_follow_them_across_servers(shop):
    servers, nginx, _, _ = shop
    first = Client(servers[0].url)
    status, _, _ = first.post("/cart/add", {"product": "spindle-back-chair", "quantity": "2"})
    assert status == 303
    second = first.same_browser_at(servers[1].url)  # the same browser, the other server
    status, _, page = second.get("/cart")
    assert status == 200
    assert [quantity for _, quantity in cart_lines(page)] == [2]
    status, _, _ = second.post("/cart/add", {"product": "spindle-back-chair", "quantity": "1"})
    assert status == 303
    _, _, page = first.get("/cart")
    assert [quantity for _, quantity in cart_lines(page)] == [3]

    # Through nginx, request after request alternates between the servers: the cart holds.
    browser = Client(nginx.url)
    status, _, _ = browser.post("/cart/add", {"product": "spindle-back-chair", "quantity": "1"})
    assert status == 303
    for _ in range(6):
        _, _, page = browser.get("/cart")
        assert [quantity for _, quantity in cart_lines(page)] == [1]


def test_favorites_follow_a_signed_in_shopper_to_the_other_server(shop):
    servers, _, sink, _ = shop
    first = Client(servers[0].url)
    _, _, page = first.get("/account/register")
    token = csrf(page)
    status, _, _ = first.post("/account/register", {"csrf_token": token, "name": "Ana Lima", "email": "ana@example.com",
                                                    "password": "Blue9sky!", "password_confirmation": "Blue9sky!"})
    assert status == 303
    _, _, product = first.get("/products/oak-dining-chair")
    form = re.search(r'<form[^>]*action="(/favorites[^"]*)"[^>]*>(.*?)</form>', product, re.S)
    assert form, "the product page offers a favorite button"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    status, _, _ = first.post(form.group(1), fields)
    assert status in (303, 200)
    second = first.same_browser_at(servers[1].url)
    status, _, page = second.get("/favorites")
    assert status == 200 and "Oak Dining Chair" in page


def test_each_page_cache_sees_a_change_made_through_the_other_server(shop):
    servers, _, _, workdir = shop
    created = subprocess.run([BINARY, "users", "create", "--operator", "--email", "op@example.com", "--name", "Op",
                              "--database", servers[0].database], input="Op3rator!pass\n", capture_output=True,
                             text=True, timeout=60, cwd=workdir)
    assert created.returncode == 0, created.stderr
    reader = Client(servers[0].url)
    status, _, before = reader.get("/products/oak-dining-chair")
    assert status == 200 and "Walnut Throne" not in before
    reader.get("/products/oak-dining-chair")  # now cached on the first server

    login = urllib.request.Request(servers[1].url + "/api/auth/login", method="POST",
                                   data=json.dumps({"username": "op@example.com", "password": "Op3rator!pass"}).encode(),
                                   headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(login, timeout=10) as response:
        token = json.load(response)["token"]
    with urllib.request.urlopen(servers[1].url + "/api/products?limit=100", timeout=10) as response:
        product = next(p for p in json.load(response) if "Oak Dining Chair" in p["title"])
    change = urllib.request.Request(servers[1].url + f"/api/products/{product['id']}", method="PATCH",
                                    data=json.dumps({"title": "Walnut Throne"}).encode(),
                                    headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(change, timeout=10) as response:
        assert response.status == 200

    status, _, after = reader.get("/products/oak-dining-chair")
    assert status == 200 and "Walnut Throne" in after, "the first server's very next request shows the change"


def test_three_hundred_checkouts_for_ten_over_both_servers_give_exactly_ten_orders(shop):
    servers, nginx, sink, workdir = shop
    catalog = Path(workdir) / "race.json"
    catalog.write_text(json.dumps(CATALOG))
    imported = servers[1].run("import", str(catalog))
    assert imported.returncode == 0, imported.stderr
    stocked = servers[0].run("stock", "set", SKU, "10")
    assert stocked.returncode == 0, stocked.stderr
    before = len(sink.messages)

    bases = [servers[0].url, servers[1].url, nginx.url]
    with ThreadPoolExecutor(max_workers=48) as pool:
        futures = [pool.submit(checkout, bases[n % 3], HANDLE, 1, f"racer{n}@example.com") for n in range(300)]
        done, not_done = wait(futures, timeout=240)
    assert not not_done, f"{len(not_done)} checkouts did not finish"
    outcomes = [future.result() for future in futures]
    server_errors = [(status, request) for outcome in outcomes for status, request in outcome.statuses if status >= 500]
    assert not server_errors, server_errors[:10]
    unexpected = [outcome for outcome in outcomes if outcome.kind == "unexpected"]
    assert not unexpected, unexpected[:5]
    ordered = [outcome for outcome in outcomes if outcome.kind == "ordered"]
    assert len(ordered) == 10
    assert len({outcome.number for outcome in ordered}) == 10
    listing = servers[0].run("orders", "list")
    assert {row[0] for row in order_lines(listing.stdout)} >= {outcome.number for outcome in ordered}

    # Each order's confirmation reaches the sink exactly once, whichever server's worker sent it.
    deadline = time.time() + 60
    while time.time() < deadline and len(sink.messages) - before < 10:
        time.sleep(0.5)
    time.sleep(3)  # a second delivery, if any, would arrive in this time
    confirmations = [envelope for envelope in sink.messages[before:]
                     if "racer" in envelope.rcpt_tos[0]]
    recipients = sorted(envelope.rcpt_tos[0] for envelope in confirmations)
    assert len(recipients) == 10, recipients
    assert len(set(recipients)) == 10, "an email was delivered twice"


def test_queued_emails_are_delivered_exactly_once_by_two_workers(shop):
    """Registrations on both servers at once: the shared throttle (10 per address per 15 minutes,
    one used by the favorites test) lets exactly 9 through whichever server they reach, and each
    of their verification emails is delivered exactly once."""
    servers, nginx, sink, _ = shop
    before = len(sink.messages)
    addresses = [f"reader{n}@example.com" for n in range(30)]

    def register(n):
        client = Client(servers[n % 2].url)
        _, _, page = client.get("/account/register")
        token = csrf(page)
        return client.post("/account/register", {"csrf_token": token, "name": f"Reader {n}", "email": addresses[n],
                                                 "password": "Blue9sky!", "password_confirmation": "Blue9sky!"})[0]

    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(pool.map(register, range(len(addresses))))
    assert sorted(statuses) == [303] * 9 + [429] * 21, statuses
    registered = sorted(address for address, status in zip(addresses, statuses) if status == 303)
    deadline = time.time() + 60
    while time.time() < deadline and len(sink.messages) - before < len(registered):
        time.sleep(0.5)
    time.sleep(3)  # a second delivery, if any, would arrive in this time
    delivered = sorted(envelope.rcpt_tos[0] for envelope in sink.messages[before:]
                       if envelope.rcpt_tos[0].startswith("reader"))
    assert delivered == registered, "each verification email exactly once"
    for envelope in sink.messages[before:]:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert "Confirm your email" in message["Subject"]


def test_expired_holds_are_swept_once_by_two_servers(shop):
    """Shoppers stop at the checkout's review through both servers, each holding one item; the
    holds then expire (moved an hour back in the database, in place of waiting out their 15
    minutes), and both servers restart at once. Each sweeps expired holds as it starts (its
    housekeeping's first round) and logs how many it deleted: between them every hold is deleted
    once, and the counts add up to the holds there were. Runs last: it restarts the servers."""
    servers, nginx, _, workdir = shop
    if not (Path(workdir) / "race.json").exists():  # the checkout race test imported it
        (Path(workdir) / "race.json").write_text(json.dumps(CATALOG))
        assert servers[1].run("import", str(Path(workdir) / "race.json")).returncode == 0
    stocked = servers[0].run("stock", "set", SKU, "5")
    assert stocked.returncode == 0, stocked.stderr
    for n, base in enumerate([servers[0].url, servers[1].url, nginx.url]):
        key = hold(base, email=f"holder{n}@example.com")
        assert isinstance(key, str), key

    def sql(statement):
        return subprocess.run(["psql", "-qtA", "-v", "ON_ERROR_STOP=1", servers[0].database, "-c", statement],
                              check=True, capture_output=True, text=True, timeout=60).stdout.strip()

    held = int(sql("SELECT count(*) FROM stock_reservations"))
    assert held >= 3
    sql("UPDATE stock_reservations SET expires_at = expires_at - 3600")
    logged = [len(server.log.read_text()) for server in servers]
    for server in servers:
        server.stop()
    threads = [threading.Thread(target=server.start) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(server.process for server in servers)

    def swept():
        return [sum(int(count) for count in re.findall(r"swept (\d+) expired stock holds?",
                                                       server.log.read_text()[offset:]))
                for server, offset in zip(servers, logged)]

    deadline = time.time() + 20
    while time.time() < deadline and (sum(swept()) < held or sql("SELECT count(*) FROM stock_reservations") != "0"):
        time.sleep(0.2)
    time.sleep(1)  # a second deletion of one hold, if any, would be logged by now
    assert sql("SELECT count(*) FROM stock_reservations") == "0"
    assert sum(swept()) == held, swept()
