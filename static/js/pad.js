// The score pad's outbox: a tap is kept on the phone until the server has answered it.
//
// Why the pad's forms are not hx-post: htmx drops a request that fails, and the scorer cannot
// tell whether the deal was saved. Here a tap is first written to localStorage, exactly as the
// form holds it (idempotency key and expected seq included), then sent; it leaves the outbox only
// when the server has answered. While it waits:
//   - a bar above the tab bar says "not saved yet — waiting for the network";
//   - a second tap is refused until the first is settled (it could conflict with it);
//   - polling pauses, so the pad is not redrawn under the scorer's thumb;
//   - it is sent again as soon as the browser is online, and every few seconds while it says so
//     (navigator.onLine can lie); reopening the pad sends it too.
// A retried tap that had in fact arrived records once: the server answers an idempotency key it
// has already stored with that event (scoring/recording.py).
//
// The answer is the pad fragment, swapped in place of #pad:
//   200  the next entry starts at the top of the pad's entry area (scrolled to and focused);
//   422  refused: what the scorer entered is put back into the same form on the new pad, and the
//        message (#pad-feedback) is moved next to that form's button, scrolled into view, focused;
//   409  another phone recorded first: the same, and the entry is a draft on the refreshed form
//        (which carries the new expected seq): one tap sends it, or it can be discarded.
// A poll that brings another phone's entry while this scorer is half-way through a form keeps
// the half-filled form as a draft in the same way. A pad opened while offline (the service
// worker's last copy) is read only.
"use strict";

(() => {
  const META = new Set(["csrfmiddlewaretoken", "expected_seq", "idempotency_key", "type"]);
  const ATTEMPT_TIMEOUT_MS = 8000;
  const RETRY_MS = [1000, 2000, 3000, 5000];

  const padEl = () => document.getElementById("pad");
  const bar = () => document.getElementById("pad-outbox");
  const say = (name) => bar()?.dataset[name] || "";

  // --- the outbox: one pending tap per pad, in memory and in localStorage ----------------
  const storeKey = () => `protokoll:outbox:${location.pathname}`;
  let pending = null;
  let sending = false;
  let attempts = 0;
  let retryTimer = null;

  function persist() {
    try {
      if (pending) localStorage.setItem(storeKey(), JSON.stringify(pending));
      else localStorage.removeItem(storeKey());
    } catch {
      // Private mode or a full quota: the tap is still kept in memory while the page is open.
    }
  }

  function restorePending() {
    try {
      pending = JSON.parse(localStorage.getItem(storeKey()) || "null");
    } catch {
      pending = null;
    }
  }

  // --- forms -----------------------------------------------------------------------------
  function padForm(node) {
    return node instanceof HTMLFormElement && node.method === "post" && node.closest("#pad")
      ? node
      : null;
  }

  // A form's identity on every render of the pad: its idempotency key is "<tap>-<form>".
  function formId(form) {
    const key = form.elements.namedItem("idempotency_key")?.value || "";
    return key.slice(key.indexOf("-") + 1);
  }

  function findForm(id) {
    return [...(padEl()?.querySelectorAll("form") || [])].find(
      (form) => padForm(form) && formId(form) === id,
    );
  }

  function submitButtons(form) {
    return [...form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]")];
  }

  function describe(form, submitter) {
    const heading = form.querySelector("h2, h3, legend")?.textContent.trim() || "";
    const button = submitter?.textContent.trim() || submitter?.value || "";
    return [heading, button].filter(Boolean).join(" · ").slice(0, 120);
  }

  function entryOf(form, submitter) {
    return {
      url: form.action,
      fields: [...new FormData(form, submitter)],
      form: formId(form),
      submitter: submitter?.name ? { name: submitter.name, value: submitter.value } : null,
      label: describe(form, submitter),
      queuedAt: Date.now(),
    };
  }

  function isUserField(el) {
    return (
      el.name &&
      !META.has(el.name) &&
      !["hidden", "submit", "button", "reset"].includes(el.type) &&
      el.tagName !== "BUTTON"
    );
  }

  function changed(el) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") return [...el.options].some((o) => o.selected !== o.defaultSelected);
    return el.value !== el.defaultValue;
  }

  // Put an entry's values back into a (fresh) form: the scorer's picks, numbers and cards.
  function fill(form, entry) {
    const values = new Map();
    for (const [name, value] of entry.fields) {
      if (!values.has(name)) values.set(name, []);
      values.get(name).push(value);
    }
    const seen = new Map();
    for (const el of form.elements) {
      if (!isUserField(el)) continue;
      const mine = values.get(el.name) || [];
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = mine.includes(el.value);
      } else if (el.tagName === "SELECT") {
        for (const option of el.options) option.selected = mine.includes(option.value);
      } else {
        const index = seen.get(el.name) || 0;
        seen.set(el.name, index + 1);
        if (index < mine.length) el.value = mine[index];
      }
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
    for (const button of submitButtons(form)) {
      const picked =
        entry.submitter &&
        button.name === entry.submitter.name &&
        button.value === entry.submitter.value;
      button.classList.toggle("draft-pick", Boolean(picked));
    }
    for (let details = form.closest("details"); details; details = details.parentElement.closest("details")) {
      details.open = true;
    }
    updateSums(form);
  }

  // --- where the message goes: next to the button the thumb pressed ------------------------
  function place(feedback, form) {
    const buttons = submitButtons(form);
    if (buttons.length === 1) {
      let anchor = buttons[0];
      while (anchor.parentElement && anchor.parentElement !== form) anchor = anchor.parentElement;
      anchor.before(feedback);
    } else {
      form.prepend(feedback);
    }
    form.classList.add("has-feedback");
  }

  // The message goes to the top of the screen: the button it sits above is then just below it
  // (or already in view, where it sticks to the bottom as the bidding pads' tally does).
  function reveal(feedback) {
    feedback.scrollIntoView({ block: "start", behavior: "instant" });
    feedback.focus({ preventScroll: true });
  }

  function message(kind, ...parts) {
    const box = document.createElement("div");
    box.className = `message ${kind}`;
    box.setAttribute("role", "alert");
    for (const part of parts) box.append(part);
    return box;
  }

  function paragraph(text) {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }

  function draftControls(feedback, form) {
    form.classList.add("draft");
    feedback.querySelectorAll("[data-when-no-draft]").forEach((el) => el.remove());
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "chip";
    discard.dataset.testid = "discard-draft";
    discard.textContent = say("discard");
    discard.addEventListener("click", () => {
      form.reset();
      form.classList.remove("draft", "has-feedback");
      submitButtons(form).forEach((b) => b.classList.remove("draft-pick"));
      feedback.replaceChildren();
    });
    const line = paragraph(say("draft"));
    line.append(" ", discard);
    const box = feedback.querySelector(".message") || feedback.appendChild(message("warning"));
    box.append(line);
  }

  // --- answers ---------------------------------------------------------------------------
  // The service worker keeps the pad as last seen, for reading it offline (config/pwa.py).
  function rememberPad() {
    if (!navigator.onLine || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then((registration) =>
      registration.active?.postMessage({ rememberPad: location.pathname }),
    );
  }

  function swapPad(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    const fresh = template.content.querySelector("#pad");
    const old = padEl();
    if (!fresh || !old) return null;
    old.replaceWith(fresh);
    window.htmx?.process(fresh);
    applyOffline();
    rememberPad();
    return fresh;
  }

  function entryArea(pad) {
    const form = [...pad.querySelectorAll("form")].find(padForm);
    const area = pad.querySelector("[data-entry]") || form?.closest("section, .card") || form;
    return area || pad;
  }

  function afterSave(pad) {
    const area = entryArea(pad);
    if (!area.hasAttribute("tabindex")) area.setAttribute("tabindex", "-1");
    area.scrollIntoView({ block: "start", behavior: "instant" });
    area.focus({ preventScroll: true });
  }

  function keepDraft(entry, conflict) {
    const feedback = document.getElementById("pad-feedback");
    if (!feedback) return;
    const form = findForm(entry.form);
    if (form) {
      fill(form, entry);
      place(feedback, form);
      if (conflict) draftControls(feedback, form);
    } else if (conflict && entry.label) {
      const box = feedback.querySelector(".message") || feedback.appendChild(message("warning"));
      box.append(paragraph(`${say("gone")} ${entry.label}`));
    }
    reveal(feedback);
  }

  function failed(entry) {
    // Not a pad (a server error page, a refusal of the request itself): nothing was recorded
    // and the form on screen still holds the entry.
    const feedback = document.getElementById("pad-feedback");
    const form = findForm(entry.form);
    if (!feedback) return;
    feedback.replaceChildren(message("error", say("failed")));
    if (form) place(feedback, form);
    reveal(feedback);
  }

  function settle(entry, response, body) {
    pending = null;
    persist();
    showState();
    const isPad = /\bid="pad"/.test(body);
    if (!isPad) return failed(entry);
    const pad = swapPad(body);
    if (!pad) return failed(entry);
    if (response.ok) afterSave(pad);
    else keepDraft(entry, response.status === 409);
  }

  // --- sending ---------------------------------------------------------------------------
  function csrfToken() {
    return document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  }

  function body(entry) {
    const params = new URLSearchParams();
    for (const [name, value] of entry.fields) {
      // The token of the page as it is now: a tap kept over a new login carries an old one.
      params.append(name, name === "csrfmiddlewaretoken" ? csrfToken() || value : value);
    }
    return params;
  }

  function signedOut(entry, response) {
    const landed = new URL(response.url);
    if (!response.redirected || landed.pathname === new URL(entry.url).pathname) return false;
    landed.searchParams.set("next", location.pathname);
    location.assign(landed.toString());
    return true;
  }

  async function send() {
    const entry = pending;
    if (!entry || sending) return;
    clearTimeout(retryTimer);
    if (!navigator.onLine) return showState();
    sending = true;
    showState();
    let response = null;
    let text = "";
    try {
      response = await fetch(entry.url, {
        method: "POST",
        body: body(entry),
        headers: { "HX-Request": "true" },
        credentials: "same-origin",
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      text = await response.text();
    } catch {
      response = null;
    }
    sending = false;
    // No answer, or a gateway's: the server may or may not have it; the same key sent again
    // tells.
    if (!response || [502, 503, 504].includes(response.status)) return retryLater();
    if (signedOut(entry, response)) return;
    attempts = 0;
    settle(entry, response, text);
  }

  function retryLater() {
    attempts += 1;
    showState();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(send, RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1]);
  }

  function queue(entry) {
    pending = entry;
    attempts = 0;
    persist();
    send();
  }

  // --- what the scorer sees while a tap waits ----------------------------------------------
  function showState() {
    const el = bar();
    const pad = padEl();
    if (!el) return;
    let text = "";
    let state = "";
    if (document.body.classList.contains("offline-readonly")) {
      [text, state] = [say("readonly"), "readonly"];
    } else if (pending && (attempts > 0 || !navigator.onLine)) {
      [text, state] = [`${say("waiting")} ${pending.label ? `(${pending.label})` : ""}`, "waiting"];
    } else if (pending) {
      [text, state] = [say("sending"), "sending"];
    } else if (!navigator.onLine) {
      [text, state] = [say("offline"), "offline"];
    }
    el.textContent = text;
    el.dataset.state = state;
    el.hidden = !text;
    // Room below the pad for the bar; not for a quick "saving", which would shift the page.
    document.body.classList.toggle("has-outbox-bar", Boolean(text) && state !== "sending");
    pad?.classList.toggle("is-waiting", Boolean(pending));
  }

  function blocked() {
    const el = bar();
    if (!el) return;
    el.hidden = false;
    const waiting = attempts > 0 || !navigator.onLine;
    el.textContent = waiting ? `${say("busy")} ${say("waiting")}` : say("busy");
    el.dataset.state = "waiting";
    el.classList.remove("nudge");
    void el.offsetWidth; // restart the animation
    el.classList.add("nudge");
  }

  // --- offline: a pad opened without a network is the last saved copy, read only -----------
  function applyOffline() {
    const readonly = document.body.classList.contains("offline-readonly");
    for (const form of padEl()?.querySelectorAll("form") || []) {
      if (!padForm(form)) continue;
      for (const el of form.elements) el.disabled = readonly;
    }
  }

  // --- polls: never under a waiting tap; a half-filled form survives another phone's entry --
  let carried = null;

  function dirtyForms(pad) {
    return [...pad.querySelectorAll("form")]
      .filter((form) => padForm(form) && [...form.elements].some((el) => isUserField(el) && changed(el)))
      .map((form) => entryOf(form, null));
  }

  function news(pad, since) {
    return [...pad.querySelectorAll(".history-row")]
      .filter((row) => Number(row.dataset.seq) > since)
      .map((row) => row.querySelector(".what")?.textContent.trim())
      .filter(Boolean)
      .reverse();
  }

  function isPoll(event) {
    return event.detail?.ctx?.sourceElement === padEl();
  }

  document.addEventListener("htmx:before:request", (event) => {
    if (isPoll(event) && (pending || !navigator.onLine || document.body.classList.contains("offline-readonly"))) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:before:swap", (event) => {
    const pad = padEl();
    // Only a poll that brought something (200); htmx also goes through here for a 204.
    const brought = isPoll(event) && event.detail.ctx?.response?.status === 200;
    carried = brought && pad ? { drafts: dirtyForms(pad), seq: Number(pad.dataset.seq) } : null;
  });

  document.addEventListener("htmx:after:swap", () => {
    const pad = padEl();
    const keep = carried;
    carried = null;
    applyOffline();
    rememberPad();
    if (!pad || !keep?.drafts.length) return;
    const feedback = document.getElementById("pad-feedback");
    const lines = news(pad, keep.seq);
    for (const draft of keep.drafts) {
      const form = findForm(draft.form);
      if (!form || !feedback) continue;
      fill(form, draft);
      const list = document.createElement("ul");
      for (const line of lines) list.append(Object.assign(document.createElement("li"), { textContent: line }));
      const strong = document.createElement("strong");
      strong.textContent = say("news");
      feedback.replaceChildren(message("warning", strong, list));
      place(feedback, form);
      draftControls(feedback, form);
    }
  });

  // --- live sums ------------------------------------------------------------------------
  // An element [data-live-sum] shows the sum of its form's checked [data-points] inputs while
  // the scorer taps (Vändåtta: the hand's minus points). The values come from the engine
  // through the template; nothing here knows a game's rules.
  function updateSums(root) {
    for (const out of (root || document).querySelectorAll("[data-live-sum]")) {
      const form = out.closest("form");
      if (!form) continue;
      let total = 0;
      for (const input of form.querySelectorAll("input:checked[data-points]")) {
        total += Number(input.dataset.points) || 0;
      }
      out.textContent = total < 0 ? `\u2212${-total}` : String(total);
    }
  }

  document.addEventListener("change", (event) => {
    const form = event.target.closest?.("form");
    if (form?.querySelector("[data-live-sum]")) updateSums(form);
  });
  document.addEventListener("htmx:after:swap", () => updateSums(padEl()));

  // --- the last player's count follows from the others ------------------------------------
  // A fieldset[data-sum-to] holds one row of number choices per player (tricks in a deal of 9,
  // 10 or 13): once every row but one has a number, the last is what is left, and is ticked for
  // the scorer (one tap fewer per deal). Only an untouched row is filled in.
  function fillTheLast(fieldset) {
    const total = Number(fieldset.dataset.sumTo);
    const rows = new Map();
    for (const input of fieldset.querySelectorAll("input[type=radio]")) {
      if (!rows.has(input.name)) rows.set(input.name, []);
      rows.get(input.name).push(input);
    }
    const open = [...rows.values()].filter((inputs) => !inputs.some((i) => i.checked));
    if (open.length !== 1 || rows.size < 2) return;
    let taken = 0;
    for (const inputs of rows.values()) {
      const picked = inputs.find((i) => i.checked);
      if (picked) taken += Number(picked.value);
    }
    const last = open[0].find((i) => Number(i.value) === total - taken);
    if (!last) return;
    last.checked = true;
    last.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("change", (event) => {
    const fieldset = event.target.closest?.("fieldset[data-sum-to]");
    if (fieldset && event.isTrusted) fillTheLast(fieldset);
  });

  // --- wiring ----------------------------------------------------------------------------
  document.addEventListener(
    "submit",
    (event) => {
      const form = padForm(event.target);
      if (!form) return;
      event.preventDefault();
      if (document.body.classList.contains("offline-readonly")) return;
      if (pending) return blocked();
      queue(entryOf(form, event.submitter));
    },
    true,
  );

  window.addEventListener("online", () => {
    if (document.body.classList.contains("offline-readonly")) return location.reload();
    showState();
    send();
  });
  window.addEventListener("offline", showState);

  function start() {
    if (!padEl()) return;
    if (!navigator.onLine) document.body.classList.add("offline-readonly");
    applyOffline();
    // A first visit is not yet the worker's to cache (it came before the worker took over).
    if (!navigator.serviceWorker?.controller) rememberPad();
    restorePending();
    // A tap still waiting from before (the page was closed or reloaded): show what it holds.
    const waiting = pending && findForm(pending.form);
    if (waiting) fill(waiting, pending);
    updateSums(padEl());
    showState();
    send();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
