// The story being made: its 1–4 photos stacked top to bottom, each drawn as the band it fills in
// the 1080×1920 story (1920/N pixels tall, the photo cropped to cover it), with its own
// buttons: "Move up", "Move down", "Replace", "Remove". A focused tile moves with Alt+↑ / Alt+↓;
// a pointer drags it (stack-drag.js). The stack draws what the server answered; it changes
// nothing itself, it says what was asked through its callbacks.
import { h, formatDate } from "../dom.js";
import { icon } from "../icons.js";
import { thumbURL } from "../media.js";
import { basename } from "../screens/kit.js";

const STORY_WIDTH = 1080, STORY_HEIGHT = 1920;

/** "IMG_0042.jpg" and "12 March 2021" of an entry (the asset shape of `compose list --json`). */
export function describeEntry(entry) {
  const taken = entry.taken_at ? Date.parse(entry.taken_at) / 1000 : null;
  return { name: basename(entry.path), date: formatDate(Number.isFinite(taken) ? taken : null) };
}

export class StoryStack {
  /**
   * onMove(id, delta) (−1 up, +1 down), onReplace(position) (from 1, as the server's), onRemove(id).
   * Moves and removals name the photo, not its place: a key pressed again before the server's
   * answer is drawn means the same photo, wherever the first press put it.
   */
  constructor({ onMove, onReplace, onRemove }) {
    this.onMove = onMove;
    this.onReplace = onReplace;
    this.onRemove = onRemove;
    this.entries = [];
    this.hint = h("p", { id: "compose-move-hint", class: "visually-hidden", text: "Alt+Up and Alt+Down move it; or drag it." });
    this.list = h("ol", { class: "compose-stack", "aria-label": "Story, top to bottom" });
    this.element = h("div", { class: "compose-stack-frame" }, this.hint, this.list);
    this.list.addEventListener("keydown", (event) => this.#onKey(event));
  }

  /** Redraws from `entries` (the server's draft). focus: {position, control} to focus after. */
  setEntries(entries, focus = null) {
    this.entries = entries;
    const count = entries.length;
    this.list.style.setProperty("--bands", String(Math.max(1, count)));
    this.list.replaceChildren(...entries.map((entry) => this.#tile(entry, count)));
    if (focus) this.focus(focus.position, focus.control);
  }

  tile(position) { return this.list.querySelector(`.compose-tile[data-position="${position}"]`); }

  /** Focuses the tile at `position` (1-based), or its button named `control` when it is enabled. */
  focus(position, control = null) {
    const tile = this.tile(Math.max(1, Math.min(this.entries.length, position)));
    if (!tile) return;
    const button = control ? tile.querySelector(`button[data-control="${control}"]`) : null;
    (button && !button.disabled ? button : tile).focus();
  }

  #tile(entry, count) {
    const { position } = entry;
    const { name, date } = describeEntry(entry);
    const label = `Photo ${position} of ${count}: ${name}, ${date}`;
    const band = h("div", { class: "compose-band", "aria-hidden": "true" },
      h("img", { src: thumbURL(entry.id, entry.sha256?.slice(0, 8), 1024), alt: "", draggable: "false", decoding: "async" }),
      h("span", { class: "compose-number", text: String(position) }),
      h("span", { class: "compose-grip" }, icon("grip")));
    band.style.aspectRatio = `${STORY_WIDTH} / ${STORY_HEIGHT / count}`;
    const button = (control, text, glyph, handler, { disabled = false, iconOnly = false, keys } = {}) => h("button", {
      type: "button", class: iconOnly ? "button icon" : "button", disabled,
      "aria-label": iconOnly ? text : null, title: keys ? `${text} (${keys})` : null,
      dataset: { control }, on: { click: handler },
    }, icon(glyph), iconOnly ? null : text);
    return h("li", {
      class: "compose-tile", tabindex: "0", "aria-label": label, "aria-describedby": "compose-move-hint",
      dataset: { position: String(position), id: entry.id },
    },
      band,
      h("div", { class: "compose-tile-info" },
        h("p", { class: "compose-tile-name", text: name }),
        h("p", { class: "compose-tile-meta", text: `${date} · ${entry.width.toLocaleString()} × ${entry.height.toLocaleString()}` }),
        entry.state !== "present" ? h("p", { class: "compose-tile-problem", text: `This photo is ${entry.state === "trashed" ? "in Recently Deleted" : "missing"}: replace or remove it to export.` }) : null,
        h("div", { class: "compose-tile-actions", role: "group", "aria-label": `Photo ${position}` },
          button("up", "Move up", "arrowUp", () => this.onMove(entry.id, -1), { disabled: position === 1, iconOnly: true, keys: "Alt+↑" }),
          button("down", "Move down", "arrowDown", () => this.onMove(entry.id, +1), { disabled: position === count, iconOnly: true, keys: "Alt+↓" }),
          button("replace", "Replace", "swap", () => this.onReplace(position)),
          button("remove", "Remove", "close", () => this.onRemove(entry.id)))));
  }

  #onKey(event) {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    const tile = event.target.closest(".compose-tile");
    if (!tile) return;
    event.preventDefault();
    this.onMove(tile.dataset.id, event.key === "ArrowUp" ? -1 : 1);
  }
}
