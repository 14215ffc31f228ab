// The curation list: one row per photo, best score first — its thumbnail, rank, score and why
// in a few words (the score's own words, `score_detail.words`). Each row is a label around a
// real checkbox, so a tap anywhere on it selects or deselects, Space does from the keyboard,
// and a screen reader says "checkbox, checked". Rows are kept by id across updates (scores
// arriving re-rank them): an image is not loaded again and focus stays on its photo.
import { h, formatDate } from "../dom.js";
import { icon } from "../icons.js";
import { thumbURL } from "../media.js";
import { basename } from "../screens/kit.js";

/** Words shown for why a photo scored as it did: the scorer's first four. */
const WORDS = 4;

/** "0.93", "−0.69" (a true minus sign): the score as `curate list` gives it, to two places. */
export function formatScore(score) {
  if (score === null || score === undefined) return "—";
  const text = Math.abs(score).toFixed(2);
  return score < 0 ? `\u2212${text}` : text;
}

/**
 * What the row says of the score: "scored"; "scoring" (the server is analysing it for this list
 * now); "waiting" (not analysed, and not by this server now: the watcher, or a later `analyze`,
 * will); "none" (analysed, but the scorer gives it no score).
 */
export function scoreState(item) {
  if (item.score !== null && item.score !== undefined) return "scored";
  if (item.scoring) return "scoring";
  return item.analyzed ? "none" : "waiting";
}

function why(item) {
  const words = item.score_detail?.words ?? [];
  if (words.length) return words.slice(0, WORDS).join(", ");
  switch (scoreState(item)) {
    case "scoring": return "Being analysed now";
    case "waiting": return "Not analysed yet: ranked after the scored photos";
    case "none": return "No score for this kind of picture: ranked after the scored photos";
    default: return "";
  }
}

function capture(item) {
  return item.taken_at ? formatDate(Date.parse(item.taken_at) / 1000) : "Date unknown";
}

export class CurationRows {
  /** onToggle(id, checked): a row was ticked or unticked. */
  constructor({ onToggle }) {
    this.onToggle = onToggle;
    this.rows = new Map(); // id → { element, checkbox, parts }
    this.element = h("ol", { class: "curate-list", "aria-label": "Photos, best score first" });
  }

  /** Shows `items` (best first), reusing the rows of photos already shown. */
  update(items) {
    const focusedId = this.#focusedId();
    const seen = new Set();
    items.forEach((item, index) => {
      seen.add(item.id);
      const row = this.rows.get(item.id) ?? this.#make(item);
      this.#fill(row, item);
      // Moved only when out of place: moving a row that holds focus would drop it.
      if (this.element.children[index] !== row.element) this.element.insertBefore(row.element, this.element.children[index] ?? null);
    });
    for (const [id, row] of this.rows) {
      if (!seen.has(id)) { row.element.remove(); this.rows.delete(id); }
    }
    if (focusedId && document.activeElement !== this.rows.get(focusedId)?.checkbox) {
      this.rows.get(focusedId)?.checkbox.focus({ preventScroll: true });
    }
  }

  /** Ticks the rows of `ids` (and unticks the others) before the server has answered. */
  showSelection(ids) {
    for (const [id, row] of this.rows) this.#setChecked(row, ids.has(id));
  }

  /** The first row's checkbox (where focus goes when the list appears). */
  first() { return this.element.querySelector("input[type=checkbox]"); }

  #focusedId() {
    const active = document.activeElement;
    return active && this.element.contains(active) ? active.closest("li")?.dataset.id ?? null : null;
  }

  #make(item) {
    const id = `curate-${item.id}`;
    const checkbox = h("input", { type: "checkbox", class: "curate-check", id, "aria-describedby": `${id}-why` });
    checkbox.addEventListener("change", () => this.onToggle(item.id, checkbox.checked));
    const image = h("img", { src: thumbURL(item.id, item.sha256?.slice(0, 8)), alt: "", loading: "lazy", decoding: "async", draggable: "false" });
    image.addEventListener("error", () => image.replaceWith(h("span", { class: "curate-thumb-missing" }, icon("photo"))), { once: true });
    const parts = {
      rank: h("span", { class: "curate-rank", "aria-hidden": "true" }),
      name: h("span", { class: "curate-name" }),
      date: h("span", { class: "curate-date" }),
      score: h("span", { class: "curate-score-value" }),
      bar: h("span", { class: "curate-score-fill" }),
      why: h("span", { class: "curate-why", id: `${id}-why` }),
      state: h("span", { class: "curate-state" }),
    };
    const element = h("li", { class: "curate-row", dataset: { id: item.id } },
      h("label", { class: "curate-item", for: id },
        checkbox,
        h("span", { class: "curate-thumb" }, image, h("span", { class: "curate-tick", "aria-hidden": "true" }, icon("check"))),
        parts.rank,
        h("span", { class: "curate-text" },
          h("span", { class: "curate-title" }, parts.name, parts.date),
          parts.why),
        h("span", { class: "curate-score", "aria-hidden": "true" },
          parts.score,
          h("span", { class: "curate-score-bar" }, parts.bar),
          parts.state)));
    const row = { element, checkbox, parts };
    this.rows.set(item.id, row);
    return row;
  }

  #fill(row, item) {
    const { parts } = row;
    const state = scoreState(item);
    const name = basename(item.path);
    parts.rank.textContent = String(item.rank);
    parts.name.textContent = name;
    parts.date.textContent = capture(item);
    parts.score.textContent = formatScore(item.score);
    parts.why.textContent = why(item);
    parts.state.textContent = { scoring: "Scoring…", waiting: "Not scored", none: "No score" }[state] ?? "";
    // −1…1 drawn as 0…100 %: utility images (below −0.5) show a sliver.
    parts.bar.style.width = state === "scored" ? `${Math.round(Math.max(0.03, (item.score + 1) / 2) * 100)}%` : "0%";
    row.element.dataset.state = state;
    const said = { scored: `score ${formatScore(item.score)}`, scoring: "being scored", waiting: "not scored yet", none: "no score" }[state];
    row.checkbox.setAttribute("aria-label", `${item.rank}. ${name}, ${said}`);
    this.#setChecked(row, item.selected);
  }

  #setChecked(row, checked) {
    row.checkbox.checked = checked;
    row.element.classList.toggle("selected", checked);
  }
}
