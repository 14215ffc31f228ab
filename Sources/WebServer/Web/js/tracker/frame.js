// What every tracker screen has around it: the tracker's two sections (Projects, Recipes) as
// links, the saved state (saving.js), and Export. Times are written as the rest of the app
// writes dates ("14 May 2026, 10:15"), in the browser's time zone.
import { h } from "../dom.js";
import { icon } from "../icons.js";
import { savedState } from "./saving.js";
import { openExport } from "./export.js";

const SECTIONS = [["projects", "Projects", "/tracker"], ["recipes", "Recipes", "/tracker/recipes"]];

/**
 * Fills `main` with the frame; returns `{ body, save, fail }`: the element the screen fills, and
 * the saved state's save(action, {onError}) and fail(message). `project`: the project the
 * screen shows (Export offers it first).
 */
export function frame(main, { section, project = null }) {
  const saved = savedState();
  const nav = h("nav", { class: "tracker-sections", "aria-label": "Tracker" },
    h("ul", {}, SECTIONS.map(([key, label, href]) =>
      h("li", {}, h("a", { href, "aria-current": key === section ? "page" : null, text: label })))));
  const exportButton = h("button", { type: "button", class: "button", on: { click: () => openExport({ project: project?.() ?? null }) } },
    icon("download"), h("span", { text: "Export…" }));
  const body = h("div", { class: "tracker-body" });
  main.replaceChildren(
    h("div", { class: "tracker-bar" },
      h("p", { class: "eyebrow tracker-brand" }, icon("tracker"), h("span", { text: "Painting tracker" })),
      nav, h("div", { class: "tracker-bar-end" }, saved.element, exportButton)),
    body);
  return { body, save: saved.save, fail: saved.fail };
}

const WHEN = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });

/** "14 May 2026, 10:15" from the tracker's ISO 8601 time; the text itself when it is not one. */
export function formatWhen(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso ?? "") : WHEN.format(date);
}

/** "Primed" from "primed". */
export const capitalised = (word) => (word ? word[0].toUpperCase() + word.slice(1) : "");

/** A project's title: its name, else its army. */
export const projectTitle = (project) => project.name || project.army;

/** A "loading" line in `body` (aria-busy while it waits), replaced by what `load` returns. */
export async function loading(body, load, what = "Loading…") {
  body.setAttribute("aria-busy", "true");
  body.replaceChildren(h("p", { class: "loading", text: what }));
  try {
    return await load();
  } finally {
    body.removeAttribute("aria-busy");
  }
}
