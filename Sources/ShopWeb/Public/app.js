// Shoppable — progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Product page: choosing a variant updates the price, stock and quantity limit in place.
  function updateVariant(form) {
    var checked = form.querySelector(".variant-picker input:checked");
    if (!checked) return;
    applyChoice(form, checked.closest(".variant-choice"), checked.value);
  }
  // Shows the variant a choice stands for (`data-*` of its label): price, stock, picture,
  // quantity limit, the button, and `?variant=` in the address.
  function applyChoice(form, choice, variantID) {
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
    // A sold-out choice has nothing to count: its quantity box goes away.
    var quantityField = form.querySelector("[data-quantity-field]");
    if (quantityField) quantityField.hidden = soldOut;
    if (choice.dataset.image) showGalleryImage(choice.dataset.image);
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
    url.searchParams.set("variant", variantID);
    history.replaceState(null, "", url);
  }
  // A combination of option values that no variant has: said in the stock line and on the
  // button, which cannot be pressed.
  function showUnavailable(form, text) {
    var stock = document.querySelector("[data-stock]");
    if (stock) { stock.textContent = text; stock.className = "stock stock-out"; }
    var quantityField = form.querySelector("[data-quantity-field]");
    if (quantityField) quantityField.hidden = true;
    var quantity = form.querySelector("input[name=quantity]");
    if (quantity) quantity.disabled = true;
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = true; button.textContent = text; }
  }
  // Many variants over several options (`data-option-names`): a picker per option (size,
  // colour …) that chooses in the list of variants, which stays in the form, hidden, and is
  // what the form posts; without this script the list itself is the picker.
  document.querySelectorAll(".variant-picker[data-option-names]").forEach(function (list) {
    var form = list.closest("form");
    var names = JSON.parse(list.dataset.optionNames);
    var variants = Array.prototype.map.call(list.querySelectorAll(".variant-choice"), function (label) {
      return { label: label, input: label.querySelector("input[name=variant]"), values: JSON.parse(label.dataset.optionValues) };
    });
    if (!form || variants.length === 0) return;
    // The chosen variant's values; none (nulls) while no variant is chosen (the "choose an
    // option" answer of an add without one).
    function shown() {
      var chosen = variants.filter(function (variant) { return variant.input.checked; })[0];
      return chosen ? chosen.values.slice() : names.map(function () { return null; });
    }
    var current = shown();
    var pickers = document.createElement("div");
    pickers.className = "option-pickers";
    var chips = names.map(function (name, index) {
      var fieldset = document.createElement("fieldset");
      fieldset.className = "option-picker";
      var legend = document.createElement("legend");
      legend.textContent = name;
      fieldset.appendChild(legend);
      var values = [];
      variants.forEach(function (variant) {
        if (values.indexOf(variant.values[index]) === -1) values.push(variant.values[index]);
      });
      pickers.appendChild(fieldset);
      return values.map(function (value) {
        var label = document.createElement("label");
        label.className = "option-chip";
        var input = document.createElement("input");
        input.type = "radio";
        input.name = "option-" + (index + 1);
        input.value = value;
        input.checked = current[index] === value;
        // Owned by no form: the list's checked variant is what is posted. Not restored by the
        // browser on Back either (`sync` sets them from the list).
        input.setAttribute("form", "no-form");
        input.autocomplete = "off";
        input.addEventListener("change", function () { current[index] = value; choose(); });
        var text = document.createElement("span");
        text.textContent = value;
        // What the strike-through shows, for screen readers too.
        var state = document.createElement("span");
        state.className = "visually-hidden";
        label.appendChild(input);
        label.appendChild(text);
        label.appendChild(state);
        fieldset.appendChild(label);
        return { label: label, input: input, state: state, value: value };
      });
    });
    // The variants agreeing with `values` where a value is chosen (all of them: the one variant).
    function agreeing(values) {
      return variants.filter(function (variant) {
        return variant.values.every(function (value, index) { return values[index] === null || value === values[index]; });
      });
    }
    // A value that, with the others chosen, makes no variant one can buy is struck through and
    // said to be sold out or unavailable.
    var soldOutText = (form.querySelector("button[type=submit]") || {dataset: {}}).dataset.soldOutLabel || "";
    function mark() {
      chips.forEach(function (group, index) {
        group.forEach(function (chip) {
          var values = current.slice();
          values[index] = chip.value;
          var candidates = agreeing(values);
          var buyable = candidates.some(function (variant) { return !variant.input.disabled; });
          chip.label.classList.toggle("option-chip-unavailable", !buyable);
          chip.state.textContent = candidates.length === 0 ? " (" + list.dataset.unavailable + ")"
            : !buyable ? " (" + soldOutText + ")" : "";
        });
      });
    }
    // The chips as the list says (a page restored by Back keeps the list's choice, not the chips').
    function sync() {
      current = shown();
      chips.forEach(function (group, index) {
        group.forEach(function (chip) { chip.input.checked = chip.value === current[index]; });
      });
      mark();
    }
    function choose() {
      mark();
      if (current.indexOf(null) !== -1) return;  // an option still to choose
      var variant = agreeing(current)[0];
      if (variant && !variant.input.disabled) {
        variant.input.checked = true;
        updateVariant(form);
      } else if (variant) {
        applyChoice(form, variant.label, variant.input.value);  // sold out: shown, not addable
      } else {
        showUnavailable(form, list.dataset.unavailable);
      }
    }
    // The cards' "Choose" buttons link to #options: the pickers take the anchor.
    pickers.id = list.id;
    list.removeAttribute("id");
    list.parentNode.insertBefore(pickers, list);
    list.hidden = true;
    mark();
    window.addEventListener("pageshow", function () {
      sync();
      // Restored by Back with another variant chosen than the page was drawn for: shown as it.
      var checked = list.querySelector("input[name=variant]:checked");
      if (checked && !checked.defaultChecked) updateVariant(form);
    });
  });
  // Product gallery: thumbnails (dots on a phone) scroll the strip in place instead of jumping
  // the page to the anchor, and the one in view is marked.
  function showGalleryImage(id) {
    var item = document.getElementById(id);
    var track = item && item.closest("[data-gallery-track]");
    if (!track) return;
    var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    track.scrollTo({ left: item.offsetLeft - track.offsetLeft, behavior: reduce ? "auto" : "smooth" });
    markGalleryImage(track, id);
  }
  function markGalleryImage(track, id) {
    var gallery = track.closest("[data-gallery]");
    gallery.querySelectorAll(".gallery-thumb").forEach(function (thumb) {
      if (thumb.getAttribute("href") === "#" + id) thumb.setAttribute("aria-current", "true");
      else thumb.removeAttribute("aria-current");
    });
  }
  document.querySelectorAll("[data-gallery]").forEach(function (gallery) {
    var track = gallery.querySelector("[data-gallery-track]");
    gallery.querySelectorAll(".gallery-thumb").forEach(function (thumb) {
      thumb.addEventListener("click", function (event) {
        event.preventDefault();
        showGalleryImage(thumb.getAttribute("href").slice(1));
      });
    });
    // Keyboard: on the strip (focusable) and on the thumbnails, Left/Right (Home/End) go to the
    // previous/next (first/last) picture; on a thumbnail, focus follows.
    var thumbs = Array.prototype.slice.call(gallery.querySelectorAll(".gallery-thumb"));
    function step(event, from) {
      var keys = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
      if (!(event.key in keys) || event.altKey || event.ctrlKey || event.metaKey) return;
      var items = track.children;
      var index = Math.max(0, Math.min(items.length - 1, from + keys[event.key]));
      if (index === from || !items[index]) return;
      event.preventDefault();
      showGalleryImage(items[index].id);
      if (thumbs[index] && thumbs.indexOf(document.activeElement) !== -1) thumbs[index].focus();
    }
    track.addEventListener("keydown", function (event) {
      // From the picture marked current (the strip may still be scrolling to it).
      var current = thumbs.findIndex(function (thumb) { return thumb.hasAttribute("aria-current"); });
      step(event, current !== -1 ? current : Math.round(track.scrollLeft / Math.max(1, track.clientWidth)));
    });
    thumbs.forEach(function (thumb, index) {
      thumb.addEventListener("keydown", function (event) { step(event, index); });
    });
    var pending = null;
    track.addEventListener("scroll", function () {
      clearTimeout(pending);
      pending = setTimeout(function () {
        var index = Math.round(track.scrollLeft / Math.max(1, track.clientWidth));
        var item = track.children[index];
        if (item) markGalleryImage(track, item.id);
      }, 80);
    }, { passive: true });
  });

  document.querySelectorAll(".add-form").forEach(function (form) {
    form.addEventListener("change", function (event) {
      if (event.target.name === "variant") updateVariant(form);
    });
    // Opened at a sold-out variant: shown as when it is picked (the server leaves the quantity
    // box and the button usable for shoppers without this script).
    var checked = form.querySelector(".variant-picker input:checked");
    if (checked && checked.disabled) updateVariant(form);
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
      if (window.shoppableToast && result.message) window.shoppableToast(result.message, false);
    }).catch(function () {
      // Offline (app-states section below): the banner explains; posting would only fail.
      if (!document.documentElement.classList.contains("is-offline")) form.submit();
    });
  });
})();

// Quick add: the card's form posted in the background; the badge updates and a toast confirms.
// Badges stay in step across this shopper's open tabs (BroadcastChannel) and are refreshed from
// the server when a tab comes back into view.
(function () {
  "use strict";
  var channel = window.BroadcastChannel ? new BroadcastChannel("shoppable") : null;

  function setBadge(kind, count) {
    document.querySelectorAll("[data-" + kind + "-count]").forEach(function (badge) {
      if (badge.getAttribute("data-" + kind + "-count") === String(count)) return;  // no change: no echo
      badge.setAttribute("data-" + kind + "-count", String(count));
      badge.textContent = count > 99 ? "99+" : String(count);
      badge.hidden = count === 0;
    });
  }
  function readBadge(kind) {
    var badge = document.querySelector("[data-" + kind + "-count]");
    return badge ? Number(badge.getAttribute("data-" + kind + "-count")) : 0;
  }
  function announce() {
    if (channel) channel.postMessage({ cart: readBadge("cart"), favorites: readBadge("favorites") });
  }
  if (channel) {
    channel.onmessage = function (event) {
      if (typeof event.data.cart === "number") setBadge("cart", event.data.cart);
      if (typeof event.data.favorites === "number") setBadge("favorites", event.data.favorites);
    };
  }
  function refresh() {
    if (!window.fetch) return;
    fetch("/badge", { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (counts) {
        if (!counts) return;
        setBadge("cart", counts.cart);
        setBadge("favorites", counts.favorites);
      }).catch(function () {});
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  window.addEventListener("focus", refresh);
  announce();  // every page load tells the other tabs the current counts
  // Other tabs may change the counts too (favorites from the heart script): watch the badges.
  if (window.MutationObserver) {
    new MutationObserver(function () { announce(); }).observe(document.querySelector(".tab-bar") || document.body,
      { subtree: true, attributes: true, attributeFilter: ["data-cart-count", "data-favorites-count"] });
  }

  var toast = document.querySelector("[data-toast]");
  window.shoppableToast = function (text, isError) { showToast(text, isError); };
  var toastTimer = null;
  // The region `[data-toast]` is the live region (always in the page); the message is a bubble
  // put inside it, and taken out again after a few seconds.
  function showToast(text, isError) {
    if (!toast) return;
    var bubble = document.createElement("span");
    bubble.className = isError ? "toast toast-error" : "toast";
    bubble.textContent = text;
    toast.replaceChildren(bubble);
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toast.replaceChildren(); }, 4000);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches(".quick-add-form") || !window.fetch) return;
    event.preventDefault();
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    fetch(form.action, {
      method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (result) { return { ok: response.ok, result: result }; });
    }).then(function (answer) {
      if (answer.ok) setBadge("cart", answer.result.cartCount);
      showToast(answer.result.message, !answer.ok);
    }).catch(function () {
      if (document.documentElement.classList.contains("is-offline")) showToast(document.querySelector("[data-offline-banner]").getAttribute("data-reason"), true);
      else form.submit();
    }).then(function () { if (button) button.disabled = false; });
  });

  // Categories: filter the list as you type (the form still works without JavaScript).
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var list = document.querySelector(input.getAttribute("data-filter"));
    if (!list) return;
    function fold(text) {
      return text.toLocaleLowerCase(document.documentElement.lang || "en").normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    }
    input.addEventListener("input", function () {
      var words = fold(input.value).split(/\s+/).filter(Boolean);
      list.querySelectorAll(".category-tile").forEach(function (tile) {
        var name = fold(tile.querySelector(".category-name").textContent);
        tile.hidden = !words.every(function (word) { return name.indexOf(word) !== -1; });
      });
    });
  });
})();

// Sorting applies as soon as a new order is picked.
document.querySelectorAll("form[data-auto-submit] select[name=sort]").forEach(function (select) {
  select.addEventListener("change", function () { select.form.requestSubmit(); });
});
// Empty filter fields stay out of the URL.
document.querySelectorAll("form.listing-controls").forEach(function (form) {
  form.addEventListener("submit", function () {
    form.querySelectorAll("input, select").forEach(function (field) {
      if (field.name && field.value === "" && field.type !== "hidden") field.disabled = true;
    });
  });
});

// Cart: ticking a line sends its line form (the select box belongs to it through `form=`; the
// form's `select_shown` field says an unticked box was there); the copy button copies a voucher code.
document.querySelectorAll(".select-box input[name=selected]").forEach(function (box) {
  box.addEventListener("change", function () {
    if (box.form) box.form.requestSubmit();
  });
});
document.querySelectorAll("[data-copy]").forEach(function (button) {
  var target = document.querySelector(button.getAttribute("data-copy"));
  if (!target || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(target.textContent.trim()).then(function () {
      button.textContent = button.getAttribute("data-copied-label");
    });
  });
});

// Checkout: a countdown for the held stock, and the place-order button sends once.
document.querySelectorAll("[data-held-until]").forEach(function (note) {
  var until = Date.parse(note.getAttribute("data-held-until"));
  if (isNaN(until)) return;
  var countdown = note.querySelector("[data-held-countdown]");
  var active = false;
  ["pointerdown", "keydown", "scroll", "touchstart"].forEach(function (name) {
    window.addEventListener(name, function () { active = true; }, { passive: true });
  });
  var ended = document.querySelector("[data-held-ended]");
  function tick() {
    var left = Math.max(0, Math.round((until - Date.now()) / 1000));
    if (countdown) countdown.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    if (left > 0) { setTimeout(tick, 1000); return; }
    // The hold has ended: say so, instead of a sentence promising it until a time now past.
    if (ended) { ended.hidden = false; note.hidden = true; }
  }
  // While the shopper is active on the review page, the hold is renewed (the server extends it
  // each time the review is loaded) at half of what is left when the page loads — every 4
  // minutes of the usual 15, sooner for a shop that holds for less.
  var period = Math.min(4 * 60 * 1000, Math.max(20 * 1000, (until - Date.now()) / 2));
  setInterval(function () {
    if (!active || document.hidden || !window.fetch) return;
    active = false;
    fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        var match = /data-held-until="([^"]+)"/.exec(html);
        if (match && !isNaN(Date.parse(match[1]))) until = Date.parse(match[1]);
      }).catch(function () {});
  }, period);
  tick();
});
document.querySelectorAll("button[data-single-submit]").forEach(function (button) {
  button.form.addEventListener("submit", function () { setTimeout(function () { button.disabled = true; }, 0); });
});

// ---------------------------------------------------------------------------------------------
// App states (issue #11, points 4 and 5): onboarding, progress, busy buttons, offline, service
// worker. docs/ARCHITECTURE.md, "Onboarding" and "Offline", describes what the server does.
// ---------------------------------------------------------------------------------------------
(function () {
  "use strict";
  var root = document.documentElement;
  var WELCOME_COOKIE = "shoppable_welcomed";

  // Onboarding: steps in place, "Skip"/"Done" remember the choice in the cookie the server reads
  // (the forms post it without JavaScript). A page the service worker kept from before the
  // choice may still carry the introduction: it goes when the cookie is there.
  var welcome = document.querySelector("[data-welcome]");
  function dismissWelcome(choice) {
    var secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = WELCOME_COOKIE + "=" + (choice === "done" ? "done" : "skipped") +
      "; Max-Age=31536000; Path=/; SameSite=Lax" + secure;
    if (welcome && welcome.parentNode) welcome.parentNode.removeChild(welcome);
    root.classList.remove("welcome-open");
    var main = document.getElementById("main");
    if (main) { main.setAttribute("tabindex", "-1"); main.focus({ preventScroll: true }); }
  }
  if (welcome && document.cookie.split(/;\s*/).some(function (pair) { return pair.indexOf(WELCOME_COOKIE + "=") === 0; })) {
    welcome.parentNode.removeChild(welcome);
    welcome = null;
  }
  if (welcome) {
    var panels = welcome.querySelectorAll("[data-welcome-panel]");
    var showPanel = function (number) {
      panels.forEach(function (panel) {
        var current = panel.getAttribute("data-welcome-panel") === String(number);
        panel.classList.toggle("is-current", current);
        if (current) {
          welcome.setAttribute("aria-labelledby", "welcome-title-" + number);
          var title = panel.querySelector("h2");
          if (title) { title.setAttribute("tabindex", "-1"); title.focus(); }
        }
      });
    };
    root.classList.add("welcome-open");
    showPanel(1);
    welcome.addEventListener("click", function (event) {
      var next = event.target.closest("[data-welcome-next]");
      if (!next) return;
      event.preventDefault();
      showPanel(next.getAttribute("data-welcome-next"));
    });
    // A modal dialog: Escape skips, and Tab / Shift+Tab stay inside it (the page behind is
    // `aria-modal`, so the keyboard must not wander there either).
    welcome.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { dismissWelcome("skip"); return; }
      if (event.key !== "Tab") return;
      var focusable = Array.prototype.filter.call(
        welcome.querySelectorAll("a[href], button:not([disabled]), input:not([type=hidden]), [tabindex]:not([tabindex='-1'])"),
        function (element) { return element.offsetParent !== null; });
      if (!focusable.length) return;
      var first = focusable[0], last = focusable[focusable.length - 1];
      var inside = focusable.indexOf(document.activeElement) !== -1;
      if (event.shiftKey && (document.activeElement === first || !inside)) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && (document.activeElement === last || !inside)) { event.preventDefault(); first.focus(); }
    });
  }

  // Progress: a slim bar at the top when a navigation or an in-place action takes over 150 ms.
  var bar = document.createElement("div");
  bar.className = "progress";
  bar.setAttribute("aria-hidden", "true");
  bar.setAttribute("data-progress", "");
  document.body.appendChild(bar);
  var progressTimer = null;
  var pending = 0;
  function startProgress() {
    clearTimeout(progressTimer);
    progressTimer = setTimeout(function () { bar.classList.add("progress-on"); root.setAttribute("aria-busy", "true"); }, 150);
  }
  function stopProgress() {
    clearTimeout(progressTimer);
    bar.classList.remove("progress-on");
    root.removeAttribute("aria-busy");
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey ||
        event.altKey || link.target || link.hasAttribute("download") || link.getAttribute("aria-disabled") === "true") return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || (url.pathname === location.pathname && url.search === location.search && url.hash)) return;
    startProgress();
  });

  // In-place actions (hearts, quick add) use fetch: the bar shows while one is out; a fetch that
  // fails for want of a network shows the offline banner.
  if (window.fetch) {
    var originalFetch = window.fetch;
    window.fetch = function (input, init) {
      var quiet = !init || !init.method || init.method.toUpperCase() === "GET";  // background refreshes
      if (!quiet) { pending += 1; startProgress(); }
      function settle() {
        if (quiet) return;
        pending = Math.max(0, pending - 1);
        if (pending === 0) { stopProgress(); releaseBusy(); }
      }
      return originalFetch.apply(this, arguments).then(function (response) {
        settle();
        if (offlineBySuspicion) setOffline(false);
        return response;
      }, function (error) {
        settle();
        if (error && error.name === "TypeError") suspectOffline();
        throw error;
      });
    };
  }

  // Busy buttons: a form being sent is marked `aria-busy` and its button disabled, so a second
  // tap sends nothing. The button is disabled after the event (a disabled submitter would drop its
  // own name and value from the form). Coming back to the page from the back/forward cache
  // releases it.
  function releaseBusy() {
    document.querySelectorAll("form[aria-busy]").forEach(function (form) { form.removeAttribute("aria-busy"); });
    document.querySelectorAll("[data-busy-disabled]").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.removeAttribute("data-busy-disabled");
    });
  }
  var offline = false;
  var offlineBySuspicion = false;
  var banner = document.querySelector("[data-offline-banner]");
  var reason = banner ? banner.getAttribute("data-reason") : "";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches) return;
    if (form.matches(".welcome-form")) {
      event.preventDefault();
      event.stopImmediatePropagation();
      var choice = form.querySelector("input[name=choice]");
      dismissWelcome(choice ? choice.value : "skip");
      return;
    }
    if (offline && needsServer(form)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      if (window.shoppableToast) window.shoppableToast(reason, true);
      return;
    }
    if (form.getAttribute("aria-busy") === "true") {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    form.setAttribute("aria-busy", "true");
    var submitter = event.submitter || form.querySelector("button[type=submit], button:not([type])");
    if (submitter && submitter.form === form) {
      submitter.setAttribute("aria-busy", "true");
      submitter.setAttribute("data-busy-disabled", "");
      setTimeout(function () { if (submitter.hasAttribute("data-busy-disabled")) submitter.disabled = true; }, 0);
    }
  }, true);
  document.addEventListener("submit", function (event) {
    // A form sent for real (not in place) starts a navigation.
    if (!event.defaultPrevented) startProgress();
  });
  window.addEventListener("pageshow", function (event) {
    stopProgress();
    if (event.persisted) releaseBusy();
  });

  // Offline: the banner, and actions that need the server disabled with the reason.
  function needsServer(form) {
    return (form.getAttribute("method") || "").toLowerCase() === "post" && !form.matches(".welcome-form");
  }
  function markActions(disabled) {
    document.querySelectorAll("form").forEach(function (form) {
      if (!needsServer(form)) return;
      form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]").forEach(function (button) {
        if (disabled) {
          button.setAttribute("aria-disabled", "true");
          button.setAttribute("data-offline-disabled", "");
          if (!button.hasAttribute("data-title")) button.setAttribute("data-title", button.getAttribute("title") || "");
          button.title = reason;
        } else if (button.hasAttribute("data-offline-disabled")) {
          button.removeAttribute("aria-disabled");
          button.removeAttribute("data-offline-disabled");
          var title = button.getAttribute("data-title");
          if (title) button.title = title; else button.removeAttribute("title");
          button.removeAttribute("data-title");
        }
      });
      // Forms with a full-size button say why under it.
      if (form.querySelector(".button")) {
        var note = form.querySelector("[data-offline-reason]");
        if (disabled && !note) {
          note = document.createElement("p");
          note.className = "offline-reason";
          note.setAttribute("data-offline-reason", "");
          note.textContent = reason;
          form.appendChild(note);
        } else if (!disabled && note) {
          note.parentNode.removeChild(note);
        }
      }
    });
    document.querySelectorAll("a.checkout-button").forEach(function (link) {
      if (disabled) {
        link.setAttribute("aria-disabled", "true");
        link.setAttribute("data-offline-disabled", "");
        link.title = reason;
      } else if (link.hasAttribute("data-offline-disabled")) {
        link.removeAttribute("aria-disabled");
        link.removeAttribute("data-offline-disabled");
        link.removeAttribute("title");
      }
    });
  }
  document.addEventListener("click", function (event) {
    var link = offline && event.target.closest && event.target.closest("a[data-offline-disabled]");
    if (!link) return;
    event.preventDefault();
    if (window.shoppableToast) window.shoppableToast(reason, true);
  }, true);

  var probeTimer = null;
  function setOffline(state) {
    if (!banner) return;
    var was = offline;
    offline = state;
    if (!state) { offlineBySuspicion = false; clearTimeout(probeTimer); }
    banner.hidden = !state;
    root.classList.toggle("is-offline", state);
    markActions(state);
    if (was && !state && window.shoppableToast) window.shoppableToast(banner.getAttribute("data-back-online"), false);
  }
  // A failed fetch while the browser believes it is online: say offline and check every few
  // seconds whether the shop answers again.
  function suspectOffline() {
    offlineBySuspicion = true;
    setOffline(true);
    probe();
  }
  function probe() {
    clearTimeout(probeTimer);
    probeTimer = setTimeout(function () {
      if (!offlineBySuspicion) return;
      originalFetch("/healthz", { cache: "no-store" }).then(function (response) {
        if (response.ok && navigator.onLine !== false) setOffline(false); else probe();
      }, probe);
    }, 5000);
  }
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () { setOffline(false); });
  if (navigator.onLine === false) setOffline(true);
  var retry = document.querySelector("[data-offline-retry]");
  if (retry) retry.addEventListener("click", function (event) { event.preventDefault(); location.reload(); });

  // The service worker: keeps the app shell and the pages visited for offline use.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    });
  }
})();
