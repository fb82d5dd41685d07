// Protokoll's own script: small progressive enhancements, no inline handlers (CSP).
"use strict";

// Seat order: remember the order in which players are ticked, and number them.
function setUpSeatOrder(form) {
  const order = form.querySelector("input[name=order]");
  // The check boxes of the field named by data-seat-order ("players" on the start form).
  const field = form.dataset.seatOrder || "players";
  const boxes = [...form.querySelectorAll(`input[name=${field}]`)];
  // The players ticked when the page opens, in the order the page gives (a club evening's
  // table: its seat order), then any others ticked, in page order.
  const ticked = boxes.filter((b) => b.checked).map((b) => b.value);
  let picked = order.value ? order.value.split(",").filter((v) => ticked.includes(v)) : [];
  picked = picked.concat(ticked.filter((v) => !picked.includes(v)));
  const show = () => {
    order.value = picked.join(",");
    for (const box of boxes) {
      const badge = box.closest("label").querySelector(".seat-no");
      const index = picked.indexOf(box.value);
      badge.textContent = index >= 0 ? String(index + 1) : "";
    }
  };
  for (const box of boxes) {
    box.addEventListener("change", () => {
      picked = picked.filter((v) => v !== box.value);
      if (box.checked) picked.push(box.value);
      show();
    });
  }
  show();
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form[data-seat-order]").forEach(setUpSeatOrder);
  document.querySelectorAll("form[data-variant-field]").forEach(setUpVariantFields);
});

// A game with variants (whist): show only the chosen variant's options. Each option that
// belongs to some variants only is marked data-variants="short long" (scoring/forms.py); the
// server ignores the others' values, so without this script all are shown and nothing breaks.
function setUpVariantFields(form) {
  const select = form.querySelector(`[name="${form.dataset.variantField}"]`);
  if (!select) return;
  const show = () => {
    for (const row of form.querySelectorAll("[data-variants]")) {
      row.hidden = !row.dataset.variants.split(" ").includes(select.value);
      // A checkbox's row is display: flex (app.css), which would outrank [hidden].
      row.style.display = row.hidden ? "none" : "";
    }
  };
  select.addEventListener("change", show);
  show();
}

// The installable app: register the service worker (config/pwa.py). Any page seen signed out
// (the login page after logging out) empties the worker's copies of pads, so that a shared
// phone keeps no one's games.
function setUpServiceWorker() {
  const url = document.body.dataset.serviceWorker;
  if (!url || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(url).catch(() => {
    // No worker (a private window, an old browser): the app works online as before.
  });
  if ("signedOut" in document.body.dataset && window.caches) {
    caches
      .keys()
      .then((names) => names.filter((name) => name.startsWith("protokoll-pads-")))
      .then((names) => Promise.all(names.map((name) => caches.delete(name))));
  }
}

document.addEventListener("DOMContentLoaded", setUpServiceWorker);

// Share buttons (templates/_share.html): the phone's share sheet where there is one, else copy
// the field to the clipboard and say "Copied", else select the field for copying by hand.
// Delegated from the document, so buttons swapped in by htmx (a pad that just finished) work.
document.documentElement.classList.add("js");

async function share(button) {
  const box = button.closest(".share");
  const field = box.querySelector("[data-share-field]");
  const status = box.querySelector(".share-status");
  const data = {};
  for (const name of ["title", "text", "url"]) {
    const value = button.dataset["share" + name[0].toUpperCase() + name.slice(1)];
    if (value) data[name] = value;
  }
  // An image to share as a file (the club evening's results card), where the phone can.
  if (button.dataset.shareFile && navigator.canShare) {
    try {
      const blob = await (await fetch(button.dataset.shareFile, { credentials: "same-origin" })).blob();
      const name = button.dataset.shareFileName || "protokoll.png";
      const withFile = { ...data, files: [new File([blob], name, { type: blob.type })] };
      if (navigator.canShare(withFile)) {
        await navigator.share(withFile);
        return;
      }
    } catch (error) {
      if (error.name === "AbortError") return;
    }
  }
  if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      return;
    } catch (error) {
      if (error.name === "AbortError") return; // the reader closed the share sheet
    }
  }
  status.textContent = "";
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = button.dataset.copied;
  } catch {
    field.focus();
    field.select();
    status.textContent = button.dataset.copyByHand;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-share]");
  if (button) share(button);
});
