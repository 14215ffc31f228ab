// The library's current order, handed from the grid to the viewer through sessionStorage so
// ← → in the viewer step through what the grid showed (same filters, same order), and the
// viewer's Escape returns to the grid at the photo last seen. Beside it, what the grid knows of
// each picture (kind, size, version), so the viewer asks for the picture at once, without
// waiting for the asset's details. No imports: app.js reads them before the screens load.
const ORDER_KEY = "shoebox.library.order";
const MEDIA_KEY = "shoebox.library.media";
const RETURN_KEY = "shoebox.library.return";
// Beyond this many ids the list is not stored (sessionStorage holds ~5 M characters); the
// viewer fetches it again with the stored query instead. The pictures take ~60 characters an
// item, so they are kept for fewer.
const MAX_STORED_IDS = 40000;
const MAX_STORED_MEDIA = 20000;
const KINDS = { p: "photo", s: "screenshot", v: "video" };

let cached; // the stored order as last read or written (undefined: not read yet)
let media;  // the stored pictures' text, likewise

function store(key, text) {
  try { sessionStorage.setItem(key, text); } catch {
    // Storage full or off: the viewer re-fetches. An older record must not stand in for this one.
    try { sessionStorage.removeItem(key); } catch { /* storage off */ }
  }
}

/**
 * Remembers an order: query (the filters' URLSearchParams string), the ids, and `back`:
 * { href, label } where the viewer's Back (and Escape) go, when not the library (an album:
 * { href: "/albums/KEY", label: "Back to album" }).
 */
export function saveOrder(query, ids, { back = null } = {}) {
  const record = { query, ids: ids.length <= MAX_STORED_IDS ? ids : null };
  if (back) record.back = back;
  cached = record;
  store(ORDER_KEY, JSON.stringify(record));
}

/**
 * saveOrder for items as GET /api/library lists them, [id, taken, kind, width, height, sha8, …],
 * and their pictures: a line "ID KIND WIDTH HEIGHT SHA8" each, found by the id's position in
 * the text (a viewer opened with 10,000 of them parses one line, not them all).
 */
export function saveLibraryOrder(query, items) {
  saveOrder(query, items.map((item) => item[0]));
  if (items.length > MAX_STORED_MEDIA) return;
  media = `\n${items.map((item) => `${item[0]} ${item[2]} ${item[3]} ${item[4]} ${item[5]}`).join("\n")}\n`;
  store(MEDIA_KEY, media);
}

/** { query, ids|null, back? } or null when the viewer was opened directly. */
export function loadOrder() {
  if (cached === undefined) {
    try { cached = JSON.parse(sessionStorage.getItem(ORDER_KEY) ?? "null"); } catch { cached = null; }
  }
  return cached;
}

/**
 * What the grid knew of `id`'s picture, enough to show it before its details arrive:
 * { id, kind: "photo"|"screenshot"|"video", width, height, sha8 }, or null. (The asset's details
 * say if it has changed since.)
 */
export function knownMedia(id) {
  if (media === undefined) {
    try { media = sessionStorage.getItem(MEDIA_KEY) ?? ""; } catch { media = ""; }
  }
  const at = id ? media.indexOf(`\n${id} `) : -1;
  if (at < 0) return null;
  const [, kind, width, height, sha8] = media.slice(at + 1, media.indexOf("\n", at + 1)).split(" ");
  if (!/^[0-9a-f]{8}$/.test(sha8 ?? "")) return null;
  const size = (text) => (Number(text) > 0 ? Number(text) : null);
  return { id, kind: KINDS[kind] ?? "photo", width: size(width), height: size(height), sha8 };
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
