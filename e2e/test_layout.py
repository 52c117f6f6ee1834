"""Issue #11, point 7: no main page is wider than the viewport.

Every main page is loaded at 320, 390 and 1280 px, with and without JavaScript, as a signed-in
shopper (unverified email, so the banner shows where it belongs) whose cart holds a sale line and
a voucher that puts a discount on every line, and who has an order. The test fails when
`document.documentElement.scrollWidth > window.innerWidth`.

`SHOPPABLE_LAYOUT_SCREENSHOTS=1` also saves a viewport screenshot of every page and width to
`.build/e2e-screenshots/layout/` (names like `cart-390-nojs.png`), for people to look at."""
import os
import re

import pytest

from conftest import SCREENSHOTS, Client

WIDTHS = (320, 390, 1280)
ADDRESS = {"first_name": "Ana", "last_name": "Lima", "phone": "+1 555 0100", "line1": "1 Main St",
           "city": "Springfield", "postal_code": "12345", "country": "US"}


def csrf(page):
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


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
    import tempfile

    from conftest import Server
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


PAGES = {
    "home": "/",
    "categories": "/categories",
    "category": "/categories/chairs",
    "product": "/products/oak-dining-chair",
    "product-sold-out": "/products/velvet-reading-armchair",
    "search": "/search?q=chair",
    "cart": "/cart",
    "checkout-address": "/checkout/address",
    "checkout-shipping": "/checkout/shipping",
    "checkout-review": "/checkout/review",
    "order": None,  # from the fixture
    "account": "/account",
    "favorites": "/favorites",
    "campaigns": "/campaigns",
    "campaign": "/campaigns/welcome",
}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_no_main_page_is_wider_than_the_viewport(shop, browser, javascript):
    server, client, order = shop
    browser.get(server.url + "/healthz")
    for cookie in client.jar:
        browser.add_cookie({"name": cookie.name, "value": cookie.value, "path": cookie.path or "/"})
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not javascript})
    save = os.environ.get("SHOPPABLE_LAYOUT_SCREENSHOTS")
    if save:
        (SCREENSHOTS / "layout").mkdir(parents=True, exist_ok=True)
    too_wide = []
    for layout in ("grid", "list"):
        browser.get(server.url + f"/layout?set={layout}&return_to=/healthz")
        for width in WIDTHS:
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": 844 if width < 600 else 800, "deviceScaleFactor": 1, "mobile": width < 600})
            for name, path in PAGES.items():
                if layout == "list" and name not in ("category", "search", "favorites"):
                    continue
                browser.get(server.url + (path or order))
                if path and path.startswith("/checkout"):
                    assert browser.current_url.endswith(path), browser.current_url
                # A phone's layout viewport grows to fit a page that is too wide, so `innerWidth` is
                # compared with the emulated width too.
                scroll, inner = browser.execute_script(
                    "return [document.documentElement.scrollWidth, window.innerWidth]")
                inner = min(inner, width)
                suffix = f"{width}-{'js' if javascript else 'nojs'}" + ("-list" if layout == "list" else "")
                if scroll > inner:
                    too_wide.append(f"{name} at {width} px ({'JS' if javascript else 'no JS'}, {layout}): "
                                    f"{scroll} px wide")
                if save:
                    browser.save_screenshot(str(SCREENSHOTS / "layout" / f"{name}-{suffix}.png"))
    assert not too_wide, "pages wider than the viewport:\n" + "\n".join(too_wide)
