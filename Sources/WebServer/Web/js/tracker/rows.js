// A list row with a Delete of its own, as the brief's lists have it ("swipe to delete"): on touch
// (or with a pointer) a horizontal swipe to the left slides the row aside and uncovers a red
// Delete; a long swipe, or a tap on it, asks for confirmation before anything is deleted. The
// same Delete is always a button at the row's end too, for the keyboard and screen readers (the
// uncovered one is for the finger only: hidden from them, out of the tab order).
import { h } from "../dom.js";
import { icon } from "../icons.js";
import { confirmDialog } from "../dialog.js";

/** How far (px) the row slides to uncover Delete; past `COMMIT` of its width a release asks at once. */
const REVEAL = 96;
const COMMIT = 0.55;
/** Movement (px) before a press becomes a swipe (a tap or a vertical scroll stays what it is). */
const SLOP = 8;

/**
 * A <li> holding `content` (the row's links and text), a Delete button named `deleteLabel`, and
 * the swipe. `confirm`: {title, message} asked before `onDelete()` runs (which removes the row or
 * redraws the list).
 */
export function deletableRow(content, { deleteLabel, confirm, onDelete, className = "" }) {
  const ask = async () => {
    const sure = await confirmDialog({ title: confirm.title, message: confirm.message, confirm: "Delete", danger: true });
    if (sure) await onDelete(); else close();
  };
  const button = h("button", { type: "button", class: "button icon quiet tracker-row-delete", "aria-label": deleteLabel, title: deleteLabel, on: { click: ask } }, icon("trash"));
  // A link dragged with a mouse would start the browser's own drag, which cancels the pointer.
  for (const el of [content, ...content.querySelectorAll("a, img")]) el.setAttribute("draggable", "false");
  const slab = h("div", { class: "tracker-row-slab" }, content, button);
  const behind = h("button", { type: "button", class: "tracker-row-behind", tabindex: "-1", "aria-hidden": "true", on: { click: ask } }, icon("trash"), h("span", { text: "Delete" }));
  const row = h("li", { class: `tracker-row ${className}`.trim() }, behind, slab);
  const close = () => { slab.style.transform = ""; row.classList.remove("revealed"); };
  swipe(row, slab, { onReveal: () => row.classList.add("revealed"), onClose: close, onCommit: ask });
  return row;
}

function swipe(row, slab, { onReveal, onClose, onCommit }) {
  let start = null, dx = 0, swiping = false;
  slab.addEventListener("dragstart", (event) => event.preventDefault());
  slab.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || event.target.closest("button, input, select, textarea")) return;
    start = { x: event.clientX, y: event.clientY, open: row.classList.contains("revealed") };
    dx = 0; swiping = false;
  });
  slab.addEventListener("pointermove", (event) => {
    if (!start) return;
    const mx = event.clientX - start.x, my = event.clientY - start.y;
    if (!swiping) {
      if (Math.abs(mx) < SLOP || Math.abs(mx) < Math.abs(my)) { if (Math.abs(my) > SLOP) start = null; return; }
      swiping = true;
      slab.setPointerCapture(event.pointerId);
      row.classList.add("swiping");
    }
    dx = Math.min(0, mx + (start.open ? -REVEAL : 0));
    slab.style.transform = `translateX(${dx}px)`;
  });
  const end = () => {
    if (!start) return;
    const was = swiping;
    start = null; swiping = false;
    row.classList.remove("swiping");
    if (!was) return;
    // A swipe is not a click on the link it began on (the click, if any, comes in this task).
    const swallow = (e) => { e.preventDefault(); e.stopPropagation(); };
    slab.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => slab.removeEventListener("click", swallow, { capture: true }), 0);
    if (-dx > slab.offsetWidth * COMMIT) { slab.style.transform = `translateX(${-REVEAL}px)`; onReveal(); onCommit(); }
    else if (-dx > REVEAL / 2) { slab.style.transform = `translateX(${-REVEAL}px)`; onReveal(); }
    else { onClose(); }
  };
  slab.addEventListener("pointerup", end);
  slab.addEventListener("pointercancel", () => { start = null; swiping = false; row.classList.remove("swiping"); onClose(); });
  // Escape slides an uncovered row back; so does a press anywhere else (one row open at a time).
  row.addEventListener("keydown", (event) => { if (event.key === "Escape" && row.classList.contains("revealed")) onClose(); });
  row.closeSwipe = onClose;
}

document.addEventListener("pointerdown", (event) => {
  for (const open of document.querySelectorAll(".tracker-row.revealed")) {
    if (!open.contains(event.target)) open.closeSwipe?.();
  }
});
