// /curate (brief 000, issue 31): photos chosen from the library, ranked by score, best on top;
// tick rows or select the top 1/5/10/20; share the originals unchanged; take photos out of the
// list; make an album of the whole list in score order. "Choose Photos" opens the picker
// (#choose in the address, so Back closes it). Every change goes to the server in the order
// made (the Curation module decides; the page shows its answer) and the list follows the
// library: scores arriving for the photos being analysed re-rank them.
import { h, useStyles, plural } from "../dom.js";
import { icon } from "../icons.js";
import { toast } from "../api.js";
import { onLibraryChange } from "../events.js";
import { liveRegion } from "./kit.js";
import * as api from "../curate/api.js";
import { CurationRows, scoreState } from "../curate/rows.js";
import { CurationToolbar } from "../curate/toolbar.js";
import { Picker } from "../curate/picker.js";
import { mustSelect } from "../curate/alert.js";
import { shareSelection } from "../curate/share.js";
import { createAlbum } from "../curate/album.js";

const PICKING = "#choose";
const POLL_MS = 2000;

export async function show(main) {
  useStyles("library", "curate");
  let items = [];
  let queue = Promise.resolve();
  let pollTimer = 0;
  const say = liveRegion(main);

  const summary = h("p", { class: "library-summary curate-summary" });
  const scoring = h("p", { class: "curate-scoring", role: "status" });
  const choose = h("button", { type: "button", class: "button primary", on: { click: openPicker } }, icon("plus"), "Choose Photos");
  const rows = new CurationRows({ onToggle: (id, checked) => change(() => (checked ? api.select([id]) : api.deselect([id]))) });
  const toolbar = new CurationToolbar({ top, share, remove, album });
  const empty = h("section", { class: "empty card curate-empty", hidden: true },
    icon("star"),
    h("h2", { text: "Nothing to curate yet" }),
    h("p", { text: "Choose photos from your library: Shoebox ranks them by score, best first, so you can pick the ones to share, make an album of them, or leave the weaker ones out." }));
  const listView = h("section", { class: "curate", "aria-labelledby": "curate-title" },
    h("div", { class: "screen-head curate-head" },
      h("div", {}, h("h1", { id: "curate-title", text: "Curate" }), summary),
      choose),
    scoring, toolbar.element, empty, rows.element);
  const picker = new Picker({ onAdd: addChosen, onCancel: closePicker });
  main.replaceChildren(listView, picker.element);
  // The buttons stick under the app's header (its height changes with the window; on a phone it
  // scrolls away, and they stick to the top).
  const header = document.querySelector(".app-header");
  if (header) {
    new ResizeObserver(() => {
      const top = getComputedStyle(header).position === "sticky" ? header.offsetHeight : 0;
      listView.style.setProperty("--curate-sticky-top", `${top}px`);
    }).observe(header);
  }

  /** Shows the server's list (best first). */
  function showList(next) {
    items = Array.isArray(next) ? next : [];
    rows.update(items);
    const selected = items.filter((item) => item.selected).length;
    const text = items.length ? `${plural(items.length, "photo")}, best first · ${selected.toLocaleString()} selected` : "";
    if (summary.textContent !== text) summary.textContent = text;
    empty.hidden = items.length > 0;
    toolbar.element.hidden = items.length === 0;
    const waiting = items.filter((item) => scoreState(item) === "scoring").length;
    const status = waiting ? `Scoring ${plural(waiting, "photo")}… each takes its place when its score arrives.` : "";
    if (scoring.textContent !== status) scoring.textContent = status;
    scoring.hidden = !waiting;
    clearTimeout(pollTimer);
    if (waiting) pollTimer = setTimeout(reload, POLL_MS);
  }

  /** Runs a request after those before it; shows the list it answers, or says its error. */
  function change(request) {
    const run = queue.then(async () => {
      try {
        const next = await request();
        showList(next);
        return next;
      } catch (error) {
        toast(error.message, { kind: "error" });
        try { showList(await api.list()); } catch { /* the toast said it */ }
        return null;
      }
    });
    queue = run;
    return run;
  }

  function reload() { return change(api.list); }

  async function top(n) {
    const next = await change(() => api.top(n));
    if (next) say(`Selected the top ${Math.min(n, next.length)} of ${plural(next.length, "photo")}.`);
  }

  async function share() {
    await queue;
    if (!items.some((item) => item.selected)) return mustSelect("share");
    try {
      await shareSelection();
    } catch (error) {
      toast(`Nothing was shared: ${error.message}`, { kind: "error" });
    }
  }

  async function remove() {
    await queue;
    const count = items.filter((item) => item.selected).length;
    if (!count) return mustSelect("delete");
    const next = await change(api.removeSelected);
    if (next) toast(`Took ${plural(count, "photo")} out of the list; the files stay in your library.`, { kind: "success" });
  }

  async function album() {
    await queue;
    try {
      await createAlbum();
    } catch (error) {
      toast(`No album was made: ${error.message}`, { kind: "error" });
    }
  }

  async function addChosen(ids) {
    const before = new Set(items.map((item) => item.id));
    const next = await change(() => api.add(ids));
    if (!next) return;
    const added = ids.filter((id) => !before.has(id)).length;
    const again = ids.length - added;
    toast(`Added ${plural(added, "photo")} to the list${again ? ` (${again.toLocaleString()} already in it)` : ""}.`, { kind: "success" });
    closePicker();
  }

  // ---- the two views: the list, and the picker over it (#choose)

  function openPicker() {
    if (location.hash !== PICKING) history.pushState({ curate: "choose" }, "", PICKING);
    route();
  }

  /** Back to the list: Back when this page opened the picker, else the address without #choose. */
  function closePicker() {
    if (history.state?.curate === "choose") history.back();
    else { history.replaceState(null, "", location.pathname); route(); }
  }

  async function route() {
    const picking = location.hash === PICKING;
    listView.hidden = picking;
    if (picking) {
      await picker.open();
    } else {
      picker.close();
      await reload();
      choose.focus({ preventScroll: true });
    }
  }

  addEventListener("popstate", route);
  onLibraryChange(() => { if (!listView.hidden) reload(); });
  listView.setAttribute("aria-busy", "true");
  try {
    if (location.hash === PICKING) await route();
    else await reload();
  } finally {
    listView.removeAttribute("aria-busy");
  }
}
