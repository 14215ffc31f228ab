// The app's entry: every page is the same shell (app.html); this reads which screen the server
// named in <meta name="shoebox-page">, marks the nav, and hands <main> to that screen's module.
import { h } from "./dom.js";
import { icon } from "./icons.js";

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

async function start() {
  const page = document.querySelector('meta[name="shoebox-page"]')?.content ?? "library";
  const main = document.getElementById("main");
  markCurrentNav(page);
  if (!SCREENS.has(page)) { showFailure(main, new Error(`Shoebox has no page called “${page}”.`)); return; }
  try {
    const screen = await import(`./screens/${page}.js`);
    await screen.show(main, paramsFor(page));
  } catch (error) {
    console.error(error);
    showFailure(main, error);
  }
}

start();
