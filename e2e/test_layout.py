"""Issue #11, point 7: no main page is wider than the viewport.

Every main page is loaded at 320, 390 and 1280 px, with and without JavaScript, as a signed-in
shopper (unverified email, so the banner shows where it belongs) whose cart holds a sale line and
a voucher that puts a discount on every line, and who has an order. The test fails when
`document.documentElement.scrollWidth > window.innerWidth`.

`SHOPPABLE_LAYOUT_SCREENSHOTS=1` also saves a viewport screenshot of every page and width to
`.build/e2e-screenshots/layout/` (names like `cart-390-nojs.png`), for people to look at."""
import json
import os

import pytest

from conftest import SCREENSHOTS

WIDTHS = (320, 390, 1280)
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


def test_banners_fit_a_phone(shop, browser):
    """At 390 px, in every language: the "confirm your email" banner keeps its close button beside
    its text (not wrapped onto a line of its own), and the offline banner takes two lines at most."""
    server, client, _ = shop
    browser.get(server.url + "/healthz")
    for cookie in client.jar:
        browser.add_cookie({"name": cookie.name, "value": cookie.value, "path": cookie.path or "/"})
    problems = []
    try:
        for lang in ("en", "tr", "es"):
            browser.get(server.url + f"/account?lang={lang}")
            box = browser.execute_script("""
                var banner = document.querySelector('.banner'), text = banner.querySelector('.banner-text');
                var close = banner.querySelector('.banner-close button');
                var offline = document.querySelector('[data-offline-banner]');
                offline.hidden = false;
                var t = text.getBoundingClientRect(), c = close.getBoundingClientRect();
                var o = offline.querySelector('span').getBoundingClientRect(), style = getComputedStyle(offline);
                var line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
                return {textTop: t.top, textBottom: t.bottom, textRight: t.right, closeTop: c.top,
                        closeLeft: c.left, closeRight: c.right, offline: o.height, line: line};""")
            if not (box["closeTop"] < box["textBottom"] and box["closeLeft"] >= box["textRight"] - 1):
                problems.append(f"{lang}: the close button is not beside the banner text: {box}")
            if box["closeRight"] > 390:
                problems.append(f"{lang}: the close button is cut off: {box}")
            if box["offline"] > 2 * box["line"] + 1:
                problems.append(f"{lang}: the offline banner takes {box['offline'] / box['line']:.1f} lines")
    finally:
        browser.get(server.url + "/account?lang=en")  # the shopper's language, for the other tests
    assert not problems, "\n".join(problems)


def test_a_title_of_one_long_word_wraps_on_a_phone(shop, browser, tmp_path):
    """Found by fresh testers: a product titled with one long unbroken word, or with such a tag,
    widened the product page past a phone's screen (a flex item is at least as wide as its
    longest word)."""
    server, _, _ = shop
    catalog = tmp_path / "long.json"
    catalog.write_text(json.dumps({"format": "shoppable-catalog", "version": 1, "currency": "USD", "products": [{
        "handle": "long-title", "title": "Supercalifragilisticexpialidociousandevenlongerunbrokenword Chair",
        "description": "<p>A long name.</p>", "vendor": "Nordwood", "category": "Chairs", "published": True,
        "tags": ["Pneumonoultramicroscopicsilicovolcanoconiosisandmorelettersthanarowholds"],
        "options": [], "variants": [{"sku": "LONG-1", "price": "12.00"}]}]}))
    imported = server.run("import", str(catalog))
    assert imported.returncode == 0, imported.stderr
    too_wide = []
    for width in (320, 390):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        for path in ("/products/long-title", "/categories/chairs", "/search?q=supercalifragilisticexpialidociousandevenlongerunbrokenword"):
            browser.get(server.url + path)
            assert "Supercalifragilistic" in browser.page_source, path
            scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            if scroll > min(inner, width):
                too_wide.append(f"{path} at {width} px: {scroll} px wide")
    assert not too_wide, "\n".join(too_wide)
