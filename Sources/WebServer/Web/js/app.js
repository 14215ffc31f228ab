// The app's entry: every page is the same shell (app.html); this reads which screen the server
// named in <meta name="shoebox-page">, marks the nav, and hands <main> to that screen's module.
// Its imports have no imports of their own (and app.html preloads them first), so this runs,
// and asks for the page's data, as soon as they have arrived, not after the screens' modules.
import { h, useStyles } from "./dom.js";
import { icon } from "./icons.js";
import { prefetchJSON, preloadImage } from "./early.js";
import { thumbURL, previewURL } from "./media.js";
import { filterQuery, libraryAPI } from "./library/query.js";
import { knownMedia } from "./library/order.js";

const SCREENS = new Set(["library", "asset", "albums", "album", "people", "person", "trash",
  "tidy", "curate", "compose", "memories", "tracker"]);

/**
 * What a screen's show(main, params) receives:
 *   page  — the page name;
 *   id    — the path's last segment, decoded, on /asset/ID, /people/ID and /albums/KEY;
 *   key   — the same as id on /albums/KEY (an album's key may hold slashes: all after /albums/);
 *   query — the URL's URLSearchParams (filters and the like).
 */
export function paramsFor(page, location = window.location) {
  const segments = location.pathname.split("/").filter(Boolean);
  const params = { page, id: null, key: null, query: new URLSearchParams(location.search) };
  if (page === "album") {
    params.key = decodeURIComponent(segments.slice(1).join("/"));
    params.id = params.key;
  } else if ((page === "asset" || page === "person") && segments.length >= 2) {
    params.id = decodeURIComponent(segments[1]);
  }
  return params;
}

function markCurrentNav(page) {
  for (const link of document.querySelectorAll(".app-nav a[data-page]")) {
    const pages = link.dataset.page.split(" ");
    // The exact page is "page"; a page beneath a section (one album under Albums) is still there.
    const here = pages[0] === page ? "page" : pages.includes(page) ? "true" : null;
    if (here) link.setAttribute("aria-current", here); else link.removeAttribute("aria-current");
  }
}

function showFailure(main, error) {
  main.replaceChildren(h("section", { class: "empty card", role: "alert" },
    icon("alert"),
    h("h1", { text: "This page could not be shown" }),
    h("p", { text: error?.message ?? String(error) }),
    h("p", {}, h("a", { href: "/", text: "Back to the library" }))));
}

// The data the first screens need, asked for before their modules run (they arrive in
// parallel). Must build the same URLs the screens do.
//   /          the library's list and the filters' facets, both at once;
//   /asset/ID  the asset, and its picture when the grid's order knows its version (the screen
//              shows the 1024 px thumbnail, then the preview: both are under way by then).
function prefetchFor(params) {
  if (params.page === "library") {
    prefetchJSON(libraryAPI(filterQuery(params.query.toString())));
    prefetchJSON("/api/facets");
  } else if (params.page === "asset" && params.id) {
    prefetchJSON(`/api/assets/${encodeURIComponent(params.id)}`);
    const known = knownMedia(params.id);
    if (known && known.kind !== "video") {
      preloadImage(thumbURL(known.id, known.sha8, 1024));
      preloadImage(previewURL(known.id, known.sha8));
    }
  }
}

// Every module is fetched at once by the shell (app.html preloads app.js's imports and the
// landing screens' graphs first, the server adds every other file under js/), so imports are no
// waterfall. The landing screens' stylesheets are asked for here, before their code runs.
const EARLY_STYLES = new Set(["library", "asset"]);

async function start() {
  const page = document.querySelector('meta[name="shoebox-page"]')?.content ?? "library";
  const main = document.getElementById("main");
  markCurrentNav(page);
  if (!SCREENS.has(page)) { showFailure(main, new Error(`Shoebox has no page called “${page}”.`)); return; }
  try {
    const params = paramsFor(page);
    prefetchFor(params);
    if (EARLY_STYLES.has(page)) useStyles(page);
    const screen = await import(`./screens/${page}.js`);
    await screen.show(main, params);
  } catch (error) {
    console.error(error);
    showFailure(main, error);
  }
}

start();
