// The footer's "124 OF 1,832" and its gold bar (brief 004, "Progress Indicator"). One element
// with role="progressbar" carries X and Y for screen readers and tests (tidy-web.md).
import { h } from "../dom.js";

// Thousands commas whatever the browser's locale, as the brief writes "1,832".
const NUMBER = new Intl.NumberFormat("en-US");

/** "1,832" */
export const formatCount = (n) => NUMBER.format(n);

/**
 * X and Y of "X of Y": X is the item under review (position + 1, at most total) while the
 * session goes on, total once it is done; Y the session's total.
 */
export function progressFigures(status) {
  const total = Math.max(0, status?.total ?? 0);
  if (!status || status.done) return { x: total, y: total };
  return { x: Math.min(total, (status.position ?? 0) + 1), y: total };
}

/** The footer: `{element, update(status)}`. */
export function createProgress() {
  const text = h("p", { class: "tidy-progress-text" });
  const fill = h("div", { class: "tidy-bar-fill" });
  const element = h("div", {
    class: "tidy-progress", role: "progressbar", "aria-label": "Review progress",
    "aria-valuemin": "0", "aria-valuenow": "0", "aria-valuemax": "0",
  }, text, h("div", { class: "tidy-bar", "aria-hidden": "true" }, fill));
  let shown = null;
  function update(status) {
    const { x, y } = progressFigures(status);
    const words = `${formatCount(x)} of ${formatCount(y)}`;
    if (words === shown) return;
    shown = words;
    text.textContent = words;
    element.setAttribute("aria-valuenow", String(x));
    element.setAttribute("aria-valuemax", String(y));
    element.setAttribute("aria-valuetext", words);
    // Width as a fraction of the track: a transition on width (500 ms, the brief's).
    fill.style.width = `${y > 0 ? (100 * x) / y : 0}%`;
  }
  return { element, update };
}
