// Requests a page needs, started by app.js before the screen's modules have loaded (the shell
// preloads them all, but a module runs only once its whole graph has arrived). No imports, so
// app.js can run as soon as it arrives itself.

const started = new Map();

/** Starts a GET of JSON now; the screen's getJSON of the same URL (js/api.js) takes it. */
export function prefetchJSON(url) {
  // priority "high": ahead of the modules the shell preloads, which are queued at the same time.
  if (!started.has(url)) started.set(url, fetch(url, { headers: { Accept: "application/json" }, priority: "high" }));
}

/** The response promise of a prefetched URL (once), or undefined. */
export function takePrefetched(url) {
  const response = started.get(url);
  started.delete(url);
  return response;
}

/**
 * Starts loading an image now, at high priority, so the <img> made later with the same URL
 * finds it under way (a preload is matched by URL within the page, cache or not).
 */
export function preloadImage(url) {
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "image";
  link.href = url;
  link.setAttribute("fetchpriority", "high");
  document.head.append(link);
}
