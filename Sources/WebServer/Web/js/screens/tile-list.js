// A multi-select listbox of photo tiles (W3C ARIA APG "Listbox", multi-select, with the
// rearrangeable variant's moves), used by one album and by Recently Deleted.
//
// Keyboard (focus is a roving tabindex on the options, so the browser scrolls them into view):
//   arrows / Home / End  move focus; with Shift they extend the selection, with Ctrl/Cmd they
//                        move focus only; plain arrows select only the new tile (file-manager
//                        model, the one APG calls "selection follows focus")
//   Space                toggles the focused tile   Ctrl+A  all   Escape  none
//   Enter                opens the focused tile     Alt+arrows  onMove(−1 | +1)
// Mouse: a click on the check mark (or with Ctrl/Cmd) toggles, Shift+click selects a range, a
// plain click opens the photo unless something is selected already (then it toggles), as in
// most photo apps; so a tile opens with one click and selection needs no modifier key.

import { h } from '../dom.js';

export class TileList {
  /**
   * @param {object} options
   *   label: the listbox's accessible name; render(item) → nodes inside the option;
   *   keyOf(item) → a string; disabled(item) → true for tiles that cannot be selected;
   *   onOpen(item); onChange(selectedItems); onMove(delta) for Alt+arrows (omit: no moves).
   */
  constructor(options) {
    this.options = options;
    this.items = [];
    this.selected = new Set();
    this.focusKey = null;
    this.anchorKey = null;
    this.element = h('ul', {
      class: 'sb-tiles',
      role: 'listbox',
      'aria-multiselectable': 'true',
      'aria-label': options.label,
      on: {
        keydown: (event) => this.#onKey(event),
        click: (event) => this.#onClick(event),
        focusin: (event) => {
          const key = event.target.closest?.('[role=option]')?.dataset.key;
          if (key != null) this.#setFocus(key, false);
        },
      },
    });
  }

  /** Replaces the tiles, keeping selection and focus on the keys still present. */
  setItems(items) {
    const hadFocus = this.element.contains(document.activeElement);
    this.items = items;
    const keys = new Set(items.map((item) => this.#key(item)));
    this.selected = new Set([...this.selected].filter((key) => keys.has(key)));
    if (!keys.has(this.focusKey)) this.focusKey = items.length ? this.#key(items[0]) : null;
    this.element.replaceChildren(...items.map((item) => this.#option(item)));
    this.#syncTabIndex();
    if (hadFocus) this.focus();
    this.#changed();
  }

  selectedItems() {
    return this.items.filter((item) => this.selected.has(this.#key(item)));
  }

  focusedItem() {
    return this.items.find((item) => this.#key(item) === this.focusKey) ?? null;
  }

  optionFor(key) {
    return this.element.querySelector(`[role=option][data-key="${CSS.escape(key)}"]`);
  }

  focus() {
    if (this.focusKey != null) this.optionFor(this.focusKey)?.focus();
  }

  select(keys) {
    this.selected = new Set(keys);
    this.#paintSelection();
  }

  #key(item) {
    return String(this.options.keyOf(item));
  }

  #isDisabled(item) {
    return Boolean(this.options.disabled?.(item));
  }

  #option(item) {
    const key = this.#key(item);
    const disabled = this.#isDisabled(item);
    return h('li', {
      role: 'option',
      class: 'sb-tile',
      tabindex: '-1',
      dataset: { key },
      'aria-selected': String(this.selected.has(key)),
      'aria-disabled': disabled ? 'true' : null,
    },
    // The check mark is for the mouse only (hidden from assistive technology, which reads
    // aria-selected); an option may not hold interactive children.
    h('span', { class: 'sb-check', 'aria-hidden': 'true' }),
    this.options.render(item));
  }

  #syncTabIndex() {
    for (const option of this.element.children) {
      option.tabIndex = option.dataset.key === this.focusKey ? 0 : -1;
    }
  }

  #paintSelection() {
    for (const option of this.element.children) {
      option.setAttribute('aria-selected', String(this.selected.has(option.dataset.key)));
    }
    this.#changed();
  }

  #changed() {
    this.options.onChange?.(this.selectedItems());
  }

  #setFocus(key, moveFocus = true) {
    this.focusKey = key;
    this.#syncTabIndex();
    if (moveFocus) this.optionFor(key)?.focus();
  }

  #indexOf(key) {
    return this.items.findIndex((item) => this.#key(item) === key);
  }

  #toggle(key) {
    const item = this.items[this.#indexOf(key)];
    if (!item || this.#isDisabled(item)) return;
    if (this.selected.has(key)) this.selected.delete(key);
    else this.selected.add(key);
    this.anchorKey = key;
    this.#paintSelection();
  }

  #selectRange(fromKey, toKey) {
    const a = this.#indexOf(fromKey ?? toKey);
    const b = this.#indexOf(toKey);
    const [lo, hi] = a < b ? [a, b] : [b, a];
    this.selected = new Set(this.items.slice(lo, hi + 1)
      .filter((item) => !this.#isDisabled(item))
      .map((item) => this.#key(item)));
    this.#paintSelection();
  }

  #selectOnly(key) {
    const item = this.items[this.#indexOf(key)];
    this.selected = new Set(item && !this.#isDisabled(item) ? [key] : []);
    this.anchorKey = key;
    this.#paintSelection();
  }

  /** How many tiles fit in one row: Up and Down jump by that many in the wrapped grid. */
  #columns() {
    const options = this.element.children;
    if (options.length < 2) return 1;
    const top = options[0].offsetTop;
    let n = 1;
    while (n < options.length && options[n].offsetTop === top) n += 1;
    return n;
  }

  #onKey(event) {
    if (!this.items.length) return;
    const index = Math.max(0, this.#indexOf(this.focusKey));
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -this.#columns(), ArrowDown: this.#columns() }[event.key];
    if (event.altKey && step !== undefined) {
      event.preventDefault();
      if (this.options.onMove) this.options.onMove(Math.sign(step));
      return;
    }
    let target = null;
    if (step !== undefined) target = Math.min(this.items.length - 1, Math.max(0, index + step));
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = this.items.length - 1;
    if (target !== null) {
      event.preventDefault();
      const key = this.#key(this.items[target]);
      this.#setFocus(key);
      if (event.shiftKey) this.#selectRange(this.anchorKey ?? this.focusKey, key);
      else if (!(event.ctrlKey || event.metaKey)) this.#selectOnly(key);
      return;
    }
    if (event.key === ' ') {
      event.preventDefault();
      this.#toggle(this.focusKey);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = this.focusedItem();
      if (item) this.options.onOpen?.(item);
    } else if (event.key.toLowerCase() === 'a' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.selected = new Set(this.items.filter((i) => !this.#isDisabled(i)).map((i) => this.#key(i)));
      this.#paintSelection();
    } else if (event.key === 'Escape' && this.selected.size) {
      event.preventDefault();
      this.select([]);
    }
  }

  #onClick(event) {
    const option = event.target.closest('[role=option]');
    if (!option || this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const key = option.dataset.key;
    this.#setFocus(key);
    if (event.shiftKey) {
      this.#selectRange(this.anchorKey, key);
    } else if (event.ctrlKey || event.metaKey || event.target.closest('.sb-check') || this.selected.size) {
      this.#toggle(key);
    } else {
      const item = this.items[this.#indexOf(key)];
      if (this.options.onOpen) this.options.onOpen(item);
      else this.#toggle(key);
    }
  }
}
