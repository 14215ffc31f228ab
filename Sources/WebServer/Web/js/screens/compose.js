// /compose (brief 001): stack 1–4 photos into one 1080×1920 story. Three views in one page:
//   the editor — "Choose photos" when the story is empty, else the stack of tiles in story order
//     (reordered by dragging, by "Move up"/"Move down", by Alt+↑/↓), "Add photos", "Remove all",
//     "Export";
//   the picker — the library's grid with its filters (compose/picker.js), for adding or replacing;
//   the story — exported, shown, shared, downloaded or saved (compose/result.js).
// The draft lives on the server (.shoebox/composer.json, as `compose list` shows it): every change
// is a request whose answer is the draft, which the stack redraws; the page keeps no rule of its own.
import { h, useStyles, plural } from "../dom.js";
import { icon } from "../icons.js";
import { toast } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { onLibraryChange, coalesce } from "../events.js";
import { liveRegion, changeDetector } from "./kit.js";
import * as api from "../compose/api.js";
import { StoryStack, describeEntry } from "../compose/stack.js";
import { enableStackDrag } from "../compose/stack-drag.js";
import { PhotoPicker } from "../compose/picker.js";
import { showResult } from "../compose/result.js";

export async function show(main) {
  useStyles("library", "compose");
  main.setAttribute("aria-busy", "true");
  const announce = liveRegion(main);
  const changed = changeDetector();
  let entries = [];
  let busy = false;

  const stack = new StoryStack({
    onMove: (id, delta) => move(id, { delta }), onReplace: (p) => replace(p), onRemove: (id) => remove(id),
  });
  enableStackDrag(stack, (id, to) => move(id, { to, dragged: true }));
  const picker = new PhotoPicker();

  const summary = h("p", { class: "compose-summary", "aria-live": "polite" });
  const choose = h("button", { type: "button", class: "button primary", on: { click: () => addPhotos() } }, icon("plus"), "Choose photos");
  const start = h("section", { class: "empty card compose-start", "aria-labelledby": "compose-start-title" },
    icon("compose"),
    h("h2", { id: "compose-start-title", text: "Make a story" }),
    h("p", { text: "Stack one to four photos, top to bottom, into one 1080 × 1920 picture for a phone’s story. Each fills an equal band, cropped to cover it and kept on its faces." }),
    h("p", { text: "Nothing is saved unless you ask." }),
    choose);
  const addMore = h("button", { type: "button", class: "button", on: { click: () => addPhotos() } }, icon("plus"), "Add photos");
  const removeAll = h("button", { type: "button", class: "button", on: { click: () => clearAll() } }, icon("trash"), "Remove all");
  const exportButton = h("button", { type: "button", class: "button primary", on: { click: () => exportStory() } }, icon("compose"), "Export");
  const working = h("p", { class: "compose-working", role: "status" });
  const editing = h("div", { class: "compose-editing" },
    stack.element,
    h("div", { class: "compose-side card" },
      h("h2", { text: "Story" }),
      h("p", { class: "compose-note", text: "1080 × 1920 HEIC. Drag a photo to reorder it (on a touch screen, press and hold first), or use its arrows; Alt+↑ and Alt+↓ move the focused photo." }),
      h("div", { class: "compose-buttons" }, exportButton, addMore, removeAll),
      working));
  const editor = h("section", { class: "compose-editor", "aria-labelledby": "compose-title" },
    h("div", { class: "screen-head" }, h("div", {}, h("h1", { id: "compose-title", tabindex: "-1", text: "Compose" }), summary)),
    start, editing);
  const result = h("section", { class: "compose-result", "aria-labelledby": "compose-result-title", hidden: true });
  main.replaceChildren(editor, picker.element, result, ...main.querySelectorAll("[aria-live]"));

  function draw(list, focus = null) {
    entries = list;
    changed(list);
    const n = list.length;
    start.hidden = n > 0;
    editing.hidden = n === 0;
    summary.textContent = n ? `${plural(n, "photo")} of ${api.CAPACITY}, each a band of 1080 × ${1920 / n}` : "";
    addMore.hidden = n >= api.CAPACITY;
    stack.setEntries(list, focus);
  }

  function view(which) {
    editor.hidden = which !== "editor";
    result.hidden = which !== "story";
  }

  function setBusy(on, words = "") {
    busy = on;
    working.textContent = words;
    if (on) editing.setAttribute("aria-busy", "true"); else editing.removeAttribute("aria-busy");
    for (const button of [exportButton, addMore, removeAll]) button.disabled = on;
  }

  /** Runs a change of the draft; its answer is the draft drawn. A failure says the server's line
   * and redraws what the server holds. */
  async function change(request, { focus, say } = {}) {
    try {
      const list = await request();
      draw(list, typeof focus === "function" ? focus(list) : focus);
      if (say) announce(typeof say === "function" ? say(list) : say);
      return list;
    } catch (error) {
      toast(error.message, { kind: "error" });
      await refresh();
      return null;
    }
  }

  // Moves and removals wait for the one before to be answered and drawn, then find their photo
  // where it is now (a second Alt+↓ before the first is answered moves the same photo again).
  let pending = Promise.resolve();
  function inTurn(action) {
    pending = pending.then(action, action);
    return pending;
  }

  function move(id, { delta = 0, to: target = null, dragged = false }) {
    const control = dragged ? null : document.activeElement?.dataset?.control ?? null;
    return inTurn(async () => {
      const from = entries.findIndex((e) => e.id === id) + 1;
      const to = target ?? from + delta;
      if (busy || from === 0 || to < 1 || to > entries.length || from === to) return;
      await change(() => api.move(from, to), {
        focus: { position: to, control },
        say: `Moved ${describeEntry(entries[from - 1]).name} to position ${to} of ${entries.length}.`,
      });
    });
  }

  async function addPhotos() {
    const opener = document.activeElement;
    view("picker");
    const ids = await picker.open({ mode: "add", room: api.CAPACITY - entries.length, inStory: entries.length, exclude: entries.map((e) => e.id) });
    view("editor");
    if (!ids) { refocus(opener); return; }
    const before = entries.length;
    await change(() => api.add(ids), {
      focus: (list) => ({ position: Math.min(list.length, before + 1) }),
      say: (list) => `Added ${plural(list.length - before, "photo")}; the story has ${plural(list.length, "photo")}.`,
    });
  }

  async function replace(position) {
    view("picker");
    const ids = await picker.open({ mode: "replace", position, exclude: entries.map((e) => e.id) });
    view("editor");
    if (!ids) { stack.focus(position, "replace"); return; }
    await change(() => api.replace(position, ids[0]), {
      focus: { position, control: "replace" },
      say: (list) => `Replaced photo ${position} with ${describeEntry(list[position - 1]).name}.`,
    });
  }

  function remove(id) {
    return inTurn(async () => {
      const position = entries.findIndex((e) => e.id === id) + 1;
      if (busy || position === 0) return;
      const name = describeEntry(entries[position - 1]).name;
      const list = await change(() => api.remove(position), {
        focus: (after) => (after.length ? { position: Math.min(position, after.length), control: "remove" } : null),
        say: (after) => `Removed ${name} from the story; ${after.length ? `it has ${plural(after.length, "photo")}` : "it is empty"}.`,
      });
      if (list && list.length === 0) choose.focus();
    });
  }

  async function clearAll() {
    const yes = await confirmDialog({
      title: "Remove all photos from the story?", message: "The story starts again, empty. The photos stay in the library.",
      confirm: "Remove all", danger: true,
    });
    if (!yes) return;
    const list = await change(() => api.clear(), { say: "The story is empty." });
    if (list) choose.focus();
  }

  async function exportStory() {
    if (busy) return;
    setBusy(true, "Drawing the story…");
    let story;
    try {
      story = await api.exportStory();
    } catch (error) {
      setBusy(false);
      toast(`The story could not be made: ${error.message}`, { kind: "error" });
      await refresh();
      return;
    }
    setBusy(false);
    draw([]);  // the draft ends with the export, as `compose export` ends it
    view("story");
    showResult(result, story, { onNew: () => { view("editor"); refresh().then(() => choose.focus()); } });
    announce("The story is ready.");
  }

  function refocus(element) {
    if (element && document.contains(element) && !element.closest("[hidden]")) element.focus();
    else (entries.length ? stack.focus(1) : choose.focus());
  }

  /** The draft as the server holds it now (another tab or `compose` in a terminal may change it). */
  const refresh = coalesce(async () => {
    let list;
    try { list = await api.draft(); } catch (error) {
      toast(`The story could not be loaded: ${error.message}`, { kind: "error" });
      return;
    }
    if (busy || !changed(list)) return;
    const focused = document.activeElement?.closest?.(".compose-tile");
    draw(list, focused ? { position: Number(focused.dataset.position) } : null);
  });

  await refresh();
  if (!entries.length) draw([]);
  view("editor");
  main.removeAttribute("aria-busy");
  onLibraryChange(() => { if (!editor.hidden) refresh(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden && !editor.hidden) refresh(); });
}
