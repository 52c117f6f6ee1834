"""Issue #5: stock never oversells. 200 shoppers (separate sessions) race through the whole checkout
for a variant with 10 in stock: exactly 10 orders exist afterwards, stock is 0, every other shopper
got a clear "sold out" answer, and nothing answered with a 5xx."""
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

from conftest import Client

SKU = "LAST-10"
HANDLE = "last-ten"
STOCK = 10
SHOPPERS = 200
WORKERS = 32
TIME_LIMIT = 60  # seconds for the whole race

CATALOG = {
    "format": "shoppable-catalog",
    "version": 1,
    "currency": "USD",
    "products": [
        {"handle": HANDLE, "title": "The Last Ten Lamp", "description": "Only ten were made.", "category": "Lamps",
         "variants": [{"sku": SKU, "options": [], "price": "10.00", "stock": 3, "allowBackorder": False}]},
        {"handle": "plenty-mug", "title": "Plenty Mug", "description": "Never runs out.", "category": "Kitchen",
         "variants": [{"sku": "PLENTY", "options": [], "price": "5.00", "stock": None}]},
    ],
}

ADDRESS = {"first_name": "Ada", "last_name": "Lovelace", "phone": "+1 503 555 0100", "line1": "1 Analytical Way",
           "line2": "", "city": "Portland", "postal_code": "97201", "region": "OR", "country": "US"}

ORDER_LOCATION = re.compile(r"^(?:https?://[^/]+)?(/orders/([A-Za-z0-9-]+)(?:\?token=[^&\s]+)?)$")


class Outcome:
    """What one shopper's attempt ended with."""

    def __init__(self, kind, step, status=None, number=None, location=None, detail=""):
        self.kind = kind  # "ordered", "sold_out", "unexpected"
        self.step = step
        self.status = status
        self.number = number
        self.location = location
        self.detail = detail

    def __repr__(self):
        return f"Outcome({self.kind} at {self.step}, HTTP {self.status}, {self.number or ''} {self.detail[:200]!r})"


def import_catalog(server, workdir):
    path = Path(workdir) / "race.json"
    path.write_text(json.dumps(CATALOG))
    result = server.run("import", str(path))
    assert result.returncode == 0, result.stderr


def says_sold_out(body):
    """`True` when the page's visible text (tags and their attributes removed) says "sold out"."""
    text = re.sub(r"(?is)<(script|style|template)\b.*?</\1\s*>", " ", body)
    text = re.sub(r"<[^>]*>", " ", text)
    return "sold out" in re.sub(r"\s+", " ", text).lower()


class Shopper:
    """One browser: its own cookie jar and CSRF token, every request recorded for the 5xx check."""

    def __init__(self, base):
        self.client = Client(base)
        self.statuses = []
        self.token = None

    def get(self, path):
        status, headers, body = self.client.get(path)
        self.statuses.append((status, "GET " + path))
        return status, headers, body

    def post(self, path, form):
        if not self.token:  # none before the shopper has a session
            self.token = self.client.csrf_token()
        status, headers, body = self.client.post(path, {**form, "csrf_token": self.token})
        self.statuses.append((status, "POST " + path))
        return status, headers, body

    def follow(self, status, headers, body):
        """Follows one redirect with a GET (where the server sends the shopper with a message)."""
        if status in (301, 302, 303, 307) and headers.get("Location", "").startswith("/"):
            return self.get(headers["Location"])
        return status, headers, body


def checkout(base, sku_handle=HANDLE, quantity=1, email="racer@example.com", address=ADDRESS):
    """A guest's whole checkout: add → address → shipping → review → place. Returns an Outcome."""
    shopper = Shopper(base)
    try:
        outcome = _checkout(shopper, sku_handle, quantity, email, address)
    except OSError as error:  # a refused or timed-out connection: no answer at all
        outcome = Outcome("unexpected", "connection", detail=repr(error))
    outcome.statuses = shopper.statuses
    return outcome


def hold(base, sku_handle=HANDLE, quantity=1, email="holder@example.com", address=ADDRESS):
    """A guest who stops at the checkout's review, holding the stock: the idempotency key of the
    review's form, or the Outcome of the step that failed."""
    return _review(Shopper(base), sku_handle, quantity, email, address)


def _review(shopper, handle, quantity, email, address):
    """add → address → shipping → review: the review form's idempotency key, or an Outcome."""
    status, headers, body = shopper.post("/cart/add", {"product": handle, "quantity": str(quantity)})
    if status != 303:
        kind = "sold_out" if status < 500 and says_sold_out(body) else "unexpected"
        return Outcome(kind, "add", status, detail=body)

    status, headers, body = shopper.post("/checkout/address", {"email": email, **address})
    if status != 303:
        return Outcome("unexpected", "address", status, detail=body)

    status, _, page = shopper.get("/checkout/shipping")
    methods = re.findall(r'name="method"[^>]*value="([^"]+)"', page) or re.findall(
        r'value="([^"]+)"[^>]*name="method"', page)
    method = "standard" if "standard" in methods or not methods else methods[0]
    status, headers, body = shopper.post("/checkout/shipping", {"method": method})
    if status != 303:
        return Outcome("unexpected", "shipping", status, detail=body)

    status, headers, body = shopper.follow(*shopper.get("/checkout/review"))
    key = re.search(r'name="idempotency_key" value="([^"]+)"', body) or re.search(
        r'value="([^"]+)"[^>]*name="idempotency_key"', body)
    if key is None:
        kind = "sold_out" if status < 500 and says_sold_out(body) else "unexpected"
        return Outcome(kind, "review", status, detail=body)
    if status >= 500:
        return Outcome("unexpected", "review", status, detail=body)
    return key.group(1)


def _checkout(shopper, handle, quantity, email, address):
    key = _review(shopper, handle, quantity, email, address)
    if isinstance(key, Outcome):
        return key
    status, headers, body = shopper.post("/checkout/place", {"idempotency_key": key})
    location = headers.get("Location", "")
    match = ORDER_LOCATION.match(location)
    if status == 303 and match:
        return Outcome("ordered", "place", status, number=match.group(2), location=match.group(1))
    if status == 409 and says_sold_out(body):
        return Outcome("sold_out", "place", status, detail=body)
    status, headers, body = shopper.follow(status, headers, body)
    if status < 500 and says_sold_out(body):
        return Outcome("sold_out", "place", status, detail=body)
    return Outcome("unexpected", "place", status, location=location, detail=body)


def order_lines(listing):
    """The order lines of `shoppable orders list` (tab-separated: number, date, email, total, status)."""
    return [line.split("\t") for line in listing.splitlines() if line.count("\t") == 4]


def test_two_hundred_shoppers_race_for_ten_items_and_exactly_ten_win(empty_server):
    import_catalog(empty_server, empty_server.workdir)
    result = empty_server.run("stock", "set", SKU, str(STOCK))
    assert result.returncode == 0, result.stderr

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = [pool.submit(checkout, empty_server.url, HANDLE, 1, f"racer{n}@example.com")
                   for n in range(SHOPPERS)]
        done, not_done = wait(futures, timeout=TIME_LIMIT)
        for future in not_done:
            future.cancel()
    assert not not_done, f"{len(not_done)} checkouts did not finish within {TIME_LIMIT} s"
    elapsed = time.monotonic() - started
    outcomes = [future.result() for future in futures]

    server_errors = [(status, request) for outcome in outcomes for status, request in outcome.statuses if status >= 500]
    assert not server_errors, f"5xx answers: {server_errors[:10]}"

    unexpected = [outcome for outcome in outcomes if outcome.kind == "unexpected"]
    assert not unexpected, f"{len(unexpected)} attempts got neither an order nor “sold out”: {unexpected[:5]}"

    ordered = [outcome for outcome in outcomes if outcome.kind == "ordered"]
    sold_out = [outcome for outcome in outcomes if outcome.kind == "sold_out"]
    assert len(ordered) == STOCK, f"{len(ordered)} orders placed, sold out at: " \
        + str(sorted({o.step for o in sold_out}))
    assert len(sold_out) == SHOPPERS - STOCK
    numbers = {outcome.number for outcome in ordered}
    assert len(numbers) == STOCK, "order numbers must be unique"
    # Guests are sent to their order with an unguessable token.
    assert all(outcome.location and "?token=" in outcome.location for outcome in ordered)

    # The database agrees: exactly the ten orders, all awaiting payment.
    listing = empty_server.run("orders", "list")
    assert listing.returncode == 0, listing.stderr
    rows = order_lines(listing.stdout)
    assert {row[0] for row in rows} == numbers, listing.stdout
    assert all(row[4] == "awaiting_payment" for row in rows)
    awaiting = empty_server.run("orders", "list", "--status", "awaiting_payment")
    assert len(order_lines(awaiting.stdout)) == STOCK

    # Stock is 0: the product page says so and nobody can add it any more.
    late = Shopper(empty_server.url)
    status, _, page = late.get(f"/products/{HANDLE}")
    assert status == 200 and says_sold_out(page)
    status, _, body = late.post("/cart/add", {"product": HANDLE, "quantity": "1"})
    assert status == 422 and says_sold_out(body)

    # A winner can open their order page with the link they were sent to.
    winner = ordered[0]
    status, _, page = Client(empty_server.url).get(winner.location)
    assert status == 200 and winner.number in page

    print(f"{SHOPPERS} checkouts in {elapsed:.1f} s: {len(ordered)} orders, "
          f"sold out at {sorted({o.step for o in sold_out})}")
