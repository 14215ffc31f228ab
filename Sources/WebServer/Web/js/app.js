// The app's entry: every page is the same shell (app.html); this reads which screen the server
// named in <meta name="shoebox-page">, marks the nav, and hands <main> to that screen's module.
import { h, useStyles } from "./dom.js";
import { icon } from "./icons.js";
import { prefetchJSON } from "./api.js";
import { filterQuery } from "./library/filters.js";

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

// The data the first screens need, asked for before their modules load (they arrive in parallel):
// the library's list on /, the asset on /asset/ID. Must build the same URLs the screens do.
function prefetchFor(params) {
  if (params.page === "library") {
    const query = filterQuery(params.query.toString()).toString();
    prefetchJSON(`/api/library${query ? `?${query}` : ""}`);
  } else if (params.page === "asset" && params.id) {
    prefetchJSON(`/api/assets/${encodeURIComponent(params.id)}`);
  }
}

// The landing screens' module graphs, fetched at once instead of level by level as imports are
// discovered (four levels deep for the library), and their stylesheets before their code runs.
// A list that falls behind the code costs only speed: the imports still load what they need.
const EARLY = {
  library: ["screens/library.js", "events.js", "dialog.js", "library/layout.js", "library/grid.js",
    "library/grid-keys.js", "library/tiles.js", "library/scrubber.js", "library/actions.js",
    "library/upload.js", "library/order.js"],
  asset: ["screens/asset.js", "dialog.js", "library/actions.js", "library/order.js", "library/layout.js",
    "library/tiles.js", "viewer/zoom.js", "viewer/stage.js", "viewer/details.js", "viewer/neighbours.js"],
};

function preloadFor(page) {
  for (const path of EARLY[page] ?? []) document.head.append(h("link", { rel: "modulepreload", href: `/static/js/${path}` }));
  if (EARLY[page]) useStyles(page);
}

async function start() {
  const page = document.querySelector('meta[name="shoebox-page"]')?.content ?? "library";
  const main = document.getElementById("main");
  markCurrentNav(page);
  if (!SCREENS.has(page)) { showFailure(main, new Error(`Shoebox has no page called “${page}”.`)); return; }
  try {
    const params = paramsFor(page);
    prefetchFor(params);
    preloadFor(page);
    const screen = await import(`./screens/${page}.js`);
    await screen.show(main, params);
  } catch (error) {
    console.error(error);
    showFailure(main, error);
  }
}

start();
