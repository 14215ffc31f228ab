// The composer's photo picker: the library's grid (virtualised, grouped by month, the same
// keyboard) with its filters, over the library's photos — videos left out (a story stacks
// stills) and the story's own photos too. Tiles are ticked and unticked like checkboxes, in the
// order chosen, which is the order they join the story. In "add" mode up to `room` photos; one
// more is refused, saying why, and nothing is unticked for it; in "replace" mode one photo,
// the latest ticked. A choice survives a change of filter.
import { h, plural } from "../dom.js";
import { getJSON, toast } from "../api.js";
import { groupByMonth, ID, KIND } from "../library/layout.js";
import { LibraryGrid } from "../library/grid.js";
import { LibraryFilters } from "../library/filters.js";
import { libraryAPI } from "../library/query.js";
import { CAPACITY } from "./api.js";

export class PhotoPicker {
  constructor() {
    this.chosen = [];
    this.syncing = false;
    this.title = h("h1", { id: "compose-picker-title", tabindex: "-1" });
    this.status = h("p", { class: "compose-picker-status", "aria-live": "polite" });
    this.refusal = h("p", { class: "compose-picker-refusal", role: "alert" });
    this.grid = new LibraryGrid({
      onOpen: (index) => this.#pick(index),
      onSelectionChange: (selected) => this.#selectionChanged(selected),
      onScrollGroup: () => {},
    });
    this.grid.element.setAttribute("aria-label", "Photos to choose from");
    this.filters = new LibraryFilters({ inURL: false, onChange: (query) => { this.query = query; this.#load(); } });
    this.empty = h("div", { class: "library-empty", hidden: true });
    this.count = h("span", { class: "count" });
    this.confirm = h("button", { type: "button", class: "button primary", on: { click: () => this.#finish(true) } });
    this.cancel = h("button", { type: "button", class: "button", text: "Cancel", on: { click: () => this.#finish(false) } });
    this.element = h("section", { class: "compose-picker", "aria-labelledby": "compose-picker-title", hidden: true },
      h("div", { class: "screen-head" },
        h("div", {}, h("p", { class: "eyebrow", text: "Compose" }), this.title, this.status),
        h("div", { class: "library-tools" }, this.filters.element)),
      this.refusal,
      this.empty,
      h("div", { class: "compose-picker-body" }, this.grid.element),
      h("div", { class: "selection-bar card compose-picker-bar", role: "group", "aria-label": "Chosen photos" },
        this.count, this.cancel, this.confirm));
    // A tap ticks or unticks, like a checkbox (the library's grid would select only that one).
    this.grid.element.addEventListener("click", (event) => {
      const cell = event.target.closest?.(".tile");
      if (!cell) return;
      event.stopPropagation();
      this.#pick(Number(cell.dataset.index));
      cell.focus({ preventScroll: true });
    }, { capture: true });
    this.grid.element.addEventListener("dblclick", (event) => event.stopPropagation(), { capture: true });
    this.element.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !event.defaultPrevented) { event.preventDefault(); this.#finish(false); }
    });
    this.filtersLoaded = null;
  }

  /**
   * Shows the picker. mode "add": up to `room` photos; "replace": one, for `position`.
   * exclude: ids already in the story. Resolves to the ids chosen (in the order ticked), or null
   * when cancelled.
   */
  open({ mode, room = CAPACITY, position = null, inStory = 0, exclude = [] }) {
    Object.assign(this, { mode, room, position, inStory, exclude: new Set(exclude), chosen: [], query: this.filters.query() });
    this.refusal.textContent = "";
    this.title.textContent = mode === "replace" ? `Replace photo ${position}` : "Choose photos";
    this.confirm.textContent = mode === "replace" ? "Use this photo" : "Add to story";
    this.element.hidden = false;
    this.filtersLoaded ??= this.filters.load().then(() => {
      this.filters.selects.kind.querySelector('option[value="video"]')?.remove();
    }).catch((error) => toast(`Filters unavailable: ${error.message}`, { kind: "error" }));
    window.scrollTo(0, 0);
    this.title.focus();
    this.#update();
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.#load();
    });
  }

  async #load() {
    const ticket = (this.ticket = (this.ticket ?? 0) + 1);
    this.element.setAttribute("aria-busy", "true");
    try {
      const library = await getJSON(libraryAPI(this.query ?? new URLSearchParams()));
      if (ticket !== this.ticket || this.element.hidden) return;
      const photos = library.items.filter((item) => item[KIND] !== "v" && !this.exclude.has(item[ID]));
      const { items, groups } = groupByMonth(photos);
      // The grid forgets ticks it no longer shows; the picker's own list keeps them.
      this.syncing = true;
      try { this.grid.setItems(items, groups); } finally { this.syncing = false; }
      this.#mirror();
      this.#showEmpty(items.length === 0);
    } catch (error) {
      toast(`The library could not be loaded: ${error.message}`, { kind: "error" });
    } finally {
      if (ticket === this.ticket) this.element.removeAttribute("aria-busy");
    }
  }

  #showEmpty(isEmpty) {
    this.empty.hidden = !isEmpty;
    if (!isEmpty) return;
    const filtered = (this.query?.toString() ?? "") !== "";
    this.empty.replaceChildren(h("section", { class: "empty card" },
      h("h2", { text: filtered ? "No photo matches these filters" : "No photos to choose from" }),
      h("p", { text: filtered ? "Choose another year, place, person or kind."
        : this.exclude.size ? "Every photo of the library is in the story already." : "Add photos to the library first: drop them on the Library page." })));
  }

  /** Ticks or unticks the tile at `index` (a click, Enter). */
  #pick(index) {
    const id = this.grid.items[index]?.[ID];
    if (!id) return;
    if (this.chosen.includes(id)) this.chosen = this.chosen.filter((c) => c !== id);
    else if (this.mode === "replace") this.chosen = [id];
    else if (this.chosen.length >= this.room) { this.#refuse(); return; }
    else this.chosen = [...this.chosen, id];
    this.refusal.textContent = "";
    this.#mirror();
    this.#update();
  }

  /** The grid's own ways of selecting (Space, Shift+arrows, Ctrl+A, Escape) kept within the rules. */
  #selectionChanged(selected) {
    if (this.syncing || !this.resolve) return;
    const shown = new Set(this.grid.items.map((item) => item[ID]));
    const kept = this.chosen.filter((id) => !shown.has(id) || selected.has(id));
    const added = this.grid.selectedIds().filter((id) => !this.chosen.includes(id));
    if (this.mode === "replace") this.chosen = added.length ? [added[added.length - 1]] : kept.slice(-1);
    else if (kept.length + added.length > this.room) { this.chosen = kept; this.#refuse(); }
    else { this.chosen = [...kept, ...added]; if (added.length) this.refusal.textContent = ""; }
    this.#mirror();
    this.#update();
  }

  #refuse() {
    const chosen = this.chosen.length;
    const has = this.inStory ? `the story has ${plural(this.inStory, "photo")} and ${plural(chosen, "more is", "more are")} chosen`
      : `${plural(chosen, "photo is", "photos are")} chosen`;
    this.refusal.textContent = `A story holds at most ${CAPACITY} photos: ${has}. Untick one to choose another.`;
  }

  /** The grid's ticks are the chosen photos it shows. */
  #mirror() {
    this.syncing = true;
    try { this.grid.setSelection(this.chosen); } finally { this.syncing = false; }
  }

  #update() {
    const n = this.chosen.length;
    if (this.mode === "replace") {
      this.status.textContent = "Choose the photo to put in its place.";
      this.count.textContent = n ? "1 photo chosen" : "No photo chosen";
    } else {
      this.status.textContent = this.inStory
        ? `The story has ${plural(this.inStory, "photo")}; ${plural(this.room, "more fits", "more fit")}.`
        : `Choose 1 to ${CAPACITY} photos, in the order they go in the story, top first.`;
      this.count.textContent = `${n} of ${this.room} chosen`;
    }
    this.confirm.disabled = n === 0;
  }

  #finish(confirmed) {
    if (!this.resolve) return;
    const resolve = this.resolve;
    this.resolve = null;
    const chosen = confirmed ? this.chosen : null;
    this.chosen = [];
    this.ticket = (this.ticket ?? 0) + 1;  // a load still under way is not shown
    this.grid.setItems([], []);
    this.element.removeAttribute("aria-busy");
    this.element.hidden = true;
    resolve(chosen && chosen.length ? chosen : null);
  }
}
