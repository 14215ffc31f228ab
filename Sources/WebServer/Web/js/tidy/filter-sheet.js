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
export function openFilterSheet({ current, status } = {}) {
  useStyles("tidy-screens");
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value) => { if (!settled) { settled = true; resolve(value); } };
    const list = h("ul", { class: "tidy-filter-list", "aria-busy": "true" }, h("li", { class: "loading", text: "Counting photos…" }));
    const trashLink = h("a", { class: "tidy-sheet-link", href: "/tidy/trash" }, icon("trash"), h("span", { text: "Review marked photos" }));
    const maybeLink = h("a", { class: "tidy-sheet-link", href: "/tidy/maybes" }, icon("clock"), h("span", { text: "Maybe pile grid" }));
    const cancel = h("button", { type: "button", class: "button", text: "Cancel", on: { click: () => { dialog.close(); settle(null); } } });
    const dialog = openDialog({
      title: "Filter",
      description: "Choose which photos to go through. Only photos not yet decided are offered.",
      content: [list, h("nav", { class: "tidy-sheet-links", "aria-label": "Piles" }, trashLink, maybeLink)],
      actions: [cancel],
      initialFocus: cancel,
      onCancel: () => settle(null),
    });
    dialog.element.classList.add("tidy-sheet");
    dialog.element.parentElement.classList.add("tidy-sheet-backdrop");
    dialog.element.prepend(h("div", { class: "tidy-sheet-handle", "aria-hidden": "true" }));

    async function choose(option) {
      const buttons = [...list.querySelectorAll("button")];
      for (const button of buttons) button.disabled = true;
      list.setAttribute("aria-busy", "true");
      try {
        const answer = await api.startFilter(option.filter);
        dialog.close();
        settle(answer);
      } catch (error) {
        toast(`${option.label} could not be started: ${error.message}`, { kind: "error" });
        for (const button of buttons) button.disabled = false;
        list.removeAttribute("aria-busy");
      }
    }

    api.filters().then((answer) => {
      const now = current ?? answer.current;
      list.replaceChildren(...options(answer.filters, now, choose));
      list.removeAttribute("aria-busy");
      (list.querySelector("[aria-current]") ?? list.querySelector("button"))?.focus();
    }).catch((error) => {
      list.replaceChildren(h("li", { class: "tidy-filter-error", text: `The filters could not be counted: ${error.message}` }));
      list.removeAttribute("aria-busy");
    });

    // The piles' sizes, in the links' words: "Review marked photos (12)".
    Promise.resolve(status ?? api.current().then((answer) => answer.status)).then((known) => {
      if (typeof known?.marked === "number") trashLink.lastChild.textContent = `Review marked photos (${known.marked.toLocaleString()})`;
      if (typeof known?.maybe === "number") maybeLink.lastChild.textContent = `Maybe pile grid (${known.maybe.toLocaleString()})`;
    }).catch(() => { /* the links still work without their counts */ });
  });
}
