// "Add from the library": a dialog over the library's photos, newest first, a page at a time;
// choosing one resolves to its asset id (the tracker copies it, byte for byte).
import { h, formatDate } from "../dom.js";
import { openDialog } from "../dialog.js";
import { getJSON } from "../api.js";
import { thumbURL } from "../media.js";

const PAGE = 48;

/** Resolves to the chosen photo's asset id, or null when cancelled. */
export function pickLibraryPhoto() {
  return new Promise((resolve) => {
    let items = [], shown = 0, done = false;
    const finish = (value) => { if (done) return; done = true; dialog.close(); resolve(value); };
    const grid = h("ul", { class: "tracker-picker-grid", "aria-label": "Library photos" });
    const status = h("p", { class: "loading", text: "Loading the library…" });
    const more = h("button", { type: "button", class: "button", hidden: true, text: "Show more photos", on: { click: () => page() } });
    const cancel = h("button", { type: "button", class: "button", text: "Cancel", on: { click: () => finish(null) } });
    const box = h("div", { class: "tracker-picker", "aria-busy": "true" }, status, grid, more);
    const dialog = openDialog({ title: "Add a photo from the library", description: "Choose the photo to copy to this miniature.", content: [box], actions: [cancel], onCancel: () => { done = true; resolve(null); }, initialFocus: cancel });
    dialog.element.classList.add("tracker-picker-dialog");

    function page() {
      const next = items.slice(shown, shown + PAGE);
      const first = grid.children.length;
      grid.append(...next.map(([id, taken, , , , sha8], i) => h("li", {},
        h("button", { type: "button", class: "tracker-picker-photo", "aria-label": `Photo ${shown + i + 1}, ${taken ? formatDate(taken, { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" }) : "date unknown"}`, on: { click: () => finish(id) } },
          h("img", { src: thumbURL(id, sha8, 256), alt: "", loading: "lazy", decoding: "async" })))));
      shown += next.length;
      more.hidden = shown >= items.length;
      if (first > 0) grid.children[first]?.querySelector("button")?.focus();
    }

    getJSON("/api/library?kind=photo&reverse=1").then((doc) => {
      items = doc.items ?? [];
      box.removeAttribute("aria-busy");
      status.textContent = items.length ? "" : "The library has no photos yet.";
      status.className = items.length ? "visually-hidden" : "tracker-hint";
      page();
    }, (error) => {
      box.removeAttribute("aria-busy");
      status.className = "tracker-hint";
      status.textContent = `The library could not be loaded: ${error.message}`;
    });
  });
}
