// The brief's Empty State: what the swipe screen shows when its session has nothing left — what
// was reviewed and what to do next (the marked photos, the maybes, another filter) — or, when the
// library has no photos at all, how to add some.
import { h, useStyles, plural } from "../dom.js";
import { icon } from "../icons.js";
import { getJSON } from "../api.js";

const FILTER_WORDS = {
  all: "your photos", screenshots: "your screenshots", "last-30-days": "the last 30 days",
  largest: "your largest files", maybe: "the maybe pile",
};

/** "your photos", "2024", "the maybe pile" — what the session went through. */
function filterWords(filter) {
  if (!filter) return FILTER_WORDS.all;
  const year = /^year:(\d{4})$/.exec(filter);
  return year ? `your photos of ${year[1]}` : FILTER_WORDS[filter] ?? filter;
}

/** A call to action: a button when the caller handles it, else a link to the page that does. */
function action(text, handler, href, { primary = false, iconName } = {}) {
  const className = `button${primary ? " primary" : ""}`;
  const content = [iconName ? icon(iconName) : null, h("span", { text })];
  return handler
    ? h("button", { type: "button", class: className, on: { click: () => handler() } }, content)
    : h("a", { class: className, href }, content);
}

function reviewedLine(status) {
  const reviewed = status.reviewed ?? 0;
  const words = filterWords(status.filter);
  if (!status.total) return `There was nothing left to review in ${words}.`;
  return reviewed
    ? `You went through ${words}: ${plural(reviewed, "photo")} reviewed this session.`
    : `You went through ${words}.`;
}

function nextSteps(status, { onFilter, onMaybes, onTrash }) {
  const marked = status.marked ?? 0, maybe = status.maybe ?? 0;
  const steps = [];
  if (marked) steps.push(action(`Review the ${plural(marked, "marked photo")}`, onTrash, "/tidy/trash", { primary: true, iconName: "trash" }));
  if (maybe) steps.push(action(`Tackle ${plural(maybe, "maybe")}`, onMaybes, "/tidy/maybes", { primary: !marked, iconName: "clock" }));
  steps.push(action("Choose another filter", onFilter, "/tidy", { primary: !marked && !maybe }));
  return steps;
}

function standing(status) {
  const lines = [];
  if (status.marked) lines.push(`${plural(status.marked, "photo")} marked for deletion: nothing moves until you empty the trash.`);
  if (status.maybe) lines.push(`${plural(status.maybe, "photo")} set aside as maybe.`);
  if (typeof status.unreviewed === "number") {
    lines.push(status.unreviewed
      ? `${plural(status.unreviewed, "photo")} in the library not reviewed yet.`
      : "Every photo in the library has been reviewed.");
  }
  return lines.map((line) => h("li", { text: line }));
}

/** The library itself is empty: how photos get in. */
function noPhotos() {
  return [
    icon("photo"),
    h("h2", { text: "No photos to tidy yet" }),
    h("p", { text: "This library has no photos. Copy some into the library’s folder (while Shoebox is serving it notices them; otherwise run shoebox scan), or drop them onto the Library page to upload them." }),
    h("p", {}, h("a", { class: "button primary", href: "/" }, icon("upload"), h("span", { text: "Go to the Library" }))),
  ];
}

/** True when the status cannot tell an empty library from one whose photos are all decided. */
function maybeNoPhotos(status) {
  return !status.total && !status.marked && !status.maybe && !status.reviewed && !status.unreviewed
    && (status.filter ?? "all") === "all";
}

/**
 * The node for a session that is through (`status`: GET /api/tidy's). onFilter(), onMaybes(),
 * onTrash(): the calls to action (without one, a link to its page).
 */
export function emptyState(status = {}, handlers = {}) {
  useStyles("tidy-screens");
  const node = h("section", { class: "tidy-empty empty card", "aria-labelledby": "tidy-empty-title" },
    icon("check"),
    h("h2", { id: "tidy-empty-title", text: status.filter === "maybe" ? "The maybe pile is through" : "All caught up" }),
    h("p", { class: "tidy-empty-lede", text: reviewedLine(status) }),
    h("ul", { class: "tidy-empty-standing" }, standing(status)),
    h("div", { class: "tidy-empty-actions" }, nextSteps(status, handlers)));
  // Every photo decided in earlier sessions looks the same as no photos at all: ask the library.
  if (maybeNoPhotos(status)) {
    getJSON("/api/facets").then((facets) => {
      const count = (facets.kinds ?? []).reduce((sum, kind) => sum + (kind.count ?? 0), 0);
      if (count === 0) {
        node.replaceChildren(...noPhotos());
        node.querySelector("h2").id = "tidy-empty-title";
      }
    }).catch(() => { /* keep "all caught up" */ });
  }
  return node;
}
