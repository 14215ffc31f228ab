// Library (/): every photo and video, newest first, grouped by month, in a virtualised grid
// with a date scrubber, filters, multi-select and its actions, upload, and live updates when
// the index changes (this server's watcher or a CLI command in another process).
import { h, useStyles, plural, whenIdle } from "../dom.js";
import { icon } from "../icons.js";
import { getJSON, toast } from "../api.js";
import { onLibraryChange, setKnownGeneration, coalesce } from "../events.js";
import { groupByMonth, ID, KIND } from "../library/layout.js";
import { LibraryGrid } from "../library/grid.js";
import { DateScrubber } from "../library/scrubber.js";
import { LibraryFilters, filterQuery } from "../library/filters.js";
import { libraryAPI } from "../library/query.js";
import { SelectionBar } from "../library/actions.js";
import { uploadButton, enableDropUpload } from "../library/upload.js";
import { saveLibraryOrder, setReturnItem, takeReturnItem } from "../library/order.js";

export async function show(main, params) {
  useStyles("library");
  // The grid restores its own place (takeReturnItem); the browser's guess would land mid-load.
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";

  let query = filterQuery(params.query);
  const summary = h("p", { class: "library-summary", "aria-live": "polite" });
  const filters = new LibraryFilters({ onChange: (next) => { query = next; refresh({ toTop: true }); } });
  const empty = h("div", { class: "library-empty", hidden: true });
  const scrubber = new DateScrubber({ onJump: (group) => grid.scrollToGroup(group) });
  const grid = new LibraryGrid({
    onOpen: (index) => open(grid.items[index][ID]),
    onSelectionChange: (selected) => bar.update(selected),
    onScrollGroup: (group) => scrubber.show(group),
    onLayout: (layout) => scrubber.setGroups(grid.groups, layout),
  });
  const bar = new SelectionBar(grid, () => refresh());

  main.replaceChildren(
    h("div", { class: "screen-head library-head" },
      h("div", {}, h("h1", { text: "Library" }), summary),
      h("div", { class: "library-tools" }, filters.element, uploadButton())),
    empty,
    h("div", { class: "library-body" }, grid.element, scrubber.element),
    bar.element,
  );
  enableDropUpload();

  // The viewer's order: the grid's, with each picture's kind, size and version (so the viewer
  // asks for the picture at once). ~1 MB of text for 10,000 items, so written when idle, or
  // as the page is left (a link, the address bar, a reload), whichever comes first.
  let unsaved = null, cancelSave = () => {};
  function rememberOrder(items) {
    cancelSave();
    unsaved = null;
    saveLibraryOrder(query.toString(), items);
  }
  addEventListener("pagehide", () => { if (unsaved) rememberOrder(unsaved); });

  function open(id) {
    rememberOrder(grid.items);
    setReturnItem(id);
    window.location.assign(`/asset/${encodeURIComponent(id)}`);
  }

  const refresh = coalesce(async ({ toTop = false } = {}) => {
    let library;
    try {
      library = await getJSON(libraryAPI(query));
    } catch (error) {
      toast(`The library could not be loaded: ${error.message}`, { kind: "error" });
      return;
    }
    setKnownGeneration(library.generation);
    const { items, groups } = groupByMonth(library.items);
    if (toTop) window.scrollTo(0, 0);
    grid.setItems(items, groups);
    // Only a changed count is written, so the polite live region speaks only of a change.
    const text = describe(items);
    if (summary.textContent !== text) summary.textContent = text;
    showEmpty(empty, items.length === 0, query.toString() !== "", () => filters.reset());
    // Filters over an empty library offer nothing; the upload button stays.
    filters.element.hidden = items.length === 0 && query.toString() === "";
    // The viewer's order follows the grid while it changes under us.
    cancelSave();
    unsaved = items;
    cancelSave = whenIdle(() => rememberOrder(items), 3000);
  });

  await Promise.all([
    filters.load().catch((error) => toast(`Filters unavailable: ${error.message}`, { kind: "error" })),
    refresh(),
  ]);

  const returnTo = takeReturnItem();
  const returnIndex = returnTo ? grid.items.findIndex((item) => item[ID] === returnTo) : -1;
  if (returnIndex >= 0) grid.focusItem(returnIndex);

  onLibraryChange(() => refresh());
}

function describe(items) {
  let videos = 0;
  for (const item of items) if (item[KIND] === "v") videos += 1;
  const stills = items.length - videos;
  if (items.length === 0) return "";
  return videos ? `${plural(stills, "photo")} and ${plural(videos, "video")}` : plural(stills, "photo");
}

function showEmpty(element, isEmpty, filtered, clearFilters) {
  element.hidden = !isEmpty;
  if (!isEmpty) return;
  element.replaceChildren(filtered
    ? h("section", { class: "empty card" },
        icon("photo"),
        h("h2", { text: "Nothing matches these filters" }),
        h("p", { text: "No photo or video in your library has this year, place, person and kind together." }),
        h("button", { type: "button", class: "button primary", text: "Show everything", on: { click: clearFilters } }))
    : h("section", { class: "empty card" },
        icon("shoebox"),
        h("h2", { text: "Your library is empty" }),
        h("p", { text: "Drop photos and videos anywhere on this page, or choose Upload photos. Files copied into the library’s folder appear here by themselves." })));
}
