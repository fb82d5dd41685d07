// Protokoll's service worker. What it caches and why: config/pwa.py.
"use strict";
const CONFIG = {{ config|safe }};
importScripts(CONFIG.workboxSw);
workbox.setConfig({ modulePathPrefix: CONFIG.workbox, debug: false });

const { registerRoute, setCatchHandler } = workbox.routing;
const { NetworkFirst, NetworkOnly, StaleWhileRevalidate } = workbox.strategies;
const { ExpirationPlugin } = workbox.expiration;
const { CacheableResponsePlugin } = workbox.cacheableResponse;

const SHELL = `protokoll-shell-${CONFIG.version}`;
const PADS = `protokoll-pads-${CONFIG.version}`;
const STATIC = `protokoll-static-${CONFIG.version}`;
const PAD_PATH = /^\/c\/[^/]+\/games\/\d+\/$/;
const sameOrigin = (url) => url.origin === self.location.origin;
const ok = () => new CacheableResponsePlugin({ statuses: [200] });

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll([...CONFIG.shell, CONFIG.offline]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  const current = new Set([SHELL, PADS, STATIC]);
  event.waitUntil(
    caches
      .keys()
      .then((keys) => keys.filter((key) => key.startsWith("protokoll-") && !current.has(key)))
      .then((old) => Promise.all(old.map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// A pad that changed on screen: its offline copy is then the state last seen, not the one
// first opened.
self.addEventListener("message", (event) => {
  const url = event.data?.rememberPad && new URL(event.data.rememberPad, self.location.href);
  if (url && sameOrigin(url) && PAD_PATH.test(url.pathname)) {
    event.waitUntil(caches.open(PADS).then((cache) => cache.add(url.pathname)));
  }
});

registerRoute(
  ({ url }) => sameOrigin(url) && url.pathname.startsWith(CONFIG.static),
  new StaleWhileRevalidate({
    cacheName: STATIC,
    plugins: [ok(), new ExpirationPlugin({ maxEntries: 100 })],
  }),
);

// A pad: fresh whenever the network answers in time, else the last copy this phone saw.
registerRoute(
  ({ request, url }) => request.mode === "navigate" && sameOrigin(url) && PAD_PATH.test(url.pathname),
  new NetworkFirst({
    cacheName: PADS,
    networkTimeoutSeconds: 5,
    // The copy the page asked for (above) was fetched with other headers than a navigation.
    matchOptions: { ignoreVary: true },
    plugins: [ok(), new ExpirationPlugin({ maxEntries: 20 })],
  }),
);

// Every other page comes from the network; without one, the offline page says so.
registerRoute(({ request }) => request.mode === "navigate", new NetworkOnly());

setCatchHandler(async ({ request }) => {
  if (request.mode === "navigate") {
    const page = await caches.match(CONFIG.offline, { cacheName: SHELL });
    if (page) return page;
  }
  return Response.error();
});
