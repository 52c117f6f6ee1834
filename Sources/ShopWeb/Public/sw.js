// Shoppable's service worker, served at /sw.js with `self.SHOPPABLE = {version, offline, shell}`
// in front (AppShell.serviceWorkerScript). docs/ARCHITECTURE.md, "Offline", has the rules:
// - static files and media: cache first (stylesheet, script and icons have versioned URLs, media
//   files are named by their content, the demo images ship with a release — and every release
//   names new caches);
// - pages: network first, the answer kept (the last MAX_PAGES), the kept copy when the network
//   fails, else the offline page;
// - never kept: POST answers, /api, account, checkout and orders pages, the onboarding's answer.
"use strict";
var SETTINGS = self.SHOPPABLE || { version: "dev", offline: "/offline", shell: [] };
var SHELL_CACHE = "shoppable-shell-" + SETTINGS.version;
var PAGE_CACHE = "shoppable-pages-" + SETTINGS.version;
var MAX_PAGES = 30;
var NEVER_KEPT = /^\/(api|account|checkout|orders|welcome|sw\.js|manifest\.webmanifest|healthz|badge)(\/|$|\?)/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    // The offline page is fetched with the visitor's cookies, so it is in their language.
    return cache.addAll(SETTINGS.shell.map(function (url) { return new Request(url, { credentials: "same-origin" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("shoppable-") === 0 && name !== SHELL_CACHE && name !== PAGE_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isPage(request) {
  return request.mode === "navigate" || (request.headers.get("Accept") || "").indexOf("text/html") !== -1;
}

function keepPage(request, response) {
  if (!response || response.status !== 200 || response.type !== "basic" || response.redirected) return;
  var copy = response.clone();
  caches.open(PAGE_CACHE).then(function (cache) {
    return cache.put(request, copy).then(function () { return cache.keys(); }).then(function (keys) {
      // Oldest first: drop what is beyond the last MAX_PAGES pages.
      return Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (key) { return cache.delete(key); }));
    });
  });
}

function offlinePage() {
  return caches.match(SETTINGS.offline).then(function (page) {
    return page || new Response("You are offline.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // A form posted while offline gets the offline page instead of the browser's error page;
    // its answer is never kept.
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/media/") === 0) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(SHELL_CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
    return;
  }
  if (!isPage(request)) return;
  if (NEVER_KEPT.test(url.pathname)) {
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    keepPage(request, response);
    return response;
  }).catch(function () {
    return caches.match(request, { cacheName: PAGE_CACHE }).then(function (hit) { return hit || offlinePage(); });
  }));
});
