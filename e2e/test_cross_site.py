"""Another site's form against a shopper in real Chromium (docs/ARCHITECTURE.md, "Cross-site
requests"): the shop's pages carry no CSRF token before a session, so the browser's own word
(`Sec-Fetch-Site`, `Origin`) is what refuses a form posted from elsewhere."""
import http.server
import threading

from selenium.webdriver.common.by import By

from conftest import free_port


def attacker_site(shop_url):
    """A page on another origin (another port) that posts a form to the shop as it loads."""
    page = f"""<!DOCTYPE html><html><body>
<form method="post" action="{shop_url}/cart/add">
<input type="hidden" name="product" value="stoneware-mug"><input type="hidden" name="quantity" value="5">
</form><script>document.forms[0].submit()</script></body></html>""".encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def cart_count(browser, shop_url):
    browser.get(shop_url + "/cart")
    return browser.find_element(By.CSS_SELECTOR, ".tab-bar .badge").get_attribute("data-cart-count")


def test_another_sites_form_cannot_add_to_a_shoppers_cart(server, browser):
    # A visitor's first add, from a page without a token: Chromium says it is the shop's own.
    browser.get(server.url + "/products/ceramic-table-lamp")
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name=csrf_token]"), "no session yet, no token"
    button = browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    assert "Added" in browser.find_element(By.CSS_SELECTOR, ".flash").text
    assert cart_count(browser, server.url) == "1"

    attacker = attacker_site(server.url)
    try:
        browser.get(f"http://127.0.0.1:{attacker.server_address[1]}/")
        # The shop answers the posted form with its refusal page.
        assert browser.find_element(By.CSS_SELECTOR, "main h1").text
        assert "/cart/add" in browser.current_url
        assert "Sent from another site" in browser.page_source
    finally:
        attacker.shutdown()
    assert cart_count(browser, server.url) == "1", "nothing was added"
