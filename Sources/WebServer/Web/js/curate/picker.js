// "Choose Photos": a picker over the library — the library's own virtualised grid (arrows,
// Space, Shift+arrows, Ctrl+A; here a plain tap or Enter toggles, as a photo picker does),
// filters, and a bar saying how many are chosen with "Add" and "Cancel". What is chosen stays
// chosen while the filters change. Made once per page and shown again (the grid listens to
// the window's scroll for good).
import { h, plural } from "../dom.js";
import { getJSON } from "../api.js";
import { onLibraryChange, coalesce } from "../events.js";
import { groupByMonth, ID } from "../library/layout.js";
import { LibraryGrid } from "../library/grid.js";
import { libraryAPI } from "../library/query.js";
import { LibraryFilters } from "../library/filters.js";

export class Picker {
  /** onAdd(ids) resolves when they are added (or throws); onCancel() leaves the picker. */
  constructor({ onAdd, onCancel }) {
    this.onAdd = onAdd;
    this.chosen = new Set();
    this.visible = new Set();
    this.query = new URLSearchParams();
    this.summary = h("p", { class: "library-summary curate-picker-summary" });
    this.filters = new LibraryFilters({ inURL: false, onChange: (query) => { this.query = query; this.refresh({ toTop: true }); } });
    this.grid = new LibraryGrid({
      onOpen: (index) => this.grid.toggle(index),
      onSelectionChange: (selected) => this.#gridSelection(selected),
      onScrollGroup: () => {},
    });
    this.grid.element.setAttribute("aria-label", "Library photos to choose from");
    // A plain tap toggles (the library's grid would select just that one).
    this.grid.element.addEventListener("click", (event) => {
      if (event.shiftKey || event.ctrlKey || event.metaKey) return;
      const cell = event.target.closest?.(".tile");
      if (!cell || !this.grid.element.contains(cell)) return;
      event.stopPropagation();
      this.grid.toggle(Number(cell.dataset.index));
      cell.focus({ preventScroll: true });
    }, { capture: true });
    this.empty = h("p", { class: "curate-picker-empty", hidden: true, text: "No photo of the library matches these filters." });
    this.count = h("span", { class: "count", "aria-live": "polite" });
    this.addButton = h("button", { type: "button", class: "button primary", disabled: true, on: { click: () => this.#add() } });
    this.cancelButton = h("button", { type: "button", class: "button", text: "Cancel", on: { click: onCancel } });
    this.element = h("section", { class: "curate-picker", "aria-labelledby": "curate-picker-title", hidden: true },
      h("div", { class: "screen-head library-head" },
        h("div", {}, h("h1", { id: "curate-picker-title", text: "Choose Photos" }), this.summary),
        h("div", { class: "library-tools" }, this.filters.element)),
      this.empty,
      h("div", { class: "library-body curate-picker-body" }, this.grid.element),
      h("section", { class: "selection-bar card curate-picker-bar", "aria-label": "Chosen photos" },
        this.count, this.cancelButton, this.addButton));
    this.refresh = coalesce(async ({ toTop = false } = {}) => {
      const library = await getJSON(libraryAPI(this.query));
      const { items, groups } = groupByMonth(library.items);
      this.visible = new Set(items.map((item) => item[ID]));
      if (toTop) window.scrollTo(0, 0);
      // The grid drops a selection it no longer shows; what is chosen elsewhere stays chosen.
      this.settingItems = true;
      try { this.grid.setItems(items, groups); } finally { this.settingItems = false; }
      this.grid.setSelection([...this.chosen].filter((id) => this.visible.has(id)));
      this.summary.textContent = this.query.toString() ? `${plural(items.length, "item")} match` : `${plural(items.length, "item")} in the library`;
      this.empty.hidden = items.length > 0;
    });
    onLibraryChange(() => { if (!this.element.hidden) this.refresh(); });
    this.#showCount();
  }

  /** Shows the picker with nothing chosen; resolves once its photos are shown. */
  async open() {
    this.chosen.clear();
    this.element.hidden = false;
    window.scrollTo(0, 0);
    this.grid.setSelection([]);
    this.#showCount();
    this.element.setAttribute("aria-busy", "true");
    try {
      await Promise.all([this.filters.load(), this.refresh()]);
    } finally {
      this.element.removeAttribute("aria-busy");
    }
    // The grid lays itself out once visible; then focus goes to its first photo.
    this.grid.relayout();
    if (this.grid.items.length) this.grid.focusItem(0);
    else this.filters.selects.year.focus();
  }

  close() { this.element.hidden = true; }

  #gridSelection(selected) {
    if (this.settingItems) return;
    for (const id of this.visible) {
      if (selected.has(id)) this.chosen.add(id); else this.chosen.delete(id);
    }
    this.#showCount();
  }

  #showCount() {
    const n = this.chosen.size;
    this.count.textContent = n ? `${plural(n, "photo")} chosen` : "Tap photos to choose them";
    this.addButton.textContent = n ? `Add ${plural(n, "photo")}` : "Add photos";
    this.addButton.disabled = n === 0;
  }

  async #add() {
    const ids = [...this.chosen];
    if (!ids.length) return;
    this.addButton.disabled = true;
    this.addButton.textContent = "Adding…";
    try {
      await this.onAdd(ids);
    } finally {
      this.#showCount();
    }
  }
}
