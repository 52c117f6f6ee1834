"""A shopper in headless Chromium at 390×844: browse the demo shop, add to cart, see the badge.
Screenshots (light and dark) go to .build/e2e-screenshots/ for people to look at."""
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS, click


def shoot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def set_dark(browser, dark):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def test_shopper_browses_and_fills_the_cart(server, browser):
    for dark in (False, True):
        set_dark(browser, dark)
        suffix = "dark" if dark else "light"
        browser.get(server.url + "/")
        assert browser.find_elements(By.CSS_SELECTOR, ".card"), "home shows featured products"
        shoot(browser, f"home-{suffix}")
        browser.get(server.url + "/categories")
        shoot(browser, f"categories-{suffix}")

    set_dark(browser, False)
    browser.get(server.url + "/categories")
    browser.find_element(By.CSS_SELECTOR, ".category-tile").click()
    cards = browser.find_elements(By.CSS_SELECTOR, ".card:not(.card-sold-out) .card-link")
    assert cards, "category lists products"
    shoot(browser, "category-light")
    set_dark(browser, True)
    shoot(browser, "category-dark")
    set_dark(browser, False)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", cards[0])
    cards[0].click()
    assert browser.find_element(By.CSS_SELECTOR, ".product-title").text
    shoot(browser, "product-light")
    add = browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", add)  # as a thumb would
    add.click()
    flash = browser.find_element(By.CSS_SELECTOR, ".flash")
    assert "Added" in flash.text
    badge = browser.find_element(By.CSS_SELECTOR, ".tab-bar .badge")
    assert badge.text == "1"

    browser.get(server.url + "/cart")
    lines = browser.find_elements(By.CSS_SELECTOR, ".cart-line")
    assert len(lines) == 1
    shoot(browser, "cart-light")
    set_dark(browser, True)
    shoot(browser, "cart-dark")
    set_dark(browser, False)

    # With JavaScript on, changing the quantity submits the form by itself.
    quantity = browser.find_element(By.CSS_SELECTOR, ".quantity-form input[name=quantity]")
    quantity.clear()
    quantity.send_keys("2")
    browser.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", quantity)
    WebDriverWait(browser, 10, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(
        lambda b: b.find_element(By.CSS_SELECTOR, ".tab-bar .badge").text == "2")
    assert "Your cart was updated." in browser.find_element(By.CSS_SELECTOR, ".flash").text


def test_unknown_page_is_a_styled_404(server, browser):
    browser.get(server.url + "/products/no-such-thing")
    assert "Page not found" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_elements(By.CSS_SELECTOR, ".tab-bar")


def test_the_category_filter_hides_tiles_as_you_type(server, browser):
    """A fresh tester typed "kit" and every tile stayed: `.category-tile { display: flex }`
    outweighed the browser's rule for `hidden` (app.css now makes `hidden` win)."""
    browser.get(server.url + "/categories")
    field = browser.find_element(By.CSS_SELECTOR, "input[data-filter]")
    field.send_keys("kit")
    shown = lambda: [tile.text for tile in browser.find_elements(By.CSS_SELECTOR, ".category-tile") if tile.is_displayed()]
    WebDriverWait(browser, 5).until(lambda _: len(shown()) == 1)
    assert "Kitchen" in shown()[0]


def test_picking_a_variant_on_sale_shows_its_was_price_after_one_that_is_not(server, browser):
    """Opened at Black (not on sale), picking Natural Oak shows $149.00, the struck-through
    $179.00 and the Sale pill, as it does from the page's first load (a fresh tester saw neither)."""
    browser.get(server.url + "/products/oak-dining-chair")
    black = browser.find_element(By.XPATH, "//label[contains(@class, 'variant-choice')][contains(., 'Black')]")
    click(browser, black)
    browser.get(browser.current_url)  # reloaded at ?variant= of Black
    assert "variant=" in browser.current_url
    was = browser.find_element(By.CSS_SELECTOR, "[data-price-area] .price-was")
    assert not was.is_displayed()
    oak = browser.find_element(By.XPATH, "//label[contains(@class, 'variant-choice')][contains(., 'Natural Oak')]")
    click(browser, oak)
    WebDriverWait(browser, 5).until(lambda _: was.is_displayed())
    assert was.text == "$179.00"
    assert browser.find_element(By.CSS_SELECTOR, "[data-price-area] .price-now").text == "$149.00"
    assert browser.find_element(By.CSS_SELECTOR, "[data-price-area] .pill-sale").is_displayed()


def test_picking_an_in_stock_variant_after_a_sold_out_one_shows_the_quantity_box(server, browser):
    """Opened at the sofa bed's sold-out variant, picking the one in stock shows the quantity box
    and enables the button (a tester got no box: the server had left it out)."""
    browser.get(server.url + "/products/sofa-bed")
    sold_out = browser.find_element(By.CSS_SELECTOR, "input[name=variant][disabled]").get_attribute("value")
    browser.get(server.url + "/products/sofa-bed?variant=" + sold_out)
    field = browser.find_element(By.CSS_SELECTOR, "[data-quantity-field]")
    assert not field.is_displayed()
    other = browser.find_element(By.XPATH, "//label[contains(@class, 'variant-choice')][not(contains(@class, 'variant-sold-out'))]")
    click(browser, other)
    WebDriverWait(browser, 5).until(lambda _: field.is_displayed())
    assert browser.find_element(By.CSS_SELECTOR, "input[name=quantity]").is_enabled()
    assert browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]").is_enabled()


def test_a_product_with_many_variants_offers_a_picker_per_option(server, browser):
    """The wool cushion cover (two sizes × four colours, 40 × 40 Navy not made, 40 × 40
    Terracotta sold out): a picker per option chooses in the hidden list of variants, strikes
    through what cannot be bought, and the chosen variant is what the cart gets (a tester found
    a 30-variant product's flat list hard to use)."""
    browser.get(server.url + "/products/wool-cushion-cover")
    pickers = browser.find_elements(By.CSS_SELECTOR, ".option-pickers fieldset.option-picker")
    assert [p.find_element(By.TAG_NAME, "legend").text for p in pickers] == ["Size", "Color"]
    assert not browser.find_element(By.CSS_SELECTOR, "fieldset.variant-picker").is_displayed()

    def chip(text):
        return browser.find_element(By.XPATH, f"//label[contains(@class, 'option-chip')][span[1][normalize-space(.)='{text}']]")

    def pick(text):
        element = chip(text)
        click(browser, element)

    button = browser.find_element(By.CSS_SELECTOR, ".add-form button[type=submit]")
    pick("40 × 40 cm")
    assert "option-chip-unavailable" in chip("Navy").get_attribute("class"), "not made in 40 × 40"
    assert "option-chip-unavailable" in chip("Terracotta").get_attribute("class"), "sold out in 40 × 40"
    pick("Terracotta")
    WebDriverWait(browser, 5).until(lambda _: not button.is_enabled())
    assert button.text == "Sold out"
    pick("Navy")
    WebDriverWait(browser, 5).until(lambda _: button.text == "Unavailable")
    assert not button.is_enabled()
    pick("50 × 50 cm")
    WebDriverWait(browser, 5).until(lambda _: button.is_enabled())
    assert browser.find_element(By.CSS_SELECTOR, "[data-price-area] .price-now").text == "$49.00"
    assert "option-chip-unavailable" not in chip("Navy").get_attribute("class")
    click(browser, button)
    WebDriverWait(browser, 5).until(lambda _: "/products/wool-cushion-cover" in browser.current_url
                                    and browser.find_elements(By.CSS_SELECTOR, ".flash, .toast-region"))
    browser.get(server.url + "/cart")
    assert "50 × 50 cm / Navy" in browser.find_element(By.TAG_NAME, "main").text


def test_the_option_pickers_agree_with_the_variant_posted_after_going_back(server, browser):
    """A regression tester picked 40 × 40 (no Navy in that size) at 50 × 50 Navy, left and came
    Back: the chips showed 40 × 40 + Navy while the button added 50 × 50 Navy. After Back the
    chips show what the list will post, and each struck-through chip says why."""
    browser.get(server.url + "/products/wool-cushion-cover")
    navy = browser.find_element(By.XPATH, "//label[contains(@class, 'option-chip')][contains(., 'Navy')]")
    big = browser.find_element(By.XPATH, "//label[contains(@class, 'option-chip')][contains(., '50 × 50 cm')]")
    small = browser.find_element(By.XPATH, "//label[contains(@class, 'option-chip')][contains(., '40 × 40 cm')]")
    assert "(Unavailable)" in navy.get_attribute("textContent"), "said to screen readers, not only struck through"
    for chip in (big, navy, small):
        click(browser, chip)
    browser.get(server.url + "/categories")
    browser.back()
    WebDriverWait(browser, 5).until(lambda _: browser.find_elements(By.CSS_SELECTOR, ".option-chip"))
    state = browser.execute_script("""
        var chips = Array.prototype.map.call(document.querySelectorAll('.option-chip input:checked'), function (i) { return i.value; });
        var checked = document.querySelector('.variant-choice input:checked');
        return {chips: chips, posted: checked ? JSON.parse(checked.closest('.variant-choice').dataset.optionValues) : null,
                enabled: !document.querySelector('.add-form button[type=submit]').disabled};
    """)
    if state["enabled"]:
        assert state["chips"] == state["posted"], state
