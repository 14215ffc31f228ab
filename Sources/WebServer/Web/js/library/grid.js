// The library's virtualised grid (ARIA grid pattern). The page scrolls (window), the grid is one
// tall element whose height is the layout's; only rows within a screen of the viewport exist,
// absolutely placed, rebuilt on requestAnimationFrame after a scroll. Selection is a set of ids,
// so it survives a re-fetch; keyboard handling is in grid-keys.js.
import { h, whenIdle } from "../dom.js";
import { computeLayout, ID } from "./layout.js";
import { makeTile, makeHeading } from "./tiles.js";
import { handleGridKey } from "./grid-keys.js";

const OVERSCAN = 0.75; // screens rendered above and below the viewport
// Faster than this (px per ms, ~ two screens a second) the scroll is a fling: tiles are built
// without loading their thumbnails until the scroll settles (SETTLE_MS without a frame).
const FLING_SPEED = 3;
const SETTLE_MS = 120;

export class LibraryGrid {
  /** onOpen(index), onSelectionChange(selectedIds), onScrollGroup(groupIndex), onLayout(layout) */
  constructor({ onOpen, onSelectionChange, onScrollGroup, onLayout }) {
    this.onOpen = onOpen;
    this.onLayout = onLayout;
    this.onSelectionChange = onSelectionChange;
    this.onScrollGroup = onScrollGroup;
    this.items = [];
    this.groups = [];
    this.selected = new Set();
    this.anchor = null;        // index a shift-click range starts from
    this.focusIndex = 0;       // the roving tab stop
    this.rendered = new Map(); // row index → row element
    this.layout = null;
    this.frame = 0;
    this.element = h("div", {
      class: "library-grid", role: "grid", "aria-label": "Photos and videos", "aria-multiselectable": "true",
    });
    this.element.addEventListener("click", (event) => this.#onClick(event));
    this.element.addEventListener("dblclick", (event) => {
      const index = this.#indexOf(event.target);
      if (index !== null) this.onOpen(index);
    });
    this.element.addEventListener("keydown", (event) => handleGridKey(this, event));
    this.element.addEventListener("focusin", (event) => {
      const index = this.#indexOf(event.target);
      if (index !== null) this.#setTabStop(index);
    });
    this.schedule = () => {
      if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
    };
    window.addEventListener("scroll", this.schedule, { passive: true });
    // Only a change of width changes the layout (the grid sets its own height).
    this.width = 0;
    new ResizeObserver(() => { if (this.element.clientWidth !== this.width) this.relayout(); }).observe(this.element);
  }

  /** Replaces the items (newest first, grouped); keeps the item at the top of the view there. */
  setItems(items, groups) {
    const anchor = this.layout ? this.#topItem() : null;
    const focusedId = this.items[this.focusIndex]?.[ID];
    const anchorId = this.anchor !== null ? this.items[this.anchor]?.[ID] : null;
    this.items = items;
    this.groups = groups;
    const where = new Map(items.map((item, index) => [item[ID], index]));
    for (const id of [...this.selected]) if (!where.has(id)) this.selected.delete(id);
    this.focusIndex = Math.min(where.get(focusedId) ?? this.focusIndex, Math.max(0, items.length - 1));
    this.anchor = where.get(anchorId) ?? null;
    this.relayout(anchor && where.has(anchor.id) ? { index: where.get(anchor.id), offset: anchor.offset } : null);
    this.onSelectionChange(this.selected);
  }

  /** Recomputes rows for the present width (resize, new items), keeping `keep` in place. */
  relayout(keep = this.layout ? this.#topItem() : null) {
    const width = this.element.clientWidth;
    if (width === 0) return;
    this.width = width;
    // Phones get smaller tiles (three or four across), as their own photo apps do.
    this.layout = computeLayout(this.groups, width, { target: width < 600 ? 110 : 180 });
    this.onLayout?.(this.layout);
    this.element.style.height = `${this.layout.height}px`;
    this.element.style.setProperty("--columns", this.layout.columns);
    this.element.style.setProperty("--tile", `${this.layout.tile}px`);
    this.element.setAttribute("aria-rowcount", String(this.layout.rowCount));
    this.element.setAttribute("aria-colcount", String(this.layout.columns));
    // Rebuilding the rows removes the focused cell; put focus back on its successor.
    const hadFocus = this.element.contains(document.activeElement);
    const firstShow = this.rendered.size === 0;
    this.#clearRows();
    if (keep && keep.index !== undefined && keep.index < this.items.length) {
      const row = this.layout.rowOfItem(keep.index);
      window.scrollTo(0, this.#gridTop() + this.layout.rows.y[row] - keep.offset);
    }
    // The first time, only the rows on screen: their thumbnails are asked for before any other
    // and the first paint waits for no off-screen tile; the rows around follow when idle.
    if (firstShow) {
      this.render({ overscan: 0 });
      whenIdle(this.schedule);
    } else this.render();
    if (hadFocus) this.#cell(this.focusIndex)?.focus({ preventScroll: true });
  }

  /**
   * Builds the rows near the viewport (within `overscan` screens) and removes the others (but
   * never the focused one's).
   */
  render({ overscan = OVERSCAN } = {}) {
    const layout = this.layout;
    if (!layout) return;
    const top = window.scrollY - this.#gridTop();
    const screen = window.innerHeight;
    const first = layout.rowAt(Math.max(0, top - screen * overscan));
    const last = layout.rowAt(Math.max(0, top + screen * (1 + overscan)));
    // Rows on screen now: their tiles' thumbnails go first.
    this.onScreen = [layout.rowAt(Math.max(0, top)), layout.rowAt(Math.max(0, top + screen))];
    const keepRow = this.items.length ? layout.rowOfItem(this.focusIndex) : -1;
    const now = performance.now();
    const speed = Math.abs(window.scrollY - (this.lastScrollY ?? window.scrollY)) / Math.max(1, now - (this.lastRenderTime ?? 0));
    this.lastScrollY = window.scrollY;
    this.lastRenderTime = now;
    this.deferImages = speed > FLING_SPEED;
    clearTimeout(this.settleTimer);
    // Still flinging: load what waits once the scroll rests. Slowed down: load it now.
    if (this.deferImages) this.settleTimer = setTimeout(() => this.#loadDeferred(), SETTLE_MS);
    else if (this.hasDeferred) this.#loadDeferred();
    const focusInside = this.element.contains(document.activeElement);
    for (const [row, element] of this.rendered) {
      if ((row < first || row > last) && !(focusInside && row === keepRow)) { element.remove(); this.rendered.delete(row); }
    }
    for (let row = first; row <= last && row < layout.rowCount; row += 1) {
      if (!this.rendered.has(row)) this.#addRow(row);
    }
    // The month at the top of the view; at the very bottom of the page, the last month (it may
    // be too short ever to reach the top, and the scrubber's End must read as the end).
    const atBottom = window.scrollY + screen >= document.documentElement.scrollHeight - 2 && window.scrollY > 0;
    const group = atBottom ? this.groups.length - 1 : layout.rows.group[layout.rowAt(Math.max(0, top + this.#headerSpace() + 1))];
    this.onScrollGroup?.(group);
  }

  /** Scrolls so month `groupIndex`'s heading is at the top. */
  scrollToGroup(groupIndex) {
    if (!this.layout || !this.groups[groupIndex]) return;
    const row = this.layout.firstRowOfGroup[groupIndex];
    window.scrollTo(0, this.#gridTop() + this.layout.rows.y[row] - this.#headerSpace());
  }

  /** Moves keyboard focus to item `index`, scrolling it into view first. */
  focusItem(index) {
    if (!this.layout || this.items.length === 0) return;
    index = Math.max(0, Math.min(this.items.length - 1, index));
    this.#setTabStop(index);
    const row = this.layout.rowOfItem(index);
    const rowTop = this.#gridTop() + this.layout.rows.y[row];
    const rowBottom = rowTop + this.layout.rowHeight(row);
    const viewTop = window.scrollY + this.#headerSpace();
    // The heading above the first row of a month comes into view with it.
    if (rowTop < viewTop) window.scrollTo(0, rowTop - this.#headerSpace() - (this.layout.rows.start[row - 1] === -1 ? this.layout.headingHeight : 0));
    else if (rowBottom > window.scrollY + window.innerHeight) window.scrollTo(0, rowBottom - window.innerHeight + 8);
    this.render();
    this.#cell(index)?.focus({ preventScroll: true });
  }

  /** Replaces the selection (ids) and repaints the visible tiles' state. */
  setSelection(ids) {
    this.selected = new Set(ids);
    for (const cell of this.element.querySelectorAll(".tile")) {
      cell.setAttribute("aria-selected", this.selected.has(this.items[Number(cell.dataset.index)][ID]) ? "true" : "false");
    }
    this.onSelectionChange(this.selected);
  }

  /** Selects the items from the anchor to `index` (shift-click, shift+arrow). */
  selectRange(index, { add = false } = {}) {
    const from = this.anchor ?? index;
    const [lo, hi] = from < index ? [from, index] : [index, from];
    const ids = add ? new Set(this.selected) : new Set();
    for (let i = lo; i <= hi; i += 1) ids.add(this.items[i][ID]);
    this.setSelection(ids);
  }

  toggle(index) {
    const id = this.items[index][ID];
    const ids = new Set(this.selected);
    if (ids.has(id)) ids.delete(id); else ids.add(id);
    this.anchor = index;
    this.setSelection(ids);
  }

  selectedIds() {
    // In grid order, so what the server receives matches what the person sees.
    return this.items.filter((item) => this.selected.has(item[ID])).map((item) => item[ID]);
  }

  /** Items per row now, and the row geometry (for keyboard moves). */
  get columns() { return this.layout?.columns ?? 1; }

  #onClick(event) {
    const index = this.#indexOf(event.target);
    if (index === null) return;
    if (event.shiftKey) this.selectRange(index, { add: event.ctrlKey || event.metaKey });
    else if (event.ctrlKey || event.metaKey) this.toggle(index);
    else { this.anchor = index; this.setSelection([this.items[index][ID]]); }
    this.#cell(index)?.focus({ preventScroll: true });
  }

  #addRow(row) {
    const layout = this.layout;
    const start = layout.rows.start[row];
    const element = h("div", { class: start < 0 ? "grid-row month-row" : "grid-row", role: "row", "aria-rowindex": row + 1 });
    element.style.transform = `translateY(${layout.rows.y[row]}px)`;
    if (start < 0) element.append(makeHeading(this.groups[layout.rows.group[row]], layout.columns));
    else {
      const count = layout.countInRow(row);
      for (let column = 0; column < count; column += 1) {
        const index = start + column;
        const urgent = row >= this.onScreen[0] && row <= this.onScreen[1];
        const cell = makeTile(this.items[index], index, column + 1, this.selected.has(this.items[index][ID]), { defer: this.deferImages, urgent });
        if (this.deferImages) this.hasDeferred = true;
        if (index === this.focusIndex) cell.tabIndex = 0;
        element.append(cell);
      }
    }
    this.rendered.set(row, element);
    this.element.append(element);
  }

  #loadDeferred() {
    this.hasDeferred = false;
    for (const image of this.element.querySelectorAll("img[data-src]")) {
      image.src = image.dataset.src;
      image.removeAttribute("data-src");
    }
  }

  #clearRows() {
    for (const element of this.rendered.values()) element.remove();
    this.rendered.clear();
  }

  #setTabStop(index) {
    this.#cell(this.focusIndex)?.setAttribute("tabindex", "-1");
    this.focusIndex = index;
    this.#cell(index)?.setAttribute("tabindex", "0");
  }

  #cell(index) { return this.element.querySelector(`.tile[data-index="${index}"]`); }

  #indexOf(target) {
    const cell = target.closest?.(".tile");
    return cell && this.element.contains(cell) ? Number(cell.dataset.index) : null;
  }

  #gridTop() { return this.element.getBoundingClientRect().top + window.scrollY; }

  // The sticky app header covers the top of the viewport.
  #headerSpace() {
    const header = document.querySelector(".app-header");
    return header && getComputedStyle(header).position === "sticky" ? header.offsetHeight : 0;
  }

  /** The first item whose row is at the top of the view, with its distance from the top. */
  #topItem() {
    if (!this.layout || this.items.length === 0) return null;
    const top = window.scrollY + this.#headerSpace() - this.#gridTop();
    if (top <= 0) return null; // at the top: stay at the top (new photos appear above)
    let row = this.layout.rowAt(top);
    if (this.layout.rows.start[row] < 0 && row + 1 < this.layout.rowCount) row += 1;
    const index = this.layout.rows.start[row];
    return { id: this.items[index][ID], index, offset: this.#gridTop() + this.layout.rows.y[row] - window.scrollY };
  }
}
