"""Issue #5: operators see orders and set stock from the command line."""
import re

from conftest import Client
from test_checkout_concurrency import ADDRESS, HANDLE, SKU, Shopper, checkout, import_catalog, order_lines, says_sold_out


def money(text):
    """Minor units of `12.34 USD` or `-1.50 USD` (exact, no floats)."""
    sign, whole, cents = re.fullmatch(r"(-?)(\d+)\.(\d\d) USD", text.strip()).groups()
    return (-1 if sign else 1) * (int(whole) * 100 + int(cents))


def field(detail, name):
    """The value of a `Name      value` line of `orders show`."""
    match = re.search(rf"^{name}\s+(.+)$", detail, re.M)
    assert match, f"no “{name}” line in:\n{detail}"
    return match.group(1).strip()


def test_operator_lists_and_shows_a_placed_order(empty_server):
    import_catalog(empty_server, empty_server.workdir)
    assert empty_server.run("stock", "set", SKU, "5").returncode == 0

    assert empty_server.run("orders", "list").stdout.strip().endswith("no orders yet")

    outcome = checkout(empty_server.url, HANDLE, quantity=2, email="ada@example.com")
    assert outcome.kind == "ordered", outcome
    number = outcome.number

    listing = empty_server.run("orders", "list")
    assert listing.returncode == 0, listing.stderr
    rows = order_lines(listing.stdout)
    assert len(rows) == 1, listing.stdout
    listed_number, placed, email, total, status = rows[0]
    assert listed_number == number
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", placed)
    assert email == "ada@example.com"
    assert status == "awaiting_payment"

    paid = empty_server.run("orders", "list", "--status", "paid")
    assert paid.returncode == 0 and order_lines(paid.stdout) == [] and "no orders with status paid" in paid.stdout
    bad_status = empty_server.run("orders", "list", "--status", "lost")
    assert bad_status.returncode == 64 and "awaiting_payment" in bad_status.stderr

    shown = empty_server.run("orders", "show", number)
    assert shown.returncode == 0, shown.stderr
    detail = shown.stdout
    assert field(detail, "Order") == number
    assert field(detail, "Status") == "awaiting_payment"
    assert field(detail, "Email").startswith("ada@example.com (guest)")
    for part in ("Ada Lovelace", ADDRESS["line1"], "97201 Portland", "United States"):
        assert part in detail
    assert field(detail, "Phone") == ADDRESS["phone"]
    line = next(line for line in detail.splitlines() if re.match(r"\s*1\s+" + re.escape(SKU), line))  # numbered from 1
    assert "The Last Ten Lamp" in line
    # unit price, quantity, no discount, line total, nothing refunded
    assert re.search(r"10\.00 USD\s+2\s+-\s+20\.00 USD\s+-$", line), line
    subtotal, shipping = money(field(detail, "Subtotal")), money(field(detail, "Shipping"))
    assert subtotal == 2000
    assert money(field(detail, "Total")) == subtotal + shipping
    assert money(total) == subtotal + shipping

    missing = empty_server.run("orders", "show", "NO-SUCH-1")
    assert missing.returncode == 65 and "NO-SUCH-1" in missing.stderr


def test_replaying_place_order_creates_one_order(empty_server):
    import_catalog(empty_server, empty_server.workdir)
    assert empty_server.run("stock", "set", SKU, "5").returncode == 0
    shopper = Shopper(empty_server.url)
    assert shopper.post("/cart/add", {"product": HANDLE, "quantity": "1"})[0] == 303
    assert shopper.post("/checkout/address", {"email": "twice@example.com", **ADDRESS})[0] == 303
    assert shopper.post("/checkout/shipping", {"method": "standard"})[0] == 303
    _, _, review = shopper.get("/checkout/review")
    key = re.search(r'name="idempotency_key" value="([^"]+)"', review).group(1)
    first = shopper.post("/checkout/place", {"idempotency_key": key})
    second = shopper.post("/checkout/place", {"idempotency_key": key})
    assert first[0] == 303 and second[0] == 303
    assert first[1]["Location"].split("?")[0] == second[1]["Location"].split("?")[0]
    assert len(order_lines(empty_server.run("orders", "list").stdout)) == 1


def test_stock_set_refuses_bad_input_and_updates_the_storefront(empty_server):
    import_catalog(empty_server, empty_server.workdir)

    for bad in ("abc", "-1", "2.5", "1e3"):
        result = empty_server.run("stock", "set", SKU, bad)
        assert result.returncode == 64, (bad, result.stdout, result.stderr)
        assert "not a whole number" in result.stderr
    missing_quantity = empty_server.run("stock", "set", SKU)
    assert missing_quantity.returncode == 64

    unknown = empty_server.run("stock", "set", "NO-SUCH-SKU", "3")
    assert unknown.returncode == 65
    assert "no variant has the SKU “NO-SUCH-SKU”" in unknown.stderr and "nothing changed" in unknown.stderr
    lower = empty_server.run("stock", "set", SKU.lower(), "3")
    assert lower.returncode == 0, lower.stderr  # SKUs are compared trimmed and ignoring case (issue #13)

    done = empty_server.run("stock", "set", SKU, "0")
    assert done.returncode == 0 and f"stock of {SKU} set to 0" in done.stdout
    client = Client(empty_server.url)
    status, _, page = client.get(f"/products/{HANDLE}")
    assert status == 200 and says_sold_out(page)

    assert empty_server.run("stock", "set", SKU, "2").returncode == 0
    _, _, page = client.get(f"/products/{HANDLE}")
    assert not says_sold_out(page)


def available_on_page(server):
    """The stock the product page offers (its quantity field's maximum)."""
    _, _, page = Client(server.url).get(f"/products/{HANDLE}")
    match = re.search(r'name="quantity"[^>]*max="(\d+)"', page) or re.search(r'max="(\d+)"[^>]*name="quantity"', page)
    return int(match.group(1)) if match else 0


def test_operator_moves_orders_through_their_life_and_a_cancel_gives_stock_back(empty_server):
    """Issue #16, point 8: `shoppable orders mark-paid|fulfil|mark-delivered|cancel`, by the rules
    of docs/ORDERS.md: each step in its history, a refused step names what is allowed, and a
    cancel gives the order's stock back to the storefront once."""
    import_catalog(empty_server, empty_server.workdir)
    assert empty_server.run("stock", "set", SKU, "5").returncode == 0
    first = checkout(empty_server.url, HANDLE, quantity=2, email="ada@example.com")
    second = checkout(empty_server.url, HANDLE, quantity=1, email="bob@example.com")
    assert first.kind == "ordered" and second.kind == "ordered", (first, second)
    assert available_on_page(empty_server) == 2

    early = empty_server.run("orders", "fulfil", first.number, "--carrier", "UPS", "--tracking", "1Z999")
    assert early.returncode == 65
    assert "awaiting payment cannot be fulfilled (it can be: mark-paid, cancel); nothing changed" in early.stderr
    no_tracking = empty_server.run("orders", "fulfil", first.number, "--carrier", "UPS")
    assert no_tracking.returncode == 64 and "--tracking" in no_tracking.stderr
    blank = empty_server.run("orders", "fulfil", first.number, "--carrier", " ", "--tracking", "1Z999")
    assert blank.returncode == 64 and "the carrier is empty" in blank.stderr
    reversed_text = empty_server.run("orders", "fulfil", first.number, "--carrier", "UPS", "--tracking", "\u202eabc")
    assert reversed_text.returncode == 64 and "invisible formatting character" in reversed_text.stderr

    paid = empty_server.run("orders", "mark-paid", first.number)
    assert paid.returncode == 0, paid.stderr
    assert paid.stdout.strip() == f"order {first.number}: awaiting_payment → paid"
    fulfilled = empty_server.run("orders", "fulfil", first.number, "--carrier", "UPS", "--tracking", " 1Z999AA1 ")
    assert fulfilled.returncode == 0, fulfilled.stderr
    assert fulfilled.stdout.strip() == f"order {first.number}: paid → fulfilled (UPS, tracking 1Z999AA1)"
    assert empty_server.run("orders", "mark-delivered", first.number).returncode == 0
    too_late = empty_server.run("orders", "cancel", first.number)
    assert too_late.returncode == 65
    assert "delivered cannot be cancelled (it can be: refund)" in too_late.stderr

    # A refund of some units, by line number as `orders show` prints them; more than is left is refused.
    refunded = empty_server.run("orders", "refund", first.number, "1=1")
    assert refunded.returncode == 0, refunded.stderr
    assert refunded.stdout.strip().startswith(f"order {first.number}: delivered; refund of ") and "recorded" in refunded.stdout
    too_many = empty_server.run("orders", "refund", first.number, "1=2")
    assert too_many.returncode == 65 and "line 1 has 1 unit left to refund; nothing changed" in too_many.stderr
    bad = empty_server.run("orders", "refund", first.number, "one")
    assert bad.returncode == 64 and "is not LINE=QTY" in bad.stderr

    detail = empty_server.run("orders", "show", first.number).stdout
    assert field(detail, "Status") == "delivered"
    assert money(field(detail, "Refunded")) > 0 and money(field(detail, "Refunded")) < money(field(detail, "Total")), \
        "the lines' refunds under the total, as the shopper's page shows them"
    assert field(detail, "Carrier") == "UPS, tracking 1Z999AA1"
    history = [line for line in detail.splitlines() if " by cli: " in line]
    assert [line.split(" by cli: ")[1].split(";")[0] for line in history] == [
        "awaiting_payment → paid", "paid → fulfilled", "fulfilled → delivered", "delivered → delivered"]
    assert available_on_page(empty_server) == 2, "nothing came back on the way"

    cancelled = empty_server.run("orders", "cancel", second.number.lower())  # as typed from an email
    assert cancelled.returncode == 0, cancelled.stderr
    assert cancelled.stdout.strip() == f"order {second.number}: awaiting_payment → cancelled; 1 item back in stock"
    assert available_on_page(empty_server) == 3, "the storefront offers the cancelled item again"
    again = empty_server.run("orders", "cancel", second.number)
    assert again.returncode == 65 and "nothing more can be done with it" in again.stderr
    assert available_on_page(empty_server) == 3
    assert "cancel by cli: awaiting_payment → cancelled; 1 item back in stock" in empty_server.run(
        "orders", "show", second.number).stdout
    listing = order_lines(empty_server.run("orders", "list", "--status", "cancelled").stdout)
    assert [row[0] for row in listing] == [second.number]
    unknown = empty_server.run("orders", "mark-paid", "NO-SUCH-1")
    assert unknown.returncode == 65 and "NO-SUCH-1" in unknown.stderr

    # A paid order refunded in part, then cancelled: the cancel owes the rest, and `orders show`
    # counts it as the order pages do (a fresh tester saw the lines' refunds only).
    third = checkout(empty_server.url, HANDLE, quantity=2, email="cy@example.com")
    assert third.kind == "ordered", third
    assert empty_server.run("orders", "mark-paid", third.number).returncode == 0
    assert empty_server.run("orders", "refund", third.number, "1=1").returncode == 0
    part = empty_server.run("orders", "show", third.number).stdout
    assert 0 < money(field(part, "Refunded")) < money(field(part, "Total"))
    assert empty_server.run("orders", "cancel", third.number).returncode == 0
    whole = empty_server.run("orders", "show", third.number).stdout
    assert money(field(whole, "Refunded")) == money(field(whole, "Total")), whole


def test_the_shop_cancels_orders_left_unpaid_past_their_time(empty_server):
    """Issue #16, point 3: an order still awaiting payment `unpaidOrderDays` (default 7) after it
    was placed is cancelled by the shop and its stock given back; a paid one of the same age is
    left alone. Time is moved by moving the orders' dates back 8 days in the database."""
    import sqlite3
    import time

    import_catalog(empty_server, empty_server.workdir)
    assert empty_server.run("stock", "set", SKU, "5").returncode == 0
    unpaid = checkout(empty_server.url, HANDLE, quantity=2, email="ada@example.com")
    paid = checkout(empty_server.url, HANDLE, quantity=1, email="bob@example.com")
    assert unpaid.kind == "ordered" and paid.kind == "ordered", (unpaid, paid)
    assert empty_server.run("orders", "mark-paid", paid.number).returncode == 0
    assert available_on_page(empty_server) == 2

    empty_server.stop()
    with sqlite3.connect(empty_server.database) as database:
        database.execute("UPDATE orders SET placed_at = placed_at - 8 * 86400")
    logged = len(empty_server.log.read_text())
    empty_server.start()  # housekeeping runs as the server starts
    deadline = time.time() + 15
    line = f"cancelled unpaid order {unpaid.number}"
    while time.time() < deadline and line not in empty_server.log.read_text()[logged:]:
        time.sleep(0.2)
    assert line in empty_server.log.read_text()[logged:]
    assert paid.number not in empty_server.log.read_text()[logged:]

    assert available_on_page(empty_server) == 4, "the unpaid order's 2 items are offered again"
    detail = empty_server.run("orders", "show", unpaid.number).stdout
    assert field(detail, "Status") == "cancelled"
    assert "cancel by shop: awaiting_payment → cancelled" in detail
    assert field(empty_server.run("orders", "show", paid.number).stdout, "Status") == "paid"
