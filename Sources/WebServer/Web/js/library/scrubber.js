// The date scrubber along the grid's side: an ARIA slider named "Date" whose value is a month
// (aria-valuetext "March 2021"). Dragging, clicking the track or the keys (arrows: a month,
// Page Up/Down: a year's worth, Home/End) jump the grid to that month; scrolling the grid moves
// the thumb. Months are spaced by position in the grid, not by time, so a busy month is long.
import { h } from "../dom.js";

export class DateScrubber {
  /** onJump(groupIndex) is called when the person moves the scrubber. */
  constructor({ onJump }) {
    this.onJump = onJump;
    this.groups = [];
    this.value = 0;
    this.fractions = []; // each month's start as a fraction of the grid's height
    this.thumb = h("div", { class: "scrubber-thumb" }, h("span", { class: "scrubber-label", "aria-hidden": "true" }));
    this.marks = h("div", { class: "scrubber-marks", "aria-hidden": "true" });
    this.element = h("div", {
      class: "scrubber", role: "slider", tabindex: "0", "aria-label": "Date",
      "aria-orientation": "vertical", "aria-valuemin": "0", "aria-valuemax": "0", "aria-valuenow": "0",
    }, this.marks, this.thumb);
    this.element.addEventListener("keydown", (event) => this.#onKey(event));
    this.element.addEventListener("pointerdown", (event) => this.#onPointerDown(event));
  }

  /** New months (after a fetch or a resize); layout gives each month's position. */
  setGroups(groups, layout) {
    this.groups = groups;
    const height = Math.max(1, layout.height);
    this.fractions = groups.map((_, index) => layout.rows.y[layout.firstRowOfGroup[index]] / height);
    this.element.hidden = groups.length < 2;
    this.element.setAttribute("aria-valuemax", String(Math.max(0, groups.length - 1)));
    this.#drawYearMarks();
    this.show(Math.min(this.value, Math.max(0, groups.length - 1)));
  }

  /** Reflects the month at the top of the grid (called while the page scrolls). */
  show(groupIndex) {
    if (!this.groups.length || groupIndex === undefined) return;
    this.value = groupIndex;
    const label = this.groups[groupIndex].label;
    this.element.setAttribute("aria-valuenow", String(groupIndex));
    this.element.setAttribute("aria-valuetext", label);
    this.thumb.style.top = `${(this.fractions[groupIndex] ?? 0) * 100}%`;
    this.thumb.firstChild.textContent = label;
  }

  #jump(groupIndex) {
    const clamped = Math.max(0, Math.min(this.groups.length - 1, groupIndex));
    this.show(clamped);
    this.onJump(clamped);
  }

  #onKey(event) {
    const steps = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1, PageUp: -12, PageDown: 12 };
    if (event.key in steps) this.#jump(this.value + steps[event.key]);
    else if (event.key === "Home") this.#jump(0);
    else if (event.key === "End") this.#jump(this.groups.length - 1);
    else return;
    event.preventDefault();
  }

  #onPointerDown(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    this.element.focus({ preventScroll: true });
    this.element.setPointerCapture(event.pointerId);
    this.element.classList.add("dragging");
    const move = (e) => this.#jump(this.#groupAt(e.clientY));
    const up = () => {
      this.element.classList.remove("dragging");
      this.element.removeEventListener("pointermove", move);
      this.element.removeEventListener("pointerup", up);
      this.element.removeEventListener("pointercancel", up);
    };
    this.element.addEventListener("pointermove", move);
    this.element.addEventListener("pointerup", up);
    this.element.addEventListener("pointercancel", up);
    move(event);
  }

  // The month whose span on the track holds the pointer.
  #groupAt(clientY) {
    const box = this.element.getBoundingClientRect();
    const fraction = (clientY - box.top) / Math.max(1, box.height);
    let lo = 0, hi = this.fractions.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.fractions[mid] <= fraction) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  // A mark with the year where each year begins (drawn; the slider's value says it in words).
  #drawYearMarks() {
    const marks = [];
    let lastYear = null, lastFraction = -1;
    this.groups.forEach((group, index) => {
      const year = group.epoch === null ? "?" : String(new Date(group.epoch * 1000).getFullYear());
      if (year === lastYear) return;
      lastYear = year;
      // Years closer than 4% of the track would overprint each other: a dot instead of a number.
      const crowded = this.fractions[index] - lastFraction < 0.04;
      if (!crowded) lastFraction = this.fractions[index];
      const mark = h("span", { class: crowded ? "scrubber-mark dot" : "scrubber-mark", text: crowded ? "" : year });
      mark.style.top = `${this.fractions[index] * 100}%`;
      marks.push(mark);
    });
    this.marks.replaceChildren(...marks);
  }
}
