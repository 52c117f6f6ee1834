"""Issue #2: import a file, add two items over HTTP, SIGTERM the server, start it again: same cart."""
import re
from pathlib import Path

from conftest import Client, cart_lines

FIXTURE = Path(__file__).parent / "fixtures" / "small-shop.csv"


def test_imported_cart_survives_a_restart(empty_server):
    result = empty_server.run("import", str(FIXTURE))
    assert result.returncode == 0, result.stderr
    assert "2 created" in result.stdout  # two products

    client = Client(empty_server.url)
    status, _, apron_page = client.get("/products/linen-apron")
    assert status == 200
    sand = re.search(r'name="variant" value="(\d+)"[^>]*checked', apron_page).group(1)
    status, headers, _ = client.post("/cart/add", {"product": "linen-apron", "variant": sand, "quantity": "2"})
    assert status == 303, headers
    assert "HttpOnly" in headers.get("Set-Cookie", "") and "SameSite=Lax" in headers.get("Set-Cookie", "")
    status, _, _ = client.post("/cart/add", {"product": "enamel-mug", "quantity": "3"})
    assert status == 303

    _, _, before = client.get("/cart")
    lines_before = cart_lines(before)
    assert [q for _, q in lines_before] == [2, 3]
    assert "$105.50" in before  # 2 × 34.00 + 3 × 12.50

    empty_server.restart()

    status, _, after = client.get("/cart")
    assert status == 200
    assert cart_lines(after) == lines_before
    assert "$105.50" in after
    assert 'data-cart-count="5"' in after


def test_sold_out_variant_and_over_stock_are_refused(empty_server):
    assert empty_server.run("import", str(FIXTURE)).returncode == 0
    client = Client(empty_server.url)
    _, _, page = client.get("/products/linen-apron")
    olive = re.search(r'name="variant" value="(\d+)"[^>]*disabled', page).group(1)
    status, _, body = client.post("/cart/add", {"product": "linen-apron", "variant": olive, "quantity": "1"})
    assert status == 422 and "sold out" in body
    sand = re.search(r'name="variant" value="(\d+)"[^>]*checked', page).group(1)
    status, _, body = client.post("/cart/add", {"product": "linen-apron", "variant": sand, "quantity": "5"})
    assert status == 422 and "Only 4 available" in body
    _, _, cart = client.get("/cart")
    assert cart_lines(cart) == []


def test_graceful_shutdown_exits_cleanly(server):
    client = Client(server.url)
    assert client.get("/")[0] == 200
    server.stop()  # asserts exit status 0 after SIGTERM
