// One tile of the library grid and one month heading: the DOM for a single item, built fresh
// each time its row comes into view (rows out of view are removed: only visible <img>s exist).
import { h, formatDate } from "../dom.js";
import { icon } from "../icons.js";
import { thumbURL as mediaThumbURL } from "../media.js";
import { ID, EPOCH, KIND, SHA8, DURATION } from "./layout.js";

const KIND_NAMES = { p: "Photo", s: "Screenshot", v: "Video" };

/** "1:05" for a video's length in seconds. */
export function formatDuration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600), minutes = Math.floor((whole % 3600) / 60), secs = whole % 60;
  const mmss = `${hours ? String(minutes).padStart(2, "0") : minutes}:${String(secs).padStart(2, "0")}`;
  return hours ? `${hours}:${mmss}` : mmss;
}

/** The accessible name of an item's tile: "Photo, 12 March 2021" / "Video, 3 May 2020, 1:05". */
export function tileName(item) {
  const parts = [KIND_NAMES[item[KIND]] ?? "Item", formatDate(item[EPOCH])];
  if (item[KIND] === "v" && item[DURATION]) parts.push(formatDuration(item[DURATION]));
  return parts.join(", ");
}

export function thumbURL(item, size = 256) {
  return mediaThumbURL(item[ID], item[SHA8], size);
}

/**
 * A gridcell for the item at `index`; column is 1-based (aria-colindex).
 * defer: during a fast fling the thumbnail's URL waits in data-src (see grid.js) so rows flying
 * past cost no download nor decode. urgent: the tile is on screen as the grid first appears, so
 * its thumbnail is asked for at once and before others (the rows around the view wait, lazily).
 */
export function makeTile(item, index, column, selected, { defer = false, urgent = false } = {}) {
  const image = h("img", {
    [defer ? "data-src" : "src"]: thumbURL(item), alt: "", decoding: "async", draggable: "false",
    loading: urgent ? null : "lazy", fetchpriority: urgent ? "high" : null,
  });
  // A thumbnail that fails to load (a damaged file) leaves a drawn placeholder, not a broken icon.
  image.addEventListener("error", () => image.replaceWith(h("span", { class: "tile-missing" }, icon("photo"))), { once: true });
  const badges = [];
  if (item[KIND] === "v") badges.push(h("span", { class: "tile-badge" }, icon("play"), formatDuration(item[DURATION])));
  if (item[KIND] === "s") badges.push(h("span", { class: "tile-badge" }, icon("screenshot")));
  return h("div", {
    class: "tile", role: "gridcell", tabindex: "-1",
    "aria-selected": selected ? "true" : "false", "aria-label": tileName(item), "aria-colindex": column,
    dataset: { index: String(index) },
  },
    image,
    badges.length ? h("span", { class: "tile-badges", "aria-hidden": "true" }, badges) : null,
    // The tick says "selected" without colour; aria-selected says it to assistive technology.
    h("span", { class: "tile-check", "aria-hidden": "true" }, icon("check")),
  );
}

/** The heading row of a month: a row holding one cell that spans the grid's width. */
export function makeHeading(group, columns) {
  return h("div", { role: "gridcell", class: "month-cell", "aria-colspan": columns, "aria-colindex": 1 },
    h("h2", { class: "month-heading", text: group.label }),
    h("span", { class: "month-count", text: group.count === 1 ? "1 item" : `${group.count.toLocaleString()} items` }));
}
