"""Issue #11, point 3: the theme choice (system / light / dark) in headless Chromium at 390×844.

The footer's control is links (`GET /theme?set=…&return_to=…`), so it works with and without
JavaScript. The choice is remembered in a cookie across pages and a reload; the server writes it
into the HTML (`<html data-theme>`, `<meta name="color-scheme">`), so it applies before the first
paint; and the page's computed background colour really changes."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

THEME_COOKIE = "shoppable_theme"


def prefer(browser, scheme):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def background(browser):
    return browser.execute_script("return getComputedStyle(document.body).backgroundColor")


def served_html(browser):
    """The page as the server sent it (with this browser's cookies), before any script ran."""
    return browser.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch(location.href, {credentials: 'same-origin', cache: 'no-store'})
          .then(function (r) { return r.text(); }).then(done, function (e) { done('error: ' + e); });""")


def choose(browser, theme):
    link = browser.find_element(By.CSS_SELECTOR, f".site-footer [data-theme-choice={theme}]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    before = browser.current_url
    link.click()
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return document.documentElement.dataset.theme") == theme)
    assert browser.current_url == before, "the choice comes back to the same page"


def state(browser):
    current = browser.find_elements(By.CSS_SELECTOR, ".site-footer [data-theme-choice][aria-current=true]")
    cookie = browser.get_cookie(THEME_COOKIE)
    return {"theme": browser.execute_script("return document.documentElement.dataset.theme"),
            "current": [c.get_attribute("data-theme-choice") for c in current],
            "cookie": cookie["value"] if cookie else None,
            "background": background(browser)}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_theme_choice_is_applied_remembered_and_served(server, browser, javascript):
    browser.implicitly_wait(0)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not javascript})
    prefer(browser, "light")
    browser.get(server.url + "/products/oak-dining-chair")
    start = state(browser)
    assert start["theme"] == "system" and start["current"] == ["system"] and start["cookie"] is None
    light = start["background"]
    # "System" follows the device.
    prefer(browser, "dark")
    device_dark = background(browser)
    assert device_dark != light, "system follows prefers-color-scheme"
    prefer(browser, "light")

    choose(browser, "dark")
    dark = state(browser)
    assert dark["current"] == ["dark"] and dark["cookie"] == "dark"
    assert dark["background"] != light and dark["background"] == device_dark

    # Remembered on the next page and after a reload; the server's own HTML carries it.
    for step in ("next page", "reload"):
        if step == "next page":
            browser.get(server.url + "/categories")
        else:
            browser.refresh()
        assert state(browser) == dark | {"current": ["dark"]}, step
    if javascript:  # fetch needs JavaScript; the no-JS run proves the same by the DOM above
        html = served_html(browser)
        assert '<html lang="en" data-theme="dark">' in html, html[:200]
        assert '<meta name="color-scheme" content="dark">' in html

    # Light wins over a dark device; System gives the device back.
    prefer(browser, "dark")
    choose(browser, "light")
    pinned = state(browser)
    assert pinned["cookie"] == "light" and pinned["background"] == light
    choose(browser, "system")
    back = state(browser)
    assert back["cookie"] is None and back["current"] == ["system"] and back["background"] == device_dark
