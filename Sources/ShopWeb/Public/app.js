// Shoppable — progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Product page: choosing a variant updates the price, stock and quantity limit in place.
  function updateVariant(form) {
    var checked = form.querySelector(".variant-picker input:checked");
    if (!checked) return;
    var choice = checked.closest(".variant-choice");
    var area = document.querySelector("[data-price-area]");
    if (area) {
      var now = area.querySelector(".price-now");
      var was = area.querySelector(".price-was");
      if (now) now.textContent = choice.dataset.price;
      if (now) now.classList.toggle("price-sale", !!choice.dataset.compareAt);
      if (was) { was.textContent = choice.dataset.compareAt; was.hidden = !choice.dataset.compareAt; }
      var pill = area.querySelector(".pill-sale");
      if (pill) pill.hidden = !choice.dataset.compareAt;
    }
    var stock = document.querySelector("[data-stock]");
    if (stock) { stock.textContent = choice.dataset.stock; stock.className = choice.dataset.stockClass; }
    var quantity = form.querySelector("input[name=quantity]");
    var soldOut = choice.dataset.soldOut === "1";
    if (quantity) {
      quantity.max = choice.dataset.max;
      if (+quantity.value > +quantity.max) quantity.value = quantity.max;
      quantity.disabled = soldOut;
    }
    var button = form.querySelector("button[type=submit]");
    if (button) {
      button.disabled = soldOut;
      button.textContent = soldOut ? button.dataset.soldOutLabel : button.dataset.addLabel;
    }
    var url = new URL(window.location.href);
    url.searchParams.set("variant", checked.value);
    history.replaceState(null, "", url);
  }
  document.querySelectorAll(".add-form").forEach(function (form) {
    form.addEventListener("change", function (event) {
      if (event.target.name === "variant") updateVariant(form);
    });
  });

  // Cart: changing a quantity submits its form (the Update button is hidden with JS on).
  document.querySelectorAll(".quantity-form input[name=quantity]").forEach(function (input) {
    input.addEventListener("change", function () {
      // An out-of-range or non-whole quantity is explained by the browser instead of ignored.
      if (input.value === "") return;  // still typing
      if (input.checkValidity()) input.form.requestSubmit();
      else input.reportValidity();
    });
  });

  // Flash messages fade after a few seconds.
  document.querySelectorAll("[data-flash]").forEach(function (flash) {
    setTimeout(function () { flash.hidden = true; }, 6000);
  });
})();

// Hearts toggle in place: the same form, posted in the background, answered with JSON.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches(".heart-form") || !window.fetch) return;
    event.preventDefault();
    var button = form.querySelector(".heart");
    var field = form.querySelector("input[name=favorite]");
    fetch(form.action, {
      method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (result) {
      document.querySelectorAll('.heart-form[data-heart="' + form.dataset.heart + '"]').forEach(function (other) {
        var otherButton = other.querySelector(".heart");
        otherButton.setAttribute("aria-pressed", String(result.favorite));
        otherButton.setAttribute("aria-label", result.label);
        otherButton.title = result.label;
        other.querySelector("input[name=favorite]").value = result.favorite ? "0" : "1";
      });
      document.querySelectorAll("[data-favorites-count]").forEach(function (badge) {
        badge.dataset.favoritesCount = String(result.count);
        badge.textContent = result.count > 99 ? "99+" : String(result.count);
        badge.hidden = result.count === 0;
      });
    }).catch(function () { form.submit(); });
  });
})();
