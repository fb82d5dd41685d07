// The score pad's outbox: every tap is kept on the phone until the server has answered it.
//
// Why the pad's forms are not hx-post: htmx drops a request that fails, and the scorer cannot
// tell whether the deal was saved. Here a tap is first written to localStorage, exactly as the
// form holds it, with an idempotency key made on the phone ("<random>-<form>": the form's part
// is what formId() reads on every render), then sent; it leaves the outbox only when the server
// has answered.
//
// Taps queue: pegging card by card, the next card is tapped before the last one's answer (and
// the pad it brings) is back. Every tap joins the queue behind the ones on their way and is sent
// strictly in order, one at a time, each with the expected seq the one before it produces (every
// recorded event, undo included, adds one to the game's seq: scoring/recording.py). A tap made
// on the pad still on screen keeps what the scorer chose (the buttons and fields he touched), but
// the form's hidden context (whose turn it is: p_player) is taken from the same form on the pad
// the previous tap's answer brought, when that pad is exactly the one the tap expects: the card
// is the next card played, whoever's turn that turns out to be. While taps wait:
//   - a bar above the tab bar says "saving", and how many taps wait ("2 taps waiting"); offline,
//     "not saved yet — waiting for the network";
//   - polling pauses, so the pad is not redrawn under the scorer's thumb;
//   - the head of the queue is sent again as soon as the browser is online, and every few seconds
//     while it says so (navigator.onLine can lie); reopening the pad sends it too.
// A retried tap that had in fact arrived records once: the server answers an idempotency key it
// has already stored with that event (scoring/recording.py).
//
// The answer is the pad fragment, swapped in place of #pad:
//   200  the next tap in the queue goes; when none is left, the next entry starts at the top of
//        the pad's entry area (scrolled to and focused);
//   422  refused: what the scorer entered is put back into the same form on the new pad, and the
//        message (#pad-feedback) is moved next to that form's button, scrolled into view, focused;
//   409  another phone recorded first: the same, and the entry is a draft on the refreshed form
//        (which carries the new expected seq): one tap sends it, or it can be discarded.
// Either way the queue stops there: the taps behind it are held (never sent on top of a refusal)
// and listed under the message, to be sent with one tap (in order, on the pad as it is now) or
// discarded.
// A poll that brings another phone's entry while this scorer is half-way through a form keeps
// the half-filled form as a draft in the same way. A pad opened while offline (the service
// worker's last copy) is read only.
//
// The outbox belongs to one login: it is stored under the user's id (<body data-user>). The log
// out button first sends the user's waiting taps under his own login (for a few seconds at
// most); whatever is left is never sent under another login: a pad opened by someone else
// discards it and says so ("2 taps by Astrid were not saved and were discarded"). The same user
// logging in again finds his taps and they are sent.
"use strict";

(() => {
  const META = new Set(["csrfmiddlewaretoken", "expected_seq", "idempotency_key", "type"]);
  const ATTEMPT_TIMEOUT_MS = 8000;
  const RETRY_MS = [1000, 2000, 3000, 5000];

  const LOGOUT_WAIT_MS = 6000;
  const PREFIX = "protokoll:outbox:";

  const padEl = () => document.getElementById("pad");
  const bar = () => document.getElementById("pad-outbox");
  const say = (name) => bar()?.dataset[name] || "";
  const fmt = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => String(values[name] ?? all));

  // --- the outbox: a queue of taps per login and pad, in memory and in localStorage ------
  const me = () => document.body.dataset.user || "";
  const myName = () => document.body.dataset.userName || "";
  const keyOf = (user, path) => `${PREFIX}u${user}:${path}`;
  const storeKey = () => keyOf(me(), location.pathname);
  let queue = []; // taps not answered yet, oldest first; queue[0] is the one on its way
  let held = []; // taps behind a refusal, waiting for the scorer to send or discard them
  let sending = false;
  let attempts = 0;
  let retryTimer = null;

  function save(key, taps, drafts) {
    try {
      if (taps.length || drafts.length) {
        const data = { user: me(), name: myName(), queue: taps, held: drafts };
        localStorage.setItem(key, JSON.stringify(data));
      } else {
        localStorage.removeItem(key);
      }
    } catch {
      // Private mode or a full quota: the taps are still kept in memory while the page is open.
    }
  }

  function load(key) {
    try {
      const data = JSON.parse(localStorage.getItem(key) || "null");
      return data && Array.isArray(data.queue) ? { ...data, held: data.held || [] } : null;
    } catch {
      return null;
    }
  }

  const persist = () => save(storeKey(), queue, held);

  function restore() {
    const data = me() ? load(storeKey()) : null;
    queue = data?.queue || [];
    held = data?.held || [];
  }

  // Keys of the outbox that are not this login's: another user's, or one from before the
  // outbox knew its user (its owner unknown, so never sent).
  function othersKeys() {
    const mine = keyOf(me(), "");
    return Object.keys(localStorage).filter((key) => key.startsWith(PREFIX) && !key.startsWith(mine));
  }

  function myKeys() {
    const mine = keyOf(me(), "");
    return me() ? Object.keys(localStorage).filter((key) => key.startsWith(mine)) : [];
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

  function findForm(id, pad = padEl()) {
    return [...(pad?.querySelectorAll("form") || [])].find(
      (form) => form.method === "post" && formId(form) === id,
    );
  }

  function submitButtons(form) {
    return [...form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]")];
  }

  function describe(form, submitter) {
    const own = form.querySelector("h2, h3, legend") || form.closest("section, .card")?.querySelector("h2");
    const heading = own?.textContent.trim() || "";
    const button = submitter?.textContent.trim() || submitter?.value || "";
    return [heading, button].filter(Boolean).join(" · ").slice(0, 120);
  }

  // The hidden fields a pad renders for the state it shows (whose turn it is), as opposed to
  // what the scorer chose; the metadata is the outbox's own.
  function contextFields(form) {
    return [...form.querySelectorAll("input[type=hidden]")].filter(
      (el) => el.name && !META.has(el.name) && !el.disabled,
    );
  }

  // Every tap a key of its own: a second tap on the same form of the same pad is a second event.
  function tapKey(id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}-${id}`;
  }

  function entryOf(form, submitter) {
    const id = formId(form);
    const fields = [...new FormData(form, submitter)];
    return {
      url: form.action,
      page: location.pathname,
      fields,
      key: tapKey(id),
      expectedSeq: Number(fields.find(([name]) => name === "expected_seq")?.[1]),
      context: contextFields(form).map((el) => el.name),
      form: id,
      submitter: submitter?.name ? { name: submitter.name, value: submitter.value } : null,
      label: describe(form, submitter),
      queuedAt: Date.now(),
    };
  }

  // A tap made on a pad older than its turn takes the hidden context of the same form on the
  // pad its turn comes on, if that pad is the one it expects (the previous tap's answer); what
  // the scorer tapped stays his. Any other pad: the tap goes as it is and the server judges it
  // (a 409 when someone else recorded in between).
  function rebase(entry, pad) {
    if (!pad || Number(pad.dataset.seq) !== entry.expectedSeq) return entry;
    const form = findForm(entry.form, pad);
    if (!form) return entry;
    const pressed = (name) => entry.submitter?.name === name;
    const fresh = contextFields(form).filter((el) => !pressed(el.name));
    const stale = new Set([...(entry.context || []), ...fresh.map((el) => el.name)]);
    const fields = entry.fields.filter(([name]) => META.has(name) || pressed(name) || !stale.has(name));
    fields.push(...fresh.map((el) => [el.name, el.value]));
    return { ...entry, fields, context: fresh.map((el) => el.name) };
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
    showHeld();
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
    showHeld();
    reveal(feedback);
  }

  function failed(entry) {
    // Not a pad (a server error page, a refusal of the request itself): nothing was recorded;
    // the entry goes back into its form.
    const feedback = document.getElementById("pad-feedback");
    const form = findForm(entry.form);
    if (!feedback) return;
    feedback.replaceChildren(message("error", say("failed")));
    if (form) {
      fill(form, entry);
      place(feedback, form);
    }
    showHeld();
    reveal(feedback);
  }

  // The queue stops at a refusal: what is behind it waits for the scorer.
  function holdTheRest() {
    held = [...held, ...queue];
    queue = [];
  }

  function settle(entry, response, body) {
    queue.shift();
    const pad = /\bid="pad"/.test(body) ? swapPad(body) : null;
    if (!pad || !response.ok) holdTheRest();
    persist();
    showState();
    if (!pad) return failed(entry);
    if (!response.ok) return keepDraft(entry, response.status === 409);
    if (queue.length) return send();
    if (!held.length) afterSave(pad);
  }

  // --- the taps held behind a refusal: one tap sends them, in order, or discards them --------
  function showHeld() {
    const feedback = document.getElementById("pad-feedback");
    if (!feedback) return;
    feedback.querySelector("[data-testid=held-taps]")?.remove();
    if (!held.length) return;
    const box = message("warning");
    box.dataset.testid = "held-taps";
    const list = document.createElement("ol");
    for (const entry of held) list.append(Object.assign(document.createElement("li"), { textContent: entry.label || "?" }));
    const send = Object.assign(document.createElement("button"), { type: "button", className: "chip" });
    send.dataset.testid = "send-held";
    send.textContent = fmt(say("sendHeld"), { n: held.length });
    send.addEventListener("click", sendHeld);
    const discard = Object.assign(document.createElement("button"), { type: "button", className: "chip" });
    discard.dataset.testid = "discard-held";
    discard.textContent = say("discard");
    discard.addEventListener("click", discardHeld);
    const actions = document.createElement("p");
    actions.append(send, " ", discard);
    const strong = document.createElement("strong");
    strong.textContent = fmt(say("held"), { n: held.length });
    box.append(strong, list, actions);
    feedback.append(box);
  }

  // Only an event's tap moves the game's seq; a word on the game (the confirming section's
  // "Stämmer") carries no expected_seq and neither takes nor gives one.
  const movesSeq = (entry) => Number.isFinite(entry.expectedSeq);
  const lastSeqTap = () => queue.findLast(movesSeq);

  function sendHeld() {
    const last = lastSeqTap();
    let seq = last ? last.expectedSeq + 1 : Number(padEl()?.dataset.seq);
    for (const entry of held) if (movesSeq(entry)) entry.expectedSeq = seq++;
    queue.push(...held);
    held = [];
    persist();
    showHeld();
    showState();
    send();
  }

  function discardHeld() {
    held = [];
    persist();
    showHeld();
    showState();
  }

  // --- sending ---------------------------------------------------------------------------
  function csrfToken() {
    return document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  }

  function body(entry) {
    const params = new URLSearchParams();
    for (const [name, value] of entry.fields) {
      if (name === "expected_seq") params.append(name, String(entry.expectedSeq));
      else if (name === "idempotency_key") params.append(name, entry.key);
      // The token of the page as it is now: a tap kept over a new login carries an old one.
      else if (name === "csrfmiddlewaretoken") params.append(name, csrfToken() || value);
      else params.append(name, value);
    }
    return params;
  }

  function post(entry, signal) {
    return fetch(entry.url, {
      method: "POST",
      body: body(entry),
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
      signal,
    });
  }

  function landedElsewhere(entry, response) {
    return response.redirected && new URL(response.url).pathname !== new URL(entry.url).pathname;
  }

  function signedOut(entry, response) {
    if (!landedElsewhere(entry, response)) return false;
    const landed = new URL(response.url);
    landed.searchParams.set("next", location.pathname);
    location.assign(landed.toString());
    return true;
  }

  async function send() {
    if (!queue.length || sending) return;
    clearTimeout(retryTimer);
    if (!navigator.onLine) return showState();
    queue[0] = rebase(queue[0], padEl());
    persist();
    const entry = queue[0];
    sending = true;
    showState();
    let response = null;
    let text = "";
    try {
      response = await post(entry, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS));
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

  function tapped(form, submitter) {
    const entry = entryOf(form, submitter);
    const last = lastSeqTap();
    if (last && movesSeq(entry)) entry.expectedSeq = last.expectedSeq + 1;
    queue.push(entry);
    persist();
    showState();
    send();
  }

  // --- what the scorer sees while taps wait ------------------------------------------------
  function showState() {
    const el = bar();
    if (!el) return;
    const count = queue.length > 1 ? fmt(say("queued"), { n: queue.length }) : "";
    const head = queue[0];
    let text = "";
    let state = "";
    if (document.body.classList.contains("offline-readonly")) {
      [text, state] = [say("readonly"), "readonly"];
    } else if (head && (attempts > 0 || !navigator.onLine)) {
      const what = head.label ? ` (${head.label})` : "";
      [text, state] = [[`${say("waiting")}${what}`, count].filter(Boolean).join(" · "), "waiting"];
    } else if (head) {
      [text, state] = [[say("sending"), count].filter(Boolean).join(" "), "sending"];
    } else if (!navigator.onLine) {
      [text, state] = [say("offline"), "offline"];
    }
    el.textContent = text;
    el.dataset.state = state;
    el.hidden = !text;
    // Room below the pad for the bar; not for a quick "saving", which would shift the page.
    document.body.classList.toggle("has-outbox-bar", Boolean(text) && state !== "sending");
  }

  // --- another login's taps: never sent under this one -------------------------------------
  function dropOthers() {
    if (!me()) return;
    const lines = [];
    for (const key of othersKeys()) {
      const data = load(key);
      const count = data ? data.queue.length + data.held.length : 1;
      localStorage.removeItem(key);
      if (!count) continue;
      const name = data?.name || say("someone");
      lines.push(fmt(say("foreign"), { n: count, name }));
    }
    const feedback = document.getElementById("pad-feedback");
    if (!lines.length || !feedback) return;
    const box = message("warning", ...lines.map(paragraph));
    box.dataset.testid = "foreign-taps";
    feedback.append(box);
    reveal(feedback);
  }

  // --- logging out: this login's taps go first, under it ------------------------------------
  // The club list's log out form (templates/club/club_list.html) waits while the user's taps
  // are sent, at most LOGOUT_WAIT_MS; what is left stays under his id, for him to send when he
  // logs in again, or for the next person's pad to discard.
  async function drain(key, deadline) {
    const data = load(key);
    if (!data || !data.queue.length) return;
    let taps = data.queue;
    let pad = null;
    const signal = () => AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    const padOf = (html) => new DOMParser().parseFromString(html, "text/html").querySelector("#pad");
    while (taps.length && Date.now() < deadline) {
      try {
        if (!pad) {
          const page = await fetch(taps[0].page || key.slice(keyOf(me(), "").length), { credentials: "same-origin", signal: signal() });
          pad = padOf(await page.text());
        }
        taps[0] = rebase(taps[0], pad);
        const response = await post(taps[0], signal());
        const text = await response.text();
        if ([502, 503, 504].includes(response.status)) throw new Error("gateway");
        if (landedElsewhere(taps[0], response)) return;
        pad = padOf(text);
        if (!response.ok || !pad) {
          // Refused: nothing more goes on top of it; he finds them all as drafts.
          data.held = [...data.held, ...taps];
          taps = [];
        } else {
          taps = taps.slice(1);
        }
        save(key, taps, data.held);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  function setUpLogout() {
    const form = document.querySelector("form[data-logout]");
    if (!form) return;
    let leaving = false;
    form.addEventListener("submit", (event) => {
      const waiting = myKeys().reduce((n, key) => n + (load(key)?.queue.length || 0), 0);
      if (!waiting || leaving) return;
      event.preventDefault();
      leaving = true;
      const status = form.querySelector("[data-draining]") || form.appendChild(document.createElement("p"));
      status.setAttribute("role", "status");
      status.textContent = fmt(form.dataset.draining || "", { n: waiting });
      const deadline = Date.now() + LOGOUT_WAIT_MS;
      Promise.all(myKeys().map((key) => drain(key, deadline))).finally(() => form.submit());
    });
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
    const waiting = queue.length || held.length;
    if (isPoll(event) && (waiting || !navigator.onLine || document.body.classList.contains("offline-readonly"))) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:before:swap", (event) => {
    const pad = padEl();
    // A poll sent before the first tap, answered after it: the taps' own answers bring the pad.
    if (isPoll(event) && (queue.length || held.length)) {
      carried = null;
      return event.preventDefault();
    }
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
      tapped(form, event.submitter);
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
    setUpLogout();
    if (!padEl()) return;
    if (!navigator.onLine) document.body.classList.add("offline-readonly");
    applyOffline();
    // A first visit is not yet the worker's to cache (it came before the worker took over).
    if (!navigator.serviceWorker?.controller) rememberPad();
    dropOthers();
    restore();
    // A tap still waiting from before (the page was closed or reloaded): show what it holds.
    const waiting = queue[0] && findForm(queue[0].form);
    if (waiting) fill(waiting, queue[0]);
    showHeld();
    updateSums(padEl());
    showState();
    send();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
