"""Issue #11, points 8 and 9: axe-core (its default rules) finds no violation on any main page.

Every main page is checked at 390×844 in light and dark, in English, Turkish and Spanish (`?lang=`
and the theme route `GET /theme?set=…&return_to=…`), and once more at 1280×800 in English, light,
by one headless Chromium: a signed-in shopper whose cart holds a sale line and a voucher, who is
at the checkout's review step and has an order; sign-in and register are checked signed out.
axe-core comes from `axe-selenium-python` (no CDN). A failure lists every violation as
`page [lang theme width]: rule (impact) targets`.

The same pass saves a viewport screenshot of every page — phone light and dark in English, phone
light in Turkish and Spanish, desktop light in English — as `<page>-<phone|desktop>-<theme>-<lang>.png`
in `$SHOPPABLE_SCREENSHOTS` (default `.build/e2e-screenshots`; `docs/screenshots` refreshes the
committed set)."""
import re
import subprocess
import urllib.parse
from pathlib import Path

import pytest

from conftest import BINARY, PAGE_SCREENSHOTS, Client, new_browser

LANGUAGES = ("en", "tr", "es")
THEMES = ("light", "dark")
PHONE = (390, 844)
DESKTOP = (1280, 800)
SCREENSHOT_VARIANTS = {("en", "light"), ("en", "dark"), ("tr", "light"), ("es", "light")}

SIGNED_IN_PAGES = {
    "home": "/",
    "categories": "/categories",
    "category": "/categories/chairs",
    "product": "/products/oak-dining-chair",
    "search": "/search?q=chair",
    "cart": "/cart",
    "checkout-address": "/checkout/address",
    "checkout-shipping": "/checkout/shipping",
    "checkout-review": "/checkout/review",
    "order": None,  # the shopper's order, from the fixture
    "account": "/account",
    "favorites": "/favorites",
    "campaigns": "/campaigns",
    "campaign": "/campaigns/welcome",
}
SIGNED_OUT_PAGES = {
    "sign-in": "/account/sign-in",
    "register": "/account/register",
}

# The back office (issue #16), signed in as the shop's owner; `{order}` is the shopper's order.
ADMIN_PAGES = {
    "admin-home": "/admin",
    "admin-orders": "/admin/orders",
    "admin-order": "/admin/orders/{order}",
    "admin-staff": "/admin/staff",
    "admin-audit": "/admin/audit",
    "admin-customers": "/admin/customers",
    "admin-customer": "/admin/customers/1",  # the fixture's shopper, the shop's first account
    "admin-products": "/admin/products",
    "admin-product": "/admin/products/1",  # the demo's first product
    "admin-products-import": "/admin/products/import",
    "admin-product-new": "/admin/products/new",
    "admin-account": "/admin/account",
    "admin-second-factor": "/admin/account/second-factor",
    "admin-campaigns": "/admin/campaigns",
    "admin-campaign": "/admin/campaigns/welcome/edit",  # the demo's welcome campaign
}


def axe_script():
    import axe_selenium_python
    return (Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()


@pytest.fixture(scope="module")
def session(shop):
    """One browser for the whole module, and axe's script read once."""
    driver = new_browser()
    driver.implicitly_wait(0)
    yield driver, shop, axe_script()
    driver.quit()


def with_lang(path, lang):
    return path + ("&" if "?" in path else "?") + f"lang={lang}"


def resize(browser, size):
    width, height = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def violations_of(browser, script, label):
    """Runs axe's default rules on the loaded page; one line per violation."""
    browser.execute_script(script)
    results = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document).then(done, error => done({error: String(error)}));")
    assert "error" not in results, f"{label}: axe failed: {results['error']}"
    return [f"{label}: {v['id']} ({v['impact']}) " + ", ".join(" ".join(n["target"]) for n in v["nodes"])
            for v in results["violations"]]


def check_page(browser, server, script, name, path):
    """Every language and theme at phone size, then English light at desktop size."""
    browser.set_script_timeout(60)
    PAGE_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    found = []
    variants = [(lang, theme, PHONE) for lang in LANGUAGES for theme in THEMES] + [("en", "light", DESKTOP)]
    for lang, theme, size in variants:
        resize(browser, size)
        target = with_lang(path, lang)
        browser.get(server.url + f"/theme?set={theme}&return_to=" + urllib.parse.quote(target, safe=""))
        expected = urllib.parse.urlsplit(path).path
        assert urllib.parse.urlsplit(browser.current_url).path == expected, f"{name}: at {browser.current_url}"
        assert browser.execute_script("return document.documentElement.lang") == lang
        device = "phone" if size == PHONE else "desktop"
        found += violations_of(browser, script, f"{name} [{lang} {theme} {size[0]}]")
        if device == "desktop" or (lang, theme) in SCREENSHOT_VARIANTS:
            browser.save_screenshot(str(PAGE_SCREENSHOTS / f"{name}-{device}-{theme}-{lang}.png"))
    resize(browser, PHONE)
    assert not found, f"{len(found)} axe violations:\n" + "\n".join(found)


@pytest.mark.parametrize("name", SIGNED_OUT_PAGES)
def test_signed_out_page_has_no_axe_violations(session, name):
    browser, (server, _, _), script = session
    browser.get(server.url + "/healthz")
    for cookie in ("shoppable_session", "shoppable_csrf"):  # only these: other cookies are the visitor's
        browser.delete_cookie(cookie)
    check_page(browser, server, script, name, SIGNED_OUT_PAGES[name])


@pytest.mark.parametrize("name", SIGNED_IN_PAGES)
def test_signed_in_page_has_no_axe_violations(session, name):
    browser, (server, client, order), script = session
    browser.get(server.url + "/healthz")
    for cookie in client.jar:  # replaces a signed-out visitor's cookies of the same names
        browser.add_cookie({"name": cookie.name, "value": cookie.value, "path": cookie.path or "/"})
    check_page(browser, server, script, name, SIGNED_IN_PAGES[name] or order)


@pytest.fixture(scope="module")
def staff_jar(shop):
    """The cookies of the shop's owner signed in at /admin (created on the command line)."""
    server, _, _ = shop
    created = subprocess.run([BINARY, "staff", "create", "--email", "owner@example.com", "--name", "Olga Owner",
                              "--role", "owner", "--database", str(server.database)],
                             input="Harbor9light\n", capture_output=True, text=True, timeout=60)
    assert created.returncode == 0, created.stderr
    client = Client(server.url)
    _, _, page = client.get("/admin/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    status, _, body = client.request("POST", "/admin/sign-in",
                                     {"csrf_token": token, "email": "owner@example.com", "password": "Harbor9light"})
    assert status == 303, body[:500]
    return client.jar


def test_admin_sign_in_has_no_axe_violations(session):
    browser, (server, _, _), script = session
    browser.get(server.url + "/healthz")
    check_page(browser, server, script, "admin-sign-in", "/admin/sign-in")


@pytest.mark.parametrize("name", ADMIN_PAGES)
def test_admin_page_has_no_axe_violations(session, staff_jar, name):
    browser, (server, _, order), script = session
    browser.get(server.url + "/healthz")
    for cookie in staff_jar:
        browser.add_cookie({"name": cookie.name, "value": cookie.value, "path": cookie.path or "/admin"})
    number = urllib.parse.urlsplit(order).path.rsplit("/", 1)[-1]
    check_page(browser, server, script, name, ADMIN_PAGES[name].replace("{order}", number))
