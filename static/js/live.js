// Live: the page hears of a change the moment it is recorded (live/__init__.py, issue 27).
//
// An element with [data-live] (the pad's #pad, the board's #board) names a server-sent events
// URL and the channels it follows ([data-live-channels]); its own hx-get refreshes it, and its
// hx-trigger lists "live" beside the poll ("every 2s, live"). Here:
//   - one EventSource per page, for the element's URL; a swap that brings the same channels
//     keeps it (the URL's signed token changes with every render), other channels reopen it;
//   - a "change" for a channel this element follows, newer than what it shows, triggers "live"
//     on it (htmx fetches it as its poll would); "resync" does too;
//   - when the stream opens, one refresh catches up on what happened while it was closed;
//   - while the stream is open, the element's periodic poll goes at most every SAFETY_MS;
//     when it is closed or failing, every poll goes, as before;
//   - a stream that fails for good (an expired link: 403) is reopened later with the link of
//     the newest render.
"use strict";

(() => {
  const SAFETY_MS = 30000;
  const REOPEN_MS = 15000;

  let source = null;
  let sourceChannels = "";
  let open = false;
  let lastRequest = 0;
  let kicked = false;
  let reopenTimer = null;

  const liveEl = () => document.querySelector("[data-live]");

  function kick() {
    const el = liveEl();
    if (!el || !window.htmx) return;
    kicked = true;
    htmx.trigger(el, "live");
  }

  function newer(channel, version) {
    const el = liveEl();
    if (!el) return false;
    const followed = (el.dataset.liveChannels || "").split(" ");
    if (!followed.includes(channel)) return false;
    // The pad knows its seq; a game's signal at or below it is this phone's own tap.
    const shown = Number(el.dataset.liveVersion);
    const seen = Number(version);
    return !(channel.startsWith("g:") && el.dataset.liveVersion && Number.isFinite(seen) && seen <= shown);
  }

  function close() {
    if (source) source.close();
    source = null;
    open = false;
    sourceChannels = "";
  }

  function connect() {
    const el = liveEl();
    if (!el || typeof EventSource === "undefined") return close();
    const channels = el.dataset.liveChannels || "";
    if (source && channels === sourceChannels && source.readyState !== EventSource.CLOSED) return;
    close();
    sourceChannels = channels;
    source = new EventSource(el.dataset.live);
    source.addEventListener("open", () => {
      open = true;
      kick();
    });
    source.addEventListener("error", () => {
      open = false;
      if (source && source.readyState === EventSource.CLOSED) {
        // Refused (an expired link) or gone: polls carry on; try again with a fresh link.
        clearTimeout(reopenTimer);
        reopenTimer = setTimeout(() => { sourceChannels = ""; connect(); }, REOPEN_MS);
      }
    });
    source.addEventListener("change", (event) => {
      const [channel, version] = String(event.data).split(" ");
      if (newer(channel, version)) kick();
    });
    source.addEventListener("resync", kick);
  }

  document.addEventListener("htmx:before:request", (event) => {
    const el = liveEl();
    if (!el || event.detail?.ctx?.sourceElement !== el) return;
    const now = Date.now();
    if (kicked || !open || now - lastRequest >= SAFETY_MS) {
      kicked = false;
      lastRequest = now;
      return;
    }
    event.preventDefault();
  });

  document.addEventListener("htmx:after:swap", connect);
  document.addEventListener("DOMContentLoaded", connect);
  window.addEventListener("pagehide", close);
  window.addEventListener("pageshow", (event) => { if (event.persisted) connect(); });
  window.protokollLive = { isOpen: () => open };
})();
