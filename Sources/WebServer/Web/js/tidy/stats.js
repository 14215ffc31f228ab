// The brief's stats screen, after Empty Trash: "X.X GB freed", "X photos removed", "X photos
// reviewed this session", in large serif figures that rise into place one after another under a
// gold flourish drawn in (CSS; nothing moves under prefers-reduced-motion). The figures are
// final from the first frame — no count-up — so what is read aloud or copied is always true.
import { h, useStyles, setTitle, plural } from "../dom.js";
import { icon } from "../icons.js";
import { formatTakenDay } from "../viewer/details.js";

/** The flourish under the headline: a rule, a lozenge, a rule (decoration, hidden from readers). */
function flourish() {
  const svg = h("svg:svg", { class: "tidy-flourish", viewBox: "0 0 240 24", width: "240", height: "24", "aria-hidden": "true", focusable: "false" });
  svg.append(
    h("svg:path", { class: "tidy-flourish-line", pathLength: "1", d: "M4 12 H100 M140 12 H236" }),
    h("svg:path", { class: "tidy-flourish-line", pathLength: "1", d: "M120 3 L129 12 L120 21 L111 12 Z" }),
    h("svg:circle", { class: "tidy-flourish-dot", cx: "120", cy: "12", r: "2.2" }));
  return svg;
}

/** "1.2 GB" → figure "1.2" and unit "GB" (the unit set smaller, as in a printed table). */
function splitSize(freed) {
  const match = /^([\d.,]+)\s*(.*)$/.exec(String(freed ?? "0 bytes"));
  return match ? { figure: match[1], unit: match[2] } : { figure: String(freed), unit: "" };
}

function stat(figure, words, order) {
  const element = h("li", { class: "tidy-stat" }, h("span", { class: "tidy-stat-figure", text: figure }), " ", h("span", { class: "tidy-stat-words", text: words }));
  element.style.setProperty("--order", String(order));
  return element;
}

function purgeLine(emptied) {
  if (!emptied.removed) return h("p", { class: "tidy-stats-note", text: "Nothing was marked, so nothing moved." });
  const day = emptied.purge_date ? formatTakenDay(emptied.purge_date) : null;
  return h("p", { class: "tidy-stats-note" },
    emptied.removed === 1 ? "It is restorable from " : "They are restorable from ",
    h("a", { href: "/trash", text: "Recently Deleted" }),
    day && day !== "Date unknown" ? ` until ${day}.` : " for 30 days.");
}

function errorList(emptied) {
  const lines = emptied.errors ?? [];
  const failed = emptied.failed ?? lines.length;
  if (!failed && !lines.length) return null;
  return h("section", { class: "tidy-stats-errors", role: "alert", "aria-labelledby": "tidy-stats-errors-title" },
    h("h2", { id: "tidy-stats-errors-title" }, icon("alert"), `${plural(failed || lines.length, "photo")} could not be moved`),
    h("p", { text: `${(failed || lines.length) === 1 ? "It is" : "They are"} still marked for deletion and nothing was lost. Put right what is said below, then empty the trash again.` }),
    lines.length ? h("ul", {}, lines.map((line) => h("li", { text: line }))) : null);
}

/**
 * Fills `main` with what emptying the trash did (POST /api/tidy/empty's answer: removed,
 * freed_bytes, freed, reviewed, purge_date, failed, errors). onDone(): "Back to Tidy".
 */
export function showStats(main, emptied, { onDone = () => window.location.assign("/tidy") } = {}) {
  useStyles("tidy-screens");
  setTitle("Trash emptied — Tidy");
  const { figure, unit } = splitSize(emptied.freed);
  const heading = h("h1", { class: "tidy-stats-headline", tabindex: "-1" },
    h("span", { class: "tidy-stats-freed", text: figure }), " ",
    h("span", { class: "tidy-stats-unit", text: unit }), " ",
    h("span", { class: "tidy-stats-freed-word", text: "freed" }));
  const done = h("button", { type: "button", class: "button primary", on: { click: () => onDone() } }, icon("arrowLeft"), h("span", { text: "Back to Tidy" }));
  const screen = h("section", { class: "tidy-screen tidy-stats card", "aria-labelledby": "tidy-stats-title" },
    h("p", { class: "eyebrow", id: "tidy-stats-title", text: "Trash emptied" }),
    heading,
    flourish(),
    h("ul", { class: "tidy-stat-list" },
      stat((emptied.removed ?? 0).toLocaleString(), emptied.removed === 1 ? "photo removed" : "photos removed", 1),
      stat((emptied.reviewed ?? 0).toLocaleString(), emptied.reviewed === 1 ? "photo reviewed this session" : "photos reviewed this session", 2)),
    purgeLine(emptied),
    errorList(emptied),
    h("div", { class: "tidy-stats-actions" }, done));
  main.replaceChildren(screen);
  heading.focus();
}
