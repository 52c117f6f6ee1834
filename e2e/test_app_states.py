"""App states in headless Chromium at 390x844 (issue #11, points 4 and 5): the first-visit
introduction once, busy buttons that send once, the service worker, and offline and back."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS


def shoot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def visible(browser, selector):
    return [e for e in browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]


def wait(browser, condition, timeout=10):
    return WebDriverWait(browser, timeout).until(lambda b: condition(b))


def set_offline(browser, offline):
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_the_introduction_is_shown_once(server, first_visit_browser):
    browser = first_visit_browser
    browser.implicitly_wait(0)
    browser.get(server.url + "/")
    dialog = browser.find_element(By.CSS_SELECTOR, "[data-welcome][role=dialog]")
    assert dialog.is_displayed()
    shoot(browser, "welcome-1")
    panels = visible(browser, "[data-welcome-panel]")
    assert [p.get_attribute("data-welcome-panel") for p in panels] == ["1"]
    visible(browser, "[data-welcome-next]")[0].click()
    assert [p.get_attribute("data-welcome-panel") for p in visible(browser, "[data-welcome-panel]")] == ["2"]
    visible(browser, "[data-welcome-next]")[0].click()
    assert [p.get_attribute("data-welcome-panel") for p in visible(browser, "[data-welcome-panel]")] == ["3"]
    shoot(browser, "welcome-3")
    visible(browser, "[data-welcome-dismiss=done]")[0].click()
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-welcome]")
    browser.get(server.url + "/categories")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-welcome]"), "never again after Done"

    # A fresh profile (no cookies) is a new visitor: shown again; Skip is remembered too.
    browser.delete_all_cookies()
    browser.get(server.url + "/categories")
    assert browser.find_element(By.CSS_SELECTOR, "[data-welcome]").is_displayed()
    visible(browser, "[data-welcome-dismiss=skip]")[0].click()
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-welcome]")
    browser.get(server.url + "/")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-welcome]"), "never again after Skip"


def test_a_busy_button_sends_its_form_once(server, browser):
    browser.get(server.url + "/categories")
    browser.find_element(By.CSS_SELECTOR, ".category-tile").click()
    link = browser.find_element(By.CSS_SELECTOR, ".card:not(.card-sold-out) .card-link")
    browser.get(link.get_attribute("href"))
    form = browser.find_element(By.CSS_SELECTOR, ".add-form")
    # Two taps before the next page arrives: the second is stopped, the button marked busy.
    sent = browser.execute_script("""
        var form = arguments[0], button = form.querySelector('button[type=submit]'), sent = 0;
        document.addEventListener('submit', function (e) { if (!e.defaultPrevented) sent++; e.preventDefault(); });
        form.requestSubmit(button);
        form.requestSubmit(button);
        return [sent, button.getAttribute('aria-busy'), form.getAttribute('aria-busy')];""", form)
    assert sent == [1, "true", "true"]
    time.sleep(0.1)
    assert browser.execute_script("return arguments[0].querySelector('button[type=submit]').disabled", form)
    # For real: one add, the badge says 1.
    browser.refresh()
    button = browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]")
    browser.execute_script("arguments[0].click(); arguments[0].click();", button)
    wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".flash"))
    assert browser.find_element(By.CSS_SELECTOR, ".tab-bar .badge").text == "1"


def test_offline_banner_disabled_actions_cached_pages_and_recovery(server, browser):
    browser.get(server.url + "/")
    controlled = browser.execute_async_script("""
        var done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(function () {
          var tries = 0;
          (function check() {
            if (navigator.serviceWorker.controller) return done(true);
            if (++tries > 50) return done(false);
            setTimeout(check, 100);
          })();
        });""")
    assert controlled, "the service worker registers and controls the page"
    browser.get(server.url + "/categories")
    browser.find_element(By.CSS_SELECTOR, ".category-tile").click()
    product = browser.find_element(By.CSS_SELECTOR, ".card:not(.card-sold-out) .card-link").get_attribute("href")
    browser.get(product)
    title = browser.find_element(By.CSS_SELECTOR, ".product-title").text
    wait(browser, lambda b: b.execute_async_script("""
        var done = arguments[arguments.length - 1];
        caches.keys().then(function (names) {
          return Promise.all(names.map(function (n) { return caches.open(n).then(function (c) { return c.match(location.href); }); }));
        }).then(function (hits) { done(hits.some(Boolean)); });"""))

    # The network goes: the banner appears, adding to the cart says why it cannot.
    set_offline(browser, True)
    server.stop()
    wait(browser, lambda b: b.find_element(By.CSS_SELECTOR, "[data-offline-banner]").is_displayed())
    add = browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]")
    assert add.get_attribute("aria-disabled") == "true"
    reason = browser.find_element(By.CSS_SELECTOR, "[data-offline-banner]").get_attribute("data-reason")
    assert add.get_attribute("title") == reason
    assert browser.find_element(By.CSS_SELECTOR, ".add-form .offline-reason").text == reason
    shoot(browser, "offline-product")
    browser.execute_script("arguments[0].click()", add)
    wait(browser, lambda b: b.find_element(By.CSS_SELECTOR, "[data-toast]").text == reason)
    assert browser.current_url == product

    # A page visited before still opens; one never visited gets the offline page, not Chromium's.
    browser.get(server.url + "/categories")
    assert browser.find_elements(By.CSS_SELECTOR, ".category-tile")
    assert browser.find_element(By.CSS_SELECTOR, "[data-offline-banner]").is_displayed()
    browser.get(product)
    assert browser.find_element(By.CSS_SELECTOR, ".product-title").text == title
    browser.get(server.url + "/search?q=never-visited")
    assert browser.find_element(By.TAG_NAME, "h1").text == "You are offline"
    shoot(browser, "offline-page")

    # Back online: the banner leaves by itself and the button works again.
    browser.get(product)
    server.start()
    set_offline(browser, False)
    wait(browser, lambda b: not b.find_element(By.CSS_SELECTOR, "[data-offline-banner]").is_displayed())
    add = browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]")
    assert add.get_attribute("aria-disabled") is None
    assert not browser.find_elements(By.CSS_SELECTOR, ".offline-reason")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", add)
    add.click()
    assert "Added" in browser.find_element(By.CSS_SELECTOR, ".flash").text
