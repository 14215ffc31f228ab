// The library's current order, handed from the grid to the viewer through sessionStorage so
// ← → in the viewer step through what the grid showed (same filters, same order), and the
// viewer's Escape returns to the grid at the photo last seen. From the library the order also
// carries each item's kind, size and version, so the viewer asks for the picture at once,
// without waiting for the asset's details. No imports: app.js reads it before the screens load.
const ORDER_KEY = "shoebox.library.order";
const RETURN_KEY = "shoebox.library.return";
// Beyond this many ids the list is not stored (sessionStorage holds ~5 M characters); the
// viewer fetches it again with the stored query instead. The pictures' details take ~30
// characters more an item, so they are kept for fewer.
const MAX_STORED_IDS = 40000;
const MAX_STORED_MEDIA = 20000;
const KINDS = { p: "photo", s: "screenshot", v: "video" };

let cached; // the stored record as last read or written (undefined: not read yet)

/**
 * Remembers an order: query (the filters' URLSearchParams string), the ids, and optionally
 * media: one [kind, width, height, sha8] per id (kind "p", "s" or "v", as GET /api/library says);
 * back: { href, label } where the viewer's Back (and Escape) go, when not the library
 * (an album: { href: "/albums/KEY", label: "Back to album" }).
 */
export function saveOrder(query, ids, { media = null, back = null } = {}) {
  const record = { query, ids: ids.length <= MAX_STORED_IDS ? ids : null };
  if (media && record.ids && ids.length <= MAX_STORED_MEDIA) record.media = media;
  if (back) record.back = back;
  cached = record;
  try { sessionStorage.setItem(ORDER_KEY, JSON.stringify(record)); } catch {
    // Storage full or off: the viewer re-fetches. An older order must not stand in for this one.
    try { sessionStorage.removeItem(ORDER_KEY); } catch { /* storage off */ }
  }
}

/** saveOrder for items as GET /api/library lists them: [id, taken, kind, width, height, sha8, …]. */
export function saveLibraryOrder(query, items) {
  saveOrder(query, items.map((item) => item[0]), { media: items.map((item) => [item[2], item[3], item[4], item[5]]) });
}

/** { query, ids|null, media? } or null when the viewer was opened directly. */
export function loadOrder() {
  if (cached === undefined) {
    try { cached = JSON.parse(sessionStorage.getItem(ORDER_KEY) ?? "null"); } catch { cached = null; }
  }
  return cached;
}

/**
 * What the stored order knows of `id`'s picture, enough to show it before its details arrive:
 * { id, kind: "photo"|"screenshot"|"video", width, height, sha8 }, or null.
 */
export function knownMedia(id) {
  const order = loadOrder();
  const index = order?.media ? order.ids.indexOf(id) : -1;
  const media = index >= 0 ? order.media[index] : null;
  if (!Array.isArray(media) || !media[3]) return null;
  return { id, kind: KINDS[media[0]] ?? "photo", width: media[1], height: media[2], sha8: media[3] };
}

/** The photo the library should show and focus when it loads next. */
export function setReturnItem(id) {
  try { sessionStorage.setItem(RETURN_KEY, id); } catch { /* nothing to restore then */ }
}

/** Reads and forgets the photo to return to. */
export function takeReturnItem() {
  try {
    const id = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return id;
  } catch { return null; }
}

/** The library URL with the stored filters ("/?year=2021"). */
export function libraryURL() {
  const query = loadOrder()?.query ?? "";
  return query ? `/?${query}` : "/";
}

/**
 * Where the viewer of `id` goes back to: { href, label } — the album or person it was opened
 * from (when their order holds it), else the library.
 */
export function backTo(id) {
  const order = loadOrder();
  const back = order?.ids?.includes(id) ? order.back : null;
  if (back?.href?.startsWith("/") && !back.href.startsWith("//") && back.label) return back;
  return { href: libraryURL(), label: "Back to library" };
}
