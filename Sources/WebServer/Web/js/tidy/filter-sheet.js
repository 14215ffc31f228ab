// The brief's Filter Sheet: a bottom sheet (a modal dialog named "Filter", js/dialog.js) listing
// the filters with how many photos each would offer now. Choosing one starts a new session over
// it on the server; the sheet also leads to the two piles.
import { h, useStyles, plural } from "../dom.js";
import { icon } from "../icons.js";
import { openDialog } from "../dialog.js";
import { toast } from "../api.js";
import * as api from "./api.js";

/** "2024, 31 photos" — the option's accessible name; the count alone when shown. */
function countWords(option) {
  return typeof option.count === "number" ? plural(option.count, "photo") : "";
}

function optionButton(option, isCurrent, choose) {
  const count = countWords(option);
  return h("li", { class: option.filter.startsWith("year:") ? "tidy-filter-year" : null },
    h("button", {
      type: "button", class: "tidy-filter-option", "aria-current": isCurrent ? "true" : null,
      "aria-label": count ? `${option.label}, ${count}` : option.label,
      dataset: { filter: option.filter },
      on: { click: () => choose(option) },
    },
      h("span", { class: "tidy-filter-label", text: option.label }),
      h("span", { class: "tidy-filter-count", text: count }),
      isCurrent ? icon("check", { className: "icon tidy-filter-mark" }) : null));
}

/**
 * The list's items in the server's order, the years gathered into one item of their own (a
 * compact grid under a "By year" label) so that a library of many years still fits the sheet.
 */
function options(filters, now, choose) {
  const items = [];
  let years = null;
  for (const option of filters) {
    const item = optionButton(option, option.filter === now, choose);
    if (!option.filter.startsWith("year:")) { items.push(item); continue; }
    if (!years) {
      years = h("ul", { class: "tidy-filter-years", "aria-labelledby": "tidy-filter-years-label" });
      items.push(h("li", { class: "tidy-filter-by-year" }, h("span", { class: "eyebrow", id: "tidy-filter-years-label", text: "By year" }), years));
    }
    years.append(item);
  }
  return items;
}

/**
 * Opens the sheet. `current`: the session's filter ("all", "year:2024", …), marked as such;
 * `status` (optional): the session's status, for the piles' counts (else asked for).
 * Resolves to POST /api/tidy/filter's answer ({item, status, ahead}) once the new session has
 * started, or null when the sheet is closed without a choice.
 */
export async function openFilterSheet({ current, status } = {}) {
  useStyles("tidy-screens");
  // Counted before the sheet opens, so that it rises whole rather than growing under the eye.
  const [counted, known] = await Promise.all([
    api.filters().catch((error) => ({ error })),
    Promise.resolve(status ?? api.current().then((answer) => answer.status)).catch(() => null),
  ]);
  return new Promise((resolve) => {
    let settled = false, choosing = null;
    const settle = (value) => { if (!settled) { settled = true; resolve(value); } };
    // Closed while a choice is on its way: the new session has started all the same, so say so.
    const cancelled = () => (choosing ? choosing.then(settle, () => settle(null)) : settle(null));
    const list = h("ul", { class: "tidy-filter-list" });
    const trashLink = h("a", { class: "tidy-sheet-link", href: "/tidy/trash" }, icon("trash"), h("span", { text: pileWords("Review marked photos", known?.marked) }));
    const maybeLink = h("a", { class: "tidy-sheet-link", href: "/tidy/maybes" }, icon("clock"), h("span", { text: pileWords("Maybe pile grid", known?.maybe) }));
    const cancel = h("button", { type: "button", class: "button", text: "Cancel", on: { click: () => { dialog.close(); cancelled(); } } });

    async function choose(option) {
      const buttons = [...list.querySelectorAll("button")];
      for (const button of buttons) button.disabled = true;
      list.setAttribute("aria-busy", "true");
      choosing = api.startFilter(option.filter);
      try {
        const answer = await choosing;
        dialog.close();
        settle(answer);
      } catch (error) {
        choosing = null;
        toast(`${option.label} could not be started: ${error.message}`, { kind: "error" });
        for (const button of buttons) button.disabled = false;
        list.removeAttribute("aria-busy");
      }
    }

    if (counted.error) list.append(h("li", { class: "tidy-filter-error", text: `The filters could not be counted: ${counted.error.message}` }));
    else list.append(...options(counted.filters, current ?? counted.current, choose));
    const dialog = openDialog({
      title: "Filter",
      description: "Choose which photos to go through next. Each counts the photos still to decide.",
      content: [list, h("nav", { class: "tidy-sheet-links", "aria-label": "Piles" }, trashLink, maybeLink)],
      actions: [cancel],
      initialFocus: list.querySelector("[aria-current]") ?? list.querySelector("button") ?? cancel,
      onCancel: cancelled,
    });
    dialog.element.classList.add("tidy-sheet");
    dialog.element.parentElement.classList.add("tidy-sheet-backdrop");
    dialog.element.prepend(h("div", { class: "tidy-sheet-handle", "aria-hidden": "true" }));
  });
}

/** "Review marked photos (12)"; the words alone when the count is unknown. */
function pileWords(words, count) {
  return typeof count === "number" ? `${words} (${count.toLocaleString()})` : words;
}
