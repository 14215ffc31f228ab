// The two piles as grids: the brief's Trash Review Grid (/tidy/trash: the photos marked for
// deletion, each restorable, then "Empty Trash" after a confirmation → the stats) and its Maybe
// Pile Grid (/tidy/maybes: the photos put aside, and a way to swipe through them again).
// A tap, Enter or Space on a photo shows it full screen (detail.js).
import { h, useStyles, setTitle, plural, formatBytes } from "../dom.js";
import { icon } from "../icons.js";
import { toast } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { onLibraryChange, coalesce } from "../events.js";
import { thumbURL } from "../media.js";
import { formatTakenDay } from "../viewer/details.js";
import * as api from "./api.js";
import { openDetail, photoName, fileName } from "./detail.js";
import { showStats } from "./stats.js";

const PILES = {
  trash: {
    title: "Marked for deletion",
    intro: "Nothing has moved yet. Restore any photo you want to keep; Empty Trash moves the rest to Recently Deleted, where they wait 30 days before they are gone.",
    empty: "Nothing is marked for deletion. Photos you swipe left on wait here until you empty the trash.",
    load: () => api.marked(),
  },
  maybes: {
    title: "Maybe pile",
    intro: "The photos you swiped up to decide later. Look them over here, or swipe through them again.",
    empty: "The maybe pile is empty. Photos you swipe up wait here until you decide.",
    load: () => api.maybes(),
  },
};

/** What the page's tidy link does when the caller gave no onBack: the swipe screen. */
const goToTidy = () => window.location.assign("/tidy");

function summaryText(items) {
  const size = items.reduce((sum, item) => sum + (item.size ?? 0), 0);
  return items.length ? `${plural(items.length, "photo")} · ${formatBytes(size)}` : "";
}

/** One photo of a pile: a group named by its caption, the photo (opens it) and, in the trash, Restore. */
function tile(asset, { onOpen, onRestore }) {
  const captionId = `tidy-pile-caption-${asset.id}`;
  const picture = h("button", { type: "button", class: "tidy-pile-photo", "aria-label": `View ${photoName(asset).replace(/^\w/, (c) => c.toLowerCase())}`, on: { click: () => onOpen(asset) } },
    h("img", { src: thumbURL(asset.id, asset.sha256?.slice(0, 8), 256), alt: "", loading: "lazy", decoding: "async", draggable: "false" }),
    asset.kind === "video" ? h("span", { class: "tidy-pile-badge" }, icon("video")) : null,
    asset.live_video ? h("span", { class: "tidy-pile-badge" }, icon("live")) : null);
  const caption = h("p", { class: "tidy-pile-caption", id: captionId },
    h("span", { class: "tidy-pile-day", text: asset.taken_at ? formatTakenDay(asset.taken_at) : "Date unknown" }),
    h("span", { class: "tidy-pile-file", text: fileName(asset) }),
    h("span", { class: "tidy-pile-size", text: formatBytes(asset.size) }));
  const restore = onRestore
    ? h("button", { type: "button", class: "button tidy-restore", on: { click: () => onRestore(asset) } }, icon("restore"), h("span", { text: "Restore" }))
    : null;
  // The group (inside the list item: a list may only hold list items) names the tile's controls.
  return h("li", { class: "tidy-pile-item", dataset: { id: asset.id } },
    h("div", { class: "tidy-pile-tile", role: "group", "aria-labelledby": captionId }, picture, caption, restore));
}

/**
 * Fills `main` with the pile "trash" or "maybes". onBack(): back to the swipe screen;
 * onSwipeMaybes(answer): after "Swipe through maybes" started a session over the pile
 * (answer: POST /api/tidy/filter's). Without them the page goes to /tidy.
 * Resolves, once the pile is shown, to `{ destroy() }`: stop following the library's changes.
 */
export async function showPile(main, kind, { onBack = goToTidy, onSwipeMaybes } = {}) {
  useStyles("tidy-screens");
  const pile = PILES[kind];
  if (!pile) throw new Error(`Tidy has no pile called “${kind}”`);
  setTitle(`${pile.title} — Tidy`);
  let items = [];
  const back = h("a", { class: "button tidy-back", href: "/tidy", on: { click: (event) => { event.preventDefault(); onBack(); } } },
    icon("arrowLeft"), h("span", { text: "Back to Tidy" }));
  const heading = h("h1", { tabindex: "-1", text: pile.title });
  const summary = h("p", { class: "tidy-pile-summary", "aria-live": "polite" });
  const action = kind === "trash"
    ? h("button", { type: "button", class: "button danger tidy-empty-trash", on: { click: () => emptyTrash() } }, icon("trash"), h("span", { text: "Empty Trash" }))
    : h("button", { type: "button", class: "button primary", on: { click: () => swipeMaybes() } }, icon("tidy"), h("span", { text: "Swipe through maybes" }));
  const intro = h("p", { class: "tidy-pile-intro", text: pile.intro });
  const grid = h("ul", { class: "tidy-pile-grid", "aria-label": pile.title, "aria-busy": "true" });
  const empty = h("div", { class: "empty card tidy-pile-empty", hidden: true },
    icon(kind === "trash" ? "check" : "clock"), h("p", { text: pile.empty }),
    h("p", {}, h("a", { href: "/tidy", on: { click: (event) => { event.preventDefault(); onBack(); } }, text: "Back to Tidy" })));
  const screen = h("section", { class: "tidy-screen tidy-pile", "aria-labelledby": "tidy-pile-heading" },
    back,
    h("div", { class: "screen-head tidy-pile-head" },
      h("div", {}, h("p", { class: "eyebrow", text: "Tidy" }), heading, summary),
      action),
    intro, grid, empty);
  heading.id = "tidy-pile-heading";
  main.replaceChildren(screen);

  const handlers = { onOpen: (asset) => openDetail(asset), onRestore: kind === "trash" ? restore : null };

  function paint() {
    summary.textContent = items.length ? summaryText(items) : "No photos";
    const none = items.length === 0;
    grid.hidden = none;
    intro.hidden = none;
    action.hidden = none;
    empty.hidden = !none;
  }

  /** Puts the grid in the order of `items`, keeping the tiles (and their focus) that stay. */
  function reconcile() {
    const existing = new Map([...grid.children].map((li) => [li.dataset.id, li]));
    const keep = new Set(items.map((item) => item.id));
    for (const [id, li] of existing) if (!keep.has(id)) li.remove();
    let cursor = grid.firstElementChild;
    for (const item of items) {
      const li = existing.get(item.id) ?? tile(item, handlers);
      if (li === cursor) cursor = cursor.nextElementSibling;
      else grid.insertBefore(li, cursor);
    }
  }

  async function load() {
    if (!main.contains(screen)) { stopListening(); return; }
    try {
      items = await pile.load();
    } catch (error) {
      toast(`${pile.title} could not be loaded: ${error.message}`, { kind: "error" });
      return;
    } finally {
      grid.removeAttribute("aria-busy");
    }
    reconcile();
    paint();
  }

  async function restore(asset) {
    const li = grid.querySelector(`[data-id="${CSS.escape(asset.id)}"]`);
    const restoreButton = li?.querySelector(".tidy-restore");
    if (restoreButton) restoreButton.disabled = true;
    try {
      await api.unmark(asset.id);
    } catch (error) {
      toast(`${fileName(asset)} could not be restored: ${error.message}`, { kind: "error" });
      if (restoreButton) restoreButton.disabled = false;
      return;
    }
    // Focus moves to the next photo's Restore (or the one before), never lost with the tile.
    const neighbour = li?.nextElementSibling ?? li?.previousElementSibling;
    items = items.filter((item) => item.id !== asset.id);
    li?.remove();
    paint();
    (neighbour?.querySelector(".tidy-restore") ?? heading).focus();
    toast(`${fileName(asset)} restored: it stays in your library.`, { kind: "success" });
  }

  async function emptyTrash() {
    const count = items.length;
    const sure = await confirmDialog({
      title: `Empty the trash and move ${plural(count, "photo")} to Recently Deleted?`,
      message: `${summaryText(items)}. They stay in Recently Deleted for 30 days, where you can restore them; only then are they gone for good.`,
      confirm: "Move to Recently Deleted",
      danger: true,
    });
    if (!sure) return;
    action.disabled = true;
    action.lastChild.textContent = "Emptying…";
    screen.setAttribute("aria-busy", "true");
    try {
      const emptied = await api.empty();
      stopListening();
      showStats(main, emptied, { onDone: onBack });
    } catch (error) {
      toast(`The trash could not be emptied: ${error.message}`, { kind: "error" });
      action.disabled = false;
      action.lastChild.textContent = "Empty Trash";
      screen.removeAttribute("aria-busy");
      await load();
    }
  }

  async function swipeMaybes() {
    action.disabled = true;
    try {
      const answer = await api.startFilter("maybe");
      stopListening();
      if (onSwipeMaybes) onSwipeMaybes(answer); else goToTidy();
    } catch (error) {
      toast(`The maybe pile could not be started: ${error.message}`, { kind: "error" });
      action.disabled = false;
    }
  }

  // Another window or the CLI may change the pile: follow it.
  const stopListening = onLibraryChange(coalesce(load));
  await load();
  heading.focus();
  return { destroy: stopListening };
}
