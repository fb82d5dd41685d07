// Protokoll's own script: small progressive enhancements, no inline handlers (CSP).
"use strict";

// Seat order: remember the order in which players are ticked, and number them.
function setUpSeatOrder(form) {
  const order = form.querySelector("input[name=order]");
  const boxes = [...form.querySelectorAll("input[name=players]")];
  let picked = boxes.filter((b) => b.checked).map((b) => b.value);
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
});
